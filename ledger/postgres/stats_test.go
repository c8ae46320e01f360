package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// statsWorld is a small history built by hand, so that every figure is
// known: five players A..E, a Doppelkopf table T1 and a Schwarze Dame table
// T2, four sessions and ten hands whose results are written out below
// (stored as rows of hands and indexed as RecordHand indexes them; a hand
// number is the table's, so the sessions of T1 number on), and three
// settlements.
//
//	S1 T1 2025-01-10 (A B C D E)   S2 T1 2025-02-07   S3 T2 2025-03-14   S4 T1 2026-01-09
//
//	hand    number  points                           parties         winners
//	h1  S1  1       A 1  B 1   C -1  D -1  E 0      AB / CD         A B      (E sits out)
//	h2  S1  2       A 0  B -1  C 1   D 1   E -1     BE / CD         C D      (A sits out)
//	h3  S1  3       A 0  B 0   C 0   D 0            -               -        (a redeal)
//	h4  S1  5       A 3  B -1  C -1  D -1  E 0      A / BCD         A        (E sits out)
//	h5  S2  6       A -14  B 14/3  C 14/3  D 14/3   A / BCD         B C D
//	h6  S2  7       A 2  B -2  C 2   D -2           AC / BD         A C
//	h7  S3  1       A 20 B -10 C 3   D -13          -               A C
//	h8  S3  3       A 20 B -10 C 3   D -13          -               A C
//	h9  S4  8       A -1 B 1   C -1  D 1            AC / BD         B D
//	h10 S4  9       A -1 B 1   C -1  D 1            AC / BD         B D
//
// Counters: A re_said in h1, solo_played and solo_won in h4, kontra_said
// in h6; B pik_dame_taken in h7 and h8 (2 in h8).
// Money: S1 A +150 B -50 C -100 D 0 E 0; S2 A -467 B +200 C +200 D +67;
// S3 A +1500 B -700 C +100 D -900; S4 is open.
type statsWorld struct {
	store    *ledger.Service
	db       *postgres.Store
	pool     *pgxpool.Pool
	actor    ledger.Actor
	p        map[string]int64
	t1, t2   int64
	sessions map[string]ledger.Session
	hands    map[string]ledger.Hand
}

func newStatsWorld(t *testing.T) *statsWorld {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.New(t)
	db := postgres.New(pool, pgtest.ChainKey)
	store := db.Service()
	w := &statsWorld{store: store, db: db, pool: pool, p: map[string]int64{}, sessions: map[string]ledger.Session{}, hands: map[string]ledger.Hand{}}
	w.actor = newActor(t, store, "Doko-Club Eichel")
	for _, name := range []string{"A", "B", "C", "D", "E"} {
		p, _, err := store.CreatePlayer(ctx, w.actor, "Spieler "+name, nil)
		must(t, err)
		w.p[name] = p.ID
	}
	t1, _, err := store.CreateTable(ctx, w.actor, ledger.NewTable{Name: "T1", Game: "doppelkopf"}, nil)
	must(t, err)
	t2, _, err := store.CreateTable(ctx, w.actor, ledger.NewTable{Name: "T2", Game: "schwarze_dame"}, nil)
	must(t, err)
	w.t1, w.t2 = t1.ID, t2.ID
	open := func(name string, table int64, date, seats string, closed bool) {
		s, _, err := store.OpenSession(ctx, w.actor, table, date, w.ids(seats), nil)
		must(t, err)
		if closed {
			_, err = store.CloseSession(ctx, w.actor, s.ID) // frees the table for the next session
			must(t, err)
		}
		w.sessions[name] = s
	}
	// S1 to S3 are closed (their hands are rolled up), S4 is still open
	// (its figures are read from its hands).
	open("S1", w.t1, "2025-01-10", "A B C D E", true)
	open("S2", w.t1, "2025-02-07", "A B C D", true)
	open("S3", w.t2, "2025-03-14", "A B C D", true)
	open("S4", w.t1, "2026-01-09", "A B C D", false)
	// The sessions were settled by closing them (with no hands); the
	// settlements of the history replace those rows.
	_, err = pool.Exec(ctx, `DELETE FROM stat_money`)
	must(t, err)

	hands := []struct {
		name, session string
		number        int
		points        string
		parties       string
		winners       string
		stats         string
	}{
		{"h1", "S1", 1, "A:1 B:1 C:-1 D:-1 E:0", "A B/C D", "A B", "A:re_said:1"},
		{"h2", "S1", 2, "A:0 B:-1 C:1 D:1 E:-1", "B E/C D", "C D", ""},
		{"h3", "S1", 3, "A:0 B:0 C:0 D:0", "", "", ""},
		{"h4", "S1", 5, "A:3 B:-1 C:-1 D:-1 E:0", "A/B C D", "A", "A:solo_played:1 A:solo_won:1"},
		{"h5", "S2", 6, "A:-14 B:14/3 C:14/3 D:14/3", "A/B C D", "B C D", ""},
		{"h6", "S2", 7, "A:2 B:-2 C:2 D:-2", "A C/B D", "A C", "A:kontra_said:1"},
		{"h7", "S3", 1, "A:20 B:-10 C:3 D:-13", "", "A C", "B:pik_dame_taken:1"},
		{"h8", "S3", 3, "A:20 B:-10 C:3 D:-13", "", "A C", "B:pik_dame_taken:1 B:pik_dame_taken:1"},
		{"h9", "S4", 8, "A:-1 B:1 C:-1 D:1", "A C/B D", "B D", ""},
		{"h10", "S4", 9, "A:-1 B:1 C:-1 D:1", "A C/B D", "B D", ""},
	}
	for i, h := range hands {
		w.index(t, h.name, 9001+int64(i), h.session, h.number, h.points, h.parties, h.winners, h.stats)
	}
	w.settle(t, "S1", "A:150 B:-50 C:-100 D:0 E:0")
	w.settle(t, "S2", "A:-467 B:200 C:200 D:67")
	w.settle(t, "S3", "A:1500 B:-700 C:100 D:-900")
	return w
}

