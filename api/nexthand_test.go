package api_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestAFiveEveningShowsWhoDealsBeforeTheFirstHand walks a score app
// through a five-player Doppelkopf evening: who deals and sits out before
// any hand, the dealer the server chose, an undo, and a new evening of
// four that starts without the last one's sitting out and solos.
func TestAFiveEveningShowsWhoDealsBeforeTheFirstHand(t *testing.T) {
	e := newEnv(t)
	p := e.players("Anna", "Bernd", "Clara", "Dieter", "Emil")
	anna, bernd, clara, dieter, emil := p[0], p[1], p[2], p[3], p[4]
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Fünferrunde", "game": "doppelkopf"})
	table := fmt.Sprintf("/v1/tables/%v", tbl["id"])
	if tbl["open_session_id"] != nil {
		t.Errorf("a new table names open session %v", tbl["open_session_id"])
	}
	wantNext(t, "a new table", tbl["next_hand"], "Geber noch offen; kein Bock", nil, nil)
	if !reflect.DeepEqual(tbl["state"], tbl["next_hand"]) {
		t.Errorf("a new table's state %v is not its next hand %v", tbl["state"], tbl["next_hand"])
	}

	sess := e.must(201, "POST", table+"/sessions", e.admin, map[string]any{"date": "2026-11-19", "player_ids": p})
	wantNext(t, "the opened session", sess["next_hand"], "Anna gibt und setzt aus; kein Bock", &anna, []int64{anna})
	got := e.must(200, "GET", table, e.admin, nil)
	if got["open_session_id"] != sess["id"] || !reflect.DeepEqual(got["next_hand"], sess["next_hand"]) {
		t.Errorf("the table names open session %v and next hand %v, want %v and the session's %v",
			got["open_session_id"], got["next_hand"], sess["id"], sess["next_hand"])
	}

	// The app leaves dealer and players out: the hand keeps whom the server chose.
	hand := func(n int, re ...int64) map[string]any {
		return e.must(201, "POST", table+"/hands", e.admin, map[string]any{"session_id": sess["id"], "number": n,
			"facts": map[string]any{"game": "normal", "re": map[string]any{"players": re, "augen": 150}}})
	}
	h1 := hand(1, bernd, dieter)
	if h1["dealer_id"] != float64(anna) || !reflect.DeepEqual(h1["player_ids"], []any{float64(bernd), float64(clara), float64(dieter), float64(emil)}) {
		t.Errorf("hand 1 was dealt by %v to %v, want Anna to Bernd, Clara, Dieter, Emil", h1["dealer_id"], h1["player_ids"])
	}
	wantNext(t, "after hand 1", e.must(200, "GET", table, e.admin, nil)["next_hand"], "Bernd gibt und setzt aus; kein Bock", &bernd, []int64{bernd})
	hand(2, clara, emil)

	// Undo hand 2 (a scorer may): Bernd deals again; again is the same answer.
	scorer := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})["secret"].(string)
	undo := e.must(200, "POST", table+"/hands/2/undo", scorer, nil)
	undone := undo["hand"].(map[string]any)
	if undone["void"] != true || undone["revision"] != 2.0 {
		t.Errorf("the undone hand: void %v, revision %v", undone["void"], undone["revision"])
	}
	revs := e.must(200, "GET", table+"/hands/2/revisions", e.admin, nil)["revisions"].([]any)
	if reason := revs[len(revs)-1].(map[string]any)["reason"]; reason != "Spiel zurückgenommen" {
		t.Errorf("the undo's reason is %v", reason)
	}
	wantNext(t, "after the undo", undo["next_hand"], "Bernd gibt und setzt aus; kein Bock", &bernd, []int64{bernd})
	res := e.call("POST", table+"/hands/2/undo", e.admin, nil)
	if res.status != 200 || res.header.Get("Idempotent-Replayed") != "true" || res.json(t)["hand"].(map[string]any)["revision"] != 2.0 {
		t.Errorf("undoing hand 2 again: %d, replayed %q: %s", res.status, res.header.Get("Idempotent-Replayed"), res.body)
	}
	hand(3, clara, emil)
	res = e.call("POST", table+"/hands/1/undo", e.admin, nil)
	if res.status != 409 || res.json(t)["last_hand"] != 3.0 {
		t.Errorf("undoing hand 1 before hand 3: %d %s", res.status, res.body)
	}

	// The standings count the hands played and sat out; the undone hand 2
	// counts for nobody.
	want := map[int64][2]float64{anna: {1, 1}, bernd: {1, 1}, clara: {2, 0}, dieter: {2, 0}, emil: {2, 0}}
	for _, st := range e.must(200, "GET", fmt.Sprintf("/v1/sessions/%v/standings", sess["id"]), e.admin, nil)["standings"].([]any) {
		st := st.(map[string]any)
		id := int64(st["player_id"].(float64))
		if got := [2]float64{st["hands"].(float64), st["sat_out"].(float64)}; got != want[id] {
			t.Errorf("player %d played and sat out %v hands, want %v", id, got, want[id])
		}
	}

	// A new evening of four: nobody sits out, the next dealer (Clara) is seated.
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%v/close", sess["id"]), e.admin, nil)
	if res := e.call("POST", table+"/hands/3/undo", e.admin, nil); res.status != 409 || !strings.Contains(string(res.body), "closed") {
		t.Errorf("undoing a hand of a closed session: %d %s", res.status, res.body)
	}
	second := e.must(201, "POST", table+"/sessions", e.admin, map[string]any{"date": "2026-11-26", "player_ids": p[:4]})
	wantNext(t, "the evening of four", second["next_hand"], "Clara gibt; kein Bock", &clara, []int64{})
	next := second["next_hand"].(map[string]any)
	if next["session"] != second["id"] || next["games"] != 0.0 || len(next["solos"].(map[string]any)) != 0 {
		t.Errorf("the evening of four starts with session %v, %v games, solos %v", next["session"], next["games"], next["solos"])
	}
}

