package ledger_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

var nextDealerRE = regexp.MustCompile(`(Anna|Bernd|Clara|Dieter) gibt`)

// TestTextsReadWithNames: every answer that carries a hand's texts reads
// names, never a reference; the report's rows say who dealt and why a
// hand was voided.
func TestTextsReadWithNames(t *testing.T) {
	c := newClub(t)
	ctx := context.Background()
	c.play(3)
	_, _, err := c.svc.CorrectHand(ctx, c.scorer, ledger.Correction{TableID: c.table.ID, Number: 2, Revision: 1, Void: true, Reason: "falsch gegeben"}, nil)
	c.must(err)
	h, err := c.svc.FindHand(ctx, c.admin, c.table.ID, 3)
	c.must(err)
	list, err := c.svc.ListHands(ctx, c.admin, c.table.ID, ledger.HandFilter{Page: ledger.Page{Limit: 10}})
	c.must(err)
	revs, err := c.svc.HandRevisions(ctx, c.admin, c.table.ID, 2)
	c.must(err)
	r, err := c.svc.Report(ctx, c.admin, c.session.ID)
	c.must(err)
	tbl, err := c.svc.FindTable(ctx, c.admin, c.table.ID)
	c.must(err)
	for what, v := range map[string]any{"hand": h, "hands": list, "revisions": revs, "report": r, "table": tbl} {
		raw, _ := json.Marshal(v)
		if strings.Contains(string(raw), "{{player:") {
			t.Errorf("the %s carries a player reference: %s", what, raw)
		}
	}
	if !nextDealerRE.Match(h.Result.State) || !nextDealerRE.Match(tbl.State) {
		t.Errorf("states without the next dealer's name: %s / %s", h.Result.State, tbl.State)
	}
	for _, row := range r.Hands {
		if row.Dealer == 0 {
			t.Errorf("hand %d names no dealer", row.Number)
		}
	}
	if row := r.Hands[1]; !row.Void || row.Revision != 2 || row.Reason != "falsch gegeben" {
		t.Errorf("the voided hand's row %+v", row)
	}
}
