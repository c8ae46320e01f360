package postgres_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/internal/backuptest"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// otherKey is the chain key of another installation.
var otherKey, _ = chain.NewKey([]byte("another installation's chain key, 32+ bytes"))

// dameEvening is a club written through the write path of a store chained
// with key: a Schwarze Dame table with an open evening of three hands.
func dameEvening(t *testing.T, key chain.Key) *history {
	t.Helper()
	ctx := context.Background()
	h := &history{pool: pgtest.New(t), open: map[int64]int64{}}
	h.db = postgres.New(h.pool, key)
	h.store = h.db.Service()
	var err error
	h.club, h.adminSecret, err = h.store.CreateClub(ctx, ledger.NewClub{Name: "Eichel", TimeZone: "Europe/Berlin"})
	must(t, err)
	h.admin, err = h.store.Authenticate(ctx, h.adminSecret)
	must(t, err)
	var pairs []string
	for i, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := h.store.CreatePlayer(ctx, h.admin, name, nil)
		must(t, err)
		h.players = append(h.players, p.ID)
		pairs = append(pairs, fmt.Sprintf("P%d", i+1), fmt.Sprint(p.ID))
	}
	h.ids = strings.NewReplacer(pairs...)
	dame := h.table(t, ledger.NewTable{Name: "Donnerstag", Game: "schwarze_dame"})
	h.evening(t, dame, "2026-11-19", []int{1, 2, 3, 4}, h.admin, true, schwarzeDame(false), schwarzeDame(false), schwarzeDame(true))
	return h
}

// forge does to a document what issue 20's forger does: hand 2 gets other
// facts, it and every later hand are re-scored with the engines (as the
// public score endpoints would), the table's state follows, and every
// changed hand gets the SHA-256 the trigger of the unkeyed chain computed,
// chained anew (computed here by the database's own hand_digest). It
// returns the forged records.
func forge(t *testing.T, h *history, doc []byte) []backup.Record {
	t.Helper()
	ctx := context.Background()
	recs := records(t, doc)
	var club int64
	var table *backup.Table
	var session *backup.Session
	var prev []byte
	state := json.RawMessage(`{}`)
	for _, r := range recs {
		switch {
		case r.Club != nil:
			club = r.Club.ID
		case r.Table != nil:
			table = r.Table
		case r.Session != nil:
			session = r.Session
		case r.Hand != nil:
			hd := r.Hand
			if hd.Number >= 2 {
				if hd.Number == 2 {
					hd.Facts = h.facts(t, schwarzeDame(true))
				}
				res, err := ledger.ScoreHand(ledger.Table{ID: table.ID, Game: table.Game, Rules: session.Terms.Rules, State: state},
					ledger.Session{ID: session.ID, TableID: table.ID, Date: session.Date, Seating: session.Seating,
						Terms: ledger.Terms{Rules: session.Terms.Rules}}, hd.Facts)
				must(t, err)
				hd.Result, err = json.Marshal(res)
				must(t, err)
				hd.StateAfter = res.State
				row, err := json.Marshal(map[string]any{"club_id": club, "table_id": hd.TableID, "session_id": hd.SessionID,
					"number": hd.Number, "game": table.Game, "rules": session.Terms.Rules, "facts": hd.Facts, "result": hd.Result,
					"state_after": hd.StateAfter, "recorded_by": hd.RecordedBy, "recorded_at": hd.RecordedAt,
					"prev_hash": `\x` + hex.EncodeToString(prev)})
				must(t, err)
				must(t, h.pool.QueryRow(ctx, `SELECT encode(hand_digest(jsonb_populate_record(NULL::hands, $1::jsonb)), 'hex')`, row).Scan(&hd.Hash))
			}
			state = hd.StateAfter
			var err error
			prev, err = hex.DecodeString(hd.Hash)
			must(t, err)
		}
	}
	table.State = state
	return recs
}

