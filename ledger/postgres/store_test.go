package postgres_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is a club with four players, a Schwarze Dame table and an open session.
type fixture struct {
	store   *ledger.Service
	pool    *pgxpool.Pool
	actor   ledger.Actor
	players []int64
	table   ledger.Table
	session ledger.Session
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.New(t)
	store := postgres.New(pool, pgtest.ChainKey).Service()
	_, secret, err := store.CreateClub(ctx, ledger.NewClub{Name: "Skatfreunde Eichel", TimeZone: "Europe/Berlin"})
	must(t, err)
	actor, err := store.Authenticate(ctx, secret)
	must(t, err)
	f := fixture{store: store, pool: pool, actor: actor}
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := store.CreatePlayer(ctx, actor, name, nil)
		must(t, err)
		f.players = append(f.players, p.ID)
	}
	f.table, _, err = store.CreateTable(ctx, actor, ledger.NewTable{Name: "Donnerstag", Game: "schwarze_dame", Stake: score.Frac(1, 2)}, nil)
	must(t, err)
	f.session, _, err = store.OpenSession(ctx, actor, f.table.ID, "2026-11-19", f.players, nil)
	must(t, err)
	return f
}

// exampleA is worked example A of games/schwarzedame/README.md: +20, -10, +3, -13.
func (f fixture) exampleA() json.RawMessage {
	p := f.players
	return json.RawMessage(fmt.Sprintf(`{"dealer": %d, "players": [
		{"player": %d, "tricks": 4, "hearts": [2, 5, 13]},
		{"player": %d, "tricks": 3, "hearts": [14], "pik_dame": true},
		{"player": %d, "tricks": 5, "hearts": [3, 4, 6, 7, 8, 9, 10]},
		{"player": %d, "tricks": 1, "hearts": [11, 12]}]}`, p[0], p[0], p[1], p[2], p[3]))
}

func (f fixture) record(t *testing.T, number int, idem *ledger.Idempotency) (ledger.Hand, bool, error) {
	t.Helper()
	return f.store.RecordHand(context.Background(), f.actor, ledger.NewHand{
		TableID: f.table.ID, SessionID: f.session.ID, Number: number, Facts: f.exampleA(),
	}, idem)
}

