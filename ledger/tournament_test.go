package ledger_test

// The tournament's rules (ledger/tournament.go) against the in-memory
// ports: a DDV tournament evening of two tables and two rounds, every
// number computed by hand below.

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/memory"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// tourney is an in-memory club with eight players (A Anna … H Hanna),
// two tournament tables and a tournament of six games per round.
type tourney struct {
	t      *testing.T
	svc    *ledger.Service
	scorer ledger.Actor
	ids    map[string]int64 // "A" … "H"
	ini    map[int64]string
	ref    *strings.Replacer // @A … @H in facts
	tables [2]ledger.Table
	tr     ledger.Tournament
	next   map[int64]int // the next hand number per table
}

var tourneyPlayers = []string{"Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"}

func newTourney(t *testing.T, handsPerRound int) *tourney {
	t.Helper()
	ctx := context.Background()
	c := newClub(t) // a club with Anna … Dieter and a scorer
	tt := &tourney{t: t, svc: c.svc, scorer: c.scorer, ids: map[string]int64{}, ini: map[int64]string{}, next: map[int64]int{}}
	var pairs []string
	for i, name := range tourneyPlayers {
		var id int64
		if i < len(c.players) {
			id = c.players[i]
		} else {
			p, _, err := c.svc.CreatePlayer(ctx, c.admin, name, nil)
			c.must(err)
			id = p.ID
		}
		k := name[:1]
		tt.ids[k], tt.ini[id] = id, k
		pairs = append(pairs, "@"+k, fmt.Sprint(id))
	}
	tt.ref = strings.NewReplacer(pairs...)
	for i := range tt.tables {
		tb, _, err := c.svc.CreateTable(ctx, c.admin, ledger.NewTable{Name: fmt.Sprintf("Tisch %d", i+1), Game: "doppelkopf", Preset: "ddv",
			Options: json.RawMessage(`{"turnier": true}`)}, nil)
		c.must(err)
		tt.tables[i] = tb
		tt.next[tb.ID] = 1
	}
	var err error
	tt.tr, _, err = c.svc.CreateTournament(ctx, c.scorer, ledger.NewTournament{Name: "Herbstturnier", Date: "2026-11-19",
		HandsPerRound: handsPerRound, Tables: []int64{tt.tables[0].ID, tt.tables[1].ID}}, nil)
	c.must(err)
	return tt
}

func (tt *tourney) must(err error) {
	tt.t.Helper()
	if err != nil {
		tt.t.Fatal(err)
	}
}

// seats turns "ABCD" into the players' ids.
func (tt *tourney) seats(s string) []int64 {
	var out []int64
	for _, r := range s {
		out = append(out, tt.ids[string(r)])
	}
	return out
}

// open opens the next round, one seating per table ("ABCD", "EFGH").
func (tt *tourney) open(seatings ...string) error {
	var in []ledger.RoundSeating
	for i, s := range seatings {
		in = append(in, ledger.RoundSeating{Table: tt.tables[i].ID, Players: tt.seats(s)})
	}
	tr, _, err := tt.svc.OpenRound(context.Background(), tt.scorer, tt.tr.ID, in, nil)
	if err == nil {
		tt.tr = tr
	}
	return err
}

// session is table i's session in the current round.
func (tt *tourney) session(i int) int64 {
	r := tt.tr.Rounds[len(tt.tr.Rounds)-1]
	return r.Tables[i].Session
}

// try records the next hand at table i (facts name players as @A … @H).
func (tt *tourney) try(i int, facts string) error {
	tb := tt.tables[i].ID
	_, _, err := tt.svc.RecordHand(context.Background(), tt.scorer, ledger.NewHand{TableID: tb, SessionID: tt.session(i),
		Number: tt.next[tb], Facts: json.RawMessage(tt.ref.Replace(facts))}, nil)
	if err == nil {
		tt.next[tb]++
	}
	return err
}

func (tt *tourney) play(i int, facts ...string) {
	tt.t.Helper()
	for _, f := range facts {
		if err := tt.try(i, f); err != nil {
			tt.t.Fatalf("table %d, hand %d: %v", i+1, tt.next[tt.tables[i].ID], err)
		}
	}
}

