package api_test

// The four game engines end to end: every hand goes through the real router
// (request and response checked against openapi.yaml) into a real
// PostgreSQL, and the tests compare the stored results, the running totals
// and the table state with values computed by hand.
//
// Facts are written with the placeholders P1, P2, … for the players the API
// created (in creation order). The hands the engines' own tests play too
// are in ledger/games/gamestest, written once; those tests seat them with
// the ids 1..n.

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// gameTable is one table of a game with its players, its open session and
// the number of hands recorded so far.
type gameTable struct {
	e       *env
	t       *testing.T
	id      int64
	session int64
	players []int64 // P1, P2, … in creation order
	ids     *strings.Replacer
	hands   int
}

// newGameTable creates n players and a table of game with the option
// overrides (a JSON object or "").
func newGameTable(t *testing.T, game, options string, n int) *gameTable {
	t.Helper()
	return newGameTableWith(t, game, options, nil, n)
}

// newGameTableWith is newGameTable with more of the table's fields (a
// stake, a settle mode).
func newGameTableWith(t *testing.T, game, options string, more map[string]any, n int) *gameTable {
	t.Helper()
	e := newEnv(t)
	g := &gameTable{e: e, t: t}
	names := []string{"Anna", "Bernd", "Clara", "Dieter", "Erika", "Frieda", "Günter"}
	var pairs []string
	for i := range n {
		p := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": names[i]})
		id := int64(p["id"].(float64))
		g.players = append(g.players, id)
		pairs = append(pairs, fmt.Sprintf("P%d", i+1), fmt.Sprint(id))
		pairs = append(pairs, fmt.Sprintf("@%d", i+1), names[i])
	}
	g.ids = strings.NewReplacer(pairs...)
	body := map[string]any{"name": "Stammtisch " + game, "game": game}
	for k, v := range more {
		body[k] = v
	}
	if options != "" {
		body["options"] = json.RawMessage(options)
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, body)
	g.id = int64(tbl["id"].(float64))
	return g
}

// nameOf returns the name of the player with the id id (as a string).
func (g *gameTable) nameOf(id string) string {
	for i, p := range g.players {
		if fmt.Sprint(p) == id {
			return g.want(fmt.Sprintf("@%d", i+1))
		}
	}
	return "Spieler " + id
}

// p returns the id of player Pn.
func (g *gameTable) p(n int) int64 { return g.players[n-1] }

// seats returns the ids of the players Pn for the given n.
func (g *gameTable) seats(ns ...int) []int64 {
	out := make([]int64, len(ns))
	for i, n := range ns {
		out[i] = g.p(n)
	}
	return out
}

// facts replaces the placeholders P1, P2, … by the players' ids.
func (g *gameTable) facts(s string) json.RawMessage {
	g.t.Helper()
	raw := json.RawMessage(g.ids.Replace(s))
	if !json.Valid(raw) {
		g.t.Fatalf("test facts are not JSON: %s", raw)
	}
	return raw
}

// want replaces the placeholders in an expected text.
// (and the names of @1, @2, …, as texts name the players).
func (g *gameTable) want(s string) string { return g.ids.Replace(s) }

// open opens a session on date with the players Pn seated in this order.
func (g *gameTable) open(date string, seats ...int) {
	g.t.Helper()
	s := g.e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", g.id), g.e.admin,
		map[string]any{"date": date, "player_ids": g.seats(seats...)})
	g.session = int64(s["id"].(float64))
	if s["date"] != date {
		g.t.Fatalf("session date %v, want %s", s["date"], date)
	}
}

func (g *gameTable) close() {
	g.t.Helper()
	s := g.e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", g.session), g.e.admin, nil)
	if s["closed_at"] == nil {
		g.t.Fatalf("session %d not closed: %v", g.session, s)
	}
}

func (g *gameTable) handsPath() string { return fmt.Sprintf("/v1/tables/%d/hands", g.id) }

// record records the next hand and returns its result; the hand must be
// stored with its number and facts and sum as the game demands.
func (g *gameTable) record(facts string) map[string]any {
	g.t.Helper()
	h := g.e.must(201, "POST", g.handsPath(), g.e.admin,
		map[string]any{"session_id": g.session, "number": g.hands + 1, "facts": g.facts(facts)})
	g.hands++
	if h["number"] != float64(g.hands) || h["session_id"] != float64(g.session) {
		g.t.Fatalf("hand stored as number %v of session %v, want %d of %d", h["number"], h["session_id"], g.hands, g.session)
	}
	return h["result"].(map[string]any)
}

// refuse records a hand that must be refused with 422 naming field, and
// checks that nothing was stored and the table state is unchanged. It
// reports with Errorf, so every case of a list is tried.
func (g *gameTable) refuse(name, facts, field string) {
	g.t.Helper()
	before := g.e.count("hands") + g.e.count("entries") + g.e.count("table_totals") + g.e.count("session_totals")
	stateBefore := g.table()["state"]
	res := g.e.call("POST", g.handsPath(), g.e.admin,
		map[string]any{"session_id": g.session, "number": g.hands + 1, "facts": g.facts(facts)})
	if res.status != 422 {
		g.t.Errorf("%s: status %d, want 422: %s", name, res.status, res.body)
	} else {
		p := res.json(g.t)
		if p["field"] != field {
			g.t.Errorf("%s: refused on field %q (rule %q), want %q", name, p["field"], p["rule"], field)
		}
		if r, _ := p["rule"].(string); r == "" {
			g.t.Errorf("%s: the refusal names no rule", name)
		}
	}
	if n := g.e.count("hands") + g.e.count("entries") + g.e.count("table_totals") + g.e.count("session_totals"); n != before {
		g.t.Errorf("%s: a refused hand changed the stored rows from %d to %d", name, before, n)
	}
	if tbl := g.table(); !reflect.DeepEqual(tbl["state"], stateBefore) {
		g.t.Errorf("%s: a refused hand changed the table state to %v", name, tbl["state"])
	}
}

// table returns the table; its hand count must be the hands recorded.
func (g *gameTable) table() map[string]any {
	g.t.Helper()
	tbl := g.e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", g.id), g.e.admin, nil)
	if tbl["hands"] != float64(g.hands) {
		g.t.Fatalf("table has %v hands, want %d", tbl["hands"], g.hands)
	}
	return tbl
}

// state returns the table's state, checked against the game's state schema.
func (g *gameTable) state(schema string) map[string]any {
	g.t.Helper()
	st := g.table()["state"].(map[string]any)
	checkSchema(g.t, schema, st)
	return st
}

// hand returns stored hand number n.
func (g *gameTable) hand(n int) map[string]any {
	g.t.Helper()
	return g.e.must(200, "GET", fmt.Sprintf("%s/%d", g.handsPath(), n), g.e.admin, nil)
}

// standings returns the standings at path as "id:points/hands" in the order
// of the players given (P1, P2, …), "id:-" for a player without an entry,
// and checks the list is sorted best first, then by name.
func (g *gameTable) standings(path string) string {
	g.t.Helper()
	list := g.e.must(200, "GET", path, g.e.admin, nil)["standings"].([]any)
	byID := map[int64]map[string]any{}
	var prev *big.Rat
	prevName := ""
	for i, s := range list {
		m := s.(map[string]any)
		byID[int64(m["player_id"].(float64))] = m
		pts := rat(g.t, m["points"].(string))
		name := m["name"].(string)
		if prev != nil && (pts.Cmp(prev) > 0 || pts.Cmp(prev) == 0 && name < prevName) {
			g.t.Errorf("%s: entry %d (%s %s) is out of order", path, i, name, m["points"])
		}
		prev, prevName = pts, name
	}
	parts := make([]string, len(g.players))
	for i, id := range g.players {
		m, ok := byID[id]
		if !ok {
			parts[i] = fmt.Sprintf("%d:-", id)
			continue
		}
		parts[i] = fmt.Sprintf("%d:%s/%v", id, m["points"], m["hands"])
	}
	if len(byID) != len(list) {
		g.t.Errorf("%s lists a player twice: %v", path, list)
	}
	return strings.Join(parts, " ")
}