// TestImportRefusesAForgedChain is issue 20's item 8: a document whose
// hand was changed, re-scored and given recomputed SHA-256 hashes is
// refused, naming the hand and never a hash that would pass: as it was
// forged, as one of the trigger era (no key id; --foreign takes it, which
// shows that only the chain refuses it), and with an HMAC of a key that is
// not the installation's. The genuine document imports.
func TestImportRefusesAForgedChain(t *testing.T) {
	h := dameEvening(t, pgtest.ChainKey)
	doc := exportBytes(t, h.db, h.club.ID)
	dame := h.tables[0]
	forged := forge(t, h, doc)

	genuine := map[string]bool{}
	for _, r := range records(t, doc) {
		if r.Hand != nil {
			genuine[r.Hand.Hash] = true
		}
	}
	refusedSaying := func(t *testing.T, recs []backup.Record, want ...string) {
		t.Helper()
		pool := pgtest.New(t)
		_, err := importInto(postgres.New(pool, pgtest.ChainKey), document(t, recs))
		if err == nil {
			t.Fatal("the forged document was imported")
		}
		assertCode(t, err, ledger.EINVALID)
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("refusal %q does not say %q", err, w)
			}
		}
		for hash := range genuine {
			if strings.Contains(err.Error(), hash) {
				t.Errorf("refusal %q prints a hash of the chain", err)
			}
		}
		assertEmpty(t, pool)
	}

	t.Run("as forged", func(t *testing.T) {
		refusedSaying(t, forged, fmt.Sprintf("table %d, hand 2: its hash does not verify with this installation's chain key", dame))
	})
	t.Run("as of the trigger era", func(t *testing.T) {
		for _, r := range forged {
			if r.Hand != nil {
				r.Hand.ChainKey = ""
			}
		}
		refusedSaying(t, forged, fmt.Sprintf("table %d, hand 1: its hash is an unkeyed SHA-256", dame), "--foreign")
		// Only the chain refuses it: its content re-derives, so an
		// operator who trusts it can take it, chained anew.
		pool := pgtest.New(t)
		in, err := backup.ImportWith(context.Background(), postgres.New(pool, pgtest.ChainKey), bytes.NewReader(document(t, forged)),
			backup.ImportOptions{Foreign: true})
		must(t, err)
		if in.Rekeyed != 3 {
			t.Errorf("--foreign chained %d hands anew, want 3", in.Rekeyed)
		}
	})
	t.Run("with an HMAC of another key", func(t *testing.T) {
		backuptest.Seal(t, forged, otherKey)
		for _, r := range forged {
			if r.Hand != nil {
				r.Hand.ChainKey = pgtest.ChainKey.IDHex()
			}
		}
		refusedSaying(t, forged, fmt.Sprintf("table %d, hand 1: its hash does not verify with this installation's chain key", dame))
	})
	t.Run("genuine", func(t *testing.T) {
		pool := pgtest.New(t)
		in, err := importInto(postgres.New(pool, pgtest.ChainKey), doc)
		must(t, err)
		if in.Rekeyed != 0 {
			t.Errorf("%d hands chained anew in a genuine round trip", in.Rekeyed)
		}
		must(t, postgres.Verify(context.Background(), pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil))
	})
}

// TestImportOfAnotherInstallation: a document another installation wrote
// (another chain key) is refused, naming the key and --foreign; with
// --foreign it imports, every hand and revision chained anew with this
// installation's key, and verify passes with it. The varied history has
// corrections, so revisions are chained anew too.
func TestImportOfAnotherInstallation(t *testing.T) {
	ctx := context.Background()
	h := dameEvening(t, otherKey)
	// A correction of hand 1: revisions of hands 1 to 3 (the later ones
	// re-scored).
	_, _, err := h.store.CorrectHand(ctx, h.admin, ledger.Correction{TableID: h.tables[0], Number: 1, Revision: 1,
		Facts: h.facts(t, schwarzeDame(true)), Reason: "Stiche vertauscht"}, nil)
	must(t, err)
	doc := exportBytes(t, h.db, h.club.ID)
	var rows int
	for _, r := range records(t, doc) {
		if r.Hand != nil || r.Revision != nil {
			rows++
		}
	}

	pool := pgtest.New(t)
	store := postgres.New(pool, pgtest.ChainKey)
	_, err = importInto(store, doc)
	assertCode(t, err, ledger.EINVALID)
	if err == nil || !strings.Contains(err.Error(), "made with the chain key "+otherKey.IDHex()+" of another installation") ||
		!strings.Contains(err.Error(), "--foreign") {
		t.Errorf("refusal %v does not name the other key and --foreign", err)
	}
	assertEmpty(t, pool)

	in, err := backup.ImportWith(ctx, store, bytes.NewReader(doc), backup.ImportOptions{Foreign: true})
	must(t, err)
	if in.Rekeyed != rows || rows < 6 {
		t.Errorf("%d hands and revisions chained anew, want all %d", in.Rekeyed, rows)
	}
	must(t, postgres.Verify(ctx, pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil))
	again := exportBytes(t, store, h.club.ID)
	for _, r := range records(t, again) {
		if r.Hand != nil && r.Hand.ChainKey != pgtest.ChainKey.IDHex() || r.Revision != nil && r.Revision.ChainKey != pgtest.ChainKey.IDHex() {
			t.Fatalf("a row of the re-export is not chained with this installation's key: %+v %+v", r.Hand, r.Revision)
		}
	}
	// The re-keyed ledger goes on: a hand recorded after the import
	// chains to it.
	svc := store.Service()
	admin, err := svc.Authenticate(ctx, in.AdminKey)
	must(t, err)
	_, _, err = svc.RecordHand(ctx, admin, ledger.NewHand{TableID: h.tables[0], SessionID: h.open[h.tables[0]], Number: 4,
		Facts: h.facts(t, schwarzeDame(false))}, nil)
	must(t, err)
	must(t, postgres.Verify(ctx, pool, pgtest.ChainKey, ledger.ZeroSumGames(), nil))
}