// refuse checks that the next hand at table i is refused with code, the
// message naming every one of names.
func (tt *tourney) refuse(i int, facts, code string, names ...string) {
	tt.t.Helper()
	err := tt.try(i, facts)
	e := wantCode(tt.t, fmt.Sprintf("table %d: %s", i+1, facts), err, code)
	for _, n := range names {
		if !strings.Contains(e.Error()+e.Message, n) {
			tt.t.Errorf("table %d: the refusal %q does not name %s", i+1, e.Error(), n)
		}
	}
}

func normal(re string, augen int) string {
	return fmt.Sprintf(`{"game": "normal", "re": {"players": [@%c, @%c], "augen": %d}}`, re[0], re[1], augen)
}

func solo(game, kind, soloist string, augen int) string {
	suit := ""
	if g, s, ok := strings.Cut(game, ":"); ok {
		game, suit = g, fmt.Sprintf(`"suit": %q, `, s)
	}
	vorg := ""
	if kind == "vorgefuehrt" {
		kind, vorg = "pflicht", `"vorgefuehrt": true, `
	}
	return fmt.Sprintf(`{"game": %q, %s"solo_kind": %q, %s"re": {"players": [@%s], "augen": %d}}`, game, suit, kind, vorg, soloist, augen)
}

// status is table i's status in the current round.
func (tt *tourney) status(i int) ledger.TableStatus {
	tt.t.Helper()
	tr, err := tt.svc.FindTournament(context.Background(), tt.scorer, tt.tr.ID)
	tt.must(err)
	return *tr.Rounds[len(tr.Rounds)-1].Tables[i].Status
}

func (tt *tourney) statusText(i int) string {
	st := tt.status(i)
	owed := ""
	for _, p := range st.Owed {
		owed += tt.ini[p.Player]
	}
	vf := "-"
	if st.Vorfuehrung != nil {
		vf = st.Vorfuehrung.Name
	}
	return fmt.Sprintf("games %d left %d owed %q vorführung %s complete %v", st.Games, st.GamesLeft, owed, vf, st.Complete)
}

