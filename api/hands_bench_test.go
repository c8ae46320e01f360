package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
)

// BenchmarkPostHand measures one Doppelkopf hand recorded through the whole
// request (key lookup, contract check, JSON in and out, RecordHand, the
// answer with names) against the test suite's PostgreSQL, one hand after
// the other. Beside ledger/postgres's BenchmarkRecordHand it shows what
// the request layer adds to a hand.
func BenchmarkPostHand(b *testing.B) {
	postHands(b, newEnv(b))
}

// postHands records hands through e.server for as long as b loops.
func postHands(b *testing.B, e *env) {
	players := e.players("Anna", "Bernd", "Clara", "Dieter")
	tbl := e.must(201, "POST", "/v1/tables", e.admin, map[string]any{"name": "Doko", "game": "doppelkopf", "stake_cents_per_point": "1/2"})
	table := int64(tbl["id"].(float64))
	s := e.must(201, "POST", fmt.Sprintf("/v1/tables/%d/sessions", table), e.admin, map[string]any{"date": "2026-11-19", "player_ids": players})
	session := int64(s["id"].(float64))
	path := fmt.Sprintf("/v1/tables/%d/hands", table)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		n++
		body, err := json.Marshal(map[string]any{"session_id": session, "number": n, "facts": doppelkopfFacts(n-1, players)})
		if err != nil {
			b.Fatal(err)
		}
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+e.admin)
		req.Header.Set("Idempotency-Key", fmt.Sprint("bench-", n))
		rec := httptest.NewRecorder()
		e.server.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatalf("hand %d: status %d: %s", n, rec.Code, rec.Body)
		}
	}
}