func (g *gameTable) tableStandings() string {
	return g.standings(fmt.Sprintf("/v1/tables/%d/standings", g.id))
}

func (g *gameTable) sessionStandings() string {
	return g.standings(fmt.Sprintf("/v1/sessions/%d/standings", g.session))
}

// score asks the stateless score endpoint of game and checks that it
// stored nothing.
func (g *gameTable) score(game string, body map[string]any) map[string]any {
	g.t.Helper()
	before := g.e.count("hands") + g.e.count("entries") + g.e.count("table_totals") + g.e.count("session_totals")
	stateBefore := g.table()["state"]
	res := g.e.must(200, "POST", "/v1/games/"+game+"/score", g.e.admin, body)
	if n := g.e.count("hands") + g.e.count("entries") + g.e.count("table_totals") + g.e.count("session_totals"); n != before {
		g.t.Errorf("the score endpoint changed the stored rows from %d to %d", before, n)
	}
	if tbl := g.table(); !reflect.DeepEqual(tbl["state"], stateBefore) {
		g.t.Errorf("the score endpoint changed the table state to %v", tbl["state"])
	}
	return res
}

// sameScore checks that a preview gives the recorded hand's points, lines,
// events and winners.
func sameScore(t *testing.T, preview, recorded map[string]any) {
	t.Helper()
	for _, k := range []string{"points", "lines", "events", "winners"} {
		if !reflect.DeepEqual(preview[k], recorded[k]) {
			t.Errorf("score endpoint %s:\n  %v\nrecorded hand:\n  %v", k, preview[k], recorded[k])
		}
	}
}

// points renders a result's points as "id:points" in the order given.
func points(result map[string]any) string {
	var parts []string
	for _, p := range result["points"].([]any) {
		m := p.(map[string]any)
		parts = append(parts, fmt.Sprintf("%v:%s", int64(m["player"].(float64)), m["points"]))
	}
	return strings.Join(parts, " ")
}

// sum adds a result's points exactly.
func sum(t *testing.T, result map[string]any) *big.Rat {
	t.Helper()
	total := new(big.Rat)
	for _, p := range result["points"].([]any) {
		total.Add(total, rat(t, p.(map[string]any)["points"].(string)))
	}
	return total
}

func rat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("points %q are not exact", s)
	}
	if r.String() != s && !(r.IsInt() && r.Num().String() == s) {
		t.Errorf("points %q are not in lowest terms (%s)", s, r)
	}
	return r
}

