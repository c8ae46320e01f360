package api_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// TestMalformedJSONIs400: a body that is not well-formed JSON is 400
// naming the body, before any handler; a well-formed body that breaks a
// rule stays 422.
func TestMalformedJSONIs400(t *testing.T) {
	e := newEnv(t)
	for _, body := range []string{`{"name": `, `{"name": "Anna"} x`, `{name: "Anna"}`} {
		res := e.call("POST", "/v1/players", e.admin, body)
		if p := res.json(t); res.status != 400 || p["field"] != "body" || p["rule"] != "must be well-formed JSON" {
			t.Errorf("body %q: %d %s, want 400 naming the body", body, res.status, res.body)
		}
	}
	if res := e.call("POST", "/v1/players", e.admin, `{"name": ""}`); res.status != 422 {
		t.Errorf("an empty name: %d, want 422", res.status)
	}
}

// TestUnauthorizedChallenges: every 401 carries WWW-Authenticate: Bearer,
// with error="invalid_token" when a key was sent and refused.
func TestUnauthorizedChallenges(t *testing.T) {
	e := newEnv(t)
	res := e.call("GET", "/v1/players", "", nil)
	if h := res.header.Get("WWW-Authenticate"); res.status != 401 || h != `Bearer realm="stichbuch"` {
		t.Errorf("no key: %d with WWW-Authenticate %q", res.status, h)
	}
	res = e.call("GET", "/v1/players", "sb_1_1_wrong", nil)
	if h := res.header.Get("WWW-Authenticate"); res.status != 401 || !strings.HasPrefix(h, `Bearer realm="stichbuch", error="invalid_token"`) {
		t.Errorf("a wrong key: %d with WWW-Authenticate %q", res.status, h)
	}
}

// TestForbiddenSaysWhichKey: a 403 names the role needed and the key's, in
// English ("an admin key").
func TestForbiddenSaysWhichKey(t *testing.T) {
	e := newEnv(t)
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})["secret"].(string)
	p := e.must(403, "POST", "/v1/tables", reader, map[string]any{"name": "X", "game": "saukopf"})
	if p["detail"] != "this needs an admin key; yours is a reader key" {
		t.Errorf("403 says %q", p["detail"])
	}
}

// TestTakenTableNameNamesTheTable: a 409 for a taken name names the
// table that has it.
func TestTakenTableNameNamesTheTable(t *testing.T) {
	e := newEnv(t)
	first := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Donnerstag", "game": "saukopf"})
	p := e.must(409, "POST", "/v1/tables", e.admin, map[string]any{"name": "Donnerstag", "game": "saukopf"})
	if p["existing_id"] != first["id"] {
		t.Errorf("409 names %v, want the table %v", p["existing_id"], first["id"])
	}
}

// TestConditionalGets: tables, sessions, hands and standings carry an
// ETag; If-None-Match with it is 304 until the representation changes,
// and voiding the hand changes every one of them. A hand's ETag is also
// its If-Match.
func TestConditionalGets(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	paths := []string{fmt.Sprintf("/v1/tables/%d", ev.table), fmt.Sprintf("/v1/tables/%d/standings", ev.table),
		fmt.Sprintf("/v1/sessions/%d", ev.session), fmt.Sprintf("/v1/sessions/%d/standings", ev.session), ev.hands() + "/1"}
	tags := map[string]string{}
	for _, path := range paths {
		res := e.call("GET", path, e.admin, nil)
		tag := res.header.Get("ETag")
		if res.status != 200 || tag == "" {
			t.Fatalf("GET %s: %d with ETag %q", path, res.status, tag)
		}
		tags[path] = tag
		if again := e.call("GET", path, e.admin, nil, "If-None-Match", tag); again.status != 304 || len(again.body) != 0 || again.header.Get("ETag") != tag {
			t.Errorf("GET %s If-None-Match %s: %d %q, want 304 without a body", path, tag, again.status, again.body)
		}
		if other := e.call("GET", path, e.admin, nil, "If-None-Match", `"other", W/`+tag); other.status != 304 {
			t.Errorf("GET %s: a list of tags naming the current one weakly: %d, want 304", path, other.status)
		}
	}
	e.must(201, "POST", ev.hands()+"/1/corrections", e.admin, map[string]any{"void": true, "reason": "falsch gegeben"},
		"If-Match", tags[ev.hands()+"/1"])
	for _, path := range paths {
		res := e.call("GET", path, e.admin, nil, "If-None-Match", tags[path])
		if res.status != 200 || res.header.Get("ETag") == tags[path] {
			t.Errorf("GET %s after a correction: %d with ETag %s, want 200 and a new tag", path, res.status, res.header.Get("ETag"))
		}
	}
}

// TestCreatedSaysWhere: every 201 has a Location that GETs what it made.
func TestCreatedSaysWhere(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	creates := []struct {
		path string
		body any
	}{
		{"/v1/players", map[string]any{"name": "Erna"}},
		{"/v1/tables", map[string]any{"name": "Freitag", "game": "schwarze_dame"}},
		{"/v1/keys", map[string]any{"role": "reader"}},
		{ev.hands(), ev.hand(1)},
	}
	for _, c := range creates {
		res := e.call("POST", c.path, e.admin, c.body)
		loc := res.header.Get("Location")
		if res.status != 201 || loc == "" {
			t.Errorf("POST %s: %d with Location %q", c.path, res.status, loc)
			continue
		}
		got := e.must(200, "GET", loc, e.admin, nil)
		if want := res.json(t)["id"]; got["id"] != want {
			t.Errorf("POST %s: Location %s is %v, want %v", c.path, loc, got["id"], want)
		}
	}
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Samstag", "game": "schwarze_dame"})
	res := e.call("POST", fmt.Sprintf("/v1/tables/%v/sessions", tbl["id"]), e.admin, map[string]any{"player_ids": ev.players})
	if loc := res.header.Get("Location"); loc != fmt.Sprintf("/v1/sessions/%v", res.json(t)["id"]) {
		t.Errorf("a session's Location is %q", loc)
	}
}

// TestSpecAndDocsAreServed: GET /openapi.yaml is the embedded contract,
// GET /docs a page of every operation that loads nothing.
func TestSpecAndDocsAreServed(t *testing.T) {
	e := newEnv(t)
	spec := e.call("GET", "/openapi.yaml", "", nil)
	if spec.status != 200 || !bytes.Equal(spec.body, api.Spec()) || !strings.HasPrefix(spec.header.Get("Content-Type"), "application/yaml") {
		t.Errorf("GET /openapi.yaml: %d %s, want the embedded contract", spec.status, spec.header.Get("Content-Type"))
	}
	docs := e.call("GET", "/docs", "", nil)
	page := string(docs.body)
	for _, want := range []string{"recordHand", "/v1/tables/{tableID}/hands", "GameFacts", "DoppelkopfState"} {
		if !strings.Contains(page, want) {
			t.Errorf("GET /docs does not show %s", want)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("GET /docs has %q: it must load nothing", bad)
		}
	}
}
