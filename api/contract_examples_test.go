package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// contractFixture is the world TestContractBoundaries sends its cases
// into: a closed evening (table 1, session 1, with a transfer) that the
// cases reaching id 1 may close again or pay, and an open evening where
// hands are recorded.
type contractFixture struct {
	e        *env
	key      string // an admin key of its own: a case revokes key 1
	players  []int64
	old, now evening
	transfer int64
	keyID    int64 // a reader key the key operations revoke and rotate
	n        int
	// tournament has one round open at its table turnier.
	tournament, turnier int64
	// reportToken is the token of the old evening's report link, made
	// with the fixture's own admin key.
	reportToken string
}

func newContractFixture(e *env) *contractFixture {
	fx := &contractFixture{e: e}
	fx.key = e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "admin", "label": "boundaries"})["secret"].(string)
	fx.keyID = int64(e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["id"].(float64))
	fx.old = e.evening()
	fx.players = fx.old.players
	e.must(201, "POST", fx.old.hands(), e.admin, fx.old.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", fx.old.session), e.admin, nil)
	st := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", fx.old.session), e.admin, nil)
	fx.transfer = int64(st["transfers"].([]any)[0].(map[string]any)["id"].(float64))
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Freitag", "game": "schwarze_dame"})
	fx.now = evening{table: int64(tbl["id"].(float64)), players: fx.players}
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", fx.now.table), e.admin, map[string]any{"date": "2026-11-20", "player_ids": fx.players})
	fx.now.session = int64(s["id"].(float64))
	e.must(201, "POST", fx.now.hands(), e.admin, fx.now.hand(1))
	fx.tournament, fx.turnier = fx.newTournament(true)
	// A season over the evenings' game (issue 30), the path's {name}.
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": seasonExample(nil)})
	link := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/report-link", fx.old.session), fx.key, nil)["html_url"].(string)
	fx.reportToken = strings.TrimPrefix(strings.SplitN(link, "?", 2)[0], "/v1/report-links/")
	return fx
}

// newTournament creates a tournament at a new tournament table, its first
// round open when open is set.
func (fx *contractFixture) newTournament(open bool) (tournament, table int64) {
	tbl := fx.e.must(201, "POST", "/v1/tables", fx.key, map[string]any{"name": fx.unique("Turniertisch"), "game": "doppelkopf",
		"preset": "ddv", "options": map[string]any{"turnier": true}})
	table = int64(tbl["id"].(float64))
	tr := fx.e.must(201, "POST", "/v1/tournaments", fx.key, map[string]any{"name": fx.unique("Turnier"), "table_ids": []int64{table}})
	tournament = int64(tr["id"].(float64))
	if open {
		fx.e.must(201, "POST", fmt.Sprintf("/v1/tournaments/%d/rounds", tournament), fx.key, fx.seating(table))
	}
	return tournament, table
}

// seating is a round's seating of the fixture's players at table.
func (fx *contractFixture) seating(table int64) map[string]any {
	return map[string]any{"seatings": []map[string]any{{"table_id": table, "player_ids": fx.players}}}
}

// request is the operation's example: the fixture's ids in the path, and
// the example of contractExamples when there is one, with its body or
// (variant 1 on) one of its other bodies.
func (fx *contractFixture) request(t *testing.T, op specOp, variant int) request {
	p := fx.players
	r := request{query: url.Values{}, header: map[string]string{}, path: map[string]string{
		"tableID": id(fx.now.table), "sessionID": id(fx.old.session), "number": "1", "keyID": id(fx.keyID),
		"transferID": id(fx.transfer), "playerID": id(p[0]), "otherID": id(p[1]),
		"tournamentID": id(fx.tournament), "round": "1", "file": "app.js",
		"name":  "jahreswertung",
		"code":  "sbj_1_" + strings.Repeat("A", 43), // no such code: redeemJoin's example makes one
		"token": fx.reportToken,
	}}
	for _, param := range op.params {
		if _, ok := r.path[param.Name]; param.In == "path" && !ok {
			t.Fatalf("%s: the fixture has no value for the path parameter %s", op.id, param.Name)
		}
	}
	example, ok := contractExamples[op.id]
	if !ok {
		return r
	}
	ex := example(fx)
	for name, v := range ex.path {
		r.path[name] = v
	}
	for name, v := range ex.header {
		r.header[name] = v
	}
	for name, v := range ex.query {
		r.query[name] = v
	}
	body := ex.body
	if variant > 0 {
		body = ex.more[variant-1]
	}
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&r.body); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func id(n int64) string { return strconv.FormatInt(n, 10) }