// TestTournamentEvening plays a tournament of six games per round (TSR
// 8.5.1 says 24; the number is the tournament's) at two tables in two
// rounds, re-seated between them. Bernd never plays his Pflichtsolo of his
// own accord: in round 1 the last game is his, vorgeführt, because one
// game is left for his one Pflichtsolo (TSR 4.2.3); in round 2 the
// organizer ends the playing time after four games at table 1, and Bernd
// still plays his Pflichtsolo, vorgeführt (TSR 8.5.1, 8.6).
//
// Values under ddv (TSR 7.2): a normal game won with 121+ Augen against
// 90+ is 1; Kontra winning adds "gegen die Kreuz-Damen" (2); Re with 160
// against 80 adds "unter 90" (2). A solo counts 7.2.2 only: won or lost
// with the other side at 90+ is 1, the other side under 90 is 2; the
// soloist moves three times that (TSR 7.2.4). Points below are in the
// seating order of each table, running totals after "=".
func TestTournamentEvening(t *testing.T) {
	tt := newTourney(t, 6)
	ctx := context.Background()
	tt.must(tt.open("ABCD", "EFGH"))

	// Round 1, Tisch 1: Anna, Bernd, Clara, Dieter.
	//  1. dealer Anna (position 1, TSR 3.3.1): Re Anna+Clara 130: +1 -1 +1 -1 = 1 -1 1 -1
	//  2. dealer Bernd: Clara's Pflichtsolo (Damen) 130 won: -1 -1 +3 -1 = 0 -2 4 -2;
	//     Bernd deals again (TSR 4.2.5)
	//  3. dealer Bernd: Dieter's Pflichtsolo (Buben) 100 lost: +1 +1 +1 -3 = 1 -1 5 -5
	//  4. dealer Bernd: Anna's Pflichtsolo (Kreuz) 170 won, Kontra under 90: +6 -2 -2 -2 = 7 -3 3 -7
	//  5. dealer Bernd: Re Bernd+Dieter 100, Kontra wins with 140, gegen die
	//     Kreuz-Damen: +2 -2 +2 -2 = 9 -5 5 -9
	tt.play(0, normal("AC", 130), solo("damensolo", "pflicht", "C", 130), solo("bubensolo", "pflicht", "D", 100),
		solo("farbsolo:kreuz", "pflicht", "A", 170), normal("BD", 100))
	// One game left, Bernd's Pflichtsolo owed: he is vorgeführt (TSR 4.2.3);
	// dealer is Clara, Bernd the next of the owing to her left.
	if got := tt.statusText(0); got != `games 5 left 1 owed "B" vorführung Bernd complete false` {
		t.Errorf("Tisch 1 after 5 games: %s", got)
	}
	tt.refuse(0, normal("AB", 130), ledger.EINVALID, "Bernd", "Clara", "4.2.3")
	tt.refuse(0, solo("damensolo", "lust", "A", 130), ledger.EINVALID, "Bernd")
	// The round is not over at Tisch 1: no next round, no closing.
	if err := tt.open("AEBF", "CGDH"); ledger.ErrorCode(err) != ledger.ECONFLICT || !strings.Contains(err.Error(), "Tisch 1: 5 von 6 Spielen, Pflichtsolo offen: Bernd") {
		t.Errorf("round 2 opened before round 1 is over: %v", err)
	}
	_, err := tt.svc.CloseSession(ctx, tt.scorer, tt.session(0))
	wantCode(t, "closing Tisch 1 before its round is over", err, ledger.ECONFLICT)
	//  6. dealer Clara: Bernd's Pflichtsolo, vorgeführt (Damen) 100 lost:
	//     +1 -3 +1 +1 = 10 -8 6 -8; the deal moves on (TSR 4.2.5)
	tt.play(0, solo("damensolo", "vorgefuehrt", "B", 100))
	tt.refuse(0, normal("AC", 130), ledger.ECONFLICT, "Runde 1", "Tisch 1", "vollständig")

	// Round 1, Tisch 2: Emil, Frieda, Gustav, Hanna.
	//  1. dealer Emil: Frieda's Pflichtsolo (Damen) 130: -1 +3 -1 -1 = -1 3 -1 -1; Emil again
	//  2. dealer Emil: Gustav's Pflichtsolo (Buben) 130: -1 -1 +3 -1 = -2 2 2 -2; Emil again
	//  3. dealer Emil: Re Emil+Frieda 130: +1 +1 -1 -1 = -1 3 1 -3
	//  4. dealer Frieda: Hanna's Pflichtsolo (Herz) 130: -1 -1 -1 +3 = -2 2 0 0; Frieda again
	//  5. dealer Frieda: Emil's Pflichtsolo (Damen) 100 lost: -3 +1 +1 +1 = -5 3 1 1; Frieda again
	//  6. dealer Frieda: Frieda's Lustsolo (Buben) 130: -1 +3 -1 -1 = -6 6 0 0
	// No Vorführung is due before the first game (four Pflichtsoli, six games).
	tt.refuse(1, solo("damensolo", "vorgefuehrt", "F", 130), ledger.EINVALID, "keine Vorführung")
	tt.play(1, solo("damensolo", "pflicht", "F", 130), solo("bubensolo", "pflicht", "G", 130), normal("EF", 130),
		solo("farbsolo:herz", "pflicht", "H", 130), solo("damensolo", "pflicht", "E", 100), solo("bubensolo", "lust", "F", 130))

	// Round 2, re-seated: Tisch 1 Anna, Emil, Bernd, Frieda; Tisch 2 Clara,
	// Gustav, Dieter, Hanna. Opening it closes round 1's sessions.
	round1 := tt.tr.Rounds[0]
	tt.must(tt.open("AEBF", "CGDH"))
	for _, rt := range round1.Tables {
		if s, err := tt.svc.FindSession(ctx, tt.scorer, rt.Session); err != nil || s.Open() {
			t.Errorf("round 1's session %d is still open (%v)", rt.Session, err)
		}
	}
	// Tisch 1:
	//  1. dealer Anna: Emil's Pflichtsolo (Damen) 130: -1 +3 -1 -1 = -1 3 -1 -1; Anna again
	//  2. dealer Anna: Re Anna+Bernd 130: +1 -1 +1 -1 = 0 2 0 -2
	//  3. dealer Emil: Frieda's Pflichtsolo (Pik) 130: -1 -1 -1 +3 = -1 1 -1 1; Emil again
	//  4. dealer Emil: Anna's Pflichtsolo (Buben) 100 lost: -3 +1 +1 +1 = -4 2 0 2; Emil again
	tt.play(0, solo("damensolo", "pflicht", "E", 130), normal("AB", 130), solo("farbsolo:pik", "pflicht", "F", 130),
		solo("bubensolo", "pflicht", "A", 100))
	if got := tt.statusText(0); got != `games 4 left 2 owed "B" vorführung - complete false` {
		t.Errorf("round 2, Tisch 1 after 4 games: %s", got)
	}
	// Tisch 2: a new Spielrunde starts with position 1, Clara, though the
	// table's last dealer proposed Gustav, who is seated again.
	//  1. dealer Clara: Re Clara+Dieter 130: +1 -1 +1 -1 = 1 -1 1 -1
	//  2. dealer Gustav: Gustav's Pflichtsolo (Damen) 130: -1 +3 -1 -1 = 0 2 0 -2; Gustav again
	//  3. dealer Gustav: Clara's Pflichtsolo (Buben) 170: +6 -2 -2 -2 = 6 0 -2 -4
	//  4. dealer Gustav: Hanna's Pflichtsolo (Damen) 100 lost: +1 +1 +1 -3 = 7 1 -1 -7
	//  5. dealer Gustav: Dieter's Pflichtsolo (Karo) 130: -1 -1 +3 -1 = 6 0 2 -8
	tt.play(1, normal("CD", 130), solo("damensolo", "pflicht", "G", 130), solo("bubensolo", "pflicht", "C", 170),
		solo("damensolo", "pflicht", "H", 100), solo("farbsolo:karo", "pflicht", "D", 130))

	// The organizer ends round 2's playing time (TSR 8.5.1): Tisch 2's sixth
	// game is struck, its round is complete; at Tisch 1 only Bernd's
	// Pflichtsolo is still played, vorgeführt (TSR 8.6).
	tr, err := tt.svc.RoundTimeUp(ctx, tt.scorer, tt.tr.ID, 2)
	tt.must(err)
	tt.tr = tr
	if _, err := tt.svc.RoundTimeUp(ctx, tt.scorer, tt.tr.ID, 1); ledger.ErrorCode(err) != ledger.ECONFLICT {
		t.Errorf("ending round 1's time during round 2: %v, want a conflict", err)
	}
	if got := tt.statusText(1); got != `games 5 left 0 owed "" vorführung - complete true` {
		t.Errorf("round 2, Tisch 2 after the time: %s", got)
	}
	tt.refuse(1, normal("CD", 130), ledger.ECONFLICT, "vollständig")
	if got := tt.statusText(0); got != `games 4 left 0 owed "B" vorführung Bernd complete false` {
		t.Errorf("round 2, Tisch 1 after the time: %s", got)
	}
	tt.refuse(0, normal("EF", 130), ledger.EINVALID, "Bernd", "Spielzeit", "8.6")
	//  5. dealer Emil: Bernd's Pflichtsolo, vorgeführt (Damen) 170: -2 -2 +6 -2 = -6 0 6 0
	tt.play(0, solo("damensolo", "vorgefuehrt", "B", 170))
	tt.refuse(0, normal("EF", 130), ledger.ECONFLICT, "vollständig")

	tt.checkSpiellisten()
	tt.checkRanking()
	tt.checkFeed()
}