// TestLateRetryReplaysAfterTheNumberMovedOn: a phone whose answer to hand
// 1 was lost retries after hand 2 is recorded. Its key gets the replay of
// its hand, not a 409; a new key for number 1 gets the 409 naming 3; the
// same key with other facts is refused as a reused key; a missing table is
// named. Nothing new is stored by any of them.
func TestLateRetryReplaysAfterTheNumberMovedOn(t *testing.T) {
	f := newFixture(t)
	first := &ledger.Idempotency{Key: "phone-a-hand-1", Hash: []byte("body of hand 1")}
	h1, _, err := f.record(t, 1, first)
	must(t, err)
	_, _, err = f.record(t, 2, &ledger.Idempotency{Key: "phone-b-hand-2", Hash: []byte("body of hand 2")})
	must(t, err)

	again, replayed, err := f.record(t, 1, first)
	if err != nil || !replayed || again.ID != h1.ID {
		t.Errorf("late retry of hand 1: hand %d, replayed %v, %v; want hand %d replayed", again.ID, replayed, err, h1.ID)
	}
	_, _, err = f.record(t, 1, &ledger.Idempotency{Key: "phone-c-hand-1", Hash: []byte("body of hand 1")})
	var le *ledger.Error
	if !errors.As(err, &le) || le.Code != ledger.ECONFLICT || le.Extra["next_number"] != 3 {
		t.Errorf("a new key for a taken number: %v, want a conflict naming next number 3", err)
	}
	_, _, err = f.record(t, 1, &ledger.Idempotency{Key: "phone-a-hand-1", Hash: []byte("other facts")})
	if ledger.ErrorCode(err) != ledger.EIDEMPOTENCY {
		t.Errorf("the same key with other facts: %v, want %s", err, ledger.EIDEMPOTENCY)
	}
	_, _, err = f.store.RecordHand(context.Background(), f.actor, ledger.NewHand{TableID: 999999, SessionID: f.session.ID, Number: 1, Facts: f.exampleA()}, nil)
	if ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("a missing table: %v, want %s", err, ledger.ENOTFOUND)
	}
	var hands int
	must(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM hands`).Scan(&hands))
	if hands != 2 {
		t.Errorf("%d hands stored, want 2", hands)
	}
}

func TestRecordHandStoresEntriesAndTotals(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for n := 1; n <= 3; n++ {
		h, replayed, err := f.record(t, n, nil)
		must(t, err)
		if replayed || h.Number != n {
			t.Fatalf("hand %d: got number %d, replayed %v", n, h.Number, replayed)
		}
	}
	standings, err := f.store.TableStandings(ctx, f.actor, f.table.ID)
	must(t, err)
	want := map[int64]string{f.players[0]: "60", f.players[1]: "-30", f.players[2]: "9", f.players[3]: "-39"}
	if len(standings) != 4 {
		t.Fatalf("got %d standings, want 4", len(standings))
	}
	for _, st := range standings {
		if st.Points.String() != want[st.Player] || st.Hands != 3 {
			t.Errorf("player %d: %s after %d hands, want %s after 3", st.Player, st.Points, st.Hands, want[st.Player])
		}
	}
	if standings[0].Player != f.players[0] || standings[3].Player != f.players[3] {
		t.Errorf("standings not ordered best first: %+v", standings)
	}
	session, err := f.store.SessionStandings(ctx, f.actor, f.session.ID)
	must(t, err)
	if fmt.Sprint(session) != fmt.Sprint(standings) {
		t.Errorf("session standings %v differ from table standings %v of a one-session table", session, standings)
	}
	// Totals equal the sum of entries, summed exactly per denominator.
	var mismatches int
	err = f.pool.QueryRow(ctx, `
		SELECT count(*) FROM table_totals t
		WHERE (t.num, t.den) <> (SELECT sum(num), 1 FROM entries e
		                         WHERE e.club_id = t.club_id AND e.table_id = t.table_id AND e.player_id = t.player_id)`).Scan(&mismatches)
	must(t, err)
	if mismatches != 0 {
		t.Errorf("%d totals differ from their entries", mismatches)
	}
	tbl, err := f.store.FindTable(ctx, f.actor, f.table.ID)
	must(t, err)
	var st struct {
		HandsPlayed int `json:"hands_played"`
	}
	must(t, json.Unmarshal(tbl.State, &st))
	if tbl.Hands != 3 || st.HandsPlayed != 3 {
		t.Errorf("table after 3 hands: hands %d, state %s", tbl.Hands, tbl.State)
	}
}

func TestRatAddKeepsFractionsExact(t *testing.T) {
	pool := pgtest.New(t)
	cases := []struct{ an, ad, bn, bd, num, den int64 }{
		{1, 3, 1, 3, 2, 3},
		{1, 3, 2, 3, 1, 1},
		{-7, 2, 1, 3, -19, 6},
		{5, 1, -5, 1, 0, 1},
		{14, 3, -14, 3, 0, 1},
	}
	for _, c := range cases {
		var num, den int64
		must(t, pool.QueryRow(context.Background(), `SELECT num, den FROM rat_add($1, $2, $3, $4)`, c.an, c.ad, c.bn, c.bd).Scan(&num, &den))
		if num != c.num || den != c.den {
			t.Errorf("%d/%d + %d/%d = %d/%d, want %d/%d", c.an, c.ad, c.bn, c.bd, num, den, c.num, c.den)
		}
	}
}

// TestRatSumIsExact checks the aggregate verify and the exports rely on
// against score.Points: thirds, halves and sevenths mixed, signs, sums of
// zero, the empty sum, and an overflow that must fail rather than wrap.
func TestRatSumIsExact(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	cases := [][][2]int64{
		{},
		{{14, 3}, {14, 3}, {14, 3}, {-14, 1}},
		{{1, 2}, {1, 3}, {1, 7}, {-5, 6}},
		{{-120, 1}, {-45, 2}, {7, 1}},
	}
	var random [][2]int64
	for i := range int64(500) {
		random = append(random, [2]int64{(i*7919)%201 - 100, []int64{1, 2, 3, 6, 7}[i%5]})
	}
	cases = append(cases, random)
	for _, c := range cases {
		want := score.Int(0)
		nums, dens := []int64{}, []int64{}
		for _, x := range c {
			want = want.Add(score.Frac(x[0], x[1]))
			nums, dens = append(nums, x[0]), append(dens, x[1])
		}
		var got []int64
		must(t, pool.QueryRow(ctx, `SELECT coalesce(rat_sum(n, d), '{0,1}') FROM unnest($1::bigint[], $2::bigint[]) AS x(n, d)`, nums, dens).Scan(&got))
		if len(got) != 2 || got[0] != want.Num() || got[1] != want.Den() {
			t.Errorf("rat_sum of %v = %v, want %s", c, got, want)
		}
	}
	var got []int64
	err := pool.QueryRow(ctx, `SELECT rat_sum(n, d) FROM unnest('{9223372036854775807,1}'::bigint[], '{1,1}'::bigint[]) AS x(n, d)`).Scan(&got)
	if err == nil {
		t.Errorf("rat_sum past the range of bigint gave %v, want an error", got)
	}
}

func TestHistoryIsAppendOnly(t *testing.T) {
	f := newFixture(t)
	_, _, err := f.record(t, 1, nil)
	must(t, err)
	ctx := context.Background()
	for _, sql := range []string{
		`UPDATE entries SET num = num + 1`,
		`DELETE FROM entries`,
		`UPDATE hands SET facts = '{}'`,
		`UPDATE hands SET entry_nums[1] = 0`,
		`DELETE FROM hands`,
		`TRUNCATE entries`,
		`TRUNCATE hands CASCADE`,
	} {
		if _, err := f.pool.Exec(ctx, sql); err == nil {
			t.Errorf("%s: succeeded, want it refused", sql)
		}
	}
	var n int
	must(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM entries`).Scan(&n))
	if n != 4 {
		t.Errorf("%d entries after refused changes, want 4", n)
	}
}

