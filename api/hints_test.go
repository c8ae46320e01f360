package api_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// hintCase is a common mistake at a table: the facts, the field refused,
// and the names (@1, @2, …) and words the players' hint must hold.
type hintCase struct {
	name, facts, field string
	want               []string
}

// english catches a hint that is a developer's rule, not German for the
// players: English words, a field path, a raw player reference.
var english = regexp.MustCompile(`\b(got|must|player|is not|the|facts|required)\b|facts\.|\{\{player|\[\d+\]`)

// refuseWithHint records a hand that must be refused on field, and checks
// the problem's hint: German, with the named players' names, no ids, no
// field path, the same on the problem and its errors[] item.
func (g *gameTable) refuseWithHint(c hintCase) {
	g.t.Helper()
	g.refuse(c.name, c.facts, c.field)
	res := g.e.call("POST", g.handsPath(), g.e.admin,
		map[string]any{"session_id": g.session, "number": g.hands + 1, "facts": g.facts(c.facts)})
	p := res.json(g.t)
	checkHint(g.t, c.name, p, g.ids, c.want...)
}

// checkHint checks a problem's hint; want are texts it must hold (@n are
// replaced by the names through ids, when given).
func checkHint(t *testing.T, name string, p map[string]any, ids *strings.Replacer, want ...string) {
	t.Helper()
	hint, _ := p["hint"].(string)
	if hint == "" {
		t.Errorf("%s: the problem has no hint: %v", name, p)
		return
	}
	t.Logf("%s: %s", name, hint)
	if english.MatchString(hint) {
		t.Errorf("%s: hint %q is not for players (English, a field path or a reference)", name, hint)
	}
	if regexp.MustCompile(`Spieler \d`).MatchString(hint) {
		t.Errorf("%s: hint %q names a player by id", name, hint)
	}
	for _, w := range want {
		if ids != nil {
			w = ids.Replace(w)
		}
		if !strings.Contains(hint, w) {
			t.Errorf("%s: hint %q lacks %q", name, hint, w)
		}
	}
	if errs, _ := p["errors"].([]any); len(errs) > 0 {
		if h := errs[0].(map[string]any)["hint"]; h != hint {
			t.Errorf("%s: errors[0].hint %q, want the problem's %q", name, h, hint)
		}
	}
}

