package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/routers"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// env is the API over a fresh database, with one club and its admin key.
type env struct {
	t      testing.TB
	server *api.Server
	store  *ledger.Service
	router routers.Router
	// keyEvents hears what the store's Listener tells its key cache, after
	// the cache has.
	keyEvents keyProbe
	admin     string
	url       string // the test database, for a second instance
	pool      *pgxpool.Pool
	count     func(table string) int
}

func newEnv(t testing.TB) *env {
	t.Helper()
	url := pgtest.URL(t)
	pool, err := postgres.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	// As `stichbuch serve` wires it: the key cache answers while the
	// listener hears revocations; the env starts once it does.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	listener := postgres.Listen(ctx, pool, slog.New(slog.DiscardHandler))
	ports := postgres.New(pool, pgtest.ChainKey).Ports()
	ports.Revocations = listener
	store := ledger.NewService(ports)
	keyEvents := make(keyProbe, 1024)
	listener.WatchKeys(keyEvents)
	keyEvents.await(t, keyEvent{listening: true})
	srv, err := api.New(store, slog.New(slog.DiscardHandler), api.Config{})
	if err != nil {
		t.Fatal(err)
	}
	_, router, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	_, secret, err := store.CreateClub(context.Background(), ledger.NewClub{Name: "Doko-Club Eichel", TimeZone: "Europe/Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, server: srv, store: store, router: router, keyEvents: keyEvents, admin: secret, url: url, pool: pool}
	e.count = func(table string) int {
		var n int
		if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	return e
}

// response is one answer of the API, already checked against openapi.yaml.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

// call sends a request through the real router; every response must match
// the contract.
// lenientAuth serves e with limits of failed authentications no test
// reaches, for tests whose failures are not what they test.
func (e *env) lenientAuth() {
	lenient, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{AuthFailures: api.FailureLimits{PerKey: 1000, PerAddress: 1000}})
	if err != nil {
		e.t.Fatal(err)
	}
	e.server = lenient
}

func (e *env) call(method, path, key string, body any, headers ...string) response {
	e.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			e.t.Fatal(err)
		}
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	e.server.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	if res.status >= 400 && !strings.HasPrefix(res.header.Get("Content-Type"), "application/problem+json") {
		e.t.Errorf("%s %s: error %d is %q, want application/problem+json", method, path, res.status, res.header.Get("Content-Type"))
	}
	if res.status >= 500 {
		e.t.Errorf("%s %s: server error %d: %s", method, path, res.status, res.body)
	}
	// Validate against the contract (the request URL is all the router needs);
	// a path the contract does not know can only be a 404 or 405 problem.
	vreq := httptest.NewRequest(method, path, nil)
	if _, _, err := e.router.FindRoute(vreq); err != nil {
		if res.status != 404 && res.status != 405 {
			e.t.Errorf("%s %s: unknown route answered %d", method, path, res.status)
		}
		return res
	}
	if err := api.ValidateResponse(context.Background(), e.router, vreq, res.status, res.header, res.body); err != nil {
		e.t.Errorf("%s %s: response %d breaks openapi.yaml: %v\n%s", method, path, res.status, err, res.body)
	}
	return res
}

// must asserts a status and returns the decoded body.
func (e *env) must(want int, method, path, key string, body any, headers ...string) map[string]any {
	e.t.Helper()
	res := e.call(method, path, key, body, headers...)
	if res.status != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.status, want, res.body)
	}
	return res.json(e.t)
}

// evening sets up four players, a Schwarze Dame table and an open session.
type evening struct {
	table, session int64
	players        []int64
}

func (e *env) evening() evening {
	e.t.Helper()
	var ev evening
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p := e.must(201, "POST", "/v1/players", e.admin, map[string]any{"name": name})
		ev.players = append(ev.players, int64(p["id"].(float64)))
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Donnerstag", "game": "schwarze_dame", "stake_cents_per_point": "1/2"})
	ev.table = int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", ev.table), e.admin, map[string]any{"date": "2026-11-19", "player_ids": ev.players})
	ev.session = int64(s["id"].(float64))
	return ev
}