// newActor creates a club and returns its admin actor.
func newActor(t *testing.T, store *ledger.Service, name string) ledger.Actor {
	t.Helper()
	_, secret, err := store.CreateClub(context.Background(), ledger.NewClub{Name: name, TimeZone: "Europe/Berlin"})
	must(t, err)
	a, err := store.Authenticate(context.Background(), secret)
	must(t, err)
	return a
}

// ids turns "A B C" into the players' ids.
func (w *statsWorld) ids(names string) []int64 {
	var out []int64
	for _, n := range strings.Fields(names) {
		out = append(out, w.p[n])
	}
	return out
}

// hand builds a hand of session with a result written in the letters of
// the players: points "A:1 B:-1", parties "A B/C D", winners "A B",
// stats "A:solo_won:1".
func (w *statsWorld) hand(id int64, session string, number int, points, parties, winners, stats string) ledger.Hand {
	s := w.sessions[session]
	game := "doppelkopf"
	if s.TableID == w.t2 {
		game = "schwarze_dame"
	}
	res := score.Result{Winners: w.ids(winners)}
	for _, f := range strings.Fields(points) {
		name, value, _ := strings.Cut(f, ":")
		var pts score.Points
		if err := json.Unmarshal([]byte(`"`+value+`"`), &pts); err != nil {
			panic(err)
		}
		res.Points = append(res.Points, score.PlayerPoints{Player: w.p[name], Points: pts})
	}
	if parties != "" {
		for _, party := range strings.Split(parties, "/") {
			res.Parties = append(res.Parties, w.ids(party))
		}
	}
	for _, f := range strings.Fields(stats) {
		parts := strings.Split(f, ":")
		var n int64
		fmt.Sscan(parts[2], &n)
		res.Stats = append(res.Stats, score.Stat{Player: w.p[parts[0]], Key: parts[1], Count: n})
	}
	return ledger.Hand{ID: id, TableID: s.TableID, SessionID: s.ID, Number: number, Game: game, Result: res}
}

func (w *statsWorld) index(t *testing.T, name string, id int64, session string, number int, points, parties, winners, stats string) {
	t.Helper()
	h := w.hand(id, session, number, points, parties, winners, stats)
	must(t, w.db.StoreHandForTest(context.Background(), w.actor.ClubID, h, w.sessions[session].Date))
	w.hands[name] = h
}

func (w *statsWorld) settle(t *testing.T, session, nets string) {
	t.Helper()
	s := w.sessions[session]
	game := "doppelkopf"
	if s.TableID == w.t2 {
		game = "schwarze_dame"
	}
	st := ledger.Settlement{SessionID: s.ID, TableID: s.TableID, Version: 1, Final: true, Date: s.Date, Game: game}
	for _, f := range strings.Fields(nets) {
		name, value, _ := strings.Cut(f, ":")
		var cents int64
		fmt.Sscan(value, &cents)
		st.Players = append(st.Players, ledger.PlayerMoney{Player: w.p[name], NetCents: cents, PointsCents: cents})
	}
	must(t, w.db.IndexSettlementForTest(context.Background(), w.actor.ClubID, st))
}