// checkSpiellisten compares every table's Spielliste with the hands above.
// A row: game number, dealer, kind, value, points, running totals, the
// positions with plus points (TSR 7.3.3 Nr. 3), who leads.
func (tt *tourney) checkSpiellisten() {
	want := map[[2]int][]string{
		{1, 1}: {
			"1 A normal v1 | 1 -1 1 -1 | 1 -1 1 -1 | plus 1,3 | auf B",
			"2 B pflichtsolo v1 | -1 -1 3 -1 | 0 -2 4 -2 | plus 3 | auf C",
			"3 B pflichtsolo v1 | 1 1 1 -3 | 1 -1 5 -5 | plus 1,2,3 | auf D",
			"4 B pflichtsolo v2 | 6 -2 -2 -2 | 7 -3 3 -7 | plus 1 | auf A",
			"5 B normal v2 | 2 -2 2 -2 | 9 -5 5 -9 | plus 1,3 | auf C",
			"6 C pflichtsolo vorgeführt v1 | 1 -3 1 1 | 10 -8 6 -8 | plus 1,3,4 | auf B",
		},
		{1, 2}: {
			"1 E pflichtsolo v1 | -1 3 -1 -1 | -1 3 -1 -1 | plus 2 | auf F",
			"2 E pflichtsolo v1 | -1 -1 3 -1 | -2 2 2 -2 | plus 3 | auf G",
			"3 E normal v1 | 1 1 -1 -1 | -1 3 1 -3 | plus 1,2 | auf F",
			"4 F pflichtsolo v1 | -1 -1 -1 3 | -2 2 0 0 | plus 4 | auf H",
			"5 F pflichtsolo v1 | -3 1 1 1 | -5 3 1 1 | plus 2,3,4 | auf E",
			"6 F lustsolo v1 | -1 3 -1 -1 | -6 6 0 0 | plus 2 | auf G",
		},
		{2, 1}: {
			"1 A pflichtsolo v1 | -1 3 -1 -1 | -1 3 -1 -1 | plus 2 | auf E",
			"2 A normal v1 | 1 -1 1 -1 | 0 2 0 -2 | plus 1,3 | auf E",
			"3 E pflichtsolo v1 | -1 -1 -1 3 | -1 1 -1 1 | plus 4 | auf F",
			"4 E pflichtsolo v1 | -3 1 1 1 | -4 2 0 2 | plus 2,3,4 | auf A",
			"5 E pflichtsolo vorgeführt v2 | -2 -2 6 -2 | -6 0 6 0 | plus 3 | auf B",
		},
		{2, 2}: {
			"1 C normal v1 | 1 -1 1 -1 | 1 -1 1 -1 | plus 1,3 | auf G",
			"2 G pflichtsolo v1 | -1 3 -1 -1 | 0 2 0 -2 | plus 2 | auf G",
			"3 G pflichtsolo v2 | 6 -2 -2 -2 | 6 0 -2 -4 | plus 1 | auf C",
			"4 G pflichtsolo v1 | 1 1 1 -3 | 7 1 -1 -7 | plus 1,2,3 | auf H",
			"5 G pflichtsolo v1 | -1 -1 3 -1 | 6 0 2 -8 | plus 3 | auf D",
		},
	}
	seatings := map[[2]int]string{{1, 1}: "ABCD", {1, 2}: "EFGH", {2, 1}: "AEBF", {2, 2}: "CGDH"}
	for i, tb := range tt.tables {
		lists, err := tt.svc.Spiellisten(context.Background(), tt.scorer, tt.tr.ID, tb.ID, 0)
		tt.must(err)
		if len(lists) != 2 {
			tt.t.Fatalf("%s: %d Spiellisten, want one per round", tb.Name, len(lists))
		}
		for _, l := range lists {
			key := [2]int{l.Round, i + 1}
			var got, players string
			for _, p := range l.Players {
				players += tt.ini[p.Player]
			}
			for _, r := range l.Rows {
				got += tt.rowText(r) + "\n"
				if !r.SumZero || !r.EvenOdd {
					tt.t.Errorf("round %d, %s, game %d: the checks of TSR 7.3.3 fail (sum zero %v, even/odd %v)", l.Round, tb.Name, r.Game, r.SumZero, r.EvenOdd)
				}
			}
			if w := strings.Join(want[key], "\n") + "\n"; got != w || players != seatings[key] {
				tt.t.Errorf("round %d, %s (%s): Spielliste\n%s\nwant (%s)\n%s", l.Round, tb.Name, players, got, seatings[key], w)
			}
			if !l.Status.Complete {
				tt.t.Errorf("round %d, %s is not complete", l.Round, tb.Name)
			}
		}
	}
}

