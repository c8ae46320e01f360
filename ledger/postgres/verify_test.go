package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// tamper changes rows behind the service's back, as a superuser who
// disables the append-only triggers of the tables (comma-separated).
func tamper(t *testing.T, f fixture, tables string, sql string) {
	t.Helper()
	ctx := context.Background()
	var stmts []string
	for _, table := range strings.Split(tables, ",") {
		stmts = append(stmts, "ALTER TABLE "+table+" DISABLE TRIGGER USER")
	}
	stmts = append(stmts, sql)
	for _, table := range strings.Split(tables, ",") {
		stmts = append(stmts, "ALTER TABLE "+table+" ENABLE TRIGGER USER")
	}
	for _, stmt := range stmts {
		if _, err := f.pool.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// repacked returns the statement that rewrites the packed texts of hand
// number n, edited, as someone with the database's rights could.
func repacked(t *testing.T, f fixture, n int, edit func(facts, result map[string]any)) string {
	t.Helper()
	var game string
	var body []byte
	must(t, f.pool.QueryRow(context.Background(), `SELECT game, body FROM hands WHERE number = $1`, n).Scan(&game, &body))
	factsText, resultText, state, err := handpack.Unpack(body)
	must(t, err)
	var facts, result map[string]any
	must(t, json.Unmarshal(factsText, &facts))
	must(t, json.Unmarshal(resultText, &result))
	edit(facts, result)
	factsText, err = json.Marshal(facts)
	must(t, err)
	resultText, err = json.Marshal(result)
	must(t, err)
	body, err = handpack.Pack(game, factsText, resultText, state)
	must(t, err)
	return fmt.Sprintf(`UPDATE hands SET body = '\x%x' WHERE number = %d`, body, n)
}

// firstPoints sets the points of a result's first player.
func firstPoints(result map[string]any, points string) {
	result["points"].([]any)[0].(map[string]any)["points"] = points
}

func verify(f fixture) error {
	return postgres.Verify(context.Background(), f.pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil)
}

func recordThree(t *testing.T) fixture {
	t.Helper()
	f := newFixture(t)
	for n := 1; n <= 3; n++ {
		if _, _, err := f.record(t, n, nil); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestVerifyPassesAWholeLedger(t *testing.T) {
	f := recordThree(t)
	var passed []string
	if err := postgres.Verify(context.Background(), f.pool, pgtest.ChainKey, ledger.ZeroSumGames(), func(name string) { passed = append(passed, name) }); err != nil {
		t.Fatalf("a ledger written only by the service fails verify: %v", err)
	}
	if len(passed) != 16 {
		t.Errorf("%d invariants checked, want 16: %v", len(passed), passed)
	}
	var chained int
	must(t, f.pool.QueryRow(context.Background(), `SELECT count(*) FROM hands WHERE hash IS NOT NULL AND (number = 1) = (prev_hash IS NULL)`).Scan(&chained))
	if chained != 3 {
		t.Errorf("%d of 3 hands are chained", chained)
	}
}

func TestVerifyCatchesTampering(t *testing.T) {
	// Hands 1 and 2 are rewritten in their packed texts (sql "").
	edits := map[string]struct {
		hand int
		edit func(facts, result map[string]any)
	}{
		"a hand's facts rewritten":  {2, func(facts, _ map[string]any) { facts["dealer"] = 0 }},
		"a hand's result rewritten": {1, func(_, result map[string]any) { firstPoints(result, "21") }},
	}
	cases := []struct {
		name, table, sql, invariant string
	}{
		{"an entry changed", "hands", `UPDATE hands SET entry_nums[1] = entry_nums[1] + 10 WHERE number = 1`,
			"every hand's entries are the points of its result"},
		{"a hand's facts rewritten", "hands", "", "the tamper-evidence chain is intact"},
		{"a hand's result rewritten", "hands", "", "every hand's entries are the points of its result"},
		{"a total changed", "table_totals", `UPDATE table_totals SET num = num + 1 WHERE player_id = (SELECT min(player_id) FROM table_totals)`,
			"every table total equals the sum of its entries"},
		{"a session total changed", "session_totals", `UPDATE session_totals SET hands = hands + 1 WHERE player_id = (SELECT min(player_id) FROM session_totals)`,
			"every session total equals the sum of its entries"},
		{"a hand played counted as sat out", "table_totals", `
			UPDATE table_totals SET played = played - 1, sat_out = sat_out + 1 WHERE player_id = (SELECT min(player_id) FROM table_totals)`,
			"every table_totals row counts the hands played and sat out"},
		{"a session's hands played raised", "session_totals", `
			UPDATE session_totals SET played = played + 1 WHERE player_id = (SELECT max(player_id) FROM session_totals)`,
			"every session_totals row counts the hands played and sat out"},
		{"the last hand deleted", "hands", `DELETE FROM hands WHERE number = 3`,
			"every table total equals the sum of its entries"},
		{"a hand's hash replaced", "hands", `UPDATE hands SET hash = sha256('x') WHERE number = 3`,
			"the tamper-evidence chain is intact"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := recordThree(t)
			sql := c.sql
			if e, ok := edits[c.name]; ok {
				sql = repacked(t, f, e.hand, e.edit)
			}
			tamper(t, f, c.table, sql)
			err := verify(f)
			var b *postgres.Breach
			if !errors.As(err, &b) {
				t.Fatalf("verify after tampering: %v, want a breach", err)
			}
			if b.Invariant != c.invariant {
				t.Errorf("breach %q (%s), want %q", b.Invariant, b.Detail, c.invariant)
			}
		})
	}
}

func TestVerifyCatchesAZeroSumBreachAndAGap(t *testing.T) {
	f := recordThree(t)
	// A hand whose entries and result agree but do not sum to zero.
	tamper(t, f, "hands", `UPDATE hands SET entry_nums[1] = entry_nums[1] + 1 WHERE number = 1;`+
		repacked(t, f, 1, func(_, result map[string]any) { firstPoints(result, "21") }))
	var b *postgres.Breach
	if err := verify(f); !errors.As(err, &b) || b.Invariant != "every zero-sum hand sums to zero" {
		t.Errorf("verify: %v, want the zero-sum breach", err)
	}

	g := recordThree(t)
	tamper(t, g, "tables", `UPDATE tables SET hands = 4`)
	if err := verify(g); !errors.As(err, &b) || b.Invariant != "hand numbers of every table run 1, 2, 3 … without a gap" {
		t.Errorf("verify: %v, want the gap breach", err)
	}

	// A change feed whose head is ahead of its changes (a gap at the end),
	// and one with a change numbered past a gap.
	const feedGap = "every club's change feed runs 1, 2, 3 … up to its head without a gap"
	h := recordThree(t)
	tamper(t, h, "clubs", `UPDATE clubs SET change_seq = change_seq + 1`)
	if err := verify(h); !errors.As(err, &b) || b.Invariant != feedGap {
		t.Errorf("verify: %v, want the feed's gap", err)
	}
	k := recordThree(t)
	tamper(t, k, "clubs,changes", `INSERT INTO changes (club_id, seq, kind) SELECT club_id, change_seq + 2, 'player_updated' FROM clubs;
		UPDATE clubs SET change_seq = change_seq + 2`)
	if err := verify(k); !errors.As(err, &b) || b.Invariant != feedGap {
		t.Errorf("verify: %v, want the feed's gap", err)
	}
}

// TestVerifyCatchesMoneyThatDoesNotSettle: after a payment the ledger
// passes; a transfer changed behind the service's back breaks the money
// invariant.
func TestVerifyCatchesMoneyThatDoesNotSettle(t *testing.T) {
	ctx := context.Background()
	f := recordThree(t)
	_, err := f.store.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	st, err := f.store.FindSettlement(ctx, f.actor, f.session.ID)
	must(t, err)
	_, err = f.store.MarkTransferPaid(ctx, f.actor, st.Transfers[0].ID)
	must(t, err)
	if err := verify(f); err != nil {
		t.Fatalf("verify after a payment: %v", err)
	}
	tamper(t, f, "transfers", `UPDATE transfers SET cents = cents + 1 WHERE transfer_id = (SELECT max(transfer_id) FROM transfers)`)
	var b *postgres.Breach
	if err := verify(f); !errors.As(err, &b) || b.Invariant != "payments and open transfers settle every current settlement" {
		t.Errorf("verify: %v, want the money breach", err)
	}
}

// TestMigrationChainsEarlierHands rolls the schema back to before the
// tamper-evidence migration, so the hands have no hashes, and checks that
// migrating again chains them.
func TestMigrationChainsEarlierHands(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for n := 1; n <= 3; n++ {
		if _, _, err := f.record(t, n, nil); err != nil {
			t.Fatal(err)
		}
	}
	must(t, postgres.MigrateDownTo(ctx, f.pool, 2))
	f.pool.Reset() // forget statements prepared against the other schema
	var unchained bool
	must(t, f.pool.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'hands' AND column_name = 'hash')`).Scan(&unchained))
	if !unchained {
		t.Fatal("version 2 of the schema still has hand hashes")
	}
	if _, err := postgres.Migrate(ctx, f.pool); err != nil {
		t.Fatal(err)
	}
	f.pool.Reset()
	if _, _, err := f.record(t, 4, nil); err != nil {
		t.Fatal(err)
	}
	// Hands 1 to 3 are of the trigger era, unkeyed: verify wants them sealed.
	var b *postgres.Breach
	if err := verify(f); !errors.As(err, &b) || b.Invariant != "the rows of the trigger era are the ones sealed" ||
		!strings.Contains(b.Detail, "3 hands and 0 revisions of the trigger era (no key id) are not sealed") {
		t.Errorf("verify before the seal: %v", err)
	}
	sealed, err := postgres.SealLegacy(ctx, f.pool, pgtest.ChainKey)
	must(t, err)
	if len(sealed) != 1 {
		t.Errorf("sealed clubs %v, want the one", sealed)
	}
	if again, err := postgres.SealLegacy(ctx, f.pool, pgtest.ChainKey); err != nil || len(again) != 0 {
		t.Errorf("a second seal: %v, %v", again, err)
	}
	if err := verify(f); err != nil {
		t.Errorf("hands from before the migration are not chained: %v", err)
	}
}

// TestSealCatchesARewrittenTriggerEra: with the trigger era sealed, a
// superuser who rewrites an unkeyed hand and recomputes its SHA-256 chain,
// or passes a keyed table off as of the trigger era, is caught.
func TestSealCatchesARewrittenTriggerEra(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ name, sql, detail string }{
		{"a trigger-era hand rewritten, its unkeyed chain recomputed", `
			UPDATE hands SET facts = jsonb_set(facts, '{dealer}', '0') WHERE number = 2;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 2;
			UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 2) WHERE number = 3;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 3;
			UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 3) WHERE number = 4;
			UPDATE hands h SET chain_key = NULL WHERE number = 4;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 4`,
			"its rows of the trigger era are not the ones sealed (3 hands and 0 revisions sealed, 4 and 0 now"},
		{"a keyed hand passed off as of the trigger era", `
			UPDATE hands h SET chain_key = NULL WHERE number = 4;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 4`,
			"its rows of the trigger era are not the ones sealed (3 hands and 0 revisions sealed, 4 and 0 now"},
		{"a trigger-era hand rewritten in place", `
			UPDATE hands SET facts = jsonb_set(facts, '{dealer}', '0') WHERE number = 3;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 3;
			UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 3) WHERE number = 4`,
			"hand 4: its content does not match its hash"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			for n := 1; n <= 3; n++ {
				_, _, err := f.record(t, n, nil)
				must(t, err)
			}
			// Back to the schema before the keyed chain, with the three hands
			// as the trigger would have chained them.
			must(t, postgres.MigrateDownTo(ctx, f.pool, 12))
			f.pool.Reset()
			tamper(t, f, "hands", `
				UPDATE hands h SET prev_hash = NULL WHERE number = 1;
				UPDATE hands h SET hash = hand_digest(h) WHERE number = 1;
				UPDATE hands h SET prev_hash = (SELECT hash FROM hands WHERE number = 1) WHERE number = 2;
				UPDATE hands h SET hash = hand_digest(h) WHERE number = 2;
				UPDATE hands h SET prev_hash = (SELECT hash FROM hands WHERE number = 2) WHERE number = 3;
				UPDATE hands h SET hash = hand_digest(h) WHERE number = 3`)
			_, err := postgres.Migrate(ctx, f.pool)
			must(t, err)
			f.pool.Reset()
			_, _, err = f.record(t, 4, nil)
			must(t, err)
			_, err = postgres.SealLegacy(ctx, f.pool, pgtest.ChainKey)
			must(t, err)
			must(t, verify(f))
			tamper(t, f, "hands", "ALTER TABLE hands DROP CONSTRAINT hands_keyed;"+c.sql)
			err = verify(f)
			var b *postgres.Breach
			if !errors.As(err, &b) || !strings.Contains(b.Detail, c.detail) {
				t.Errorf("verify: %v, want a breach saying %q", err, c.detail)
			}
		})
	}
}

// TestVerifyNamesEachBreachOfTheKeyedChain tampers as a superuser who can
// compute any unkeyed hash but not the installation's HMAC, and checks that
// verify names the breach, its table and hand.
func TestVerifyNamesEachBreachOfTheKeyedChain(t *testing.T) {
	cases := []struct {
		name, table, sql, invariant, detail string
		corrected                           bool // hand 1 voided first: revisions of hands 1 to 3
	}{
		{"facts changed and the unkeyed SHA-256 chain recomputed from there", "hands", `
			UPDATE hands SET facts = jsonb_set(facts, '{dealer}', '0') WHERE number = 2;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 2;
			UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 2) WHERE number = 3;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 3`,
			"the tamper-evidence chain is intact", "hand 2: its content does not match its hash", false},
		{"a hand passed off as one of the trigger era", "hands", `
			ALTER TABLE hands DROP CONSTRAINT hands_keyed;
			UPDATE hands SET chain_key = NULL WHERE number = 3;
			UPDATE hands h SET hash = hand_digest(h) WHERE number = 3`,
			"the tamper-evidence chain is intact", "hand 3: it has no keyed hash, but a row before it has one", false},
		{"a hash replaced", "hands", `UPDATE hands SET hash = sha256('x') WHERE number = 3`,
			"the tamper-evidence chain is intact", "hand 3: its content does not match its hash", false},
		{"the link broken", "hands", `UPDATE hands SET prev_hash = sha256('y') WHERE number = 2`,
			"the tamper-evidence chain is intact", "hand 2: it does not chain to the previous hand's hash", false},
		{"a key id replaced", "hands", `UPDATE hands SET chain_key = '\x0011223344556677' WHERE number = 1`,
			"the tamper-evidence chain is intact", "hand 1: its hash was made with another chain key (id 0011223344556677)", false},
		{"the chain head moved", "tables", `UPDATE tables SET last_hash = sha256('z')`,
			"every table's chain head is its last hand's hash", "its chain head is not the hash of its last hand 3", false},
		{"a revision's facts changed and an unkeyed SHA-256 recomputed", "hand_revisions", `
			UPDATE hand_revisions SET reason = 'nichts' WHERE number = 1;
			UPDATE hand_revisions r SET hash = revision_digest(r) WHERE number = 1`,
			"every revision chains to the one before it", "hand 1, revision 2: its content does not match its hash", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := recordThree(t)
			if c.corrected {
				_, _, err := f.store.CorrectHand(context.Background(), f.actor,
					ledger.Correction{TableID: f.table.ID, Number: 1, Revision: 1, Void: true, Reason: "falsch gegeben"}, nil)
				must(t, err)
			}
			must(t, verify(f))
			tamper(t, f, c.table, c.sql)
			err := verify(f)
			var b *postgres.Breach
			if !errors.As(err, &b) {
				t.Fatalf("verify after tampering: %v, want a breach", err)
			}
			if b.Invariant != c.invariant || !strings.Contains(b.Detail, c.detail) || !strings.Contains(b.Detail, fmt.Sprintf("table %d", f.table.ID)) {
				t.Errorf("breach %q: %s; want %q naming table %d and %q", b.Invariant, b.Detail, c.invariant, f.table.ID, c.detail)
			}
		})
	}
}

// TestVerifyWantsTheInstallationsKey: a ledger chained with one key does
// not verify with another.
func TestVerifyWantsTheInstallationsKey(t *testing.T) {
	f := recordThree(t)
	other, err := chain.NewKey([]byte("not this installation's chain key, 32+ bytes"))
	must(t, err)
	err = postgres.Verify(context.Background(), f.pool, other, ledger.ZeroSumGames(), nil)
	var b *postgres.Breach
	if !errors.As(err, &b) || !strings.Contains(b.Detail, "hand 1: its hash was made with another chain key") {
		t.Errorf("verify with another key: %v", err)
	}
}

// TestVerifyCatchesAKeyedTablePassedOffAsOfTheTriggerEra: a club whose
// hands are all keyed has no seal; rows without a key id there are a
// breach, even when their unkeyed chain is whole.
func TestVerifyCatchesAKeyedTablePassedOffAsOfTheTriggerEra(t *testing.T) {
	f := recordThree(t)
	tamper(t, f, "hands", `
		ALTER TABLE hands DROP CONSTRAINT hands_keyed;
		UPDATE hands SET chain_key = NULL;
		UPDATE hands h SET hash = hand_digest(h) WHERE number = 1;
		UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 1) WHERE number = 2;
		UPDATE hands h SET hash = hand_digest(h) WHERE number = 2;
		UPDATE hands SET prev_hash = (SELECT hash FROM hands WHERE number = 2) WHERE number = 3;
		UPDATE hands h SET hash = hand_digest(h) WHERE number = 3;
		UPDATE tables SET last_hash = (SELECT hash FROM hands WHERE number = 3)`)
	var b *postgres.Breach
	if err := verify(f); !errors.As(err, &b) || b.Invariant != "the rows of the trigger era are the ones sealed" ||
		!strings.Contains(b.Detail, "3 hands and 0 revisions of the trigger era (no key id) are not sealed") {
		t.Errorf("verify: %v, want the unsealed rows named", err)
	}
}

// TestAHandReadsItsSessionsRules: a hand stores no rule set of its own and
// is read with its session's; a session's rules changed behind the
// service's back break the chain of its hands.
func TestAHandReadsItsSessionsRules(t *testing.T) {
	f := recordThree(t)
	ctx := context.Background()
	var own int
	must(t, f.pool.QueryRow(ctx, `SELECT count(*) FROM hands WHERE rules IS NOT NULL`).Scan(&own))
	if own != 0 {
		t.Errorf("%d hands store a rule set of their own", own)
	}
	h, err := f.store.FindHand(ctx, f.actor, f.table.ID, 2)
	must(t, err)
	if len(h.Rules) == 0 || !ledger.SameJSON(h.Rules, f.session.Terms.Rules) {
		t.Errorf("hand 2 reads with rules %s, its session's are %s", h.Rules, f.session.Terms.Rules)
	}
	tamper(t, f, "sessions", `UPDATE sessions SET rules = rules || '{"tampered": true}'`)
	var b *postgres.Breach
	if err := verify(f); !errors.As(err, &b) || b.Invariant != "the tamper-evidence chain is intact" {
		t.Errorf("verify after the session's rules changed: %v, want the chain's breach", err)
	}
}