func TestRecordHandRefusesWrongNumberAndInvalidFacts(t *testing.T) {
	f := newFixture(t)
	_, _, err := f.record(t, 2, nil)
	assertCode(t, err, ledger.ECONFLICT)
	var le *ledger.Error
	if errors.As(err, &le) && le.Extra["next_number"] != 1 {
		t.Errorf("conflict names next number %v, want 1", le.Extra["next_number"])
	}
	_, _, err = f.store.RecordHand(context.Background(), f.actor, ledger.NewHand{
		TableID: f.table.ID, SessionID: f.session.ID, Number: 1,
		Facts: json.RawMessage(`{"dealer": 1, "players": []}`),
	}, nil)
	assertCode(t, err, ledger.EINVALID)
	assertCount(t, f.pool, "hands", 0)
	assertCount(t, f.pool, "entries", 0)
}

func TestIdempotentRetriesStoreOnce(t *testing.T) {
	f := newFixture(t)
	idem := &ledger.Idempotency{Key: "hand-1", Hash: hash("body-1")}
	var wg sync.WaitGroup
	results := make([]ledger.Hand, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Go(func() { results[i], _, errs[i] = f.record(t, 1, idem) })
	}
	wg.Wait()
	for i := range 3 {
		must(t, errs[i])
		if results[i].ID != results[0].ID {
			t.Errorf("retry %d got hand %d, want the first hand %d", i, results[i].ID, results[0].ID)
		}
	}
	assertCount(t, f.pool, "hands", 1)
	_, _, err := f.record(t, 1, &ledger.Idempotency{Key: "hand-1", Hash: hash("another body")})
	assertCode(t, err, ledger.EIDEMPOTENCY)
}

func TestConcurrentHandsWithOneNumber(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() {
			_, _, errs[i] = f.record(t, 1, &ledger.Idempotency{Key: fmt.Sprint("phone-", i), Hash: hash(fmt.Sprint(i))})
		})
	}
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch ledger.ErrorCode(err) {
		case "":
			ok++
		case ledger.ECONFLICT:
			conflicts++
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	if ok != 1 || conflicts != 1 {
		t.Errorf("got %d stored and %d conflicts, want 1 and 1", ok, conflicts)
	}
	assertCount(t, f.pool, "hands", 1)
}

func TestClubsSeeNothingOfEachOther(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, secret, err := f.store.CreateClub(ctx, ledger.NewClub{Name: "Doko-Runde Süd", TimeZone: ""})
	must(t, err)
	other, err := f.store.Authenticate(ctx, secret)
	must(t, err)
	_, err = f.store.FindTable(ctx, other, f.table.ID)
	assertCode(t, err, ledger.ENOTFOUND)
	_, err = f.store.FindSession(ctx, other, f.session.ID)
	assertCode(t, err, ledger.ENOTFOUND)
	_, _, err = f.store.RecordHand(ctx, other, ledger.NewHand{TableID: f.table.ID, SessionID: f.session.ID, Number: 1, Facts: f.exampleA()}, nil)
	assertCode(t, err, ledger.ENOTFOUND)
	_, _, err = f.store.OpenSession(ctx, other, f.table.ID, "", f.players, nil)
	assertCode(t, err, ledger.ENOTFOUND)
	players, err := f.store.ListPlayers(ctx, other, ledger.Page{})
	must(t, err)
	if len(players) != 0 {
		t.Errorf("another club lists %d players, want 0", len(players))
	}
}

