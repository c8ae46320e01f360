package ledger_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// The limits the ledger keeps whoever calls it: every value it accepts
// fits the column it goes into, and what does not is refused naming the
// field (openapi.yaml states the same limits; api's tests compare them).

func TestDatesFromMinDateToMaxDate(t *testing.T) {
	for _, s := range []string{ledger.MinDate, ledger.MaxDate, "2026-11-19"} {
		if _, err := ledger.ParseDate("date", s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	for _, s := range []string{"1899-12-31", "0000-01-01", "0001-01-01", "10000-01-01", "2026-02-30", "2026-1-1", ""} {
		_, err := ledger.ParseDate("from", s)
		if e := wantCode(t, s, err, ledger.EINVALID); e.Field != "from" {
			t.Errorf("%s is refused naming %q, want from", s, e.Field)
		}
	}
	c := newClub(t)
	ctx := context.Background()
	_, err := c.svc.CloseSession(ctx, c.scorer, c.session.ID)
	c.must(err)
	_, _, err = c.svc.OpenSession(ctx, c.scorer, c.table.ID, "0000-01-01", c.players, nil)
	if e := wantCode(t, "a session in year 0", err, ledger.EINVALID); e.Field != "date" {
		t.Errorf("a session in year 0 is refused naming %q", e.Field)
	}
	_, err = c.svc.PlayerStats(ctx, c.admin, c.players[0], ledger.StatsFilter{From: "0000-01-01"})
	wantCode(t, "statistics from year 0", err, ledger.EINVALID)
	_, err = c.svc.EveningReport(ctx, c.admin, "0000-01-01")
	wantCode(t, "the evening report of year 0", err, ledger.EINVALID)
}

func TestHandNumbersFitTheColumn(t *testing.T) {
	c := newClub(t)
	_, _, err := c.record(ledger.MaxHandNumber+1, `{"game": "normal", "re": {"players": [P1, P3], "augen": 187}}`, nil)
	if e := wantCode(t, "a number past MaxHandNumber", err, ledger.EINVALID); e.Field != "number" {
		t.Errorf("the refusal names %q, want number", e.Field)
	}
	_, err = c.svc.ListHands(context.Background(), c.admin, c.table.ID, ledger.HandFilter{Page: ledger.Page{After: ledger.MaxHandNumber + 1, Limit: 10}})
	if e := wantCode(t, "a page after MaxHandNumber", err, ledger.EINVALID); e.Field != "after" {
		t.Errorf("the refusal names %q, want after", e.Field)
	}
	if _, err := c.svc.ListHands(context.Background(), c.admin, c.table.ID, ledger.HandFilter{Page: ledger.Page{After: ledger.MaxHandNumber, Limit: 10}}); err != nil {
		t.Errorf("a page after the last possible number: %v", err)
	}
}

func TestIdempotencyKeysFitTheIndex(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	for _, key := range []string{"", strings.Repeat("k", ledger.MaxIdempotencyKeyLen+1)} {
		_, _, err := c.svc.CreatePlayer(ctx, c.scorer, "Gast", &ledger.Idempotency{Key: key, Hash: []byte{1}})
		if e := wantCode(t, "a key of "+key, err, ledger.EINVALID); e.Field != "Idempotency-Key" {
			t.Errorf("the refusal names %q", e.Field)
		}
	}
	if _, _, err := c.svc.CreatePlayer(ctx, c.scorer, "Gast", &ledger.Idempotency{Key: strings.Repeat("k", ledger.MaxIdempotencyKeyLen), Hash: []byte{1}}); err != nil {
		t.Errorf("a key of MaxIdempotencyKeyLen: %v", err)
	}
}