// events returns the events of a result with this type.
func events(result map[string]any, typ string) []map[string]any {
	var out []map[string]any
	evs, _ := result["events"].([]any)
	for _, e := range evs {
		if m := e.(map[string]any); m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// ids reads a JSON list of player ids.
func ids(v any) []int64 {
	list, _ := v.([]any)
	out := make([]int64, len(list))
	for i, x := range list {
		out[i] = int64(x.(float64))
	}
	return out
}

// byPlayer renders a state map keyed by player id as "id:value" in the
// order of ids; "id:-" where the map has no entry.
func byPlayer(m any, ids []int64) string {
	mm, _ := m.(map[string]any)
	parts := make([]string, len(ids))
	for i, id := range ids {
		v, ok := mm[fmt.Sprint(id)]
		if !ok {
			parts[i] = fmt.Sprintf("%d:-", id)
			continue
		}
		parts[i] = fmt.Sprintf("%d:%v", id, v)
	}
	return strings.Join(parts, " ")
}

// checkSchema validates a value (decoded JSON) against a schema of
// openapi.yaml's components, e.g. a game's *State.
func checkSchema(t *testing.T, name string, v any) {
	t.Helper()
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	ref, ok := doc.Components.Schemas[name]
	if !ok {
		t.Fatalf("openapi.yaml has no schema %s", name)
	}
	if err := ref.Value.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		t.Errorf("value breaks openapi.yaml's %s: %v\n%v", name, err, v)
	}
}

// --- Doppelkopf -------------------------------------------------------------

// TestDoppelkopfBockEvening records gamestest.BockEvening, the twelve hands
// of the doppelkopf package's TestBockEvening, at a table of four under the
// house rules (the dealer and players left to the table state) and compares
// the standings after every hand with the sheet computed by hand (see
// gamestest.BockEvening).
func TestDoppelkopfBockEvening(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	hands := [len(gamestest.BockEvening)]struct {
		points     string // the hand's points in seating order
		totals     string // P1..P4 after the hand
		left       int
		queued     int
		bockGame   bool
		queuedBy   float64
		nextDealer int
		solos      string // solos this session after the hand, P1..P4
	}{
		{"P1:1 P2:1 P3:-1 P4:-1", "1 1 -1 -1", 0, 0, false, 0, 2, ""},
		{"P1:-2 P2:2 P3:-2 P4:2", "-1 3 -3 1", 4, 0, false, 1, 3, ""},
		{"P1:-8 P2:8 P3:8 P4:-8", "-9 11 5 -7", 3, 0, true, 0, 4, ""},
		{"P1:-1 P2:-1 P3:-1 P4:3", "-10 10 4 -4", 3, 0, false, 0, 1, "P4:1"},
		{"P1:0 P2:0 P3:0 P4:0", "-10 10 4 -4", 3, 0, false, 0, 1, "P4:1"},
		{"P1:-16 P2:16 P3:16 P4:-16", "-26 26 20 -20", 2, 1, true, 1, 2, "P4:1"},
		{"P1:8 P2:8 P3:-8 P4:-8", "-18 34 12 -28", 1, 1, true, 0, 3, "P4:1"},
		{"P1:-2 P2:-2 P3:2 P4:2", "-20 32 14 -26", 4, 0, true, 0, 4, "P4:1"},
		{"P1:-4 P2:4 P3:-4 P4:4", "-24 36 10 -22", 3, 1, true, 1, 1, "P4:1"},
		{"P1:-4 P2:4 P3:-4 P4:4", "-28 40 6 -18", 2, 1, true, 0, 2, "P4:1"},
		{"P1:-4 P2:4 P3:-4 P4:4", "-32 44 2 -14", 1, 1, true, 0, 3, "P4:1"},
		{"P1:3 P2:3 P3:-9 P4:3", "-29 47 -7 -11", 1, 1, false, 0, 4, "P3:1 P4:1"},
	}
	played := 0 // the hands that count in the standings: a redeal does not
	for i, h := range hands {
		n := i + 1
		res := g.record(gamestest.BockEvening[i])
		if len(events(res, "redeal")) == 0 {
			played++
		}
		if got, want := points(res), g.want(h.points); got != want {
			t.Errorf("hand %d: points %s, want %s", n, got, want)
		}
		if s := sum(t, res); s.Sign() != 0 {
			t.Errorf("hand %d sums to %s", n, s)
		}
		if got := len(events(res, "bock_game")) == 1; got != h.bockGame {
			t.Errorf("hand %d: Bock game %v, want %v (events %v)", n, got, h.bockGame, res["events"])
		}
		var queued float64
		for _, ev := range events(res, "bock_queued") {
			queued += ev["amount"].(float64)
		}
		if queued != h.queuedBy {
			t.Errorf("hand %d: queued %v Bock rounds, want %v", n, queued, h.queuedBy)
		}

		// The sheet's running totals, in the session and at the table.
		totals := strings.Fields(h.totals)
		var want []string
		for j, id := range g.players {
			want = append(want, fmt.Sprintf("%d:%s/%d", id, totals[j], played))
		}
		if got := g.sessionStandings(); got != strings.Join(want, " ") {
			t.Errorf("hand %d: session standings %s, want %s", n, got, strings.Join(want, " "))
		}
		if got := g.tableStandings(); got != strings.Join(want, " ") {
			t.Errorf("hand %d: table standings %s, want %s", n, got, strings.Join(want, " "))
		}

		// The table state: the Bock preview, the next dealer, the solos.
		st := g.state("DoppelkopfState")
		if st["bock_games_left"] != float64(h.left) || st["bock_rounds_queued"] != float64(h.queued) {
			t.Errorf("hand %d: Bock %v left, %v queued; want %d, %d", n, st["bock_games_left"], st["bock_rounds_queued"], h.left, h.queued)
		}
		if st["next_dealer"] != float64(g.p(h.nextDealer)) {
			t.Errorf("hand %d: next dealer %v, want P%d = %d", n, st["next_dealer"], h.nextDealer, g.p(h.nextDealer))
		}
		var bock []string
		if h.left > 0 {
			bock = append(bock, fmt.Sprintf("noch %d %s", h.left, map[bool]string{true: "Bockspiel", false: "Bockspiele"}[h.left == 1]))
		}
		if h.queued > 0 {
			bock = append(bock, fmt.Sprintf("%d %s", h.queued, map[bool]string{true: "Bockrunde wartet", false: "Bockrunden warten"}[h.queued == 1]))
		}
		if len(bock) == 0 {
			bock = []string{"kein Bock"}
		}
		summary := g.want(fmt.Sprintf("@%d gibt; %s", h.nextDealer, strings.Join(bock, ", ")))
		if h.solos != "" {
			var solos []string
			for _, s := range strings.Fields(g.want(h.solos)) {
				id, count, _ := strings.Cut(s, ":")
				solos = append(solos, g.nameOf(id)+" "+count)
			}
			summary += "; Soli an diesem Abend: " + strings.Join(solos, ", ")
		}
		if st["summary"] != summary {
			t.Errorf("hand %d: summary %q, want %q", n, st["summary"], summary)
		}
		if got, want := byPlayer(st["solos"], g.players), soloText(g, h.solos); got != want {
			t.Errorf("hand %d: solos %s, want %s", n, got, want)
		}
		if !reflect.DeepEqual(res["state"], g.table()["state"]) {
			t.Errorf("hand %d: the hand's state differs from the table's", n)
		}
	}
	if st := g.state("DoppelkopfState"); st["games"] != 11.0 || st["session"] != float64(g.session) {
		t.Errorf("games %v in session %v, want 11 in %d (the Schmeißen does not count)", st["games"], st["session"], g.session)
	}

	// Stored hands read back as recorded, Bock line included.
	h3 := g.hand(3)
	if got, want := points(h3["result"].(map[string]any)), g.want("P1:-8 P2:8 P3:8 P4:-8"); got != want {
		t.Errorf("stored hand 3: %s, want %s", got, want)
	}
	if !slices.ContainsFunc(h3["result"].(map[string]any)["lines"].([]any), func(l any) bool {
		m := l.(map[string]any)
		return m["label"] == "Bock" && m["op"] == "x" && m["value"] == "2"
	}) {
		t.Errorf("stored hand 3 has no line Bock x 2: %v", h3["result"].(map[string]any)["lines"])
	}
	if h3["rules"].(map[string]any)["bock"] != true {
		t.Errorf("hand 3 was not stored with the house rules: %v", h3["rules"])
	}
}

// soloText renders the expected solos "P4:1" as byPlayer renders the state.
func soloText(g *gameTable, solos string) string {
	want := map[string]string{}
	for _, s := range strings.Fields(g.want(solos)) {
		id, count, _ := strings.Cut(s, ":")
		want[id] = count
	}
	parts := make([]string, len(g.players))
	for i, id := range g.players {
		c, ok := want[fmt.Sprint(id)]
		if !ok {
			c = "-"
		}
		parts[i] = fmt.Sprintf("%d:%s", id, c)
	}
	return strings.Join(parts, " ")
}

// TestDoppelkopfInvalidHands: refused hands name the field and store nothing.
func TestDoppelkopfInvalidHands(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4, 5)
	// A stored hand and a state to keep: a Schmeißen, after which P1 deals
	// again and sits out (with five, the dealer sits out).
	g.record(`{"game":"schmeissen"}`)
	cases := []struct{ name, facts, field string }{
		{"Augen 241", `{"game":"normal","re":{"players":[P2,P3],"augen":241}}`, "facts.re.augen"},
		{"Augen 7", `{"game":"normal","re":{"players":[P2,P3],"augen":7}}`, "facts.re.augen"},
		{"a Re party of three", `{"game":"hochzeit","re":{"players":[P2,P3,P4],"augen":130}}`, "facts.re.players"},
		{"a normal game with one Re player", `{"game":"normal","re":{"players":[P2],"augen":130}}`, "facts.re.players"},
		{"a solo with two Re players", `{"game":"damensolo","re":{"players":[P2,P3],"augen":130}}`, "facts.re.players"},
		{"two Karlchen", `{"game":"normal","re":{"players":[P2,P3],"augen":160,"karlchen":true},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen"},
		{"three Füchse", `{"game":"normal","re":{"players":[P2,P3],"augen":160,"fuchs_gefangen":1},"kontra":{"fuchs_gefangen":2}}`, "facts.kontra.fuchs_gefangen"},
		{"a Re player sitting out", `{"game":"normal","re":{"players":[P2,P1],"augen":130}}`, "facts.re.players[1]"},
		{"a player not seated", `{"game":"normal","players":[P2,P3,P4,999999],"re":{"players":[P2,P3],"augen":130}}`, "facts.players[3]"},
		{"Kontra says re", `{"game":"normal","re":{"players":[P2,P3],"augen":130},"kontra":{"announced":"re"}}`, "facts.kontra.announced"},
		{"Herzstich in a Herz-Solo", `{"game":"farbsolo","suit":"herz","herzstich":true,"re":{"players":[P2],"augen":130}}`, "facts.herzstich"},
		{"Augen not adding to 240", `{"game":"normal","re":{"players":[P2,P3],"augen":130},"kontra":{"augen":100}}`, "facts.kontra.augen"},
		{"an unknown field", `{"game":"normal","ramsch":true}`, "facts.ramsch"},
	}
	for _, c := range cases {
		g.refuse(c.name, c.facts, c.field)
	}
	if n := g.e.count("hands"); n != 1 {
		t.Errorf("%d hands stored, want the one valid hand", n)
	}
	// The next valid hand still gets number 2; P1 sits out with 0.
	res := g.record(`{"game":"normal","re":{"players":[P2,P3],"augen":150}}`)
	if got, want := points(res), g.want("P1:0 P2:1 P3:1 P4:-1 P5:-1"); got != want {
		t.Errorf("hand 2: %s, want %s", got, want)
	}
}

// TestDoppelkopfDealerOfTheState: at a table of five the facts leave the
// dealer to the table state; the stored result and the score sheet name him
// all the same, with the four who played, also after the hand is voided.
func TestDoppelkopfDealerOfTheState(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4, 5)
	g.record(`{"game":"normal","re":{"players":[P2,P3],"augen":150}}`)
	g.record(`{"game":"normal","re":{"players":[P1,P3],"augen":150}}`)
	for n, want := range map[int]struct {
		dealer  int
		players []int
	}{1: {1, []int{2, 3, 4, 5}}, 2: {2, []int{1, 3, 4, 5}}} {
		res := g.hand(n)["result"].(map[string]any)
		if res["dealer"] != float64(g.p(want.dealer)) || !slices.Equal(ids(res["players"]), g.seats(want.players...)) {
			t.Errorf("stored hand %d: dealer %v, players %v; want P%d, P%v", n, res["dealer"], res["players"], want.dealer, want.players)
		}
	}
	g.e.must(201, "POST", fmt.Sprintf("%s/2/corrections", g.handsPath()), g.e.admin, map[string]any{"void": true, "reason": "falsch gegeben"}, "If-Match", `"1"`)
	report := g.e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/report", g.session), g.e.admin, nil)
	var dealers []int64
	for _, h := range report["hands"].([]any) {
		d, _ := h.(map[string]any)["dealer_id"].(float64)
		dealers = append(dealers, int64(d))
	}
	if !slices.Equal(dealers, g.seats(1, 2)) {
		t.Errorf("score sheet dealers %v, want P1, P2", dealers)
	}
}

// --- Saukopf ------------------------------------------------------------------

// TestSaukopfLostSoloInExactThirds records gamestest.LostKeiler, a lost
// solo whose 14 in the bowl the three winners share in exact thirds (the
// saukopf package's TestLostSoloOptions), twice, then gamestest's
// LostDreihaxer, which gives halves.
func TestSaukopfLostSoloInExactThirds(t *testing.T) {
	g := newGameTable(t, "saukopf", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)

	res := g.record(gamestest.LostKeiler)
	if got, want := points(res), g.want("P1:-14 P2:14/3 P3:14/3 P4:14/3"); got != want {
		t.Errorf("lost solo: %s, want %s", got, want)
	}
	if s := sum(t, res); s.Sign() != 0 {
		t.Errorf("lost solo sums to %s, want exactly 0", s)
	}
	if !slices.Equal(ids(res["winners"]), g.seats(2, 3, 4)) {
		t.Errorf("winners %v, want P2, P3, P4", res["winners"])
	}
	wantLine(t, res, "Schüssel 14 / 3 Gewinner", "=", "14/3")
	wantLine(t, res, "Bolzenschuss", "x", "2")
	// The JSON carries the exact third, and so does the stored hand.
	raw := g.e.call("GET", g.handsPath()+"/1", g.e.admin, nil).body
	if !strings.Contains(string(raw), `"points":"14/3"`) || !strings.Contains(string(raw), `"points":"-14"`) {
		t.Errorf("stored hand JSON lacks the exact thirds: %s", raw)
	}
	if got := points(g.hand(1)["result"].(map[string]any)); got != points(res) {
		t.Errorf("stored hand 1: %s, recorded %s", got, points(res))
	}
	if got, want := g.tableStandings(), g.want("P1:-14/1 P2:14/3/1 P3:14/3/1 P4:14/3/1"); got != want {
		t.Errorf("standings after one lost solo: %s, want %s", got, want)
	}

	// Two thirds of 14 make 28/3 exactly, not 9.33….
	res = g.record(gamestest.LostKeiler)
	if got, want := points(res), g.want("P1:-14 P2:14/3 P3:14/3 P4:14/3"); got != want {
		t.Errorf("second lost solo: %s, want %s", got, want)
	}
	if got, want := g.tableStandings(), g.want("P1:-28/2 P2:28/3/2 P3:28/3/2 P4:28/3/2"); got != want {
		t.Errorf("standings after two lost solos: %s, want %s", got, want)
	}
	if got, want := g.sessionStandings(), g.want("P1:-28/2 P2:28/3/2 P3:28/3/2 P4:28/3/2"); got != want {
		t.Errorf("session standings after two lost solos: %s, want %s", got, want)
	}

	// A Dreihaxer of P1, P2, P3 gives halves; P4 sits out and has no entry.
	res = g.record(gamestest.LostDreihaxer)
	if got, want := points(res), g.want("P1:-5 P2:5/2 P3:5/2"); got != want {
		t.Errorf("Dreihaxer: %s, want %s", got, want)
	}
	if s := sum(t, res); s.Sign() != 0 {
		t.Errorf("Dreihaxer sums to %s, want exactly 0", s)
	}
	wantLine(t, res, "Schüssel 5 / 2 Gewinner", "=", "5/2")
	// 28/3 + 5/2 = 56/6 + 15/6 = 71/6; -28 - 5 = -33; 2 x 71/6 + 28/3 = 33.
	if got, want := g.tableStandings(), g.want("P1:-33/3 P2:71/6/3 P3:71/6/3 P4:28/3/2"); got != want {
		t.Errorf("standings after the Dreihaxer: %s, want %s", got, want)
	}
	st := g.state("SaukopfState")
	if s, _ := st["summary"].(string); !strings.Contains(s, "Dreihaxer") && !strings.Contains(s, "Keiler") {
		t.Errorf("state summary %q does not describe the last hand", s)
	}
}

func TestSaukopfInvalidHands(t *testing.T) {
	g := newGameTable(t, "saukopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4, 5)
	const sauerei = `{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"bid":70,"spieler":P1,"contract":"sauerei","called_sau":"%s","mitspieler":P3,"augen":85,"tricks":5,"laufende":{"holder":P2,"count":1}}`
	cases := []struct{ name, facts, field string }{
		{"a called Herz-Sau", fmt.Sprintf(sauerei, "herz"), "facts.called_sau"},
		{"a bid of 60", strings.Replace(gamestest.LostKeiler, `"bid":61`, `"bid":60`, 1), "facts.bid"},
		{"Augen 121", strings.Replace(gamestest.LostKeiler, `"augen":55`, `"augen":121`, 1), "facts.augen"},
		{"a Spieler sitting out", strings.Replace(gamestest.LostKeiler, `"spieler":P1`, `"spieler":P5`, 1), "facts.spieler"},
		{"a player twice", strings.Replace(gamestest.LostKeiler, `[P1,P2,P3,P4]`, `[P1,P2,P3,P2]`, 1), "facts.players[3]"},
		{"a Trog in a Vierer", strings.Replace(gamestest.LostKeiler, `"dealer":P4`, `"dealer":P4,"trog":"mit"`, 1), "facts.trog"},
		{"four players in a Dreihaxer", strings.Replace(gamestest.LostDreihaxer, `[P1,P2,P3]`, `[P1,P2,P3,P4]`, 1), "facts.players"},
	}
	for _, c := range cases {
		g.refuse(c.name, c.facts, c.field)
	}
	// The Sauerei itself is fine with the Eichel-Sau called (worked example A
	// without the extras: ohne 1, 6 a loser, 12 into the bowl, 6 each).
	res := g.record(fmt.Sprintf(sauerei, "eichel"))
	if got, want := points(res), g.want("P1:6 P2:-6 P3:6 P4:-6"); got != want {
		t.Errorf("Sauerei: %s, want %s", got, want)
	}
	if n := g.e.count("hands"); n != 1 {
		t.Errorf("%d hands stored, want 1", n)
	}
}

// wantLine checks that a result has a breakdown line label op value.
func wantLine(t *testing.T, result map[string]any, label, op, value string) {
	t.Helper()
	lines, _ := result["lines"].([]any)
	for _, l := range lines {
		m := l.(map[string]any)
		if m["label"] == label {
			if m["op"] != op || m["value"] != value {
				t.Errorf("line %q: %v %v, want %s %s", label, m["op"], m["value"], op, value)
			}
			return
		}
	}
	t.Errorf("no line %q in %v", label, lines)
}

// --- Schwarze Sau -----------------------------------------------------------

// TestSchwarzeSauTalliesAcrossSessions records gamestest's two Schwarze Sau
// evenings (the schwarzesau package's TestTwoSessions) through the API:
// three hands on 9 March 2025 (limit 1509) at a table of four, then five
// hands on 2 April (limit 1502) with a fifth player. The tallies carry
// over; the seventh hand takes P1 to 1505 > 1502: he pays 5,00 € into the
// kitty and every tally restarts at 0.
func TestSchwarzeSauTalliesAcrossSessions(t *testing.T) {
	g := newGameTable(t, "schwarze_sau", "", 5)
	all := g.players
	steps := []struct {
		facts   string
		points  string
		tallies string // P1..P5 after the hand
		payout  bool
	}{
		// Session 1, the 9th. Hirsch x16: P1 took the Sau with the highest 60; P4 no trick: 960.
		{gamestest.SchwarzeSauMarch9[0],
			"P1:-960 P2:0 P3:0 P4:0", "960 0 0 0 -", false},
		// x8, P2 took the Sau, highest 50, everybody took a trick: halved, 200.
		{gamestest.SchwarzeSauMarch9[1],
			"P1:0 P2:-200 P3:0 P4:0", "960 200 0 0 -", false},
		// Durchmarsch by P3: 120 for each other player, the dealer too.
		{gamestest.SchwarzeSauMarch9[2],
			"P1:-120 P2:-120 P3:0 P4:-120", "1080 320 0 120 -", false},
		// Session 2, the 2nd. Three players, Kontra x2, halved: 45 x 2 / 2.
		{gamestest.SchwarzeSauApril2[0],
			"P1:-45 P2:0 P5:0", "1125 320 0 120 0", false},
		// x8 halved: 47 x 8 / 2 = 188.
		{gamestest.SchwarzeSauApril2[1],
			"P1:-188 P3:0 P4:0 P5:0", "1313 320 0 120 0", false},
		// x1 halved: 45/2, kept exactly.
		{gamestest.SchwarzeSauApril2[2],
			"P1:0 P2:-45/2 P3:0 P4:0", "1313 685/2 0 120 0", false},
		// x4, the dealer P2 without a trick: 48 x 4 = 192; P1 reaches 1505 > 1502 and pays.
		{gamestest.SchwarzeSauApril2[3],
			"P1:-192 P2:0 P3:0 P4:0", "0 0 0 0 0", true},
		// After the reset: halved 41/2 for P3.
		{gamestest.SchwarzeSauApril2[4],
			"P1:0 P2:0 P3:-41/2 P4:0", "0 0 41/2 0 0", false},
	}
	tallyText := func(s string) string {
		f := strings.Fields(s)
		parts := make([]string, len(all))
		for i, id := range all {
			parts[i] = fmt.Sprintf("%d:%s", id, f[i])
		}
		return strings.Join(parts, " ")
	}
	var before map[string]any // the table state before the payout hand
	var payoutHand map[string]any
	play := func(from, to int, day string, limit float64) {
		for i := from; i < to; i++ {
			s := steps[i]
			if i == 6 {
				before = g.state("SchwarzeSauState")
			}
			res := g.record(s.facts)
			if got, want := points(res), g.want(s.points); got != want {
				t.Errorf("hand %d: points %s, want %s", i+1, got, want)
			}
			st := g.state("SchwarzeSauState")
			if got, want := byPlayer(st["tallies"], all), tallyText(s.tallies); got != want {
				t.Errorf("hand %d: tallies %s, want %s", i+1, got, want)
			}
			if st["limit"] != limit || st["date"].(map[string]any)["day"] != map[string]float64{"09": 9, "02": 2}[day] {
				t.Errorf("hand %d: limit %v on %v, want %v", i+1, st["limit"], st["date"], limit)
			}
			if got := len(events(res, "payout")) == 1; got != s.payout || len(res["events"].([]any)) != map[bool]int{true: 1}[s.payout] {
				t.Errorf("hand %d: events %v, want a payout: %v", i+1, res["events"], s.payout)
			}
			if s.payout {
				payoutHand = res
			}
		}
	}

	g.open("2025-03-09", 1, 2, 3, 4)
	play(0, 3, "09", 1509)
	st := g.state("SchwarzeSauState")
	if got, want := byPlayer(st["to_limit"], all), g.want("P1:429 P2:1189 P3:1509 P4:1389 P5:-"); got != want {
		t.Errorf("after the 9th: to_limit %s, want %s", got, want)
	}
	if got, want := g.sessionStandings(), g.want("P1:-1080/3 P2:-320/3 P3:0/3 P4:-120/3 P5:-"); got != want {
		t.Errorf("standings of the 9th: %s, want %s", got, want)
	}
	g.close()

	// A closed session takes no more hands.
	g.e.must(409, "POST", g.handsPath(), g.e.admin, map[string]any{"session_id": g.session, "number": g.hands + 1, "facts": g.facts(steps[3].facts)})

	g.open("2025-04-02", 1, 2, 3, 4, 5)
	play(3, 8, "02", 1502)

	// The payout of the seventh hand.
	ev := events(payoutHand, "payout")[0]
	wantText := g.want("@1 (1505 Minuspunkte) überschreitet die Grenze 1502 (1500 + 2.) und zahlt 5,00 € in die Kasse. Alle Stände beginnen wieder bei 0.")
	if ev["text"] != wantText || ev["amount"] != 500.0 || !slices.Equal(ids(ev["players"]), g.seats(1)) {
		t.Errorf("payout event %v, want P1 paying 500 cents: %q", ev, wantText)
	}
	if stored := g.hand(7)["result"].(map[string]any); !reflect.DeepEqual(stored["events"], payoutHand["events"]) {
		t.Errorf("stored hand 7 events %v, recorded %v", stored["events"], payoutHand["events"])
	}
	st7 := g.hand(7)["result"].(map[string]any)["state"].(map[string]any)
	if got, want := byPlayer(st7["tallies"], all), tallyText("0 0 0 0 0"); got != want {
		t.Errorf("state after the payout hand: tallies %s, want %s", got, want)
	}

	// The state after the hand following the payout.
	st = g.state("SchwarzeSauState")
	if got, want := byPlayer(st["to_limit"], all), g.want("P1:1502 P2:1502 P3:2963/2 P4:1502 P5:1502"); got != want {
		t.Errorf("to_limit %s, want %s", got, want)
	}
	if st["round"] != 2.0 || st["hands"] != 1.0 || byPlayer(st["payouts"], all) != g.want("P1:1 P2:- P3:- P4:- P5:-") {
		t.Errorf("round %v, hands %v, payouts %v; want round 2, 1 hand, P1 paid once", st["round"], st["hands"], st["payouts"])
	}
	lp, _ := st["last_payout"].(map[string]any)
	if lp == nil || lp["session"] != float64(g.session) || lp["limit"] != 1502.0 || lp["cents"] != 500.0 || lp["target"] != "kitty" ||
		!slices.Equal(ids(lp["payers"]), g.seats(1)) || byPlayer(lp["tallies"], g.seats(1)) != g.want("P1:1505") {
		t.Errorf("last payout %v", lp)
	}
	if s, _ := st["summary"].(string); !strings.Contains(s, g.want("@3 20,5 (noch 1481,5)")) {
		t.Errorf("summary %q lacks P3's half", s)
	}

	// Money is kept apart from points: the standings add the minus points
	// exactly, halves included.
	if got, want := g.sessionStandings(), g.want("P1:-425/5 P2:-45/2/4 P3:-41/2/4 P4:0/4 P5:0/2"); got != want {
		t.Errorf("standings of the 2nd: %s, want %s", got, want)
	}
	if got, want := g.tableStandings(), g.want("P1:-1505/8 P2:-685/2/7 P3:-41/2/7 P4:-120/7 P5:0/2"); got != want {
		t.Errorf("table standings: %s, want %s", got, want)
	}

	// The score endpoint, given the state before the payout hand and its
	// date, gives the same points and the same payout, and stores nothing.
	preview := g.score("schwarze_sau", map[string]any{
		"player_ids": g.seats(1, 2, 3, 4, 5), "date": "2025-04-02", "state": before,
		"facts": g.facts(steps[6].facts),
	})
	sameScore(t, preview, payoutHand)
}

func TestSchwarzeSauInvalidHands(t *testing.T) {
	g := newGameTable(t, "schwarze_sau", "", 5)
	g.open("2025-03-09", 1, 2, 3, 4, 5)
	const ok = `{"player":P1,"card_points":46,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3}`
	cases := []struct{ name, facts, field string }{
		{"points not adding to 120", `{"players":[` + ok + `,{"player":P4,"card_points":5,"tricks":1}],"dealer":P4}`, "facts.players[].card_points"},
		{"two Sau holders", `{"players":[` + ok + `,{"player":P4,"card_points":4,"tricks":1,"pik_dame":true}],"dealer":P4}`, "facts.players[3].pik_dame"},
		{"a doubling twice by one player", `{"players":[` + ok + `,{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"doublings":[{"call":"Kontra","player":P2},{"call":"Re","player":P2}]}`, "facts.doublings[1].player"},
		{"a four-player dealer with three tricks", `{"players":[{"player":P1,"card_points":46,"tricks":3},{"player":P2,"card_points":40,"tricks":2,"pik_dame":true},{"player":P3,"card_points":30,"tricks":2},{"player":P4,"card_points":4,"tricks":3}],"dealer":P4}`, "facts.players[3].tricks"},
		{"a Verstoß by a player sitting out", `{"players":[` + ok + `,{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"verstoss_by":P5}`, "facts.verstoss_by"},
	}
	for _, c := range cases {
		g.refuse(c.name, c.facts, c.field)
	}
	// Worked example A: the halves of an odd total are kept (45 / 2).
	res := g.record(`{"players":[{"player":P1,"card_points":45,"tricks":3},{"player":P2,"card_points":35,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`)
	if got, want := points(res), g.want("P1:0 P2:-45/2 P3:0 P4:0"); got != want {
		t.Errorf("odd total halved: %s, want %s", got, want)
	}
	if got, want := g.tableStandings(), g.want("P1:0/1 P2:-45/2/1 P3:0/1 P4:0/1 P5:-"); got != want {
		t.Errorf("standings %s, want %s", got, want)
	}
	if got, want := byPlayer(g.state("SchwarzeSauState")["tallies"], g.players), g.want("P1:0 P2:45/2 P3:0 P4:0 P5:-"); got != want {
		t.Errorf("tallies %s, want %s", got, want)
	}
}

// --- Klaberjass ----------------------------------------------------------------

// die returns the die of the side of exactly these players.
func die(t *testing.T, st map[string]any, players ...int64) float64 {
	t.Helper()
	sides, _ := st["sides"].([]any)
	for _, s := range sides {
		m := s.(map[string]any)
		got := ids(m["players"])
		slices.Sort(got)
		want := slices.Clone(players)
		slices.Sort(want)
		if slices.Equal(got, want) {
			return m["die"].(float64)
		}
	}
	t.Fatalf("no side %v in %v", players, sides)
	return -1
}

// TestKlaberjassWholeMatch plays the klaberjass package's
// TestWholeFourPlayerMatch through the API: P1/P3 against P2/P4, two
// matches of four hands each, every hand dealt by the proposed dealer.
func TestKlaberjassWholeMatch(t *testing.T) {
	g := newGameTable(t, "klaberjass", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	hands := []struct {
		trumpWins, kontra bool
		die13, die24      float64 // dice after the hand
		match             float64
		winners           []int // match_won winners
	}{
		{true, false, 1, 0, 1, nil},          // dealer 4, trump 1 wins: 1/3 +1
		{true, true, 1, 2, 1, nil},           // dealer 1, trump 2 wins with Kontra: 2/4 +2
		{false, false, 1, 4, 1, nil},         // dealer 2, trump 3 loses: 2/4 +2
		{true, false, 1, 5, 1, nil},          // dealer 3, trump 4 wins: 2/4 +1
		{false, false, 0, 0, 2, []int{2, 4}}, // dealer 4, trump 1 loses: 2/4 +2 reaches 6
		{false, true, 4, 0, 2, nil},          // dealer 1, trump 2 loses with Kontra: 1/3 +4
		{true, false, 5, 0, 2, nil},          // dealer 2, trump 3 wins: 1/3 +1
		{false, false, 0, 0, 3, []int{1, 3}}, // dealer 3, trump 4 loses: 1/3 +2 reaches 6
	}
	dealer := 4
	var beforeLast map[string]any
	var last map[string]any
	for i, h := range hands {
		n := i + 1
		if n == len(hands) {
			beforeLast = g.state("KlaberjassState")
		}
		res := g.record(gamestest.KlaberjassHand(dealer, h.trumpWins, h.kontra))
		last = res
		if got, want := points(res), g.want("P1:0 P2:0 P3:0 P4:0"); got != want {
			t.Errorf("hand %d: points %s, want %s", n, got, want)
		}
		st := g.state("KlaberjassState")
		if d13, d24 := die(t, st, g.seats(1, 3)...), die(t, st, g.seats(2, 4)...); d13 != h.die13 || d24 != h.die24 || st["match"] != h.match {
			t.Errorf("hand %d: match %v, dice P1/P3 %v P2/P4 %v; want match %v, dice %v %v", n, st["match"], d13, d24, h.match, h.die13, h.die24)
		}
		next := dealer%4 + 1
		if st["next_dealer"] != float64(g.p(next)) {
			t.Errorf("hand %d: next dealer %v, want P%d", n, st["next_dealer"], next)
		}
		won, lost := events(res, "match_won"), events(res, "match_lost")
		if h.winners == nil {
			if len(won)+len(lost) != 0 {
				t.Errorf("hand %d: unexpected events %v", n, res["events"])
			}
		} else {
			if len(won) != 1 || len(lost) != 1 || !slices.Equal(ids(won[0]["players"]), g.seats(h.winners...)) {
				t.Errorf("hand %d: events %v, want match_won by P%d/P%d", n, res["events"], h.winners[0], h.winners[1])
			} else if losers := ids(lost[0]["players"]); len(losers) != 2 || slices.ContainsFunc(losers, func(id int64) bool { return slices.Contains(g.seats(h.winners...), id) }) {
				t.Errorf("hand %d: losers %v", n, losers)
			}
			if st["hands"] != 0.0 || !slices.Equal(ids(st["last_match_winners"]), g.seats(h.winners...)) {
				t.Errorf("hand %d: after the match: hands %v, last winners %v", n, st["hands"], st["last_match_winners"])
			}
		}
		dealer = next
	}
	st := g.state("KlaberjassState")
	if got, want := byPlayer(st["matches_won"], g.players), g.want("P1:1 P2:1 P3:1 P4:1"); got != want {
		t.Errorf("matches won %s, want %s", got, want)
	}
	for _, s := range st["sides"].([]any) {
		if m := s.(map[string]any); m["die"] != 0.0 || m["matches_won"] != 1.0 {
			t.Errorf("side %v, want die 0 and one match won", m)
		}
	}
	want := g.want("Partie 2 gewonnen von @1/@3; Partie 3 beginnt, alle Würfel auf 0; nächster Geber @4")
	if st["summary"] != want {
		t.Errorf("summary %q, want %q", st["summary"], want)
	}
	if got, want := g.tableStandings(), g.want("P1:0/8 P2:0/8 P3:0/8 P4:0/8"); got != want {
		t.Errorf("standings %s, want %s", got, want)
	}

	// The score endpoint from the state before the last hand wins the match
	// the same way and stores nothing.
	preview := g.score("klaberjass", map[string]any{
		"player_ids": g.players, "state": beforeLast, "facts": g.facts(gamestest.KlaberjassHand(3, false, false)),
	})
	sameScore(t, preview, last)
	if ps := preview["state"].(map[string]any); byPlayer(ps["matches_won"], g.players) != g.want("P1:1 P2:1 P3:1 P4:1") {
		t.Errorf("preview state %v", ps)
	}
}

func TestKlaberjassInvalidHands(t *testing.T) {
	g := newGameTable(t, "klaberjass", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	const cp = `"card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1`
	cases := []struct{ name, facts, field string }{
		{"card points adding up to 150", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","card_points":[{"player":P1,"points":76},{"player":P2,"points":74}],"last_trick":P1}`, "facts.card_points"},
		{"Re without Kontra", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","re":true,` + cp + `}`, "facts.re"},
		{"a trump player not in the hand", `{"dealer":P1,"trump_player":999999,"trump_suit":"herz",` + cp + `}`, "facts.trump_player"},
		{"a Terz to the 8", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","melds":[{"player":P1,"kind":"terz","suit":"pik","top":"8"}],` + cp + `}`, "facts.melds[0].top"},
		{"card points twice for a team", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","card_points":[{"player":P1,"points":76},{"player":P3,"points":76}],"last_trick":P1}`, "facts.card_points[1].player"},
		{"Orgi without the option", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","orgi":true,` + cp + `}`, "facts.orgi"},
	}
	for _, c := range cases {
		g.refuse(c.name, c.facts, c.field)
	}
	if n := g.e.count("hands"); n != 0 {
		t.Errorf("%d hands stored, want none", n)
	}
	// Kontra and Re together are fine: the trump side loses 76:86 and the
	// opponents' die moves 2 x 4 = 8, which wins the match at once.
	res := g.record(`{"dealer":P1,"trump_player":P2,"trump_suit":"herz","kontra":true,"re":true,` + cp + `}`)
	if won := events(res, "match_won"); len(won) != 1 || !slices.Equal(ids(won[0]["players"]), g.seats(1, 3)) {
		t.Errorf("events %v, want P1/P3 to win the match", res["events"])
	}
}

// --- the score endpoint ----------------------------------------------------------

// TestScoreEndpointMatchesRecording scores a hand of each game through
// POST /v1/games/<game>/score, given the table's state and the session's
// date, and records the same hand at that table: points, lines, events and
// winners agree, and the preview stores nothing.
func TestScoreEndpointMatchesRecording(t *testing.T) {
	cases := []struct {
		name, game, options string
		seats               []int
		date                string
		first               string // a hand recorded before, making the state
		facts               string
		points              string // the hand's points, computed by hand
	}{
		{
			// 120:120 opens a Bock round; worked example A of doppelkopf is
			// then (1 + keine 90 + keine 60 + keine 90 angesagt) x2 Re
			// angesagt + Fuchs - Doppelkopf = 8, x2 Bock = 16.
			"doppelkopf in a Bock round", "doppelkopf", "", []int{1, 2, 3, 4}, "2026-03-12",
			`{"game":"normal","re":{"players":[P1,P3],"augen":120}}`,
			`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90","fuchs_gefangen":1},"kontra":{"announced":"none","doppelkopf":1}}`,
			"P1:16 P2:-16 P3:16 P4:-16",
		},
		{
			// Five seated: the dealer P1 sits out; Damensolo won, 1 x3.
			"doppelkopf solo at five", "doppelkopf", `{"bock_triggers":"one"}`, []int{1, 2, 3, 4, 5}, "2026-03-12", "",
			`{"game":"damensolo","re":{"players":[P2],"augen":130}}`,
			"P1:0 P2:3 P3:-1 P4:-1 P5:-1",
		},
		{
			"saukopf lost solo", "saukopf", "", []int{1, 2, 3, 4, 5}, "2026-03-12", "", gamestest.LostKeiler,
			"P1:-14 P2:14/3 P3:14/3 P4:14/3",
		},
		{
			"saukopf lost solo jeder einzeln", "saukopf", `{"verlorenes_solo":"jeder_einzeln"}`, []int{1, 2, 3, 4}, "2026-03-12", "", gamestest.LostKeiler,
			"P1:-42 P2:14 P3:14 P4:14",
		},
		{
			"saukopf Dreihaxer", "saukopf", "", []int{1, 2, 3, 4}, "2026-03-12", "", gamestest.LostDreihaxer,
			"P1:-5 P2:5/2 P3:5/2",
		},
		{
			// A tally of 960 after the first hand (Hirsch x16 on 60); then 45
			// halved is 45/2, and nobody crosses 1509.
			"schwarze sau", "schwarze_sau", "", []int{1, 2, 3, 4}, "2025-03-09",
			gamestest.SchwarzeSauMarch9[0],
			`{"players":[{"player":P1,"card_points":45,"tricks":3},{"player":P2,"card_points":35,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`,
			"P1:0 P2:-45/2 P3:0 P4:0",
		},
		{
			// Limit 500 + 2 on the 2nd: P2's tally of 60 x8 = 480 and then
			// 45/2 makes 1005/2 > 502, so P2 pays 250 cents to the others.
			"schwarze sau payout", "schwarze_sau", `{"threshold_base":500,"payout_target":"players","payout_cents":250}`, []int{1, 2, 3, 4}, "2025-03-02",
			`{"players":[{"player":P1,"card_points":60,"tricks":5},{"player":P2,"card_points":30,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":2},{"player":P4,"card_points":0,"tricks":0}],"dealer":P4,"doublings":[{"call":"Kontra","player":P1},{"call":"Re","player":P2},{"call":"Sub","player":P3}]}`,
			`{"players":[{"player":P1,"card_points":45,"tricks":3},{"player":P2,"card_points":35,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":10,"tricks":1}],"dealer":P4}`,
			"P1:0 P2:-45/2 P3:0 P4:0",
		},
		{
			// The openapi.yaml example: P1/P3 have 92 + 10 last trick + 20
			// Terz + 20 Bella = 142 against 60; their die moves 1 x2 Kontra.
			"klaberjass", "klaberjass", "", []int{1, 2, 3, 4}, "2026-03-12", "",
			`{"players":[P1,P2,P3,P4],"dealer":P4,"trump_player":P1,"trump_suit":"herz","melds":[{"player":P1,"kind":"terz","suit":"pik","top":"koenig"}],"bella":P3,"card_points":[{"player":P1,"points":92},{"player":P2,"points":60}],"last_trick":P3,"kontra":true}`,
			"P1:0 P2:0 P3:0 P4:0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newGameTable(t, c.game, c.options, 5)
			g.open(c.date, c.seats...)
			if c.first != "" {
				g.record(c.first)
			}
			body := map[string]any{"player_ids": g.seats(c.seats...), "date": c.date, "facts": g.facts(c.facts)}
			if c.options != "" {
				body["options"] = json.RawMessage(c.options)
			}
			if st := g.table()["state"].(map[string]any); len(st) > 0 {
				body["state"] = st
			}
			preview := g.score(c.game, body)
			if got, want := points(preview), g.want(c.points); got != want {
				t.Errorf("score endpoint: points %s, want %s", got, want)
			}
			recorded := g.record(c.facts)
			sameScore(t, preview, recorded)
			if got, want := points(recorded), g.want(c.points); got != want {
				t.Errorf("recorded: points %s, want %s", got, want)
			}
			if s := sum(t, recorded); s.Sign() != 0 && c.game != "schwarze_sau" {
				t.Errorf("hand sums to %s", s)
			}
			switch c.name {
			case "doppelkopf in a Bock round":
				if len(events(preview, "bock_game")) != 1 {
					t.Errorf("events %v, want a Bock game", preview["events"])
				}
			case "schwarze sau payout":
				ev := events(preview, "payout")
				if len(ev) != 1 || ev[0]["amount"] != 250.0 || !slices.Equal(ids(ev[0]["players"]), g.seats(2)) ||
					!slices.Equal(ids(ev[0]["recipients"]), g.seats(1, 3, 4)) {
					t.Errorf("events %v, want P2 paying 250 cents to P1, P3, P4", preview["events"])
				}
				if got, want := byPlayer(g.state("SchwarzeSauState")["tallies"], g.seats(1, 2, 3, 4)), g.want("P1:0 P2:0 P3:0 P4:0"); got != want {
					t.Errorf("tallies after the payout %s, want %s", got, want)
				}
			}
		})
	}
}

// TestScoreEndpointRefusals: the score endpoint names the field of a hand
// the engine refuses as recording does, and stores nothing.
func TestScoreEndpointRefusals(t *testing.T) {
	scoreRefusals(t, []scoreRefusal{
		{"doppelkopf", `{"game":"normal","re":{"players":[P1,P2],"augen":160,"karlchen":true},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen"},
		{"schwarze_sau", `{"players":[{"player":P1,"card_points":46,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":4,"tricks":1,"pik_dame":true}],"dealer":P4}`, "facts.players[3].pik_dame"},
		{"klaberjass", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","re":true,"card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1}`, "facts.re"},
	})
}

// TestScoreEndpointNamesSchemaFields: facts that break the game's *Facts
// schema in openapi.yaml are refused by the contract check before the
// engine sees them; the problem must still name the field.
func TestScoreEndpointNamesSchemaFields(t *testing.T) {
	scoreRefusals(t, []scoreRefusal{
		{"doppelkopf", `{"game":"normal","re":{"players":[P1,P2],"augen":241}}`, "facts.re.augen"},
		{"saukopf", `{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"bid":70,"spieler":P1,"contract":"sauerei","called_sau":"herz","mitspieler":P3,"augen":85,"tricks":5,"laufende":{"holder":P2,"count":1}}`, "facts.called_sau"},
		{"schwarze_sau", `{"players":[{"player":P1,"card_points":121,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4}`, "facts.players[0].card_points"},
		{"klaberjass", `{"dealer":P1,"trump_player":P1,"trump_suit":"eichel","card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1}`, "facts.trump_suit"},
	})
}

type scoreRefusal struct{ game, facts, field string }

// scoreRefusals posts each hand to its game's score endpoint: 422 naming
// the field, nothing stored.
func scoreRefusals(t *testing.T, cases []scoreRefusal) {
	t.Helper()
	g := newGameTable(t, "doppelkopf", "", 4)
	for _, c := range cases {
		res := g.e.call("POST", "/v1/games/"+c.game+"/score", g.e.admin, map[string]any{"player_ids": g.players, "date": "2026-03-12", "facts": g.facts(c.facts)})
		if res.status != 422 {
			t.Errorf("%s %s: status %d, want 422: %s", c.game, c.field, res.status, res.body)
			continue
		}
		if p := res.json(t); p["field"] != c.field {
			t.Errorf("%s: refused on %q (%v), want %q", c.game, p["field"], p["rule"], c.field)
		}
	}
	if n := g.e.count("hands") + g.e.count("entries"); n != 0 {
		t.Errorf("%d rows stored by refused previews", n)
	}
}

// TestScoreAndRecordingRefuseAlike sends the same broken facts to a game's
// score endpoint and to a table of that game: both refuse them with the
// same field, rule and message, because the engine alone judges facts
// (the schema's ranges and enums included), whichever way they come.
func TestScoreAndRecordingRefuseAlike(t *testing.T) {
	cases := []scoreRefusal{
		// beyond the schema's range or enum
		{"doppelkopf", `{"game":"normal","re":{"players":[P1,P2],"augen":241}}`, "facts.re.augen"},
		{"saukopf", `{"variant":"vierer","players":[P1,P2,P3,P4],"dealer":P4,"bid":70,"spieler":P1,"contract":"sauerei","called_sau":"herz","mitspieler":P3,"augen":85,"tricks":5,"laufende":{"holder":P2,"count":1}}`, "facts.called_sau"},
		{"schwarze_sau", `{"players":[{"player":P1,"card_points":121,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4}`, "facts.players[0].card_points"},
		{"klaberjass", `{"dealer":P1,"trump_player":P1,"trump_suit":"eichel","card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1}`, "facts.trump_suit"},
		// a game's rule
		{"doppelkopf", `{"game":"normal","re":{"players":[P1,P2],"augen":160,"karlchen":true},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen"},
		{"klaberjass", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","re":true,"card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1}`, "facts.re"},
	}
	for _, c := range cases {
		g := newGameTable(t, c.game, "", 4)
		g.open("2026-03-12", 1, 2, 3, 4)
		facts := g.facts(c.facts)
		scored := g.e.call("POST", "/v1/games/"+c.game+"/score", g.e.admin, map[string]any{"player_ids": g.players, "date": "2026-03-12", "facts": facts})
		recorded := g.e.call("POST", g.handsPath(), g.e.admin, map[string]any{"session_id": g.session, "number": 1, "facts": facts})
		if scored.status != 422 || recorded.status != 422 {
			t.Errorf("%s %s: score %d, record %d, want 422 both", c.game, c.field, scored.status, recorded.status)
			continue
		}
		s, r := scored.json(t), recorded.json(t)
		for _, k := range []string{"field", "rule", "detail"} {
			if s[k] != r[k] {
				t.Errorf("%s %s: %s differs: score endpoint %q, recording %q", c.game, c.field, k, s[k], r[k])
			}
		}
		if s["field"] != c.field {
			t.Errorf("%s: refused on %q, want %q", c.game, s["field"], c.field)
		}
	}
}