func (tt *tourney) rowText(r ledger.SpiellisteRow) string {
	kind := r.Kind
	if r.Vorgefuehrt {
		kind += " vorgeführt"
	}
	var pts, run, plus []string
	for i := range r.Points {
		pts = append(pts, r.Points[i].String())
		run = append(run, r.Running[i].String())
	}
	for _, p := range r.Plus {
		plus = append(plus, fmt.Sprint(p))
	}
	return fmt.Sprintf("%d %s %s v%s | %s | %s | plus %s | auf %s", r.Game, tt.ini[r.Dealer], kind, r.Value,
		strings.Join(pts, " "), strings.Join(run, " "), strings.Join(plus, ","), tt.ini[r.Aufspiel])
}

// checkRanking: the evening's points are the sum of both rounds' final
// totals (Tisch 1 round 1: Anna 10, Bernd -8, Clara 6, Dieter -8; Tisch 2
// round 1: Emil -6, Frieda 6, Gustav 0, Hanna 0; Tisch 1 round 2: Anna -6,
// Emil 0, Bernd 6, Frieda 0; Tisch 2 round 2: Clara 6, Gustav 0, Dieter 2,
// Hanna -8):
//
//	Clara 6+6 = 12, Frieda 6+0 = 6, Anna 10-6 = 4, Gustav 0+0 = 0,
//	Bernd -8+6 = -2, Dieter -8+2 = -6, Emil -6+0 = -6, Hanna 0-8 = -8
//
// (they sum to 0). Dieter and Emil tie: the TSR breaks no tie, they share
// place 6 and the next is 8. Everyone played 6 + 5 = 11 games and two
// Pflichtsoli; Bernd's were both vorgeführt; Frieda played a Lustsolo.
func (tt *tourney) checkRanking() {
	rk, err := tt.svc.Ranking(context.Background(), tt.scorer, tt.tr.ID)
	tt.must(err)
	want := []string{
		"1 Clara 12 (6 Tisch 1, 6 Tisch 2) 11 games 2/0 0",
		"2 Frieda 6 (6 Tisch 2, 0 Tisch 1) 11 games 2/0 1",
		"3 Anna 4 (10 Tisch 1, -6 Tisch 1) 11 games 2/0 0",
		"4 Gustav 0 (0 Tisch 2, 0 Tisch 2) 11 games 2/0 0",
		"5 Bernd -2 (-8 Tisch 1, 6 Tisch 1) 11 games 2/2 0",
		"6 Dieter -6 (-8 Tisch 1, 2 Tisch 2) 11 games 2/0 0",
		"6 Emil -6 (-6 Tisch 2, 0 Tisch 1) 11 games 2/0 0",
		"8 Hanna -8 (0 Tisch 2, -8 Tisch 2) 11 games 2/0 0",
	}
	var got []string
	for _, e := range rk.Entries {
		var rounds []string
		for _, r := range e.Rounds {
			rounds = append(rounds, fmt.Sprintf("%s %s", r.Points, r.TableName))
		}
		got = append(got, fmt.Sprintf("%d %s %s (%s) %d games %d/%d %d", e.Place, e.Name, e.Points, strings.Join(rounds, ", "),
			e.Games, e.Pflichtsoli, e.Vorgefuehrt, e.Lustsoli))
	}
	if !slices.Equal(got, want) {
		tt.t.Errorf("ranking:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !rk.Complete || rk.Rounds != 2 || rk.HandsPerRound != 6 {
		tt.t.Errorf("ranking: complete %v, %d rounds of %d; want complete, 2 of 6", rk.Complete, rk.Rounds, rk.HandsPerRound)
	}
}

// checkFeed: the change feed records the tournament's changes.
func (tt *tourney) checkFeed() {
	changes, err := tt.svc.Changes(context.Background(), tt.scorer, 0, 1000, 0)
	tt.must(err)
	count := map[ledger.ChangeKind]int{}
	for _, c := range changes {
		count[c.Kind]++
		// The stored data keeps the names it was first written with.
		if c.Kind == ledger.ChangeRoundOpened && !regexp.MustCompile(`^\{"round":\d,"tables":\[\{"table":\d+,"session":\d+\},\{"table":\d+,"session":\d+\}\],"tournament":\d+\}$`).Match(c.Data) {
			tt.t.Errorf("a round's change stores %s", c.Data)
		}
	}
	if count[ledger.ChangeTournamentCreated] != 1 || count[ledger.ChangeRoundOpened] != 2 || count[ledger.ChangeRoundTimeUp] != 1 ||
		count[ledger.ChangeSessionOpened] != 5 || count[ledger.ChangeSessionClosed] != 2 {
		tt.t.Errorf("change feed: %v; want 1 tournament created, 2 rounds opened, 1 time up, 5 sessions opened (one before), 2 closed", count)
	}
}

// TestTournamentRefusals: what a tournament, its tables and a round's
// seating may not be.
func TestTournamentRefusals(t *testing.T) {
	tt := newTourney(t, 0)
	ctx := context.Background()
	if tt.tr.HandsPerRound != ledger.DefaultHandsPerRound {
		t.Errorf("hands per round default %d, want 24 (TSR 8.5.1)", tt.tr.HandsPerRound)
	}
	house, _, err := tt.svc.CreateTable(ctx, tt.scorer, ledger.NewTable{Name: "Haus", Game: "doppelkopf", Preset: "house"}, nil)
	tt.must(err)
	plain, _, err := tt.svc.CreateTable(ctx, tt.scorer, ledger.NewTable{Name: "DDV ohne Turnier", Game: "doppelkopf", Preset: "ddv"}, nil)
	tt.must(err)
	forty, _, err := tt.svc.CreateTable(ctx, tt.scorer, ledger.NewTable{Name: "Ohne Neunen", Game: "doppelkopf", Preset: "ddv",
		Options: json.RawMessage(`{"turnier": true, "nines": false}`)}, nil)
	tt.must(err)
	t1 := tt.tables[0].ID
	for _, c := range []struct {
		nt    ledger.NewTournament
		field string
	}{
		{ledger.NewTournament{Name: " ", Tables: []int64{t1}}, "name"},
		{ledger.NewTournament{Name: "T", HandsPerRound: 3, Tables: []int64{t1}}, "hands_per_round"},
		{ledger.NewTournament{Name: "T", HandsPerRound: 100, Tables: []int64{t1}}, "hands_per_round"},
		{ledger.NewTournament{Name: "T"}, "table_ids"},
		{ledger.NewTournament{Name: "T", Tables: []int64{t1, t1}}, "table_ids[1]"},
		{ledger.NewTournament{Name: "T", Tables: []int64{house.ID}}, "table_ids[0]"},
		{ledger.NewTournament{Name: "T", Tables: []int64{plain.ID}}, "table_ids[0]"},
		{ledger.NewTournament{Name: "T", Tables: []int64{forty.ID}}, "table_ids[0]"},
		{ledger.NewTournament{Name: "T", Date: "19.11.2026", Tables: []int64{t1}}, "date"},
	} {
		_, _, err := tt.svc.CreateTournament(ctx, tt.scorer, c.nt, nil)
		if e := wantCode(t, fmt.Sprintf("%+v", c.nt), err, ledger.EINVALID); e.Field != c.field {
			t.Errorf("%+v: refused on %q (%s), want %q", c.nt, e.Field, e.Rule, c.field)
		}
	}
	_, _, err = tt.svc.CreateTournament(ctx, tt.scorer, ledger.NewTournament{Name: "T", Tables: []int64{t1, 999999}}, nil)
	if e := wantCode(t, "an unknown table", err, ledger.ENOTFOUND); e.Field != "table_ids[1]" {
		t.Errorf("an unknown table: refused on %q, want table_ids[1]", e.Field)
	}
	for _, c := range []struct {
		seatings []string
		field    string
	}{
		{[]string{"ABCD"}, "seatings"},
		{[]string{"ABCD", "EFG"}, "seatings[1].player_ids"},
		{[]string{"ABCD", "EFGHA"}, "seatings[1].player_ids"},
		{[]string{"ABCD", "EFGA"}, "seatings[1].player_ids[3]"},
	} {
		err := tt.open(c.seatings...)
		if e := wantCode(t, fmt.Sprint(c.seatings), err, ledger.EINVALID); e.Field != c.field {
			t.Errorf("%v: refused on %q (%s), want %q", c.seatings, e.Field, e.Rule, c.field)
		}
	}
	// A table of another tournament, and a table twice.
	other := []ledger.RoundSeating{{Table: t1, Players: tt.seats("ABCD")}, {Table: house.ID, Players: tt.seats("EFGH")}}
	_, _, err = tt.svc.OpenRound(ctx, tt.scorer, tt.tr.ID, other, nil)
	wantCode(t, "a table not of the tournament", err, ledger.EINVALID)
	twice := []ledger.RoundSeating{{Table: t1, Players: tt.seats("ABCD")}, {Table: t1, Players: tt.seats("EFGH")}}
	_, _, err = tt.svc.OpenRound(ctx, tt.scorer, tt.tr.ID, twice, nil)
	wantCode(t, "a table twice", err, ledger.EINVALID)
	// A table with an open session of its own cannot start a round.
	_, _, err = tt.svc.OpenSession(ctx, tt.scorer, tt.tables[1].ID, "2026-11-19", tt.seats("EFGH"), nil)
	tt.must(err)
	wantCode(t, "a table with an open session", tt.open("ABCD", "EFGH"), ledger.ECONFLICT)
	if tr, err := tt.svc.FindTournament(ctx, tt.scorer, tt.tr.ID); err != nil || len(tr.Rounds) != 0 {
		t.Errorf("a refused round left %d rounds (%v)", len(tr.Rounds), err)
	}
	if _, err := tt.svc.RoundTimeUp(ctx, tt.scorer, tt.tr.ID, 1); ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("the time of a round not opened: %v, want not found", err)
	}
}

