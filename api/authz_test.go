package api_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
)

// route is one operation of the contract in the authorization matrix: who
// may call it and a fresh, valid request for each call.
type route struct {
	need    string // "", "reader", "scorer" or "admin"
	ok      int    // the status of an allowed call
	ownData bool   // names things of the club by id: another club gets 404
	request func() (path string, body any)
}

var roleRank = map[string]int{"": 0, "reader": 1, "scorer": 2, "admin": 3}

// TestAuthorizationMatrix calls every route of openapi.yaml with no key, a
// revoked key, a reader, a scorer, an admin, an admin of another club, and
// a reader and a scorer limited to the route's table and to another table,
// and checks each status against the matrix.
func TestAuthorizationMatrix(t *testing.T) {
	e := newEnv(t)
	// The revoked key is tried on every route: more failures than the
	// limit of failed authentications allows (TestFailedAuthentications).
	e.lenientAuth()
	ev := e.evening()
	keys := map[string]string{"admin": e.admin}
	for _, role := range []string{"reader", "scorer"} {
		keys[role] = e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": role})["secret"].(string)
	}
	revoked := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "admin"})
	e.must(200, "POST", fmt.Sprintf("/v1/keys/%v/revoke", revoked["id"]), e.admin, nil)
	_, other, err := e.store.CreateClub(context.Background(), ledger.NewClub{Name: "Fremder Club", TimeZone: ""})
	if err != nil {
		t.Fatal(err)
	}

	// A closed evening at a second table, so there is a transfer to mark paid.
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Alt", "game": "schwarze_dame", "stake_cents_per_point": "1"})
	old := e.must(201, "POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"date": "2026-11-12", "player_ids": ev.players})
	oldEv := evening{table: int64(tbl["id"].(float64)), session: int64(old["id"].(float64)), players: ev.players}
	e.must(201, "POST", oldEv.hands(), e.admin, oldEv.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", oldEv.session), e.admin, nil)
	transfers := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/settlement", oldEv.session), e.admin, nil)["transfers"].([]any)
	if len(transfers) < 2 {
		t.Fatalf("the closed evening has %d transfers, the matrix needs one to pay and one left unpaid", len(transfers))
	}
	transfer := transfers[0].(map[string]any)["id"]
	// Undoing the payment of a transfer nobody paid changes nothing: what
	// the matrix checks is who may ask (who may undo a payment is
	// TestUndoAPaymentMarkedByMistake's).
	unpaid := transfers[len(transfers)-1].(map[string]any)["id"]
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))

	var n atomic.Int64
	unique := func(prefix string) string { return fmt.Sprintf("%s %d", prefix, n.Add(1)) }
	nextHand := func() (string, any) {
		table := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", ev.table), e.admin, nil)
		return ev.hands(), ev.hand(int(table["hands"].(float64)) + 1)
	}
	undoLast := func() (string, any) { // a hand of its own to take back
		path, body := nextHand()
		h := e.must(201, "POST", path, e.admin, body)
		return fmt.Sprintf("%s/%v/undo", ev.hands(), h["number"]), nil
	}
	throwawayKey := func(action string) func() (string, any) {
		return func() (string, any) {
			k := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})
			return fmt.Sprintf("/v1/keys/%v/%s", k["id"], action), nil
		}
	}
	fixed := func(path string, body any) func() (string, any) {
		return func() (string, any) { return path, body }
	}
	score := func(game string, facts any) func() (string, any) {
		return fixed("/v1/games/"+game+"/score", map[string]any{"player_ids": ev.players, "facts": facts})
	}
	sdFacts := ev.hand(1)["facts"]
	p := ev.players
	table, session, hands := fmt.Sprintf("/v1/tables/%d", ev.table), fmt.Sprintf("/v1/sessions/%d", ev.session), ev.hands()

	// A tournament with its first round open at a table of its own.
	turnierTable := func() int64 {
		tb := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": unique("Turniertisch"), "game": "doppelkopf", "preset": "ddv",
			"options": map[string]any{"turnier": true}})
		return int64(tb["id"].(float64))
	}
	newTournament := func() (int64, int64) {
		tb := turnierTable()
		tr := e.must(201, "POST", "/v1/tournaments", e.admin, map[string]any{"name": unique("Turnier"), "date": "2026-11-19", "table_ids": []int64{tb}})
		return int64(tr["id"].(float64)), tb
	}
	trID, trTable := newTournament()
	tournament := fmt.Sprintf("/v1/tournaments/%d", trID)
	e.must(201, "POST", tournament+"/rounds", e.admin, map[string]any{"seatings": []map[string]any{{"table_id": trTable, "player_ids": p}}})

	// A season over the evening's game (issue 30).
	seasonRules := map[string]any{"period": map[string]any{"kind": "year", "year": 2026}, "games": []string{"schwarze_dame"},
		"unit": map[string]any{"kind": "points"}, "aggregate": map[string]any{"kind": "sum"}, "missed": map[string]any{"kind": "ignored"}}
	e.must(201, "POST", "/v1/seasons", e.admin, map[string]any{"name": "jahreswertung", "rules": seasonRules})

	matrix := map[string]route{
		"GET /healthz":                 {"", 200, false, fixed("/healthz", nil)},
		"GET /readyz":                  {"", 200, false, fixed("/readyz", nil)},
		"GET /openapi.yaml":            {"", 200, false, fixed("/openapi.yaml", nil)},
		"GET /docs":                    {"", 200, false, fixed("/docs", nil)},
		"GET /":                        {"", 200, false, fixed("/", nil)},
		"GET /sw.js":                   {"", 200, false, fixed("/sw.js", nil)},
		"GET /manifest.webmanifest":    {"", 200, false, fixed("/manifest.webmanifest", nil)},
		"GET /app/{file}":              {"", 200, false, fixed("/app/app.js", nil)},
		"POST /v1/setup":               {"", 404, false, fixed("/v1/setup", map[string]any{"token": "wrong", "name": "Neu"})},
		"GET /v1/keys/{keyID}":         {"admin", 200, true, fixed("/v1/keys/1", nil)},
		"GET /v1/club":                 {"reader", 200, false, fixed("/v1/club", nil)},
		"GET /v1/keys":                 {"admin", 200, false, fixed("/v1/keys", nil)},
		"POST /v1/keys":                {"admin", 201, false, fixed("/v1/keys", map[string]any{"role": "reader"})},
		"POST /v1/keys/{keyID}/revoke": {"admin", 200, true, throwawayKey("revoke")},
		"POST /v1/keys/{keyID}/rotate": {"admin", 201, true, throwawayKey("rotate")},
		"GET /v1/players":              {"reader", 200, false, fixed("/v1/players", nil)},
		"GET /v1/players/{playerID}":   {"reader", 200, true, fixed(fmt.Sprintf("/v1/players/%d", ev.players[0]), nil)},
		"PATCH /v1/players/{playerID}": {"scorer", 200, true, func() (string, any) {
			p := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": unique("Gast")})
			return fmt.Sprintf("/v1/players/%v", p["id"]), map[string]any{"name": unique("Gast")}
		}},
		"POST /v1/tables/{tableID}/hands/{number}/undo": {"scorer", 200, true, undoLast},
		"POST /v1/players":                        {"scorer", 201, false, func() (string, any) { return "/v1/players", map[string]any{"name": unique("Gast")} }},
		"GET /v1/tables":                          {"reader", 200, false, fixed("/v1/tables", nil)},
		"POST /v1/tables":                         {"admin", 201, false, func() (string, any) { return "/v1/tables", map[string]any{"name": unique("Tisch"), "game": "saukopf"} }},
		"GET /v1/tables/{tableID}":                {"reader", 200, true, fixed(table, nil)},
		"PATCH /v1/tables/{tableID}":              {"admin", 200, true, func() (string, any) { return table, map[string]any{"name": unique("Donnerstag")} }},
		"GET /v1/tables/{tableID}/standings":      {"reader", 200, true, fixed(table+"/standings", nil)},
		"GET /v1/tables/{tableID}/sessions":       {"reader", 200, true, fixed(table+"/sessions", nil)},
		"GET /v1/sessions":                        {"reader", 200, false, fixed("/v1/sessions?open=true", nil)},
		"GET /v1/tables/{tableID}/hands":          {"reader", 200, true, fixed(hands, nil)},
		"POST /v1/tables/{tableID}/hands":         {"scorer", 201, true, nextHand},
		"GET /v1/tables/{tableID}/hands/{number}": {"reader", 200, true, fixed(hands+"/1", nil)},
		"POST /v1/tables/{tableID}/sessions": {"scorer", 201, true, func() (string, any) {
			t := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": unique("Neu"), "game": "schwarze_dame"})
			return fmt.Sprintf("/v1/tables/%v/sessions", t["id"]), map[string]any{"player_ids": p}
		}},
		"GET /v1/sessions/{sessionID}":             {"reader", 200, true, fixed(session, nil)},
		"GET /v1/sessions/{sessionID}/standings":   {"reader", 200, true, fixed(session+"/standings", nil)},
		"GET /v1/sessions/{sessionID}/settlement":  {"reader", 200, true, fixed(session+"/settlement", nil)},
		"GET /v1/sessions/{sessionID}/report":      {"reader", 200, true, fixed(session+"/report", nil)},
		"GET /v1/sessions/{sessionID}/report-link": {"reader", 200, true, fixed(session+"/report-link", nil)},
		"GET /v1/report-links/{token}": {"", 200, false, func() (string, any) { // the link carries its key: any request opens it
			return e.must(200, "GET", session+"/report-link", e.admin, nil)["csv_url"].(string), nil
		}},
		"POST /v1/sessions/{sessionID}/close":               {"scorer", 200, true, fixed(fmt.Sprintf("/v1/sessions/%d/close", oldEv.session), nil)},
		"GET /v1/reports/evening":                           {"reader", 200, false, fixed("/v1/reports/evening?date=2026-11-19", nil)},
		"POST /v1/transfers/{transferID}/paid":              {"scorer", 200, true, fixed(fmt.Sprintf("/v1/transfers/%v/paid", transfer), nil)},
		"POST /v1/transfers/{transferID}/unpaid":            {"scorer", 200, true, fixed(fmt.Sprintf("/v1/transfers/%v/unpaid", unpaid), nil)},
		"GET /v1/kitty":                                     {"reader", 200, false, fixed("/v1/kitty", nil)},
		"GET /v1/kitty/bookings":                            {"reader", 200, false, fixed("/v1/kitty/bookings", nil)},
		"GET /v1/transfers":                                 {"reader", 200, false, fixed("/v1/transfers?status=open", nil)},
		"GET /v1/players/{playerID}/balance":                {"reader", 200, true, fixed(fmt.Sprintf("/v1/players/%d/balance", p[0]), nil)},
		"POST /v1/kitty/bookings":                           {"admin", 201, false, fixed("/v1/kitty/bookings", map[string]any{"cents": 100, "note": "Spende"})},
		"GET /v1/stats/players/{playerID}":                  {"reader", 200, true, fixed(fmt.Sprintf("/v1/stats/players/%d", p[0]), nil)},
		"GET /v1/stats/players/{playerID}/partners":         {"reader", 200, true, fixed(fmt.Sprintf("/v1/stats/players/%d/partners", p[0]), nil)},
		"GET /v1/stats/players/{playerID}/versus/{otherID}": {"reader", 200, true, fixed(fmt.Sprintf("/v1/stats/players/%d/versus/%d", p[0], p[1]), nil)},
		"GET /v1/stats/leaderboard":                         {"reader", 200, false, fixed("/v1/stats/leaderboard?by=win_rate&min_hands=0", nil)},
		"GET /v1/stats/series":                              {"reader", 200, false, fixed("/v1/stats/series?from=2026-01-01", nil)},
		"GET /v1/games":                                     {"reader", 200, false, fixed("/v1/games", nil)},
		"POST /v1/tables/{tableID}/hands/batch": {"scorer", 200, true, func() (string, any) {
			_, body := nextHand()
			h := body.(map[string]any)
			h["id"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", n.Add(1))
			return hands + "/batch", map[string]any{"hands": []any{h}}
		}},
		"POST /v1/tables/{tableID}/hands/{number}/corrections": {"scorer", 201, true, fixed(hands+"/1/corrections", map[string]any{"facts": sdFacts, "reason": "nachgezählt"})},
		"GET /v1/tables/{tableID}/hands/{number}/revisions":    {"reader", 200, true, fixed(hands+"/1/revisions", nil)},
		"GET /v1/tables/{tableID}/events":                      {"reader", 200, true, fixed(table+"/events", nil)},
		"GET /v1/events":                                       {"reader", 200, false, fixed("/v1/events", nil)},
		"GET /v1/changes":                                      {"reader", 200, false, fixed("/v1/changes", nil)},
		"POST /v1/games/schwarze_dame/score":                   {"reader", 200, false, score("schwarze_dame", sdFacts)},
		"POST /v1/games/doppelkopf/score": {"reader", 200, false, score("doppelkopf", map[string]any{
			"game": "normal", "re": map[string]any{"players": []int64{p[0], p[2]}, "augen": 187}})},
		"POST /v1/games/saukopf/score": {"reader", 200, false, score("saukopf", map[string]any{
			"variant": "vierer", "players": p, "dealer": p[3], "bid": 61, "spieler": p[1], "contract": "wutz", "augen": 70, "tricks": 5,
			"laufende": map[string]any{"holder": p[0], "count": 1}})},
		"POST /v1/games/schwarze_sau/score": {"reader", 200, false, score("schwarze_sau", map[string]any{"dealer": p[3], "players": []map[string]any{
			{"player": p[0], "card_points": 46, "tricks": 4}, {"player": p[1], "card_points": 40, "tricks": 3, "pik_dame": true},
			{"player": p[2], "card_points": 30, "tricks": 2}, {"player": p[3], "card_points": 4, "tricks": 1}}})},
		"POST /v1/games/klaberjass/score": {"reader", 200, false, score("klaberjass", map[string]any{
			"players": p, "dealer": p[3], "trump_player": p[0], "trump_suit": "herz",
			"card_points": []map[string]any{{"player": p[0], "points": 92}, {"player": p[1], "points": 60}}, "last_trick": p[2]})},
		"POST /v1/tables/{tableID}/joins": {"admin", 201, true, fixed(table+"/joins", map[string]any{"role": "scorer", "ttl_seconds": 60})},
		"POST /v1/joins/{code}": {"", 201, false, func() (string, any) { // a code is good once: a fresh one each time
			return "/v1/joins/" + e.must(201, "POST", table+"/joins", e.admin, map[string]any{"role": "reader"})["code"].(string), nil
		}},
		"GET /v1/tournaments": {"reader", 200, false, fixed("/v1/tournaments", nil)},
		"POST /v1/tournaments": {"scorer", 201, true, func() (string, any) {
			return "/v1/tournaments", map[string]any{"name": unique("Turnier"), "table_ids": []int64{trTable}}
		}},
		"GET /v1/tournaments/{tournamentID}": {"reader", 200, true, fixed(tournament, nil)},
		"POST /v1/tournaments/{tournamentID}/rounds": {"scorer", 201, true, func() (string, any) {
			id, tb := newTournament()
			return fmt.Sprintf("/v1/tournaments/%d/rounds", id), map[string]any{"seatings": []map[string]any{{"table_id": tb, "player_ids": p}}}
		}},
		"POST /v1/tournaments/{tournamentID}/rounds/{round}/time-up": {"scorer", 200, true, fixed(tournament+"/rounds/1/time-up", nil)},
		"GET /v1/tournaments/{tournamentID}/ranking":                 {"reader", 200, true, fixed(tournament+"/ranking", nil)},
		"GET /v1/tournaments/{tournamentID}/spielliste":              {"reader", 200, true, fixed(fmt.Sprintf("%s/spielliste?table_id=%d", tournament, trTable), nil)},
		// issue 30: the season
		"GET /v1/seasons": {"reader", 200, false, fixed("/v1/seasons", nil)},
		"POST /v1/seasons": {"admin", 201, false, func() (string, any) {
			return "/v1/seasons", map[string]any{"name": fmt.Sprintf("saison-%d", n.Add(1)), "rules": seasonRules}
		}},
		"GET /v1/seasons/{name}":                    {"reader", 200, true, fixed("/v1/seasons/jahreswertung", nil)},
		"GET /v1/seasons/{name}/players/{playerID}": {"reader", 200, true, fixed(fmt.Sprintf("/v1/seasons/jahreswertung/players/%d?remaining=3", p[0]), nil)},
		"GET /v1/seasons/{name}/evenings":           {"reader", 200, true, fixed("/v1/seasons/jahreswertung/evenings", nil)},
		"GET /v1/seasons/{name}/chart":              {"reader", 200, true, fixed("/v1/seasons/jahreswertung/chart", nil)},
		"POST /v1/imports": {"admin", 200, false, fixed("/v1/imports", map[string]any{"file_name": "alt.csv", "dry_run": true,
			"content_base64": base64.StdEncoding.EncodeToString([]byte("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2020;Doppelkopf;;Anna;3;24\n"))})},
	}

	// Corrections name the revision they correct; event streams are
	// opened for a moment only.
	headers := map[string]func() []string{
		"POST /v1/tables/{tableID}/hands/{number}/corrections": func() []string {
			h := e.must(200, "GET", hands+"/1", e.admin, nil)
			return []string{"If-Match", fmt.Sprint(h["revision"])}
		},
	}
	streams := map[string]bool{"GET /v1/tables/{tableID}/events": true, "GET /v1/events": true}

	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			ops = append(ops, method+" "+path)
		}
	}
	slices.Sort(ops)
	// Keys limited to one table (made from join codes): "table reader" and
	// "table scorer" hold a key for the table the request names (the
	// evening's table for the routes that name none), "other table …" one
	// for a table the requests never name. What each route reaches of the
	// club (ledger.Scope): every route not listed reaches the whole club.
	scopes := map[string]string{
		"GET /v1/club": "shared", "GET /v1/players": "shared", "POST /v1/players": "shared", "GET /v1/players/{playerID}": "shared",
		"GET /v1/tables": "shared", "GET /v1/games": "shared", "POST /v1/joins/{code}": "shared", "GET /v1/report-links/{token}": "shared",
	}
	for _, op := range []string{"GET /v1/tables/{tableID}", "PATCH /v1/tables/{tableID}", "POST /v1/tables/{tableID}/joins",
		"GET /v1/tables/{tableID}/standings", "GET /v1/tables/{tableID}/sessions", "POST /v1/tables/{tableID}/sessions",
		"GET /v1/tables/{tableID}/hands", "POST /v1/tables/{tableID}/hands", "GET /v1/tables/{tableID}/hands/{number}",
		"POST /v1/tables/{tableID}/hands/batch", "POST /v1/tables/{tableID}/hands/{number}/corrections",
		"GET /v1/tables/{tableID}/hands/{number}/revisions", "POST /v1/tables/{tableID}/hands/{number}/undo",
		"GET /v1/tables/{tableID}/events", "GET /v1/sessions/{sessionID}", "POST /v1/sessions/{sessionID}/close",
		"GET /v1/sessions/{sessionID}/standings", "GET /v1/sessions/{sessionID}/settlement", "GET /v1/sessions/{sessionID}/report",
		"GET /v1/sessions/{sessionID}/report-link"} {
		scopes[op] = "table"
	}
	for _, game := range []string{"schwarze_dame", "doppelkopf", "saukopf", "schwarze_sau", "klaberjass"} {
		scopes["POST /v1/games/"+game+"/score"] = "shared"
	}
	tableKeys := map[string]string{}
	tableKey := func(table int64, role string) string {
		k := fmt.Sprintf("%d %s", table, role)
		if tableKeys[k] == "" {
			j := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/joins", table), e.admin, map[string]any{"role": role})
			tableKeys[k] = e.must(201, "POST", "/v1/joins/"+j["code"].(string), "", nil)["key"].(string)
		}
		return tableKeys[k]
	}
	elsewhere := int64(e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Anderswo", "game": "saukopf"})["id"].(float64))
	tableOf := func(path string) int64 { // the table a request names
		var id int64
		if _, err := fmt.Sscanf(path, "/v1/tables/%d", &id); err == nil {
			return id
		}
		if _, err := fmt.Sscanf(path, "/v1/sessions/%d", &id); err == nil {
			return int64(e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d", id), e.admin, nil)["table_id"].(float64))
		}
		return ev.table
	}

	actors := []string{"none", "revoked", "reader", "scorer", "admin", "other club",
		"table reader", "table scorer", "other table reader", "other table scorer"}
	for _, op := range ops {
		r, ok := matrix[op]
		if !ok {
			t.Errorf("%s is in openapi.yaml but not in the authorization matrix", op)
			continue
		}
		method, _, _ := strings.Cut(op, " ")
		for _, actor := range actors {
			path, body := r.request()
			key := keys[actor]
			switch actor {
			case "none":
				key = ""
			case "revoked":
				key = revoked["secret"].(string)
			case "other club":
				key = other
			case "table reader", "table scorer":
				key = tableKey(tableOf(path), strings.TrimPrefix(actor, "table "))
			case "other table reader", "other table scorer":
				key = tableKey(elsewhere, strings.TrimPrefix(actor, "other table "))
			}
			want := expectedStatus(r, actor)
			if role, ok := strings.CutPrefix(actor, "table "); ok {
				want = expectedTableStatus(r, scopes[op], role, true)
			}
			if role, ok := strings.CutPrefix(actor, "other table "); ok {
				want = expectedTableStatus(r, scopes[op], role, false)
			}
			if streams[op] {
				if got := streamStatus(e, path, key); got != want {
					t.Errorf("%s as %s: %d, want %d", op, actor, got, want)
				}
				continue
			}
			var extra []string
			if h, ok := headers[op]; ok {
				extra = h()
			}
			res := e.call(method, path, key, body, extra...)
			if res.status != want {
				t.Errorf("%s as %s: %d, want %d: %s", op, actor, res.status, want, res.body)
			}
		}
	}
}

// streamStatus opens an event stream and returns its status as soon as
// the service has answered, then closes it. The answer is waited for, not
// a deadline: a busy machine may take a while to start a stream, and a
// stream cut off before its first byte would read as the service's error.
func streamStatus(e *env, path, key string) int {
	e.t.Helper()
	srv := httptest.NewServer(e.server)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("GET %s: %v", path, err)
	}
	res.Body.Close()
	return res.StatusCode
}