// hand is worked example A of ledger/games/schwarzedame/README.md: +20, -10, +3, -13.
func (ev evening) hand(number int) map[string]any {
	p := ev.players
	return map[string]any{"session_id": ev.session, "number": number, "facts": map[string]any{
		"dealer": p[0],
		"players": []map[string]any{
			{"player": p[0], "tricks": 4, "hearts": []int{2, 5, 13}},
			{"player": p[1], "tricks": 3, "hearts": []int{14}, "pik_dame": true},
			{"player": p[2], "tricks": 5, "hearts": []int{3, 4, 6, 7, 8, 9, 10}},
			{"player": p[3], "tricks": 1, "hearts": []int{11, 12}},
		},
	}}
}

func (ev evening) hands() string { return fmt.Sprintf("/v1/tables/%d/hands", ev.table) }

func TestEveningEndToEnd(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	for n := 1; n <= 3; n++ {
		h := e.must(201, "POST", ev.hands(), e.admin, ev.hand(n))
		if h["number"].(float64) != float64(n) {
			t.Fatalf("hand got number %v, want %d", h["number"], n)
		}
	}
	h := e.must(200, "GET", ev.hands()+"/2", e.admin, nil)
	result := h["result"].(map[string]any)
	points := result["points"].([]any)
	if got := points[0].(map[string]any)["points"]; got != "20" {
		t.Errorf("hand 2, first player: %v, want \"20\"", got)
	}
	if len(result["lines"].([]any)) == 0 {
		t.Error("hand has no breakdown lines")
	}

	standings := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d/standings", ev.table), e.admin, nil)["standings"].([]any)
	want := []string{"60", "9", "-30", "-39"}
	for i, s := range standings {
		if got := s.(map[string]any)["points"]; got != want[i] {
			t.Errorf("standing %d: %v, want %s", i, got, want[i])
		}
	}
	sessionStandings := e.must(200, "GET", fmt.Sprintf("/v1/sessions/%d/standings", ev.session), e.admin, nil)
	if fmt.Sprint(sessionStandings["standings"]) != fmt.Sprint(standings) {
		t.Errorf("session standings differ from the table's of a one-session table")
	}

	// Pagination: two pages of 2 and 1.
	page := e.must(200, "GET", ev.hands()+"?limit=2", e.admin, nil)
	if len(page["hands"].([]any)) != 2 || page["next_after"] != 2.0 {
		t.Fatalf("first page: %d hands, next_after %v", len(page["hands"].([]any)), page["next_after"])
	}
	page = e.must(200, "GET", ev.hands()+"?limit=2&after=2", e.admin, nil)
	if len(page["hands"].([]any)) != 1 || page["next_after"] != nil {
		t.Fatalf("second page: %d hands, next_after %v", len(page["hands"].([]any)), page["next_after"])
	}

	table := e.must(200, "GET", fmt.Sprintf("/v1/tables/%d", ev.table), e.admin, nil)
	if table["hands"] != 3.0 || table["state"].(map[string]any)["hands_played"] != 3.0 {
		t.Errorf("table after 3 hands: %v", table)
	}

	// Closing freezes the evening.
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	e.must(409, "POST", ev.hands(), e.admin, ev.hand(4))
	if n := e.count("hands"); n != 3 {
		t.Errorf("%d hands stored, want 3", n)
	}
}

func TestSameIdempotencyKeyThreeTimesAtOnce(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	var wg sync.WaitGroup
	res := make([]response, 3)
	for i := range 3 {
		wg.Go(func() { res[i] = e.call("POST", ev.hands(), e.admin, ev.hand(1), "Idempotency-Key", "phone-1-hand-1") })
	}
	wg.Wait()
	replays := 0
	for i, r := range res {
		if r.status != 201 {
			t.Fatalf("attempt %d: status %d: %s", i, r.status, r.body)
		}
		if !bytes.Equal(r.body, res[0].body) && res[0].header.Get("Idempotent-Replayed") == "" && r.header.Get("Idempotent-Replayed") == "" {
			t.Errorf("attempt %d answered differently", i)
		}
		if r.header.Get("Idempotent-Replayed") == "true" {
			replays++
		}
	}
	if replays != 2 {
		t.Errorf("%d replays, want 2", replays)
	}
	if n := e.count("hands"); n != 1 {
		t.Errorf("%d hands stored, want 1", n)
	}
	// The same key with another body is refused.
	other := ev.hand(1)
	other["facts"].(map[string]any)["dealer"] = ev.players[1]
	e.must(422, "POST", ev.hands(), e.admin, other, "Idempotency-Key", "phone-1-hand-1")
	if n := e.count("hands"); n != 1 {
		t.Errorf("%d hands stored after a reused key, want 1", n)
	}
}