// TestTournamentIsIdempotent: a retried create or round replays the first.
func TestTournamentIsIdempotent(t *testing.T) {
	tt := newTourney(t, 6)
	ctx := context.Background()
	nt := ledger.NewTournament{Name: "Wintercup", Date: "2026-12-03", Tables: []int64{tt.tables[0].ID, tt.tables[1].ID}}
	idem := &ledger.Idempotency{Key: "turnier-1", Hash: []byte("a")}
	first, _, err := tt.svc.CreateTournament(ctx, tt.scorer, nt, idem)
	tt.must(err)
	again, replayed, err := tt.svc.CreateTournament(ctx, tt.scorer, nt, idem)
	if err != nil || !replayed || again.ID != first.ID {
		t.Errorf("retried create: %d replayed %v (%v), want %d replayed", again.ID, replayed, err, first.ID)
	}
	seat := []ledger.RoundSeating{{Table: tt.tables[0].ID, Players: tt.seats("ABCD")}, {Table: tt.tables[1].ID, Players: tt.seats("EFGH")}}
	ridem := &ledger.Idempotency{Key: "runde-1", Hash: []byte("b")}
	_, _, err = tt.svc.OpenRound(ctx, tt.scorer, first.ID, seat, ridem)
	tt.must(err)
	tr, replayed, err := tt.svc.OpenRound(ctx, tt.scorer, first.ID, seat, ridem)
	if err != nil || !replayed || len(tr.Rounds) != 1 {
		t.Errorf("retried round: %d rounds, replayed %v (%v); want 1, replayed", len(tr.Rounds), replayed, err)
	}
}