func expectedStatus(r route, actor string) int {
	if r.need == "" {
		return r.ok
	}
	switch actor {
	case "none", "revoked":
		return 401
	case "other club":
		if r.ownData {
			return 404
		}
		return r.ok
	}
	if roleRank[actor] < roleRank[r.need] {
		return 403
	}
	return r.ok
}

// expectedTableStatus is the status of a key limited to one table with
// role: its role first (403), then the route's scope: what reaches the
// whole club is 403, another table's things 404 (as another club's are).
func expectedTableStatus(r route, scope, role string, own bool) int {
	switch {
	case r.need == "":
		return r.ok
	case roleRank[role] < roleRank[r.need]:
		return 403
	case scope == "shared", scope == "table" && own:
		return r.ok
	case scope == "table":
		return 404
	}
	return 403
}

// TestRateLimitPerKey: a key past its limit gets 429 with Retry-After; the
// other keys of the club are not held back by it.
func TestRateLimitPerKey(t *testing.T) {
	e := newEnv(t)
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string)
	limited, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{RateLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	get := func(key string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/v1/club", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		limited.ServeHTTP(rec, req)
		return rec
	}
	statuses := map[int]int{}
	var last *httptest.ResponseRecorder
	for range 20 {
		last = get(e.admin)
		statuses[last.Code]++
	}
	if statuses[200] < 4 || statuses[429] == 0 || statuses[200]+statuses[429] != 20 {
		t.Fatalf("20 quick requests with one key: %v, want a burst of about 4 allowed and the rest 429", statuses)
	}
	if last.Code != 429 || last.Header().Get("Retry-After") == "" || !strings.HasPrefix(last.Header().Get("Content-Type"), "application/problem+json") {
		t.Errorf("a limited request: %d, Retry-After %q, %s", last.Code, last.Header().Get("Retry-After"), last.Header().Get("Content-Type"))
	}
	if rec := get(reader); rec.Code != 200 {
		t.Errorf("another key of the club is held back: %d", rec.Code)
	}
}