func TestTwoPhonesRecordingTheSameNumber(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	var wg sync.WaitGroup
	res := make([]response, 2)
	for i := range 2 {
		wg.Go(func() {
			res[i] = e.call("POST", ev.hands(), e.admin, ev.hand(1), "Idempotency-Key", fmt.Sprint("phone-", i))
		})
	}
	wg.Wait()
	statuses := []int{res[0].status, res[1].status}
	slices.Sort(statuses)
	if statuses[0] != 201 || statuses[1] != 409 {
		t.Fatalf("statuses %v, want one 201 and one 409", statuses)
	}
	conflict := res[0]
	if conflict.status != 409 {
		conflict = res[1]
	}
	if p := conflict.json(t); p["next_number"] != 2.0 || p["current_number"] != 1.0 {
		t.Errorf("409 names current %v and next %v, want 1 and 2", p["current_number"], p["next_number"])
	}
	if n := e.count("hands"); n != 1 {
		t.Errorf("%d hands stored, want 1", n)
	}
}

func TestRefusedHandsNameTheFieldAndStoreNothing(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	tricks := ev.hand(1)
	tricks["facts"].(map[string]any)["players"].([]map[string]any)[3]["tricks"] = 2
	twice := ev.hand(1)
	twice["facts"].(map[string]any)["players"].([]map[string]any)[3]["hearts"] = []int{11, 2}
	unseated := ev.hand(1)
	unseated["facts"].(map[string]any)["players"].([]map[string]any)[0]["player"] = 999
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"tricks add to 14", tricks, "facts.players[].tricks"},
		{"a heart taken twice", twice, "facts.players[3].hearts[1]"},
		{"a player not seated", unseated, "facts.players[0].player"},
		{"tricks out of range", map[string]any{"session_id": ev.session, "number": 1, "facts": map[string]any{"dealer": 1, "players": []map[string]any{{"player": 1, "tricks": 14}, {"player": 2, "tricks": 0}, {"player": 3, "tricks": 0}, {"player": 4, "tricks": 0}}}}, "facts.players[0].tricks"},
		{"unknown field", map[string]any{"session_id": ev.session, "number": 1, "facts": map[string]any{}, "color": "red"}, "color"},
		{"missing facts", map[string]any{"session_id": ev.session, "number": 1}, "facts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := e.must(422, "POST", ev.hands(), e.admin, c.body)
			if p["field"] != c.field {
				t.Errorf("field %q, want %q (rule %q)", p["field"], c.field, p["rule"])
			}
			if p["rule"] == "" || p["rule"] == nil {
				t.Error("no rule named")
			}
		})
	}
	if n := e.count("hands") + e.count("entries"); n != 0 {
		t.Errorf("%d hand or entry rows stored from refused requests", n)
	}
}

func TestMalformedRequestsGetProblems(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	for _, c := range []struct {
		name   string
		body   string
		header []string
		want   int
	}{
		{"truncated JSON", `{"session_id": 1, "number": `, nil, 400},
		{"not JSON", `hello`, nil, 400},
		{"wrong content type", `{}`, []string{"Content-Type", "text/plain"}, 415},
		{"too large", `{"pad": "` + strings.Repeat("x", api.MaxBodyBytes+10) + `"}`, nil, 413},
		{"number is a string", `{"session_id": 1, "number": "1", "facts": {}}`, nil, 422},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := e.call("POST", ev.hands(), e.admin, c.body, c.header...)
			if res.status != c.want && !(c.want == 400 && res.status == 422) {
				t.Errorf("status %d, want %d: %s", res.status, c.want, res.body)
			}
		})
	}
	if n := e.count("hands"); n != 0 {
		t.Errorf("%d hands stored", n)
	}
}