// snapshot is every statistics row of the club, as text, sorted, and
// every player's figures (an open evening's are read from its hands).
func (w *statsWorld) snapshot(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"stat_open", "stat_sessions", "stat_counters", "stat_pairs", "stat_money"} {
		var rows *string
		must(t, w.pool.QueryRow(context.Background(),
			`SELECT string_agg(x::text, E'\n' ORDER BY x::text) FROM `+table+` x WHERE club_id = $1`, w.actor.ClubID).Scan(&rows))
		fmt.Fprintf(&b, "%s:\n", table)
		if rows != nil {
			b.WriteString(*rows + "\n")
		}
	}
	for _, name := range []string{"A", "B", "C", "D", "E"} {
		fmt.Fprintf(&b, "%s: %s\n", name, jsonOf(t, w.stats(t, name, ledger.StatsFilter{})))
	}
	return b.String()
}

func (w *statsWorld) stats(t *testing.T, player string, f ledger.StatsFilter) ledger.PlayerStats {
	t.Helper()
	ps, err := w.store.PlayerStats(context.Background(), w.actor, w.p[player], f)
	must(t, err)
	return ps
}

func TestPlayerStatsOfAKnownHistory(t *testing.T) {
	w := newStatsWorld(t)
	ps := w.stats(t, "A", ledger.StatsFilter{})
	got := fmt.Sprintf("sessions %d hands %d won %d lost %d sat out %d rate %d points %s per hand %s streaks %d/%d",
		ps.Sessions, ps.Hands, ps.HandsWon, ps.HandsLost, ps.HandsSatOut, ps.WinRatePermille, ps.Points, ps.PointsPerHand,
		ps.LongestWinningStreak, ps.LongestLosingStreak)
	// Played: h1 h3 h4 | h5 h6 | h7 h8 | h9 h10 (h2 sat out); won h1 h4 h6
	// h7 h8, lost h5 h9 h10; W (N) W L W W W L L: 3 won and 2 lost in a row.
	want := "sessions 4 hands 9 won 5 lost 3 sat out 1 rate 556 points 30 per hand 10/3 streaks 3/2"
	if got != want {
		t.Errorf("A:\n got %s\nwant %s", got, want)
	}
	if m := ps.Money; m.Sessions != 3 || m.WonCents != 1650 || m.LostCents != 467 || m.NetCents != 1183 {
		t.Errorf("A's money %+v, want 3 sessions, 1650 won, 467 lost, 1183 net", m)
	}
	if b := ps.BestEvening; b == nil || b.SessionID != w.sessions["S3"].ID || b.Points.String() != "40" || b.Hands != 2 || b.NetCents == nil || *b.NetCents != 1500 {
		t.Errorf("best evening %+v, want S3 with 40 points and 1500 cents", b)
	}
	if b := ps.WorstEvening; b == nil || b.SessionID != w.sessions["S2"].ID || b.Points.String() != "-12" || b.Date != "2025-02-07" || *b.NetCents != -467 {
		t.Errorf("worst evening %+v, want S2 with -12 points and -467 cents", b)
	}
	if len(ps.Games) != 2 {
		t.Fatalf("games %+v, want doppelkopf and schwarze_dame", ps.Games)
	}
	dk, sd := ps.Games[0], ps.Games[1]
	if got := fmt.Sprintf("%s %d %d %d %d %s %v", dk.Game, dk.Sessions, dk.Hands, dk.HandsWon, dk.WinRatePermille, dk.Points, dk.Counters); got !=
		"doppelkopf 3 7 3 429 -10 map[kontra_said:1 re_said:1 solo_played:1 solo_won:1]" {
		t.Errorf("doppelkopf: %s", got)
	}
	if got := fmt.Sprintf("%s %d %d %d %d %s %v", sd.Game, sd.Sessions, sd.Hands, sd.HandsWon, sd.WinRatePermille, sd.Points, sd.Counters); got !=
		"schwarze_dame 1 2 2 1000 40 map[]" {
		t.Errorf("schwarze dame: %s", got)
	}
	if c := w.stats(t, "B", ledger.StatsFilter{Game: "schwarze_dame"}).Games[0].Counters; c["pik_dame_taken"] != 3 {
		t.Errorf("B's counters %v, want pik_dame_taken 3", c)
	}
	// E played one hand (h2, lost) and sat out two.
	e := w.stats(t, "E", ledger.StatsFilter{})
	if e.Sessions != 1 || e.Hands != 1 || e.HandsLost != 1 || e.HandsSatOut != 2 || e.Points.String() != "-1" || e.LongestLosingStreak != 1 {
		t.Errorf("E: %+v", e)
	}
	// A player without hands has zeros, no evenings and no games.
	none, _, err := w.store.CreatePlayer(context.Background(), w.actor, "Gast", nil)
	must(t, err)
	ps, err = w.store.PlayerStats(context.Background(), w.actor, none.ID, ledger.StatsFilter{})
	must(t, err)
	if ps.Hands != 0 || ps.BestEvening != nil || len(ps.Games) != 0 || ps.Points.String() != "0" || ps.PointsPerHand.String() != "0" {
		t.Errorf("a player without hands: %+v", ps)
	}
}

