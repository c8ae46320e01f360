package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// turnierAPI is a tournament evening through the HTTP API on PostgreSQL:
// eight players (A Anna … H Hanna), two tournament tables.
type turnierAPI struct {
	e      *env
	ids    map[string]int64
	ini    map[int64]string
	tables [2]int64
	id     int64
	next   [2]int
	sess   [2]int64
}

func newTurnierAPI(t *testing.T) *turnierAPI {
	e := newEnv(t)
	ta := &turnierAPI{e: e, ids: map[string]int64{}, ini: map[int64]string{}, next: [2]int{1, 1}}
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter", "Emil", "Frieda", "Gustav", "Hanna"} {
		p := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": name})
		id := int64(p["id"].(float64))
		ta.ids[name[:1]], ta.ini[id] = id, name[:1]
	}
	for i := range ta.tables {
		tb := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": fmt.Sprintf("Tisch %d", i+1), "game": "doppelkopf",
			"preset": "ddv", "options": map[string]any{"turnier": true}})
		ta.tables[i] = int64(tb["id"].(float64))
	}
	tr := e.must(201, "POST", "/v1/tournaments", e.admin, map[string]any{"name": "Herbstturnier", "date": "2026-11-19",
		"hands_per_round": 6, "table_ids": ta.tables})
	ta.id = int64(tr["id"].(float64))
	return ta
}

func (ta *turnierAPI) path(rest string) string {
	return fmt.Sprintf("/v1/tournaments/%d%s", ta.id, rest)
}

func (ta *turnierAPI) seats(s string) []int64 {
	var out []int64
	for _, r := range s {
		out = append(out, ta.ids[string(r)])
	}
	return out
}

// open opens the next round and returns the status and body.
func (ta *turnierAPI) open(a, b string) response {
	res := ta.e.call("POST", ta.path("/rounds"), ta.e.admin, map[string]any{"seatings": []map[string]any{
		{"table_id": ta.tables[0], "player_ids": ta.seats(a)}, {"table_id": ta.tables[1], "player_ids": ta.seats(b)}}})
	if res.status == 201 {
		rounds := res.json(ta.e.t)["rounds"].([]any)
		for i, rt := range rounds[len(rounds)-1].(map[string]any)["tables"].([]any) {
			ta.sess[i] = int64(rt.(map[string]any)["session_id"].(float64))
		}
	}
	return res
}

// facts builds a hand's facts: "normal AC 130", "damensolo pflicht C 130",
// "farbsolo:kreuz pflicht A 170", "damensolo vorgefuehrt B 100".
func (ta *turnierAPI) facts(s string) map[string]any {
	f := strings.Fields(s)
	augen := 0
	fmt.Sscan(f[len(f)-1], &augen)
	if f[0] == "normal" {
		return map[string]any{"game": "normal", "re": map[string]any{"players": ta.seats(f[1]), "augen": augen}}
	}
	game, suit, _ := strings.Cut(f[0], ":")
	facts := map[string]any{"game": game, "solo_kind": f[1], "re": map[string]any{"players": ta.seats(f[2]), "augen": augen}}
	if f[1] == "vorgefuehrt" {
		facts["solo_kind"], facts["vorgefuehrt"] = "pflicht", true
	}
	if suit != "" {
		facts["suit"] = suit
	}
	return facts
}

// hand records the next hand at table i and returns the answer.
func (ta *turnierAPI) hand(i int, s string) response {
	res := ta.e.call("POST", fmt.Sprintf("/v1/tables/%d/hands", ta.tables[i]), ta.e.admin,
		map[string]any{"session_id": ta.sess[i], "number": ta.next[i], "facts": ta.facts(s)})
	if res.status == 201 {
		ta.next[i]++
	}
	return res
}

func (ta *turnierAPI) play(i int, hands ...string) {
	ta.e.t.Helper()
	for _, h := range hands {
		if res := ta.hand(i, h); res.status != 201 {
			ta.e.t.Fatalf("table %d, %s: %d %s", i+1, h, res.status, res.body)
		}
	}
}

// refuse checks the status of the next hand and that the problem names
// every one of words.
func (ta *turnierAPI) refuse(i int, h string, status int, words ...string) {
	ta.e.t.Helper()
	res := ta.hand(i, h)
	if res.status != status {
		ta.e.t.Fatalf("table %d, %s: %d, want %d: %s", i+1, h, res.status, status, res.body)
	}
	for _, w := range words {
		if !strings.Contains(string(res.body), w) {
			ta.e.t.Errorf("table %d, %s: the problem does not name %q: %s", i+1, h, w, res.body)
		}
	}
}

