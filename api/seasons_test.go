package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// seasonWorld is two Schwarze Dame evenings of four players: 2026-11-19
// at the evening's table (one hand, open: read live from its hands) and
// 2026-11-26 at a second table (two hands, closed: read from its rollups).
// Worked example A scores +20, −10, +3, −13 a hand, so the season's sums
// are Anna 20 + 40 = 60, Bernd −10 − 20 = −30, Clara 3 + 6 = 9, Dieter
// −13 − 26 = −39.
func seasonWorld(t *testing.T) (*env, evening) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Freitag", "game": "schwarze_dame"})
	later := evening{table: int64(tbl["id"].(float64)), players: ev.players}
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", later.table), e.admin, map[string]any{"date": "2026-11-26", "player_ids": ev.players})
	later.session = int64(s["id"].(float64))
	for n := 1; n <= 2; n++ {
		h := later.hand(n)
		h["facts"].(map[string]any)["dealer"] = ev.players[n-1]
		e.must(201, "POST", later.hands(), e.admin, h)
	}
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", later.session), e.admin, nil)
	return e, ev
}

func sumRules() map[string]any {
	return map[string]any{"period": map[string]any{"kind": "year", "year": 2026}, "games": []string{"schwarze_dame"},
		"unit": map[string]any{"kind": "points"}, "aggregate": map[string]any{"kind": "sum"}, "missed": map[string]any{"kind": "ignored"}}
}

// finals maps each line's name to its rank and final.
func finals(t *testing.T, table map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range table["rows"].([]any) {
		row := r.(map[string]any)
		out[row["name"].(string)] = fmt.Sprintf("%v:%v", row["rank"], row["final"])
	}
	return out
}

func TestSeasonTableOverTheAPI(t *testing.T) {
	e, ev := seasonWorld(t)
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": sumRules()})
	table := e.must(200, "GET", "/v1/seasons/jahreswertung", e.admin, nil)
	want := map[string]string{"Anna": "1:60", "Clara": "2:9", "Bernd": "3:-30", "Dieter": "4:-39"}
	if got := finals(t, table); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("season table = %v, want %v", got, want)
	}
	if offered := table["offered"].([]any); len(offered) != 2 {
		t.Errorf("offered = %v, want the two evenings", offered)
	}
	// The evening winners, per 24 hands: Anna both evenings.
	winners := e.must(200, "GET", "/v1/seasons/jahreswertung/evenings", e.admin, nil)["evening_winners"].([]any)
	for _, w := range winners {
		ws := w.(map[string]any)["winners"].([]any)
		if len(ws) != 1 || ws[0].(map[string]any)["name"] != "Anna" || ws[0].(map[string]any)["per_hands"] != "480" {
			t.Errorf("evening winners = %v, want Anna with 20 · 24 = 480 per 24 hands", w)
		}
	}
	// Bernd needs more than (60 − (−30))/2 = 45 on each of 2 evenings.
	line := e.must(200, "GET", fmt.Sprintf("/v1/seasons/jahreswertung/players/%d?remaining=2", ev.players[1]), e.admin, nil)
	if w := line["what_if"].(map[string]any); w["more_than_per_evening"] != "45" || w["leader_name"] != "Anna" {
		t.Errorf("what-if = %v, want more than 45 to pass Anna", w)
	}
	if ev := line["line"].(map[string]any)["evenings"].([]any); len(ev) != 2 || ev[0].(map[string]any)["reason"] != "counted" {
		t.Errorf("Bernd's evenings = %v, want two counted", ev)
	}
}

