package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// hand2Right is hand 2 as it really went: Re 121, no Bock trigger.
const hand2Right = `{"game":"normal","re":{"players":[P1,P3],"augen":121}}`

// playEvening records gamestest.BockEvening, the 12-hand Doppelkopf evening
// of TestDoppelkopfBockEvening, at g, with hand n replaced by facts. Hand 2
// is 120:120 (Spaltarsch), which opens a Bock round.
func playEvening(g *gameTable, replace map[int]string) {
	g.open("2026-03-12", 1, 2, 3, 4)
	for i, facts := range gamestest.BockEvening {
		if f, ok := replace[i+1]; ok {
			facts = f
		}
		g.record(facts)
	}
}

// sheet is every hand's current points and the final standings and state.
func sheet(g *gameTable) (hands []string, standings string, state map[string]any) {
	for n := 1; n <= g.hands; n++ {
		h := g.e.must(200, "GET", fmt.Sprintf("%s/%d", g.handsPath(), n), g.e.admin, nil)
		hands = append(hands, byPlayer(h["result"].(map[string]any)["points"], g.players))
	}
	st := g.table()["state"].(map[string]any)
	delete(st, "session") // the session id differs between the two databases
	return hands, g.tableStandings(), st
}

func (g *gameTable) correct(n int, ifMatch string, body map[string]any, want int) map[string]any {
	g.t.Helper()
	return g.e.must(want, "POST", fmt.Sprintf("%s/%d/corrections", g.handsPath(), n), g.e.admin, body, "If-Match", ifMatch)
}