func TestPlayerStatsFiltersCombine(t *testing.T) {
	w := newStatsWorld(t)
	cases := []struct {
		name   string
		filter ledger.StatsFilter
		want   string
	}{
		{"2025, Doppelkopf, T1", ledger.StatsFilter{From: "2025-01-01", To: "2025-12-31", Game: "doppelkopf", TableID: w.t1},
			"sessions 2 hands 5 won 3 points -8 streaks 2/1 money -317"},
		{"February on T1", ledger.StatsFilter{From: "2025-02-01", To: "2025-02-28", TableID: w.t1},
			"sessions 1 hands 2 won 1 points -12 streaks 1/1 money -467"},
		{"from a session's date on", ledger.StatsFilter{From: "2025-03-14"},
			"sessions 2 hands 4 won 2 points 38 streaks 2/2 money 1500"},
		{"to a session's date", ledger.StatsFilter{To: "2025-01-10"},
			"sessions 1 hands 3 won 2 points 4 streaks 2/0 money 150"},
		{"Schwarze Dame on T1", ledger.StatsFilter{Game: "schwarze_dame", TableID: w.t1},
			"sessions 0 hands 0 won 0 points 0 streaks 0/0 money 0"},
		{"2026, Schwarze Dame", ledger.StatsFilter{From: "2026-01-01", Game: "schwarze_dame"},
			"sessions 0 hands 0 won 0 points 0 streaks 0/0 money 0"},
	}
	for _, c := range cases {
		ps := w.stats(t, "A", c.filter)
		got := fmt.Sprintf("sessions %d hands %d won %d points %s streaks %d/%d money %d", ps.Sessions, ps.Hands, ps.HandsWon,
			ps.Points, ps.LongestWinningStreak, ps.LongestLosingStreak, ps.Money.NetCents)
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
	for _, bad := range []ledger.StatsFilter{{From: "2025-13-01"}, {From: "2025-02-01", To: "2025-01-01"}, {Game: "skat"}} {
		_, err := w.store.PlayerStats(context.Background(), w.actor, w.p["A"], bad)
		assertCode(t, err, ledger.EINVALID)
	}
	_, err := w.store.PlayerStats(context.Background(), w.actor, w.p["A"], ledger.StatsFilter{TableID: 999999})
	assertCode(t, err, ledger.ENOTFOUND)
}

func TestPartnersAndHeadToHead(t *testing.T) {
	w := newStatsWorld(t)
	ctx := context.Background()
	ps, err := w.store.PartnerStats(ctx, w.actor, w.p["A"], ledger.StatsFilter{})
	must(t, err)
	var got []string
	for _, p := range ps.Partners {
		got = append(got, fmt.Sprintf("%s %d: %d/%d/%d %d‰, against %d: %d/%d", strings.TrimPrefix(p.Name, "Spieler "),
			p.Hands, p.PartnerHands, p.PartnerWon, p.PartnerLost, p.PartnerWinRatePermille, p.AgainstHands, p.WonAgainst, p.LostAgainst))
	}
	want := []string{
		"C 9: 3/1/2 333‰, against 6: 2/1",
		"B 9: 1/1/0 1000‰, against 8: 4/3",
		"D 9: 0/0/0 0‰, against 9: 5/3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("A's partners:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// E and A never played a hand together (one of them always sat out).
	ps, err = w.store.PartnerStats(ctx, w.actor, w.p["E"], ledger.StatsFilter{})
	must(t, err)
	if len(ps.Partners) != 3 || ps.Partners[0].Name != "Spieler B" || ps.Partners[0].PartnerHands != 1 {
		t.Errorf("E's partners %+v, want B (partner in h2), C and D", ps.Partners)
	}
	// Filtered to T1 in 2025: h1 h3 h4 h5 h6.
	ps, err = w.store.PartnerStats(ctx, w.actor, w.p["A"], ledger.StatsFilter{To: "2025-12-31", TableID: w.t1})
	must(t, err)
	for _, c := range ps.Partners {
		if c.Name == "Spieler C" && (c.Hands != 5 || c.PartnerHands != 1 || c.PartnerWon != 1 || c.WonAgainst != 2 || c.LostAgainst != 1) {
			t.Errorf("A with C on T1 in 2025: %+v", c)
		}
	}

	h, err := w.store.HeadToHead(ctx, w.actor, w.p["A"], w.p["C"], ledger.StatsFilter{})
	must(t, err)
	if got := fmt.Sprintf("%d sessions, %d hands, partners %+v, opponents %+v, %s : %s", h.Sessions, h.Hands, h.Partner, h.Against, h.Points, h.OtherPoints); got !=
		"4 sessions, 9 hands, partners {Hands:3 Won:1 Lost:2}, opponents {Hands:6 Won:2 Lost:1}, 30 : 26/3" {
		t.Errorf("A against C: %s", got)
	}
	h, err = w.store.HeadToHead(ctx, w.actor, w.p["C"], w.p["A"], ledger.StatsFilter{Game: "schwarze_dame"})
	must(t, err)
	if got := fmt.Sprintf("%d %d %+v %+v %s %s", h.Sessions, h.Hands, h.Partner, h.Against, h.Points, h.OtherPoints); got !=
		"1 2 {Hands:0 Won:0 Lost:0} {Hands:2 Won:0 Lost:0} 6 40" {
		t.Errorf("C against A at Schwarze Dame: %s", got)
	}
	_, err = w.store.HeadToHead(ctx, w.actor, w.p["A"], w.p["A"], ledger.StatsFilter{})
	assertCode(t, err, ledger.EINVALID)
}

func TestLeaderboardsAndSeries(t *testing.T) {
	w := newStatsWorld(t)
	ctx := context.Background()
	year := ledger.StatsFilter{From: "2025-01-01", To: "2025-12-31"}
	board := func(by ledger.LeaderboardOrder, minHands int) string {
		t.Helper()
		lb, err := w.store.Leaderboard(ctx, w.actor, ledger.LeaderboardQuery{By: by, Filter: year, MinHands: &minHands, Limit: 10, Mix: true})
		must(t, err)
		var parts []string
		for _, e := range lb.Entries {
			v := e.Points.String()
			switch by {
			case ledger.ByPointsPerHand:
				v = e.PointsPerHand.String()
			case ledger.ByMoney:
				v = fmt.Sprint(e.NetCents)
			case ledger.ByWinRate:
				v = fmt.Sprintf("%d/%d=%d", e.HandsWon, e.Hands, e.WinRatePermille)
			}
			parts = append(parts, fmt.Sprintf("%d %s %s", e.Rank, strings.TrimPrefix(e.Name, "Spieler "), v))
		}
		return strings.Join(parts, ", ")
	}
	for _, c := range []struct {
		by       ledger.LeaderboardOrder
		minHands int
		want     string
	}{
		{ledger.ByPoints, 0, "1 A 32, 2 C 35/3, 3 E -1, 4 B -55/3, 5 D -73/3"},
		{ledger.ByPointsPerHand, 2, "1 A 32/7, 2 C 35/24, 3 B -55/24, 4 D -73/24"},
		{ledger.ByMoney, 0, "1 A 1183, 2 C 200, 3 E 0, 4 B -550, 5 D -833"},
		{ledger.ByWinRate, 2, "1 A 5/7=714, 2 C 5/8=625, 3 B 2/8=250, 3 D 2/8=250"},
		{ledger.ByWinRate, 8, "1 C 5/8=625, 2 B 2/8=250, 2 D 2/8=250"},
	} {
		if got := board(c.by, c.minHands); got != c.want {
			t.Errorf("by %s (min %d):\n got %s\nwant %s", c.by, c.minHands, got, c.want)
		}
	}
	lb, err := w.store.Leaderboard(ctx, w.actor, ledger.LeaderboardQuery{By: ledger.ByPoints, Filter: ledger.StatsFilter{Game: "schwarze_dame", TableID: w.t2, From: "2025-03-14", To: "2025-03-14"}, Limit: 2})
	must(t, err)
	if len(lb.Entries) != 2 || lb.Entries[0].Points.String() != "40" || lb.Entries[1].Points.String() != "6" || lb.Entries[0].Sessions != 1 {
		t.Errorf("Schwarze Dame on the 14th, top 2: %+v", lb.Entries)
	}
	_, err = w.store.Leaderboard(ctx, w.actor, ledger.LeaderboardQuery{By: "luck", Filter: year, Limit: 10, Mix: true})
	assertCode(t, err, ledger.EINVALID)

	series, err := w.store.PointsSeries(ctx, w.actor, w.ids("A E"), ledger.StatsFilter{})
	must(t, err)
	var got []string
	for _, s := range series {
		var pts []string
		for _, p := range s.Points {
			pts = append(pts, fmt.Sprintf("%s %s/%d=%s", p.Date, p.Points, p.Hands, p.Cumulative))
		}
		got = append(got, strings.TrimPrefix(s.Name, "Spieler ")+": "+strings.Join(pts, ", "))
	}
	want := "A: 2025-01-10 4/3=4, 2025-02-07 -12/2=-8, 2025-03-14 40/2=32, 2026-01-09 -2/2=30\nE: 2025-01-10 -1/1=-1"
	if strings.Join(got, "\n") != want {
		t.Errorf("series:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	series, err = w.store.PointsSeries(ctx, w.actor, nil, ledger.StatsFilter{From: "2025-02-01", Game: "doppelkopf"})
	must(t, err)
	if len(series) != 4 || series[1].Name != "Spieler B" || len(series[1].Points) != 2 || series[1].Points[1].Cumulative.String() != "14/3" {
		t.Errorf("every player's Doppelkopf series from February: %+v", series)
	}
}

func TestStatsNeverCrossClubs(t *testing.T) {
	w := newStatsWorld(t)
	ctx := context.Background()
	other := newActor(t, w.store, "Skatfreunde Nord")
	p, _, err := w.store.CreatePlayer(ctx, other, "Spieler A", nil) // the same name in another club
	must(t, err)
	tbl, _, err := w.store.CreateTable(ctx, other, ledger.NewTable{Name: "T1", Game: "doppelkopf"}, nil)
	must(t, err)
	q, _, err := w.store.CreatePlayer(ctx, other, "Spieler Q", nil)
	must(t, err)
	r, _, err := w.store.CreatePlayer(ctx, other, "Spieler R", nil)
	must(t, err)
	s, _, err := w.store.CreatePlayer(ctx, other, "Spieler S", nil)
	must(t, err)
	sess, _, err := w.store.OpenSession(ctx, other, tbl.ID, "2025-01-10", []int64{p.ID, q.ID, r.ID, s.ID}, nil)
	must(t, err)
	h := ledger.Hand{ID: 9001, TableID: tbl.ID, SessionID: sess.ID, Number: 1, Game: "doppelkopf", Result: score.Result{
		Points:  []score.PlayerPoints{{Player: p.ID, Points: score.Int(100)}, {Player: q.ID, Points: score.Int(-100)}, {Player: r.ID}, {Player: s.ID}},
		Winners: []int64{p.ID}, Parties: [][]int64{{p.ID}, {q.ID, r.ID, s.ID}},
	}}
	// The same hand id as A's h1: ids are per club.
	must(t, w.db.StoreHandForTest(ctx, other.ClubID, h, sess.Date))

	before := w.snapshot(t)
	if ps := w.stats(t, "A", ledger.StatsFilter{}); ps.Hands != 9 || ps.Points.String() != "30" {
		t.Errorf("A's figures changed by another club's hand: %d hands, %s points", ps.Hands, ps.Points)
	}
	// Another club's key sees none of this club's players.
	for _, err := range []error{
		func() error { _, err := w.store.PlayerStats(ctx, other, w.p["A"], ledger.StatsFilter{}); return err }(),
		func() error { _, err := w.store.PartnerStats(ctx, other, w.p["A"], ledger.StatsFilter{}); return err }(),
		func() error {
			_, err := w.store.HeadToHead(ctx, other, p.ID, w.p["B"], ledger.StatsFilter{})
			return err
		}(),
		func() error {
			_, err := w.store.PointsSeries(ctx, other, []int64{w.p["A"]}, ledger.StatsFilter{})
			return err
		}(),
		func() error {
			_, err := w.store.PlayerStats(ctx, other, p.ID, ledger.StatsFilter{TableID: w.t1})
			return err
		}(),
	} {
		assertCode(t, err, ledger.ENOTFOUND)
	}
	lb, err := w.store.Leaderboard(ctx, other, ledger.LeaderboardQuery{By: ledger.ByPoints, Limit: 50})
	must(t, err)
	if len(lb.Entries) != 4 || lb.Entries[0].Player != p.ID || lb.Entries[0].Points.String() != "100" {
		t.Errorf("the other club's leaderboard: %+v", lb.Entries)
	}
	lb, err = w.store.Leaderboard(ctx, w.actor, ledger.LeaderboardQuery{By: ledger.ByPoints, Limit: 50, Mix: true})
	must(t, err)
	for _, e := range lb.Entries {
		if e.Player == p.ID || e.Player == q.ID {
			t.Errorf("this club's leaderboard lists the other club's player %d", e.Player)
		}
	}
	series, err := w.store.PointsSeries(ctx, other, nil, ledger.StatsFilter{})
	must(t, err)
	if len(series) != 4 {
		t.Errorf("the other club's series: %d players, want its 4", len(series))
	}
	// Voiding the other club's hand 9001 leaves this club's hand 9001.
	h.Void = true
	must(t, w.db.ReviseHandForTest(ctx, other.ClubID, h))
	if after := w.snapshot(t); after != before {
		t.Errorf("voiding another club's hand changed this club's statistics")
	}
}

// TestACorrectionUndoesWhatItDid corrects hands away (void revisions) and
// back (revisions with their results): the statistics, rows and rollups,
// follow each revision and come back to what they were.
func TestACorrectionUndoesWhatItDid(t *testing.T) {
	w := newStatsWorld(t)
	ctx := context.Background()
	club := w.actor.ClubID
	before := w.snapshot(t)
	beforeA := w.stats(t, "A", ledger.StatsFilter{})
	void := func(h ledger.Hand) ledger.Hand { h.Void = true; return h }

	// A new hand at the end of S4, one in the gap of S1 (number 4, out of
	// order), one in the middle of S3: each voided again.
	extra := []ledger.Hand{
		w.hand(9100, "S4", 10, "A:5 B:-5 C:5 D:-5", "A C/B D", "A C", "A:re_said:2 E:payout:1"),
		w.hand(9101, "S1", 4, "A:-3 B:1 C:1 D:1 E:0", "A/B C D", "B C D", "A:solo_played:1 E:sat_out:1"),
		w.hand(9102, "S3", 2, "A:-26 B:10 C:10 D:6", "", "B C D", "A:pik_dame_taken:1"),
	}
	for _, h := range extra {
		must(t, w.db.StoreHandForTest(ctx, club, h, w.sessionOf(h).Date))
		if w.snapshot(t) == before {
			t.Fatalf("hand %d changed nothing", h.ID)
		}
		must(t, w.db.ReviseHandForTest(ctx, club, void(h)))
		if after := w.snapshot(t); after != before {
			t.Errorf("hand %d stored and voided:\n%s\nwant\n%s", h.ID, after, before)
		}
	}

	// Out of order, the streaks are rebuilt: a loss between h7 and h8
	// breaks A's three wins in a row.
	must(t, w.db.ReviseHandForTest(ctx, club, extra[2]))
	if a := w.stats(t, "A", ledger.StatsFilter{}); a.LongestWinningStreak != 2 || a.Hands != 10 || a.Points.String() != "4" {
		t.Errorf("after a loss in S3: streak %d, %d hands, %s points; want 2, 10, 4", a.LongestWinningStreak, a.Hands, a.Points)
	}
	must(t, w.db.ReviseHandForTest(ctx, club, void(extra[2])))

	// Each of the history's hands voided and restored (voiding alone
	// changes the figures), and one hand replaced by another result and
	// back.
	for _, name := range []string{"h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10"} {
		h := w.hands[name]
		must(t, w.db.ReviseHandForTest(ctx, club, void(h)))
		if w.snapshot(t) == before {
			t.Errorf("voiding %s changed nothing", name)
		}
		must(t, w.db.ReviseHandForTest(ctx, club, h))
	}
	corrected := w.hand(w.hands["h6"].ID, "S2", 7, "A:-2 B:2 C:-2 D:2", "A C/B D", "B D", "")
	must(t, w.db.ReviseHandForTest(ctx, club, corrected))
	if a := w.stats(t, "A", ledger.StatsFilter{}); a.HandsWon != 4 || a.Points.String() != "26" || a.LongestLosingStreak != 2 {
		t.Errorf("after correcting h6: %d won, %s points, losing streak %d; want 4, 26, 2", a.HandsWon, a.Points, a.LongestLosingStreak)
	}
	must(t, w.db.ReviseHandForTest(ctx, club, w.hands["h6"]))
	if after := w.snapshot(t); after != before {
		t.Errorf("after voiding and restoring every hand:\n%s\nwant\n%s", after, before)
	}
	if a, b := jsonOf(t, w.stats(t, "A", ledger.StatsFilter{})), jsonOf(t, beforeA); a != b {
		t.Errorf("A's figures differ after the round trip:\n%s\nwant\n%s", a, b)
	}
	// Storing a hand twice is refused.
	if err := w.db.StoreHandForTest(ctx, club, w.hands["h1"], "2025-01-10"); err == nil {
		t.Error("storing h1 twice succeeded")
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}

func (w *statsWorld) sessionOf(h ledger.Hand) ledger.Session {
	for _, s := range w.sessions {
		if s.ID == h.SessionID {
			return s
		}
	}
	return ledger.Session{}
}

// TestStatsFollowTheWritePath records real hands and closes the session:
// the figures follow the engine's results and the stored settlement.
func TestStatsFollowTheWritePath(t *testing.T) {
	f := newFixture(t) // Schwarze Dame at half a cent: +20, -10, +3, -13 per hand
	ctx := context.Background()
	for n := 1; n <= 3; n++ {
		_, _, err := f.record(t, n, nil)
		must(t, err)
	}
	ps, err := f.store.PlayerStats(ctx, f.actor, f.players[0], ledger.StatsFilter{})
	must(t, err)
	if ps.Hands != 3 || ps.HandsWon != 3 || ps.Points.String() != "60" || ps.LongestWinningStreak != 3 || ps.Money.Sessions != 0 {
		t.Errorf("Anna while open: %+v", ps)
	}
	// While open, the figures come from the hands; closing rolls them up:
	// the same figures, now with money.
	withoutMoney := func(ps ledger.PlayerStats) string {
		ps.Money = ledger.MoneyStats{}
		ps.BestEvening.NetCents, ps.WorstEvening.NetCents = nil, nil
		return jsonOf(t, ps)
	}
	var open []string
	for _, id := range f.players {
		ps, err := f.store.PlayerStats(ctx, f.actor, id, ledger.StatsFilter{})
		must(t, err)
		open = append(open, withoutMoney(ps))
	}
	_, err = f.store.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	assertCount(t, f.pool, "stat_open", 0)
	assertCount(t, f.pool, "stat_sessions", 4)
	for i, id := range f.players {
		ps, err := f.store.PlayerStats(ctx, f.actor, id, ledger.StatsFilter{})
		must(t, err)
		if got := withoutMoney(ps); got != open[i] {
			t.Errorf("player %d after closing:\n%s\nwhile open:\n%s", id, got, open[i])
		}
	}
	for i := range f.players {
		ps, err := f.store.PlayerStats(ctx, f.actor, f.players[i], ledger.StatsFilter{})
		must(t, err)
		st, err := f.store.FindSettlement(ctx, f.actor, f.session.ID)
		must(t, err)
		if ps.Money.NetCents != st.Players[i].NetCents || ps.Money.Sessions != 1 {
			t.Errorf("player %d: money %+v, settlement says %d", i, ps.Money, st.Players[i].NetCents)
		}
	}
	b, err := f.store.PlayerStats(ctx, f.actor, f.players[1], ledger.StatsFilter{})
	must(t, err)
	if b.HandsLost != 3 || b.LongestLosingStreak != 3 || b.Points.String() != "-30" {
		t.Errorf("Bernd: %+v", b)
	}
	// Totals agree with the standings.
	standings, err := f.store.TableStandings(ctx, f.actor, f.table.ID)
	must(t, err)
	lb, err := f.store.Leaderboard(ctx, f.actor, ledger.LeaderboardQuery{By: ledger.ByPoints, Limit: 10})
	must(t, err)
	for i, s := range standings {
		if e := lb.Entries[i]; e.Player != s.Player || e.Points.Cmp(s.Points) != 0 || e.Hands != s.Hands {
			t.Errorf("leaderboard %d: %+v, standings %+v", i, e, s)
		}
	}
}