// A season keeps the rules it was ranked by: new rules are a new version,
// the old table is still shown by its version, the same rules twice store
// once.
func TestSeasonVersionsKeepTheOldTable(t *testing.T) {
	e, _ := seasonWorld(t)
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": sumRules()})
	avg := sumRules()
	avg["aggregate"] = map[string]any{"kind": "average"}
	v2 := e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": avg})
	if v2["version"] != float64(2) {
		t.Fatalf("new rules = version %v, want 2", v2["version"])
	}
	if again := e.call("POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": avg}); again.status != 200 || again.json(t)["version"] != float64(2) {
		t.Errorf("the same rules again: %d %s, want 200 with version 2", again.status, again.body)
	}
	if got := finals(t, e.must(200, "GET", "/v1/seasons/jahreswertung", e.admin, nil))["Anna"]; got != "1:30" {
		t.Errorf("latest (average): Anna %s, want 1:30", got)
	}
	if got := finals(t, e.must(200, "GET", "/v1/seasons/jahreswertung?version=1", e.admin, nil))["Anna"]; got != "1:60" {
		t.Errorf("version 1 (sum): Anna %s, want 1:60", got)
	}
	if n := e.count("season_rules"); n != 2 {
		t.Errorf("%d versions stored, want 2", n)
	}
}

// Rules the ledger refuses name the field and store nothing.
func TestSeasonRefusedRulesStoreNothing(t *testing.T) {
	e, _ := seasonWorld(t)
	cases := map[string]func(map[string]any){
		"rules.aggregate.drop_at[1]": func(r map[string]any) { r["aggregate"] = map[string]any{"kind": "sum", "drop_at": []int{30, 30}} },
		"rules.missed.score":         func(r map[string]any) { r["missed"] = map[string]any{"kind": "zero", "score": "5"} },
		"rules.period.to": func(r map[string]any) {
			r["period"] = map[string]any{"kind": "range", "from": "2026-12-01", "to": "2026-01-01"}
		},
		"rules.unit.kind": func(r map[string]any) { r["unit"] = map[string]any{"kind": "tricks"} },
		"name":            func(map[string]any) {},
	}
	for field, bad := range cases {
		r := sumRules()
		bad(r)
		name := "saison"
		if field == "name" {
			name = "Saison 2026"
		}
		res := e.call("POST", "/v1/seasons", e.admin, map[string]any{"name": name, "rules": r})
		if res.status != 422 || res.json(t)["field"] != field {
			t.Errorf("%s: %d %s, want 422 naming %s", field, res.status, res.body, field)
		}
	}
	if n := e.count("season_rules"); n != 0 {
		t.Errorf("%d rules stored from refused requests", n)
	}
	if res := e.call("GET", "/v1/seasons/unbekannt", e.admin, nil); res.status != 404 {
		t.Errorf("an unknown season: %d, want 404", res.status)
	}
}

// The table as CSV for German spreadsheets and as a printable page.
func TestSeasonReports(t *testing.T) {
	e, _ := seasonWorld(t)
	rules := sumRules()
	rules["unit"] = map[string]any{"kind": "placement", "placement": []int{3, 2, 1}}
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "platzwertung", "rules": rules})
	res := e.call("GET", "/v1/seasons/platzwertung?format=csv", e.admin, nil)
	body := string(res.body)
	// Placement per evening: Anna 3 + 3, Clara 2 + 2, Bernd 1 + 1, Dieter 0.
	for _, want := range []string{"\ufeffWertung;Fassung", "1;Anna;2;2;0;0;0;2;60,00;6,00;0,00;6,00;\"=\"\"6\"\"\";ja", "4;Dieter;2;2;0;0;0;0;-39,00;0,00;0,00;0,00"} {
		if !strings.Contains(body, want) {
			t.Errorf("CSV lacks %q:\n%s", want, body)
		}
	}
	page := string(e.call("GET", "/v1/seasons/platzwertung?format=html", e.admin, nil).body)
	for _, want := range []string{"<h1>platzwertung</h1>", "Platzpunkte am Tisch (3, 2, 1)", `class="leader-line"`, "<td>Anna</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	svg := e.call("GET", "/v1/seasons/platzwertung/chart", e.admin, nil)
	if ct := svg.header.Get("Content-Type"); !strings.HasPrefix(ct, "image/svg+xml") || strings.Count(string(svg.body), "<polyline") != 4 {
		t.Errorf("chart: %s with %d lines, want an SVG of 4 leaders", ct, strings.Count(string(svg.body), "<polyline"))
	}
}