// TestCorrectionRescoresTheRestOfTheEvening corrects hand 2 of a 12-hand
// evening so that it no longer opens a Bock round: every later hand must
// score as in the same evening recorded correctly from the start.
func TestCorrectionRescoresTheRestOfTheEvening(t *testing.T) {
	right := newGameTable(t, "doppelkopf", "", 4)
	playEvening(right, map[int]string{2: hand2Right})
	wantHands, wantStandings, wantState := sheet(right)

	g := newGameTable(t, "doppelkopf", "", 4)
	playEvening(g, nil)
	before := g.e.count("entries")
	res := g.correct(2, `"1"`, map[string]any{"facts": g.facts(hand2Right), "reason": "Re hatte 121, nicht 120"}, 201)
	if rev := res["hand"].(map[string]any)["revision"]; rev != 2.0 {
		t.Errorf("corrected hand at revision %v, want 2", rev)
	}
	if rescored := res["rescored"].([]any); len(rescored) == 0 {
		t.Fatal("no later hand was re-scored, but the Bock round is gone")
	}

	gotHands, gotStandings, gotState := sheet(g)
	for n := range wantHands {
		if gotHands[n] != wantHands[n] {
			t.Errorf("hand %d after the correction: %s, want %s as if recorded right", n+1, gotHands[n], wantHands[n])
		}
	}
	if gotStandings != wantStandings {
		t.Errorf("standings after the correction %s, want %s", gotStandings, wantStandings)
	}
	if fmt.Sprint(gotState) != fmt.Sprint(wantState) {
		t.Errorf("table state after the correction %v, want %v", gotState, wantState)
	}

	// The original entries are all still there; the differences were appended.
	var original, differences int
	if err := g.e.pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE revision = 1), count(*) FILTER (WHERE revision > 1) FROM entries`).Scan(&original, &differences); err != nil {
		t.Fatal(err)
	}
	if original != before || differences == 0 || original+differences != g.e.count("entries") {
		t.Errorf("entries: %d original (had %d), %d differences", original, before, differences)
	}
	if err := postgres.Verify(context.Background(), g.e.pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil); err != nil {
		t.Errorf("verify after the correction: %v", err)
	}
	// The statistics follow the corrected hands.
	for _, part := range strings.Fields(gotStandings) {
		id, pts, _ := strings.Cut(part, ":")
		pts, _, _ = strings.Cut(pts, "/")
		st := g.e.must(200, "GET", "/v1/stats/players/"+id, g.e.admin, nil)
		if st["points"] != pts {
			t.Errorf("player %s: statistics say %v points, the standings %s", id, st["points"], pts)
		}
	}

	// The audit trail keeps both versions of hand 2.
	revs := g.e.must(200, "GET", fmt.Sprintf("%s/2/revisions", g.handsPath()), g.e.admin, nil)["revisions"].([]any)
	if len(revs) != 2 || revs[1].(map[string]any)["reason"] != "Re hatte 121, nicht 120" {
		t.Errorf("revisions of hand 2: %v", revs)
	}

	// A stale correction (of revision 1, now 2) is refused; none is 428.
	g.correct(2, `"1"`, map[string]any{"facts": g.facts(hand2Right), "reason": "nochmal"}, 412)
	g.e.must(428, "POST", fmt.Sprintf("%s/2/corrections", g.handsPath()), g.e.admin, map[string]any{"facts": g.facts(hand2Right), "reason": "x"})
}

func TestVoidingAHandRemovesItsBockTrigger(t *testing.T) {
	right := newGameTable(t, "doppelkopf", "", 4)
	playEvening(right, map[int]string{2: `{"game":"schmeissen"}`}) // a hand that counts for nothing
	wantHands, wantStandings, _ := sheet(right)

	g := newGameTable(t, "doppelkopf", "", 4)
	playEvening(g, nil)
	res := g.correct(2, `"1"`, map[string]any{"void": true, "reason": "falsch gegeben"}, 201)
	void := res["hand"].(map[string]any)
	if void["void"] != true {
		t.Errorf("hand 2 is not void: %v", void)
	}
	for _, p := range void["result"].(map[string]any)["points"].([]any) {
		if pts := p.(map[string]any)["points"]; pts != "0" {
			t.Errorf("a voided hand scores %v for player %v, want 0", pts, p.(map[string]any)["player"])
		}
	}
	gotHands, gotStandings, _ := sheet(g)
	for n := 2; n < len(wantHands); n++ { // hand 2 itself: a redeal vs a void, both 0
		if gotHands[n] != wantHands[n] {
			t.Errorf("hand %d after voiding hand 2: %s, want %s", n+1, gotHands[n], wantHands[n])
		}
	}
	if gotStandings != wantStandings {
		t.Errorf("standings after voiding %s, want %s", gotStandings, wantStandings)
	}
}

func TestCorrectingAClosedSessionNeedsAnAdminAndResettles(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 4)
	playEvening(g, nil)
	g.close()
	scorer := g.e.must(201, "POST", "/v1/keys", g.e.admin, map[string]any{"role": "scorer"})["secret"].(string)
	g.e.must(403, "POST", fmt.Sprintf("%s/2/corrections", g.handsPath()), scorer,
		map[string]any{"facts": g.facts(hand2Right), "reason": "x"}, "If-Match", "1")
	res := g.correct(2, "1", map[string]any{"facts": g.facts(hand2Right), "reason": "nach dem Abend bemerkt"}, 201)
	if got := res["resettled_session_ids"].([]any); len(got) != 1 {
		t.Fatalf("settlements recomputed: %v, want the closed session", got)
	}
	st := g.e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", g.session), g.e.admin, nil)
	if st["version"] != 2.0 {
		t.Errorf("settlement version %v after the correction, want 2", st["version"])
	}
	var net int64
	standings := map[string]string{}
	for _, p := range st["players"].([]any) {
		pm := p.(map[string]any)
		net += int64(pm["net_cents"].(float64))
		standings[fmt.Sprint(pm["player_id"])] = pm["points"].(string)
	}
	if net != 0 {
		t.Errorf("corrected settlement sums to %d cents", net)
	}
	for _, part := range strings.Fields(g.tableStandings()) {
		id, pts, _ := strings.Cut(part, ":")
		pts, _, _ = strings.Cut(pts, "/")
		if standings[id] != pts {
			t.Errorf("settlement v2 has player %s at %s points, the standings %s", id, standings[id], pts)
		}
	}
}

// TestOutboxBatch sends 50 queued hands twice, and a queue with a refused
// hand in the middle.
func TestOutboxBatch(t *testing.T) {
	g := newGameTable(t, "schwarze_dame", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	ev := evening{table: g.id, session: g.session, players: g.players}
	queue := func(from, to int, broken int) []map[string]any {
		var hands []map[string]any
		for n := from; n <= to; n++ {
			h := ev.hand(n)
			h["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
			if n == broken {
				h["facts"].(map[string]any)["players"].([]map[string]any)[0]["tricks"] = 5
			}
			hands = append(hands, h)
		}
		return hands
	}
	statuses := func(res map[string]any) map[string]int {
		out := map[string]int{}
		for _, r := range res["results"].([]any) {
			out[r.(map[string]any)["status"].(string)]++
		}
		return out
	}
	path := g.handsPath() + "/batch"
	first := g.e.must(200, "POST", path, g.e.admin, map[string]any{"hands": queue(1, 50, 0)})
	if s := statuses(first); s["applied"] != 50 {
		t.Fatalf("first send: %v, want 50 applied", s)
	}
	again := g.e.must(200, "POST", path, g.e.admin, map[string]any{"hands": queue(1, 50, 0)})
	if s := statuses(again); s["already_applied"] != 50 {
		t.Errorf("second send: %v, want 50 already applied", s)
	}
	if n := g.e.count("hands"); n != 50 {
		t.Errorf("%d hands stored, want 50", n)
	}

	res := g.e.must(200, "POST", path, g.e.admin, map[string]any{"hands": queue(51, 70, 60)})
	results := res["results"].([]any)
	for i, r := range results {
		status := r.(map[string]any)["status"]
		want := map[bool]string{true: "applied"}[i < 9]
		switch {
		case i == 9:
			want = "refused"
		case i > 9:
			want = "not_applied"
		}
		if status != want {
			t.Errorf("queued hand %d: %v, want %s", 51+i, status, want)
		}
	}
	if p := results[9].(map[string]any)["problem"].(map[string]any); p["field"] != "facts.players[].tricks" {
		t.Errorf("refused hand's problem names %v", p["field"])
	}
	if n := g.e.count("hands"); n != 59 {
		t.Errorf("%d hands stored, want 59", n)
	}
	// The same id with another hand is refused, not applied twice.
	other := queue(1, 1, 0)
	other[0]["number"] = 60
	res = g.e.must(200, "POST", path, g.e.admin, map[string]any{"hands": other})
	if s := statuses(res); s["refused"] != 1 {
		t.Errorf("a reused hand id with another hand: %v", s)
	}
}

// TestChangeFeedUnderConcurrentWriters reads the feed while 16 goroutines
// record hands on 4 tables: strictly increasing, gap-free, each change once.
func TestChangeFeedUnderConcurrentWriters(t *testing.T) {
	e := newEnv(t)
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	var tables []evening
	for i := range 4 {
		tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprint("Tisch ", i), "game": "schwarze_dame"})
		id := int64(tbl["id"].(float64))
		s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", id), e.admin, map[string]any{"player_ids": players})
		tables = append(tables, evening{table: id, session: int64(s["id"].(float64)), players: players})
	}
	const perWriter = 6
	done := make(chan struct{})
	var seen []int64
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		var after int64
		for {
			// Whether the writers were done before this read began: only
			// then does an empty page mean the feed is read to its end.
			finished := false
			select {
			case <-done:
				finished = true
			default:
			}
			page := e.must(200, "GET", fmt.Sprintf("/v1/changes?after=%d&limit=1000", after), e.admin, nil)
			for _, c := range page["changes"].([]any) {
				seq := int64(c.(map[string]any)["seq"].(float64))
				seen = append(seen, seq)
				after = seq
			}
			if finished && len(page["changes"].([]any)) == 0 {
				return
			}
		}
	}()
	errs := make(chan error, 16)
	for w := range 16 {
		go func() {
			ev := tables[w%4]
			for range perWriter {
				if err := recordNext(e, ev); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	<-readerDone
	want := 4 + 16*perWriter // the sessions opened, then every hand
	if len(seen) != want {
		t.Fatalf("the feed gave %d changes, want %d", len(seen), want)
	}
	for i, seq := range seen {
		if seq != int64(i+1) {
			t.Fatalf("change %d has number %d: the feed is not gap-free and in order: %v", i+1, seq, seen)
		}
	}
}

// recordNext records the table's next hand, retrying on 409 as two phones
// racing for the same number would.
func recordNext(e *env, ev evening) error {
	for range 100 {
		tbl := e.call("GET", fmt.Sprintf("/v1/tables/%d", ev.table), e.admin, nil)
		var t struct{ Hands int }
		if err := json.Unmarshal(tbl.body, &t); err != nil {
			return err
		}
		res := e.call("POST", ev.hands(), e.admin, ev.hand(t.Hands+1))
		switch res.status {
		case 201:
			return nil
		case 409:
			continue
		default:
			return fmt.Errorf("recording: %d %s", res.status, res.body)
		}
	}
	return fmt.Errorf("table %d: no hand recorded after 100 tries", ev.table)
}
