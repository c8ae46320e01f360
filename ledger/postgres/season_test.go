package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/season"
)

// seasonColumns are the columns of issue 30's tables, each carried in
// the export document (ledger/backup/season.go).
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

// TestSeasonAndOldListsRoundTrip: a club's season rules (every version)
// and its imported evenings are exported, imported into a fresh
// installation, exported again byte for byte, verified, and rank the
// same season table there.
func TestSeasonAndOldListsRoundTrip(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rules := season.Rules{Period: season.Period{Kind: season.PeriodYear, Year: 2015}, Games: []string{"doppelkopf"},
		Unit: season.Unit{Kind: season.UnitPoints}, Aggregate: season.Aggregate{Kind: season.Sum}, Missed: season.Missed{Kind: season.MissedZero}}
	_, _, err := f.store.CreateSeasonRules(ctx, f.actor, ledger.NewSeasonRules{Name: "saison-2015", Rules: rules})
	must(t, err)
	rules.Aggregate.Kind = season.Average
	_, _, err = f.store.CreateSeasonRules(ctx, f.actor, ledger.NewSeasonRules{Name: "saison-2015", Rules: rules})
	must(t, err)
	file := []byte("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n" +
		"19.11.2015;Doppelkopf;1;Anna;34,5;24\n19.11.2015;Doppelkopf;1;J\u00fcrgen;-34,5;24\n" +
		"26.11.2015;Doppelkopf;;Anna;-3;20\n26.11.2015;Doppelkopf;;Bernd;3;20\n")
	pv, err := f.store.ImportOldLists(ctx, f.actor, ledger.OldListImport{FileName: "liste-2015.csv", Content: file})
	must(t, err)
	if !pv.Stored || pv.Evenings != 2 || len(pv.NewPlayers) != 1 {
		t.Fatalf("import = %+v, want 2 evenings stored and J\u00fcrgen new", pv)
	}
	before, err := f.store.SeasonTable(ctx, f.actor, "saison-2015", 0)
	must(t, err)

	first := exportBytes(t, postgres.New(f.pool, pgtest.ChainKey), f.actor.ClubID)
	for _, want := range []string{`"season_rules":`, `"old_list_import":`, `"imported_evening":`, `"points":"69/2"`} {
		if !bytes.Contains(first, []byte(want)) {
			t.Errorf("the export lacks %s", want)
		}
	}
	pool := pgtest.New(t)
	dst := postgres.New(pool, pgtest.ChainKey)
	_, err = importInto(dst, first)
	must(t, err)
	if second := exportBytes(t, dst, f.actor.ClubID); !bytes.Equal(first, second) {
		t.Fatalf("the export of the imported ledger differs at %s", firstDifference(first, second))
	}
	if err := postgres.Verify(ctx, pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil); err != nil {
		t.Fatalf("verify after import: %v", err)
	}
	after, err := dst.Service().SeasonTable(ctx, ledger.Actor{ClubID: f.actor.ClubID, Role: ledger.RoleReader}, "saison-2015", 0)
	must(t, err)
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if !bytes.Equal(a, b) || before.Version != 2 || before.ImportedEvenings != 2 {
		t.Errorf("the season table after the round trip:\n%s\nbefore:\n%s", b, a)
	}
	// A second import of the same file into the restored installation stores nothing.
	again, err := dst.Service().ImportOldLists(ctx, ledger.Actor{ClubID: f.actor.ClubID, Role: ledger.RoleAdmin}, ledger.OldListImport{Content: file})
	must(t, err)
	if again.Stored || !again.AlreadyImported {
		t.Errorf("the same file after the round trip: %+v, want already imported", again)
	}
}

// TestVerifyCatchesTamperedImports: verify names an import that lost an
// evening and an imported line whose points are not in lowest terms.
func TestVerifyCatchesTamperedImports(t *testing.T) {
	for sql, invariant := range map[string]string{
		`DELETE FROM imported_lines WHERE player_id = (SELECT min(player_id) FROM imported_lines);
		 DELETE FROM imported_evenings v WHERE NOT EXISTS (SELECT 1 FROM imported_lines l WHERE l.evening_id = v.evening_id)`: "every import of old lists holds the evenings it announces, each with a line",
		`UPDATE imported_lines SET num = num * 2, den = den * 2`: "every imported line's points are in lowest terms",
	} {
		f := newFixture(t)
		file := []byte("Datum;Spiel;Tisch;Spieler;Punkte;Spiele\n19.11.2015;Doppelkopf;;Anna;34,5;24\n26.11.2015;Doppelkopf;;Bernd;3;20\n")
		_, err := f.store.ImportOldLists(context.Background(), f.actor, ledger.OldListImport{Content: file})
		must(t, err)
		must(t, verify(f))
		tamper(t, f, "imported_lines,imported_evenings", sql)
		var b *postgres.Breach
		if err := verify(f); !errors.As(err, &b) || b.Invariant != invariant {
			t.Errorf("%s: verify = %v, want %q", sql, err, invariant)
		}
	}
}
