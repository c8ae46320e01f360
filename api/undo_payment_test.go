package api_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/api"
)

// TestUndoAPaymentMarkedByMistake: the key that marked a payment may undo
// it for ten minutes, an admin key any time, another scorer never; the
// undo is a new fact beside the payment (nothing deleted, and the facts
// cannot be deleted), the transfer is open again and may be paid again.
func TestUndoAPaymentMarkedByMistake(t *testing.T) {
	e := newEnv(t)
	ev := e.evening()
	e.must(201, "POST", ev.hands(), e.admin, ev.hand(1))
	e.must(200, "POST", fmt.Sprintf("/v1/sessions/%d/close", ev.session), e.admin, nil)
	settlement := fmt.Sprintf("/v1/sessions/%d/settlement", ev.session)
	id := e.must(200, "GET", settlement, e.admin, nil)["transfers"].([]any)[0].(map[string]any)["id"]
	paid, unpaid := fmt.Sprintf("/v1/transfers/%v/paid", id), fmt.Sprintf("/v1/transfers/%v/unpaid", id)
	a := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer", "label": "Kasse"})["secret"].(string)
	b := e.must(201, "POST", "/v1/keys", e.admin, map[string]any{"role": "scorer", "label": "Tisch"})["secret"].(string)
	isPaid := func() bool {
		for _, x := range e.must(200, "GET", settlement, e.admin, nil)["transfers"].([]any) {
			if tr := x.(map[string]any); tr["id"] == id {
				return tr["paid"] == true
			}
		}
		t.Fatalf("transfer %v left the settlement", id)
		return false
	}

	if tr := e.must(200, "POST", paid, a, nil); tr["paid"] != true || tr["paid_by_key_id"] == nil {
		t.Fatalf("marked paid: %v", tr)
	}
	refused := e.must(403, "POST", unpaid, b, nil)
	if hint, _ := refused["hint"].(string); !strings.Contains(hint, "10 Minuten") {
		t.Errorf("another scorer's undo: hint %q", hint)
	}
	if !isPaid() {
		t.Fatalf("a refused undo changed the payment")
	}
	if tr := e.must(200, "POST", unpaid, a, nil); tr["paid"] != false {
		t.Errorf("undone by its key: %v", tr)
	}
	if isPaid() {
		t.Errorf("the settlement still shows the transfer paid")
	}
	e.must(200, "POST", unpaid, a, nil) // again: nothing to undo, nothing changes
	if n, u := e.count("transfer_payments"), e.count("payment_undos"); n != 1 || u != 1 {
		t.Errorf("%d payments and %d undos stored, want the payment kept and one undo", n, u)
	}
	e.must(200, "POST", paid, a, nil)
	if !isPaid() || e.count("transfer_payments") != 2 {
		t.Errorf("paid again: paid %v, %d payment facts", isPaid(), e.count("transfer_payments"))
	}
	if _, err := e.pool.Exec(context.Background(), "DELETE FROM payment_undos"); err == nil {
		t.Errorf("an undo could be deleted")
	}

	// Eleven minutes later the key that marked it may no longer, an admin may.
	late, err := api.New(e.store.WithClock(func() time.Time { return time.Now().Add(11 * time.Minute) }), slog.New(slog.DiscardHandler), api.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e.server = late
	e.must(403, "POST", unpaid, a, nil)
	if tr := e.must(200, "POST", unpaid, e.admin, nil); tr["paid"] != false {
		t.Errorf("undone by an admin: %v", tr)
	}
	changes := e.must(200, "GET", "/v1/changes", e.admin, nil)
	if !strings.Contains(fmt.Sprint(changes), "transfer_unpaid") {
		t.Errorf("no change transfer_unpaid in the feed")
	}
}
