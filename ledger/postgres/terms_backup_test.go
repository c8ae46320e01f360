package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// TestSessionTermsRoundTrip: an export carries each evening's terms and
// whether a player retired, the import re-scores and re-settles each
// evening under its own terms, and the restored ledger exports byte for
// byte the same and settles the same.
func TestSessionTermsRoundTrip(t *testing.T) {
	ctx := context.Background()
	l := newTermsLedger(t)
	_, _, err := l.svc.CorrectHand(ctx, l.admin, ledger.Correction{TableID: l.table, Number: 1, Revision: 1,
		Facts: json.RawMessage(l.ids.Replace(schwarzeDame(true))), Reason: "vertauscht"}, nil)
	must(t, err)
	_, err = l.pool.Exec(ctx, `UPDATE players SET retired = true WHERE name = 'Dieter'`)
	must(t, err)
	first := exportBytes(t, l.db, l.club.ID)
	var terms []backup.Terms
	retired := 0
	for _, r := range records(t, first) {
		if r.Session != nil {
			terms = append(terms, r.Session.Terms)
		}
		if r.Player != nil && r.Player.Retired {
			retired++
		}
	}
	if len(terms) != 2 || terms[0].Stake.Cmp(score.Int(1)) != 0 || terms[1].Stake.Cmp(score.Int(5)) != 0 ||
		!strings.Contains(string(terms[1].Rules), `"hands_per_match":12`) || retired != 1 {
		t.Fatalf("the document's terms: %+v, %d retired players, want 1", terms, retired)
	}
	pool := pgtest.New(t)
	dst := postgres.New(pool, pgtest.ChainKey)
	_, err = importInto(dst, first)
	must(t, err)
	if second := exportBytes(t, dst, l.club.ID); !bytes.Equal(first, second) {
		t.Fatalf("the export of the imported ledger differs at %s", firstDifference(first, second))
	}
	assertVersionsRestarted(t, pool)
	for _, table := range []string{"sessions", "players"} {
		sameRows(t, table, tableRows(t, l.pool, table, ""), tableRows(t, pool, table, ""))
	}
	for _, id := range []int64{l.a.ID, l.b.ID} {
		a, err := l.svc.FindSettlement(ctx, l.admin, id)
		must(t, err)
		b, err := dst.Service().FindSettlement(ctx, l.admin, id)
		must(t, err)
		sameAsJSON(t, fmt.Sprintf("session %d's settlement", id), a, b)
	}
	if err := postgres.Verify(ctx, pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil); err != nil {
		t.Errorf("verify after import: %v", err)
	}
}

// TestImportRefusesTamperedTerms: an evening's terms are checked like a
// table's settings, and its hands and money must follow from them.
func TestImportRefusesTamperedTerms(t *testing.T) {
	l := newTermsLedger(t)
	original := exportBytes(t, l.db, l.club.ID)
	session := func(recs []backup.Record, n int) *backup.Session {
		for _, r := range recs {
			if r.Session != nil {
				if n--; n < 0 {
					return r.Session
				}
			}
		}
		t.Fatal("the document holds too few sessions")
		return nil
	}
	for _, c := range []struct {
		name string
		edit func([]backup.Record)
		want []string
	}{
		{"the first evening at the new stake", func(recs []backup.Record) { session(recs, 0).Terms.Stake = score.Int(5) },
			[]string{"settlement version 1: the document's settlement differs", "the document says 40, the ledger computes 200"}},
		{"the first evening under the new rules", func(recs []backup.Record) { session(recs, 0).Terms.Rules = session(recs, 1).Terms.Rules },
			[]string{"re-scoring table", "hand 1", "the stored state after the hand differs"}},
		{"a settle mode of its own", func(recs []backup.Record) { session(recs, 1).Terms.SettleMode = "bar" },
			[]string{": session.terms.settle_mode: must be transfers, kitty or losers_to_kitty"}},
		{"a negative match price", func(recs []backup.Record) { session(recs, 1).Terms.MatchLossCents = -1 },
			[]string{": session.terms.match_loss_cents: must be between 0 and"}},
		{"a stake of a thousandth of a cent less than nothing", func(recs []backup.Record) { session(recs, 1).Terms.Stake = score.Frac(-1, 1000) },
			[]string{": session.terms.stake_cents_per_point: must be between 0 and 100000"}},
		{"matches of no hands", func(recs []backup.Record) {
			s := session(recs, 1)
			s.Terms.Rules = json.RawMessage(strings.Replace(string(s.Terms.Rules), `"hands_per_match":12`, `"hands_per_match":0`, 1))
		}, []string{": session.terms.rules.hands_per_match: "}},
		{"a rule set of another game", func(recs []backup.Record) {
			rules, err := ledger.ResolveRules("doppelkopf", "", nil)
			must(t, err)
			session(recs, 1).Terms.Rules = rules
		}, []string{": session.terms.rules.preset: "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			refused(t, tampered(t, original, func(recs []backup.Record) []backup.Record { c.edit(recs); return recs }), ledger.EINVALID, c.want...)
		})
	}
}
