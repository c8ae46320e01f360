package postgres_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
)

// seasonColumns are the columns of issue 30's tables. They are not yet in
// the export document (a gap named in the note, not a choice):
// TestExportCoversTheSchema lists them here so the gap stays visible.
var seasonColumns = map[string]string{
	"season_rules":      "club_id name version rules created_at",
	"imports":           "club_id import_id content_hash file_name evenings created_at",
	"imported_evenings": "club_id evening_id import_id game date",
	"imported_lines":    "club_id evening_id player_id hands num den",
}

// TestSeasonRulesAreVersionedAndAppendOnly: a name's rules get the next
// version when they change, the same rules store nothing, an old version
// stays readable, and no row can be updated.
func TestSeasonRulesAreVersionedAndAppendOnly(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	club := f.actor.ClubID
	v1 := json.RawMessage(`{"period":{"kind":"year","year":2026},"games":["doppelkopf"],"unit":{"kind":"points"},"aggregate":{"kind":"sum"},"missed":{"kind":"ignored"}}`)
	v2 := json.RawMessage(`{"period":{"kind":"year","year":2026},"games":["doppelkopf"],"unit":{"kind":"points"},"aggregate":{"kind":"average"},"missed":{"kind":"ignored"}}`)
	for i, c := range []struct {
		rules   json.RawMessage
		version int
		created bool
	}{{v1, 1, true}, {v1, 1, false}, {v2, 2, true}, {v2, 2, false}, {v1, 3, true}} {
		r, created, err := f.store.Seasons.AppendSeasonRules(ctx, club, "jahreswertung", c.rules)
		if err != nil || r.Version != c.version || created != c.created {
			t.Fatalf("append %d: version %d created %v (%v), want %d %v", i, r.Version, created, err, c.version, c.created)
		}
	}
	old, err := f.store.Seasons.FindSeasonRules(ctx, club, "jahreswertung", 2)
	if err != nil || old.Rules.Aggregate.Kind != "average" {
		t.Fatalf("version 2 = %+v, %v; want the average", old, err)
	}
	latest, err := f.store.Seasons.FindSeasonRules(ctx, club, "jahreswertung", 0)
	if err != nil || latest.Version != 3 {
		t.Fatalf("latest = %d, %v; want 3", latest.Version, err)
	}
	if _, err := f.store.Seasons.FindSeasonRules(ctx, club, "jahreswertung", 4); ledger.ErrorCode(err) != ledger.ENOTFOUND {
		t.Errorf("version 4: %v, want not found", err)
	}
	if _, err := f.pool.Exec(ctx, `UPDATE season_rules SET rules = '{}'`); err == nil {
		t.Error("a season's rules were updated; want the history append-only")
	}
}