func TestKeysRolesAndClubs(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader", "label": "Tafel"})["secret"].(string)
	scorer := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})["secret"].(string)

	e.must(401, "GET", "/v1/club", "", nil)
	e.must(401, "GET", "/v1/club", "sb_1_1_"+strings.Repeat("A", 43), nil)
	e.must(200, "GET", "/v1/club", reader, nil)
	e.must(403, "POST", ev.hands(), reader, ev.hand(1))
	e.must(403, "POST", "/v1/tables", scorer, map[string]any{"name": "X", "game": "schwarze_dame"})
	e.must(403, "POST", "/v1/keys", scorer, map[string]any{"role": "admin"})
	e.must(201, "POST", ev.hands(), scorer, ev.hand(1))

	// Another club's admin sees nothing of this club: 404, not 403.
	_, other, err := e.store.CreateClub(context.Background(), ledger.NewClub{Name: "Skatfreunde Nord", TimeZone: ""})
	if err != nil {
		t.Fatal(err)
	}
	e.must(404, "GET", fmt.Sprintf("/v1/tables/%d", ev.table), other, nil)
	e.must(404, "GET", ev.hands()+"/1", other, nil)
	e.must(404, "POST", ev.hands(), other, ev.hand(2))
	e.must(404, "GET", fmt.Sprintf("/v1/sessions/%d/standings", ev.session), other, nil)
	e.must(404, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), other, nil)
	if got := e.must(200, "GET", "/v1/players", other, nil)["players"].([]any); len(got) != 0 {
		t.Errorf("another club lists %d players", len(got))
	}
}

func TestScoreEndpointStoresNothing(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	body := map[string]any{"player_ids": ev.players, "facts": ev.hand(1)["facts"], "options": map[string]any{"hands_per_match": 1}}
	res := e.must(200, "POST", "/v1/games/schwarze_dame/score", e.admin, body)
	if got := res["points"].([]any)[3].(map[string]any)["points"]; got != "-13" {
		t.Errorf("fourth player scores %v, want -13", got)
	}
	if events := res["events"].([]any); len(events) != 1 || events[0].(map[string]any)["type"] != "match_won" {
		t.Errorf("a one-hand match should be won by this hand: %v", res["events"])
	}
	if n := e.count("hands"); n != 0 {
		t.Errorf("the score endpoint stored %d hands", n)
	}
	e.must(422, "POST", "/v1/games/schwarze_dame/score", e.admin, map[string]any{"player_ids": ev.players, "facts": map[string]any{"dealer": 1, "players": []any{}}})
	games := e.must(200, "GET", "/v1/games", e.admin, nil)["games"].([]any)
	if len(games) == 0 {
		t.Error("no games listed")
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t)
	e.must(200, "GET", "/healthz", "", nil)
	e.must(200, "GET", "/readyz", "", nil)
	e.must(404, "GET", "/v1/nothing-here", e.admin, nil)
}

// TestRoutesMatchTheContract fails when a route and openapi.yaml drift apart.
func TestRoutesMatchTheContract(t *testing.T) {
	e := newEnv(t)
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	var inSpec []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			inSpec = append(inSpec, method+" "+path)
		}
	}
	routes := e.server.Routes()
	for _, r := range routes {
		if !slices.Contains(inSpec, r) {
			t.Errorf("route %s is not in openapi.yaml", r)
		}
	}
	for _, op := range inSpec {
		if !slices.Contains(routes, op) {
			t.Errorf("openapi.yaml's %s has no route", op)
		}
	}
}

// TestEmbeddedSpecIsTheContract: the contract the API checks and serves is
// the repository's openapi.yaml, not a copy of it.
func TestEmbeddedSpecIsTheContract(t *testing.T) {
	contract, err := os.ReadFile("../openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(contract, api.Spec()) {
		t.Fatal("the API serves another contract than openapi.yaml")
	}
}

// TestDeeplyNestedBodiesAreRefusedCheaply: nesting within the limit is
// decoded; deeper is refused before any decoder sees it.
func TestDeeplyNestedBodiesAreRefusedCheaply(t *testing.T) {
	e := newEnv(t)
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	p := e.must(422, "POST", "/v1/players", e.admin, `{"name":`+nested(api.MaxDepth-1)+`}`) // the object is a level too
	if p["field"] != "name" {
		t.Errorf("nesting at the limit is refused for %v, want the name's type", p["field"])
	}
	p = e.must(422, "POST", "/v1/players", e.admin, `{"name":`+nested(api.MaxDepth-1)+`, "x": "[[[{"}`)
	if p["field"] != "name" && p["field"] != "x" {
		t.Errorf("brackets inside strings count as nesting: %v", p)
	}
	p = e.must(422, "POST", "/v1/players", e.admin, `{"name":`+nested(100_000)+`}`)
	if p["field"] != "body" || !strings.Contains(p["rule"].(string), "nested deeper") {
		t.Errorf("a body nested 100,000 deep: %v", p)
	}
}