// TestHintsDoppelkopf: the most common mistakes at a Doppelkopf table of
// five (Anna deals and sits out) get a German hint naming the players.
func TestHintsDoppelkopf(t *testing.T) {
	g := newGameTable(t, "doppelkopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4, 5)
	for _, c := range []hintCase{
		{"a normal game with one Re player", `{"game":"normal","re":{"players":[P2],"augen":130}}`, "facts.re.players", []string{"zwei Re", "Normalspiel"}},
		{"a solo with two Re players", `{"game":"damensolo","re":{"players":[P2,P3],"augen":130}}`, "facts.re.players", []string{"Damensolo", "Solist"}},
		{"a solo without its soloist", `{"game":"damensolo","re":{"players":[],"augen":130}}`, "facts.re.players", []string{"Solist"}},
		{"a Re player sitting out", `{"game":"normal","re":{"players":[P2,P1],"augen":130}}`, "facts.re.players[1]", []string{"@1 spielt dieses Spiel nicht mit", "@2, @3, @4 und @5"}},
		{"a Kontra player in Re", `{"game":"normal","re":{"players":[P2,P3],"augen":130},"kontra":{"players":[P2,P4]}}`, "facts.kontra.players[0]", []string{"@2 spielt schon Re"}},
		{"Augen over the deck", `{"game":"normal","re":{"players":[P2,P3],"augen":250}}`, "facts.re.augen", []string{"240"}},
		{"Augen no trick can make", `{"game":"normal","re":{"players":[P2,P3],"augen":7}}`, "facts.re.augen", []string{"nicht 7"}},
		{"Augen not adding up", `{"game":"normal","re":{"players":[P2,P3],"augen":130},"kontra":{"augen":100}}`, "facts.kontra.augen", []string{"230", "240"}},
		{"two Karlchen", `{"game":"normal","re":{"players":[P2,P3],"augen":160,"karlchen":true},"kontra":{"karlchen":true}}`, "facts.kontra.karlchen", []string{"Karlchen"}},
		{"three Füchse", `{"game":"normal","re":{"players":[P2,P3],"augen":160,"fuchs_gefangen":1},"kontra":{"fuchs_gefangen":2}}`, "facts.kontra.fuchs_gefangen", []string{"zwei Füchse"}},
		{"Augen missing", `{"game":"normal","re":{"players":[P2,P3]}}`, "facts.re.augen", []string{"Augen von Re"}},
		{"a Farbsolo without its suit", `{"game":"farbsolo","re":{"players":[P2],"augen":130}}`, "facts.suit", []string{"Trumpffarbe"}},
	} {
		g.refuseWithHint(c)
	}
}

func TestHintsSaukopf(t *testing.T) {
	g := newGameTable(t, "saukopf", "", 5)
	g.open("2026-03-12", 1, 2, 3, 4, 5)
	for _, c := range []hintCase{
		{"a Spieler sitting out", strings.Replace(gamestest.LostKeiler, `"spieler":P1`, `"spieler":P5`, 1), "facts.spieler", []string{"@5 spielt dieses Spiel nicht mit", "@1, @2, @3 und @4"}},
		{"Augen over the deck", strings.Replace(gamestest.LostKeiler, `"augen":55`, `"augen":121`, 1), "facts.augen", []string{"120"}},
		{"a player twice", strings.Replace(gamestest.LostKeiler, `[P1,P2,P3,P4]`, `[P1,P2,P3,P2]`, 1), "facts.players[3]", []string{"@2 ist zweimal"}},
		{"a bid of 60", strings.Replace(gamestest.LostKeiler, `"bid":61`, `"bid":60`, 1), "facts.bid", []string{"61 bis 120"}},
	} {
		g.refuseWithHint(c)
	}
}

func TestHintsSchwarzeSau(t *testing.T) {
	g := newGameTable(t, "schwarze_sau", "", 5)
	g.open("2025-03-09", 1, 2, 3, 4, 5)
	const ok = `{"player":P1,"card_points":46,"tricks":3},{"player":P2,"card_points":40,"tricks":3,"pik_dame":true},{"player":P3,"card_points":30,"tricks":3}`
	for _, c := range []hintCase{
		{"points not adding to 120", `{"players":[` + ok + `,{"player":P4,"card_points":5,"tricks":1}],"dealer":P4}`, "facts.players[].card_points", []string{"120", "121"}},
		{"a Verstoß by a player sitting out", `{"players":[` + ok + `,{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"verstoss_by":P5}`, "facts.verstoss_by", []string{"@5 spielt dieses Spiel nicht mit"}},
		{"a doubling twice by one player", `{"players":[` + ok + `,{"player":P4,"card_points":4,"tricks":1}],"dealer":P4,"doublings":[{"call":"Kontra","player":P2},{"call":"Re","player":P2}]}`, "facts.doublings[1].player", []string{"@2 hat schon verdoppelt"}},
		{"nobody took the Pik-Dame", `{"players":[{"player":P1,"card_points":46,"tricks":3},{"player":P2,"card_points":40,"tricks":3},{"player":P3,"card_points":30,"tricks":3},{"player":P4,"card_points":4,"tricks":1}],"dealer":P4}`, "facts.players[].pik_dame", []string{"Pik-Dame"}},
	} {
		g.refuseWithHint(c)
	}
}

func TestHintsSchwarzeDame(t *testing.T) {
	g := newGameTable(t, "schwarze_dame", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	hand := func(tricks4 int, pik string) string {
		return fmt.Sprintf(`{"dealer":P1,"players":[{"player":P1,"tricks":4,"hearts":[2,5,13]},{"player":P2,"tricks":3,"hearts":[14]%s},{"player":P3,"tricks":5,"hearts":[3,4,6,7,8,9,10]},{"player":P4,"tricks":%d,"hearts":[11,12]}]}`, pik, tricks4)
	}
	for _, c := range []hintCase{
		{"tricks not adding to 13", hand(2, `,"pik_dame":true`), "facts.players[].tricks", []string{"13 Stiche", "14"}},
		{"nobody took the Pik-Dame", hand(1, ""), "facts.players[].pik_dame", []string{"Pik-Dame"}},
		{"penalty cards without a trick", strings.Replace(hand(1, `,"pik_dame":true`), `"tricks":3,"hearts":[14]`, `"tricks":0,"hearts":[14]`, 1), "facts.players[1].tricks", []string{"@2 hat Strafkarten"}},
	} {
		g.refuseWithHint(c)
	}
}

func TestHintsKlaberjass(t *testing.T) {
	g := newGameTable(t, "klaberjass", "", 4)
	g.open("2026-03-12", 1, 2, 3, 4)
	const cp = `"card_points":[{"player":P1,"points":76},{"player":P2,"points":76}],"last_trick":P1`
	for _, c := range []hintCase{
		{"card points with the melds in them", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","card_points":[{"player":P1,"points":120},{"player":P2,"points":80}],"last_trick":P1}`, "facts.card_points", []string{"152", "200", "Meldungen"}},
		{"card points twice for a team", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","card_points":[{"player":P1,"points":76},{"player":P3,"points":76}],"last_trick":P1}`, "facts.card_points[1].player", []string{"@1 und @3"}},
		{"Re without Kontra", `{"dealer":P1,"trump_player":P1,"trump_suit":"herz","re":true,` + cp + `}`, "facts.re", []string{"Kontra"}},
	} {
		g.refuseWithHint(c)
	}
}

// TestHintsOfAccessAndContract: what a phone meets before a game's rules
// (a used or cut invitation, a revoked key, a stake typed as Germans type
// it) is German too; "0,5" is half a cent.
func TestHintsOfAccessAndContract(t *testing.T) {
	e := newEnv(t)
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Komma", "game": "doppelkopf", "stake_cents_per_point": "0,5"})
	if tbl["stake_cents_per_point"] != "1/2" {
		t.Errorf("stake 0,5 stored as %v, want 1/2", tbl["stake_cents_per_point"])
	}
	patched := e.must(200, "PATCH", fmt.Sprintf("/v1/tables/%v", tbl["id"]), e.admin, map[string]any{"stake_cents_per_point": "0.25"})
	if patched["stake_cents_per_point"] != "1/4" {
		t.Errorf("stake 0.25 stored as %v, want 1/4", patched["stake_cents_per_point"])
	}
	for _, c := range []struct {
		name, method, path, key string
		body                    any
		status                  int
		want                    string
	}{
		{"a stake in euros", "POST", "/v1/tables", e.admin, map[string]any{"name": "X", "game": "doppelkopf", "stake_cents_per_point": "0,5 €"}, 422, "0,5"},
		{"a stake with four places", "POST", "/v1/tables", e.admin, map[string]any{"name": "X", "game": "doppelkopf", "stake_cents_per_point": "0,1234"}, 422, "Komma"},
		{"an unknown join code", "POST", "/v1/joins/sbj_1_" + strings.Repeat("A", 43), "", nil, 404, "Einladung"},
		{"a cut join link", "POST", "/v1/joins/x", "", nil, 0, "Einladung"},
		{"a wrong key", "GET", "/v1/tables", "sk_1_nothing", nil, 401, "angemeldet"},
		{"no key", "GET", "/v1/tables", "", nil, 401, "angemeldet"},
	} {
		res := e.call(c.method, c.path, c.key, c.body)
		if c.status != 0 && res.status != c.status {
			t.Errorf("%s: status %d, want %d: %s", c.name, res.status, c.status, res.body)
			continue
		}
		checkHint(t, c.name, res.json(t), nil, c.want)
	}
}