// TestTournamentEveningThroughTheAPI plays TestTournamentEvening's evening
// (ledger/tournament_test.go computes every number by hand) through the
// API on PostgreSQL: two tables, two rounds re-seated, Bernd vorgeführt in
// both, the time of round 2 ended by the organizer; then the Spiellisten,
// the ranking as JSON and HTML, and the change feed.
func TestTournamentEveningThroughTheAPI(t *testing.T) {
	ta := newTurnierAPI(t)
	e := ta.e
	if res := ta.open("ABCD", "EFGH"); res.status != 201 {
		t.Fatalf("round 1: %d %s", res.status, res.body)
	}
	// A Lustsolo before the Pflichtsolo is the engine's refusal (TSR 4.3.1).
	ta.refuse(0, "damensolo lust C 130", 422, "facts.solo_kind", "4.3.1")
	ta.play(0, "normal AC 130", "damensolo pflicht C 130", "bubensolo pflicht D 100", "farbsolo:kreuz pflicht A 170", "normal BD 100")
	ta.refuse(0, "normal AB 130", 422, "facts.vorgefuehrt", "Bernd", "Clara", "4.2.3")
	if res := ta.open("AEBF", "CGDH"); res.status != 409 || !strings.Contains(string(res.body), "Pflichtsolo offen: Bernd") {
		t.Errorf("round 2 before round 1 is over: %d %s", res.status, res.body)
	}
	e.must(409, "POST", fmt.Sprintf("/v1/sessions/%d/close", ta.sess[0]), e.admin, nil)
	ta.play(0, "damensolo vorgefuehrt B 100")
	ta.refuse(0, "normal AC 130", 409, "vollständig")
	ta.play(1, "damensolo pflicht F 130", "bubensolo pflicht G 130", "normal EF 130", "farbsolo:herz pflicht H 130",
		"damensolo pflicht E 100", "bubensolo lust F 130")

	round1 := ta.sess
	if res := ta.open("AEBF", "CGDH"); res.status != 201 {
		t.Fatalf("round 2: %d %s", res.status, res.body)
	}
	for _, s := range round1 {
		if sess := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d", s), e.admin, nil); sess["closed_at"] == nil {
			t.Errorf("round 1's session %d is still open", s)
		}
	}
	ta.play(0, "damensolo pflicht E 130", "normal AB 130", "farbsolo:pik pflicht F 130", "bubensolo pflicht A 100")
	ta.play(1, "normal CD 130", "damensolo pflicht G 130", "bubensolo pflicht C 170", "damensolo pflicht H 100", "farbsolo:karo pflicht D 130")
	tr := e.must(200, "POST", ta.path("/rounds/2/time-up"), e.admin, nil)
	status := tr["rounds"].([]any)[1].(map[string]any)["tables"].([]any)[0].(map[string]any)["status"].(map[string]any)
	if vf, _ := status["vorfuehrung"].(map[string]any); vf == nil || vf["name"] != "Bernd" || status["games_left"] != 0.0 {
		t.Errorf("round 2, Tisch 1 after the time: %v, want Bernd vorgeführt, no game left", status)
	}
	ta.refuse(1, "normal CD 130", 409, "vollständig")
	ta.refuse(0, "normal EF 130", 422, "Bernd", "Spielzeit")
	ta.play(0, "damensolo vorgefuehrt B 170")

	ta.checkSpiellisten(t)
	ta.checkRanking(t)
	ta.checkFeed(t)
}

// checkSpiellisten: every round's final totals and Bernd's two vorgeführt
// games, as computed by hand in ledger/tournament_test.go.
func (ta *turnierAPI) checkSpiellisten(t *testing.T) {
	want := map[string]string{
		"1 Tisch 1": "ABCD 10 -8 6 -8 | 6 C pflichtsolo vorgeführt v1 auf B",
		"2 Tisch 1": "AEBF -6 0 6 0 | 5 E pflichtsolo vorgeführt v2 auf B",
		"1 Tisch 2": "EFGH -6 6 0 0 | 6 F lustsolo v1 auf G",
		"2 Tisch 2": "CGDH 6 0 2 -8 | 5 G pflichtsolo v1 auf D",
	}
	for _, tb := range ta.tables {
		body := ta.e.must(200, "GET", ta.path(fmt.Sprintf("/spielliste?table_id=%d", tb)), ta.e.admin, nil)
		for _, l := range body["spiellisten"].([]any) {
			l := l.(map[string]any)
			var players string
			for _, p := range l["players"].([]any) {
				players += ta.ini[int64(p.(map[string]any)["player_id"].(float64))]
			}
			rows := l["rows"].([]any)
			last := rows[len(rows)-1].(map[string]any)
			kind := last["kind"].(string)
			if last["vorgefuehrt"] == true {
				kind += " vorgeführt"
			}
			got := fmt.Sprintf("%s %s | %v %s %s v%s auf %s", players, joinAny(l["totals"].([]any)), last["game"], ta.ini[int64(last["dealer_id"].(float64))],
				kind, last["value"], ta.ini[int64(last["aufspiel_player_id"].(float64))])
			key := fmt.Sprintf("%v %s", l["round"], l["table"].(map[string]any)["name"])
			if got != want[key] {
				t.Errorf("Spielliste round %s: %s, want %s", key, got, want[key])
			}
			for _, r := range rows {
				if r := r.(map[string]any); r["sum_zero"] != true || r["even_odd"] != true {
					t.Errorf("Spielliste round %s, game %v: the checks of TSR 7.3.3 fail", key, r["game"])
				}
			}
		}
	}
	e := ta.e
	res := e.call("GET", ta.path("/spielliste?table_id=999999"), e.admin, nil)
	if res.status != 422 {
		t.Errorf("the Spielliste of a table not of the tournament: %d %s", res.status, res.body)
	}
}