// variants is how many example bodies an operation has.
func (fx *contractFixture) variants(op specOp) int {
	if example, ok := contractExamples[op.id]; ok {
		return 1 + len(example(fx).more)
	}
	return 1
}

// example is a valid request of one operation, made afresh for each case.
// more holds other bodies for the fields the first cannot hold with its
// own (a Wilde Sauerei's per_player and a bid's contract).
type example struct {
	path, header map[string]string
	query        url.Values
	body         any
	more         []any
}

func (fx *contractFixture) unique(prefix string) string {
	fx.n++
	return fmt.Sprintf("%s %d", prefix, fx.n)
}

// nextHand is a valid next hand of the open evening, with a new client id.
func (fx *contractFixture) nextHand() map[string]any {
	tbl := fx.e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", fx.now.table), fx.key, nil)
	h := fx.now.hand(int(tbl["hands"].(float64)) + 1)
	fx.n++
	h["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", fx.n)
	return h
}

// scoreRequest is a score endpoint's body around the facts.
func (fx *contractFixture) scoreRequest(facts any) example {
	return example{body: map[string]any{"preset": "", "options": map[string]any{}, "player_ids": fx.players, "date": "2026-11-19", "facts": facts}}
}

// contractExamples holds a valid request for every operation with a body
// or a precondition, keyed by operationId.
var contractExamples = map[string]func(fx *contractFixture) example{
	"importOldLists": func(fx *contractFixture) example {
		return example{body: map[string]any{"file_name": "alt.csv", "dry_run": true,
			"content_base64": base64.StdEncoding.EncodeToString([]byte("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2020;Doppelkopf;;Anna;3;24\n"))}}
	},
	"createSeason": func(fx *contractFixture) example {
		n := func() string { return fmt.Sprintf("saison-%d", len(fx.unique("s"))+fx.n) }
		return example{body: map[string]any{"name": n(), "rules": seasonExample(nil)}, more: []any{
			map[string]any{"name": n(), "rules": seasonExample(map[string]any{"period": map[string]any{"kind": "year", "year": 2026},
				"unit": map[string]any{"kind": "placement", "placement": []int{10, 7, 5, 2}}, "missed": map[string]any{"kind": "score", "score": "-5"}})},
			map[string]any{"name": n(), "rules": seasonExample(map[string]any{"period": map[string]any{"kind": "rolling", "months": 24, "end": "2026-11-30"}})},
		}}
	},
	"createKey": func(fx *contractFixture) example {
		return example{body: map[string]any{"role": "reader", "label": "Tablet"}}
	},
	"createJoin": func(fx *contractFixture) example {
		return example{body: map[string]any{"role": "scorer", "ttl_seconds": 900}}
	},
	"redeemJoin": func(fx *contractFixture) example { // a code is good once: a fresh one each time
		j := fx.e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/joins", fx.now.table), fx.key, map[string]any{"role": "reader"})
		return example{path: map[string]string{"code": j["code"].(string)}}
	},
	"createPlayer": func(fx *contractFixture) example { return example{body: map[string]any{"name": fx.unique("Gast")}} },
	// The setup token works once: every request gets a server holding a
	// fresh one (on the same database).
	"createFirstClub": func(fx *contractFixture) example {
		srv, err := api.New(fx.e.store, slog.New(slog.DiscardHandler), api.Config{SetupToken: "einmal"})
		if err != nil {
			panic(err)
		}
		fx.e.server = srv
		return example{body: map[string]any{"token": "einmal", "name": fx.unique("Club"), "time_zone": "Europe/Berlin"}}
	},
	"createTable": func(fx *contractFixture) example {
		return example{body: map[string]any{"name": fx.unique("Tisch"), "game": "schwarze_dame", "preset": "", "options": map[string]any{},
			"stake_cents_per_point": "1/2", "settle_mode": "transfers", "match_loss_cents": 0}}
	},
	"openSession": func(fx *contractFixture) example {
		tbl := fx.e.must(201, "POST", "/v1/tables", fx.key, map[string]any{"name": fx.unique("Abend"), "game": "schwarze_dame"})
		return example{path: map[string]string{"tableID": fmt.Sprint(tbl["id"])}, body: map[string]any{"date": "2026-11-21", "player_ids": fx.players}}
	},
	"recordHand":  func(fx *contractFixture) example { return example{body: fx.nextHand()} },
	"recordBatch": func(fx *contractFixture) example { return example{body: map[string]any{"hands": []any{fx.nextHand()}}} },
	"correctHand": func(fx *contractFixture) example {
		h := fx.e.must(200, "GET", fx.now.hands()+"/1", fx.key, nil)
		return example{header: map[string]string{"If-Match": fmt.Sprintf("%q", fmt.Sprint(h["revision"]))},
			body: map[string]any{"facts": fx.now.hand(1)["facts"], "void": false, "reason": "nachgezählt"}}
	},
	"createTournament": func(fx *contractFixture) example {
		tbl := fx.e.must(201, "POST", "/v1/tables", fx.key, map[string]any{"name": fx.unique("Turniertisch"), "game": "doppelkopf",
			"preset": "ddv", "options": map[string]any{"turnier": true}})
		return example{body: map[string]any{"name": fx.unique("Turnier"), "date": "2026-11-20", "hands_per_round": 24, "table_ids": []any{tbl["id"]}}}
	},
	"openTournamentRound": func(fx *contractFixture) example {
		tr, table := fx.newTournament(false)
		return example{path: map[string]string{"tournamentID": id(tr)}, body: fx.seating(table)}
	},
	"getSpielliste": func(fx *contractFixture) example {
		return example{query: url.Values{"table_id": {id(fx.turnier)}}}
	},
	"tournamentRoundTimeUp": func(fx *contractFixture) example {
		tr, _ := fx.newTournament(true)
		return example{path: map[string]string{"tournamentID": id(tr)}}
	},
	"updateTable": func(fx *contractFixture) example {
		return example{body: map[string]any{"name": fx.unique("Tisch"), "options": map[string]any{}, "stake_cents_per_point": "1/2",
			"settle_mode": "transfers", "match_loss_cents": 0}}
	},
	"updatePlayer": func(fx *contractFixture) example {
		p := fx.e.must(201, "POST", "/v1/players", fx.key, map[string]any{"name": fx.unique("Gast")})
		return example{path: map[string]string{"playerID": fmt.Sprint(p["id"])}, body: map[string]any{"name": fx.unique("Gast")}}
	},
	"undoHand": func(fx *contractFixture) example { // a hand of its own to take back
		h := fx.e.must(201, "POST", fx.now.hands(), fx.key, fx.nextHand())
		return example{path: map[string]string{"number": fmt.Sprint(h["number"])}}
	},
	"rotateKey": func(fx *contractFixture) example { // a revoked key gets no successor: a fresh one each time
		k := fx.e.must(201, "POST", "/v1/keys", fx.key, map[string]any{"role": "reader", "label": fx.unique("Tafel")})
		return example{path: map[string]string{"keyID": fmt.Sprint(k["id"])}}
	},
	"bookKitty": func(fx *contractFixture) example {
		return example{body: map[string]any{"cents": -8000, "note": "Grillabend"}}
	},
	"scoreSchwarzeDame": func(fx *contractFixture) example { return fx.scoreRequest(fx.now.hand(1)["facts"]) },
	"scoreDoppelkopf": func(fx *contractFixture) example {
		p := fx.players
		return fx.scoreRequest(map[string]any{"players": p, "dealer": p[3], "game": "normal",
			"re":     map[string]any{"players": []int64{p[0], p[2]}, "augen": 187, "tricks": 7, "announced": "re", "doppelkopf": 1, "fuchs_gefangen": 1},
			"kontra": map[string]any{"players": []int64{p[1], p[3]}, "augen": 53, "tricks": 3, "announced": "none"}})
	},
	"scoreSaukopf": func(fx *contractFixture) example {
		p := fx.players
		ex := fx.scoreRequest(map[string]any{"variant": "vierer", "players": p, "dealer": p[3], "bid": 70, "spieler": p[0],
			"contract": "sauerei", "called_sau": "eichel", "mitspieler": p[2], "augen": 85, "tricks": 5,
			"laufende": map[string]any{"holder": p[1], "count": 1}, "huftritte": 1,
			"saukopf": map[string]any{"trumped_by": p[0], "herz_sau_of": p[3]}, "hauer": p[1]})
		wild := fx.scoreRequest(map[string]any{"variant": "vierer", "players": p, "dealer": p[3], "per_player": []map[string]any{
			{"player": p[0], "augen": 30, "tricks": 2}, {"player": p[1], "augen": 30, "tricks": 2},
			{"player": p[2], "augen": 30, "tricks": 2}, {"player": p[3], "augen": 30, "tricks": 2}},
			"laufende": map[string]any{"holder": p[0], "count": 1}})
		ex.more = []any{wild.body}
		return ex
	},
	"scoreSchwarzeSau": func(fx *contractFixture) example {
		p := fx.players
		ex := fx.scoreRequest(map[string]any{"dealer": p[3], "players": []map[string]any{
			{"player": p[0], "card_points": 46, "tricks": 4}, {"player": p[1], "card_points": 40, "tricks": 3, "pik_dame": true},
			{"player": p[2], "card_points": 30, "tricks": 2}, {"player": p[3], "card_points": 4, "tricks": 1}},
			"doublings": []map[string]any{{"call": "Kontra", "player": p[0]}}})
		three := fx.scoreRequest(map[string]any{"dealer": p[2], "players": []map[string]any{
			{"player": p[0], "card_points": 46, "tricks": 4}, {"player": p[1], "card_points": 40, "tricks": 3, "pik_dame": true},
			{"player": p[2], "card_points": 30, "tricks": 2}}, "stock": map[string]any{"card_points": 4, "tricks": 1}})
		three.body.(map[string]any)["player_ids"] = p[:3]
		ex.more = []any{three.body}
		return ex
	},
	"scoreKlaberjass": func(fx *contractFixture) example {
		p := fx.players
		return fx.scoreRequest(map[string]any{"players": p, "dealer": p[3], "trump_player": p[0], "trump_suit": "herz",
			"melds":       []map[string]any{{"player": p[0], "kind": "terz", "suit": "pik", "top": "koenig"}},
			"card_points": []map[string]any{{"player": p[0], "points": 92}, {"player": p[1], "points": 60}}, "last_trick": p[2]})
	},
}

// seasonExample is a season's rules with every rule set, changed by over.
func seasonExample(over map[string]any) map[string]any {
	r := map[string]any{
		"period":           map[string]any{"kind": "range", "from": "2026-01-01", "to": "2026-12-31"},
		"games":            []string{"schwarze_dame"},
		"unit":             map[string]any{"kind": "per_hands", "per_hands": 24},
		"aggregate":        map[string]any{"kind": "sum", "best": 40, "drop_at": []int{30, 35}},
		"eligibility":      map[string]any{"min_units": 1, "min_share_percent": 10, "max_missed": 50},
		"missed":           map[string]any{"kind": "penalty", "free": 16, "factor": 1},
		"tie_breaks":       []string{"evenings_won", "total_points"},
		"winner_per_hands": 24,
		"quarterly":        true,
	}
	for k, v := range over {
		r[k] = v
	}
	return r
}
