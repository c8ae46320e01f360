package api_test

// The smaller findings of the review, through the API: each is a rule of
// the ledger (ledger/flow_test.go pins it there too).

import (
	"fmt"
	"testing"
)

// TestOutboxRetryOfAHandSentWithBothKeys: a hand sent with an
// Idempotency-Key and a body id is keyed by the id, so the outbox's batch
// retry under that id replays it and goes on with the rest.
func TestOutboxRetryOfAHandSentWithBothKeys(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	first := ev.hand(1)
	first["id"] = "00000000-0000-4000-8000-000000000001"
	e.must(201, "POST", ev.hands(), e.admin, first, "Idempotency-Key", "phone-7-attempt-1")
	second := ev.hand(2)
	second["id"] = "00000000-0000-4000-8000-000000000002"
	res := e.must(200, "POST", ev.hands()+"/batch", e.admin, map[string]any{"hands": []any{first, second}})
	results := res["results"].([]any)
	if s0, s1 := results[0].(map[string]any)["status"], results[1].(map[string]any)["status"]; s0 != "already_applied" || s1 != "applied" {
		t.Errorf("the outbox's retry: %v, %v; want already_applied, applied", s0, s1)
	}
	// The single POST's retry with its Idempotency-Key replays too.
	again := e.call("POST", ev.hands(), e.admin, first, "Idempotency-Key", "phone-7-attempt-1")
	if again.status != 201 || again.header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the POST's retry: %d, replayed %q", again.status, again.header.Get("Idempotent-Replayed"))
	}
	if n := e.count("hands"); n != 2 {
		t.Errorf("%d hands stored, want 2", n)
	}
}

// TestAScorerGetsNoAdminsReplayOfACorrection: a scorer who sends an
// admin's Idempotency-Key for a correction of a closed session gets 403,
// not the admin's replay.
func TestAScorerGetsNoAdminsReplayOfACorrection(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	scorer := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer"})["secret"].(string)
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	path := ev.hands() + "/1/corrections"
	void := map[string]any{"void": true, "reason": "falsch gegeben"}
	e.must(201, "POST", path, e.admin, void, "If-Match", "1", "Idempotency-Key", "kasse-void-1")
	if res := e.call("POST", path, scorer, void, "If-Match", "1", "Idempotency-Key", "kasse-void-1"); res.status != 403 {
		t.Errorf("a scorer with the admin's key: %d, want 403: %s", res.status, res.body)
	}
}

// TestKeyChangesThatWouldLockTheClubOut: rotating a revoked key, and
// revoking or rotating the club's last active admin key, are 409.
func TestKeyChangesThatWouldLockTheClubOut(t *testing.T) {
	e := newEnv(t)
	reader := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "reader"})
	e.must(200, "POST", fmt.Sprintf("/v1/keys/%v/revoke", reader["id"]), e.admin, nil)
	e.must(409, "POST", fmt.Sprintf("/v1/keys/%v/rotate", reader["id"]), e.admin, nil)
	e.must(200, "POST", fmt.Sprintf("/v1/keys/%v/revoke", reader["id"]), e.admin, nil) // again: no change
	club := e.must(200, "GET", "/v1/keys", e.admin, nil)["keys"].([]any)
	adminID := club[0].(map[string]any)["id"]
	e.must(409, "POST", fmt.Sprintf("/v1/keys/%v/revoke", adminID), e.admin, nil)
	e.must(409, "POST", fmt.Sprintf("/v1/keys/%v/rotate", adminID), e.admin, nil)
	second := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "admin"})
	e.must(201, "POST", fmt.Sprintf("/v1/keys/%v/rotate", adminID), second["secret"].(string), nil)
	if n := len(e.must(200, "GET", "/v1/keys", second["secret"].(string), nil)["keys"].([]any)); n != 4 {
		t.Errorf("%d keys, want 4 (admin, reader, second admin, successor)", n)
	}
}