func joinAny(vs []any) string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprint(v))
	}
	return strings.Join(out, " ")
}

// checkRanking: Clara 12, Frieda 6, Anna 4, Gustav 0, Bernd -2, Dieter and
// Emil -6 sharing place 6, Hanna -8; and the printable page.
func (ta *turnierAPI) checkRanking(t *testing.T) {
	e := ta.e
	rk := e.must(200, "GET", ta.path("/ranking"), e.admin, nil)
	var got []string
	for _, en := range rk["ranking"].([]any) {
		en := en.(map[string]any)
		got = append(got, fmt.Sprintf("%v %v %v %v/%v", en["place"], en["name"], en["points"], en["pflichtsoli"], en["vorgefuehrt"]))
	}
	want := []string{"1 Clara 12 2/0", "2 Frieda 6 2/0", "3 Anna 4 2/0", "4 Gustav 0 2/0", "5 Bernd -2 2/2", "6 Dieter -6 2/0", "6 Emil -6 2/0", "8 Hanna -8 2/0"}
	if !slices.Equal(got, want) || rk["complete"] != true {
		t.Errorf("ranking (complete %v):\n%s\nwant\n%s", rk["complete"], strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res := e.call("GET", ta.path("/ranking?format=html"), e.admin, nil)
	page := string(res.body)
	if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
		t.Fatalf("ranking as HTML: %d %s", res.status, res.header.Get("Content-Type"))
	}
	for _, w := range []string{"<h1>Herbstturnier</h1>", "19.11.2026", "2 Runden zu je 6 Spielen", "<td>Clara</td>",
		"6. <small>(geteilt)</small></td><td>Dieter</td>", "2 (2 vorgeführt)", "-8 <small>Tisch 1</small>"} {
		if !strings.Contains(page, w) {
			t.Errorf("the ranking page lacks %q", w)
		}
	}
	if strings.Contains(page, "vorläufig") {
		t.Error("a complete tournament's ranking is marked vorläufig")
	}
}

// checkFeed: the change feed records the tournament.
func (ta *turnierAPI) checkFeed(t *testing.T) {
	e := ta.e
	changes := e.must(200, "GET", "/v1/changes?limit=1000", e.admin, nil)["changes"].([]any)
	count := map[string]int{}
	for _, c := range changes {
		count[c.(map[string]any)["kind"].(string)]++
	}
	if count["tournament_created"] != 1 || count["tournament_round_opened"] != 2 || count["tournament_round_time_up"] != 1 {
		t.Errorf("change feed: %v", count)
	}
}

// TestTournamentRefusalsThroughTheAPI: a table that does not play by the
// TSR, a seating of three, and an unknown tournament.
func TestTournamentRefusalsThroughTheAPI(t *testing.T) {
	ta := newTurnierAPI(t)
	e := ta.e
	house := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Haus", "game": "doppelkopf"})
	res := e.call("POST", "/v1/tournaments", e.admin, map[string]any{"name": "T", "table_ids": []any{house["id"]}})
	if p := res.json(t); res.status != 422 || p["field"] != "table_ids[0]" || !strings.Contains(fmt.Sprint(p["detail"]), "Haus") {
		t.Errorf("a house table: %d %s", res.status, res.body)
	}
	res = e.call("POST", ta.path("/rounds"), e.admin, map[string]any{"seatings": []map[string]any{
		{"table_id": ta.tables[0], "player_ids": ta.seats("ABC")}, {"table_id": ta.tables[1], "player_ids": ta.seats("EFGH")}}})
	if p := res.json(t); res.status != 422 || p["field"] != "seatings[0].player_ids" {
		t.Errorf("a seating of three: %d %s", res.status, res.body)
	}
	e.must(404, "GET", "/v1/tournaments/999999", e.admin, nil)
	e.must(404, "POST", ta.path("/rounds/1/time-up"), e.admin, nil)
	if list := e.must(200, "GET", "/v1/tournaments", e.admin, nil)["tournaments"].([]any); len(list) != 1 {
		t.Errorf("%d tournaments listed, want 1", len(list))
	}
}