func TestClosedSessionTakesNoHands(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	closed, err := f.store.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	if closed.Open() {
		t.Fatal("session still open after close")
	}
	_, _, err = f.record(t, 1, nil)
	assertCode(t, err, ledger.ECONFLICT)
	// A new evening can open once the old one is closed.
	_, _, err = f.store.OpenSession(ctx, f.actor, f.table.ID, "2026-11-26", f.players, nil)
	must(t, err)
	_, _, err = f.store.OpenSession(ctx, f.actor, f.table.ID, "2026-11-26", f.players, nil)
	assertCode(t, err, ledger.ECONFLICT)
}

func TestAuthenticateRefusesBadKeys(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, secret, err := f.store.CreateKey(ctx, f.actor, ledger.RoleReader, "Tafel")
	must(t, err)
	reader, err := f.store.Authenticate(ctx, secret)
	must(t, err)
	if reader.Role != ledger.RoleReader || reader.ClubID != f.actor.ClubID {
		t.Errorf("reader key resolves to %+v", reader)
	}
	tampered := secret[:len(secret)-1] + "x"
	if secret[len(secret)-1] == 'x' {
		tampered = secret[:len(secret)-1] + "y"
	}
	for _, bad := range []string{"", "sb_", "Bearer x", tampered, "sb_1_1_" + secret[len(secret)-43:]} {
		_, err := f.store.Authenticate(ctx, bad)
		assertCode(t, err, ledger.EUNAUTHORIZED)
	}
}

func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func assertCount(t *testing.T, pool *pgxpool.Pool, table string, want int) {
	t.Helper()
	var n int
	must(t, pool.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n))
	if n != want {
		t.Errorf("%s holds %d rows, want %d", table, n, want)
	}
}

func assertCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := ledger.ErrorCode(err); got != code {
		t.Errorf("error %v: code %q, want %q", err, got, code)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestEveryKeyCarriesClubID keeps the schema ready for distribution by club
// (Citus): every primary, unique and foreign key includes club_id.
func TestEveryKeyCarriesClubID(t *testing.T) {
	pool := pgtest.New(t)
	rows, err := pool.Query(context.Background(), `
		SELECT c.conrelid::regclass::text, c.conname, c.contype::text
		FROM pg_constraint c
		JOIN pg_namespace n ON n.oid = c.connamespace
		WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f')
		  AND c.conrelid::regclass::text <> 'goose_db_version'
		  AND NOT EXISTS (
		      SELECT 1 FROM unnest(c.conkey) k
		      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k
		      WHERE a.attname = 'club_id')
		UNION ALL
		SELECT i.indrelid::regclass::text, i.indexrelid::regclass::text, 'unique index'
		FROM pg_index i
		JOIN pg_class t ON t.oid = i.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = 'public' AND i.indisunique AND t.relname <> 'goose_db_version'
		  AND NOT EXISTS (
		      SELECT 1 FROM unnest(i.indkey) k
		      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k
		      WHERE a.attname = 'club_id')`)
	must(t, err)
	defer rows.Close()
	for rows.Next() {
		var table, name, kind string
		must(t, rows.Scan(&table, &name, &kind))
		t.Errorf("%s: %s (%s) does not include club_id", table, name, kind)
	}
	must(t, rows.Err())
}

// TestAHotTableStaysGapFree: sixteen phones race for every hand of one
// table. Each hand is stored once, numbered without a gap; the losers get
// 409 (or, having lost a compare-and-set, read again and then get it), and
// nothing of a lost write is left: the ledger verifies.
func TestAHotTableStaysGapFree(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const phones, hands = 16, 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := map[int]int{}
	for p := range phones {
		wg.Go(func() {
			for n := 1; n <= hands; {
				_, _, err := f.store.RecordHand(ctx, f.actor, ledger.NewHand{
					TableID: f.table.ID, SessionID: f.session.ID, Number: n, Facts: f.exampleA(),
				}, &ledger.Idempotency{Key: fmt.Sprintf("phone-%d-hand-%d", p, n), Hash: hash(fmt.Sprint(p, n))})
				switch e := ledger.AsError(err); {
				case err == nil:
					mu.Lock()
					stored[n]++
					mu.Unlock()
					n++
				case e.Code == ledger.ECONFLICT:
					n = e.Extra["next_number"].(int)
				default:
					t.Errorf("phone %d, hand %d: %v", p, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for n := 1; n <= hands; n++ {
		if stored[n] != 1 {
			t.Errorf("hand %d stored %d times", n, stored[n])
		}
	}
	assertCount(t, f.pool, "hands", hands)
	assertCount(t, f.pool, "entries", 4*hands)
	assertCount(t, f.pool, "idempotency_keys", hands)
	if err := verify(f); err != nil {
		t.Errorf("verify after the race: %v", err)
	}
}

// TestOneKeyForTwoTablesAtOnce: the same Idempotency-Key sent for hands of
// two tables at once stores one hand; the other request is refused as a
// reused key, whichever wins.
func TestOneKeyForTwoTablesAtOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	other, _, err := f.store.CreateTable(ctx, f.actor, ledger.NewTable{Name: "Freitag", Game: "schwarze_dame"}, nil)
	must(t, err)
	_, err = f.store.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	s1, _, err := f.store.OpenSession(ctx, f.actor, f.table.ID, "2026-11-20", f.players, nil)
	must(t, err)
	s2, _, err := f.store.OpenSession(ctx, f.actor, other.ID, "2026-11-20", f.players, nil)
	must(t, err)
	for round := range 5 {
		key := fmt.Sprint("shared-", round)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, ts := range [][2]int64{{f.table.ID, s1.ID}, {other.ID, s2.ID}} {
			wg.Go(func() {
				_, _, errs[i] = f.store.RecordHand(ctx, f.actor, ledger.NewHand{TableID: ts[0], SessionID: ts[1], Number: round + 1, Facts: f.exampleA()},
					&ledger.Idempotency{Key: key, Hash: hash(fmt.Sprint(ts[0]))})
			})
		}
		wg.Wait()
		codes := []string{ledger.ErrorCode(errs[0]), ledger.ErrorCode(errs[1])}
		if !(codes[0] == "" && codes[1] == ledger.EIDEMPOTENCY) && !(codes[1] == "" && codes[0] == ledger.EIDEMPOTENCY) {
			t.Fatalf("round %d: %v and %v, want one stored and one reused key", round, errs[0], errs[1])
		}
		// The losing table's next number stays where it was.
		if errs[0] != nil {
			_, _, err = f.record2(t, f.table.ID, s1.ID, round+1)
		} else {
			_, _, err = f.record2(t, other.ID, s2.ID, round+1)
		}
		must(t, err)
	}
}

func (f fixture) record2(t *testing.T, table, session int64, number int) (ledger.Hand, bool, error) {
	t.Helper()
	return f.store.RecordHand(context.Background(), f.actor, ledger.NewHand{TableID: table, SessionID: session, Number: number, Facts: f.exampleA()}, nil)
}

// TestAHandsRowIsCompact: a new hand keeps its texts packed and its
// entries in its own row, a few hundred bytes, and reads back as recorded.
func TestAHandsRowIsCompact(t *testing.T) {
	f := newFixture(t)
	recorded, _, err := f.record(t, 1, nil)
	must(t, err)
	var packed, json bool
	var entries, size int
	must(t, f.pool.QueryRow(context.Background(), `
		SELECT body IS NOT NULL, facts IS NOT NULL OR result IS NOT NULL OR state_after IS NOT NULL,
		       cardinality(entry_players), pg_column_size(h.*)
		FROM hands h WHERE hand_id = $1`, recorded.ID).Scan(&packed, &json, &entries, &size))
	if !packed || json || entries != 4 || size > 800 {
		t.Errorf("hand 1's row: packed %v, JSON columns %v, %d entries, %d bytes; want packed, none, 4, at most 800", packed, json, entries, size)
	}
	read, err := f.store.FindHand(context.Background(), f.actor, f.table.ID, 1)
	must(t, err)
	if string(read.Facts) != string(recorded.Facts) || jsonOf(t, read.Result.Points) != jsonOf(t, recorded.Result.Points) ||
		string(read.Result.State) != string(recorded.Result.State) || read.Result.Title != recorded.Result.Title {
		t.Errorf("hand 1 read back as %+v, recorded %+v", read, recorded)
	}
}