// A store with only the tournament's ports: the memory store implements them.
var _ ledger.TournamentStore = memory.New()

// TestSpiellisteChecks: a Spielliste counts only games (not a redeal or a
// voided hand), marks the positions with plus points only, and its checks
// of TSR 7.3.3 fail where the points do not sum to 0 or the totals are not
// all even or all odd (a fraction is neither).
func TestSpiellisteChecks(t *testing.T) {
	seating := []int64{1, 2, 3, 4}
	pts := func(ps ...score.Points) []score.PlayerPoints {
		var out []score.PlayerPoints
		for i, p := range ps {
			out = append(out, score.PlayerPoints{Player: seating[i], Points: p})
		}
		return out
	}
	i, z := score.Int, score.Int(0)
	hands := []ledger.Hand{
		{Number: 1, Result: score.Result{Dealer: 1, Players: seating, Points: pts(i(1), i(-1), i(1), i(-1))}},
		{Number: 2, Result: score.Result{Dealer: 2, Players: seating, Points: pts(z, z, z, z), Stats: []score.Stat{{Player: 2, Key: "redeal", Count: 1}}}},
		{Number: 3, Void: true, Result: score.Result{Dealer: 2, Players: seating, Points: pts(z, z, z, z)}},
		{Number: 4, Result: score.Result{Dealer: 2, Players: seating, Points: pts(i(3), i(-1), i(-1), i(-2))}},
		{Number: 5, Result: score.Result{Dealer: 3, Players: []int64{1, 2}, Points: pts(score.Frac(1, 2), score.Frac(-1, 2), z, z)}},
	}
	in := ledger.SettleInput{Session: ledger.Session{ID: 9, TableID: 5, Seating: seating}, Table: ledger.Table{ID: 5, Name: "Tisch 1"}, Hands: hands}
	l := ledger.BuildSpielliste(ledger.Tournament{ID: 1, HandsPerRound: 24}, ledger.TournamentTable{Table: 5, Name: "Tisch 1"}, ledger.Round{Number: 1}, in)
	want := []string{
		"hand 1 game 1 normal v1 plus [1 3] zero true even/odd true",
		"hand 2 game 0 redeal v0 plus [] zero true even/odd true",
		"hand 3 game 0 void v0 plus [] zero true even/odd true",
		"hand 4 game 2 normal v1 plus [1] zero false even/odd false",  // 4 -2 0 -3
		"hand 5 game 3 normal v1/2 plus [1] zero true even/odd false", // 9/2 -5/2 0 -3
	}
	var got []string
	for _, r := range l.Rows {
		got = append(got, fmt.Sprintf("hand %d game %d %s v%s plus %v zero %v even/odd %v", r.Hand, r.Game, r.Kind, r.Value, r.Plus, r.SumZero, r.EvenOdd))
	}
	if !slices.Equal(got, want) {
		t.Errorf("Spielliste:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if l.Status.Games != 0 || l.Status.GamesLeft != 24 {
		t.Errorf("status %+v: no engine state, so no game counted yet", l.Status)
	}
}