// wantNext checks a next hand's summary, dealer and who sits out (nil:
// none named).
func wantNext(t *testing.T, what string, v any, summary string, dealer *int64, sittingOut []int64) {
	t.Helper()
	next, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: next_hand is %v", what, v)
	}
	if next["summary"] != summary {
		t.Errorf("%s: summary %q, want %q", what, next["summary"], summary)
	}
	if dealer != nil && next["next_dealer"] != float64(*dealer) {
		t.Errorf("%s: next dealer %v, want %d", what, next["next_dealer"], *dealer)
	}
	if sittingOut == nil {
		return
	}
	want := []any{}
	for _, id := range sittingOut {
		want = append(want, float64(id))
	}
	if !reflect.DeepEqual(next["next_sitting_out"], want) {
		t.Errorf("%s: sitting out %v, want %v", what, next["next_sitting_out"], want)
	}
}

// TestSessionsAreListedAndLinked: the club's sessions by table, date and
// whether open, a page at a time with a Link to the next.
func TestSessionsAreListedAndLinked(t *testing.T) {
	e := newEnv(t)
	ev := e.evening() // open, 2026-11-19
	// A closed evening is listed once a hand was played in it.
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	later := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", ev.table), e.admin, map[string]any{"date": "2026-11-26", "player_ids": ev.players})
	other := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Nebentisch", "game": "saukopf"})
	e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", other["id"]), e.admin, map[string]any{"date": "2026-11-26", "player_ids": ev.players})

	ids := func(path string) []float64 {
		t.Helper()
		var out []float64
		for _, s := range e.must(200, "GET", path, e.admin, nil)["sessions"].([]any) {
			out = append(out, s.(map[string]any)["id"].(float64))
		}
		return out
	}
	first, second := float64(ev.session), later["id"].(float64)
	for path, want := range map[string][]float64{
		fmt.Sprintf("/v1/sessions?table_id=%d", ev.table):                 {first, second},
		fmt.Sprintf("/v1/tables/%d/sessions", ev.table):                   {first, second},
		fmt.Sprintf("/v1/sessions?table_id=%d&open=true", ev.table):       {second},
		fmt.Sprintf("/v1/sessions?table_id=%d&open=false", ev.table):      {first},
		fmt.Sprintf("/v1/sessions?table_id=%d&from=2026-11-20", ev.table): {second},
		"/v1/sessions?to=2026-11-19":                                      {first},
	} {
		if got := ids(path); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: sessions %v, want %v", path, got, want)
		}
	}

	// Follow the links: three sessions, one per page.
	var seen []float64
	path := "/v1/sessions?limit=1"
	for range 5 {
		res := e.call("GET", path, e.admin, nil)
		for _, s := range res.json(t)["sessions"].([]any) {
			seen = append(seen, s.(map[string]any)["id"].(float64))
		}
		link := res.header.Get("Link")
		if link == "" {
			break
		}
		path = strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`)
	}
	if len(seen) != 3 || seen[0] != first || seen[1] != second {
		t.Errorf("following the links gave sessions %v", seen)
	}
	if res := e.call("GET", "/v1/sessions?from=2026-11-20&to=2026-11-19", e.admin, nil); res.status != 422 {
		t.Errorf("to before from: %d", res.status)
	}
	if s := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%v", later["id"]), e.admin, nil); s["next_hand"] == nil {
		t.Error("an open session has no next hand")
	}
	if s := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d", ev.session), e.admin, nil); s["next_hand"] != nil {
		t.Errorf("a closed session has a next hand %v", s["next_hand"])
	}
}

func TestAPlayerIsFoundByID(t *testing.T) {
	e := newEnv(t)
	p := e.players("Anna")
	if got := e.must(200, "GET", fmt.Sprintf("/v1/players/%d", p[0]), e.admin, nil); got["name"] != "Anna" {
		t.Errorf("player %d is %v", p[0], got)
	}
	if res := e.call("GET", "/v1/players/999999", e.admin, nil); res.status != 404 {
		t.Errorf("an unknown player: %d", res.status)
	}
}
