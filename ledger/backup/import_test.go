package backup_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// document returns a small document that passes Check and Rescore: a
// Schwarze Dame table with one hand (worked example A of
// games/schwarzedame/README.md), voided by its revision 2.
func document(t *testing.T) *backup.Document {
	t.Helper()
	rules, err := ledger.ResolveRules("schwarze_dame", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	seating := []int64{1, 2, 3, 4}
	facts := json.RawMessage(`{"dealer": 1, "players": [
		{"player": 1, "tricks": 4, "hearts": [2, 5, 13]},
		{"player": 2, "tricks": 3, "hearts": [14], "pik_dame": true},
		{"player": 3, "tricks": 5, "hearts": [3, 4, 6, 7, 8, 9, 10]},
		{"player": 4, "tricks": 1, "hearts": [11, 12]}]}`)
	res, err := ledger.ScoreHand(ledger.Table{ID: 1, Game: "schwarze_dame", Rules: rules, State: json.RawMessage(`{}`)},
		ledger.Session{ID: 1, TableID: 1, Date: "2026-11-19", Seating: seating}, facts)
	if err != nil {
		t.Fatal(err)
	}
	result, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	void, err := json.Marshal(ledger.VoidResult(res, json.RawMessage(`{}`)))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 19, 20, 0, 0, 0, time.UTC)
	hash := func(c string) string { return strings.Repeat(c, 64) }
	var players []backup.Player
	for _, id := range seating {
		players = append(players, backup.Player{ID: id, Name: string(rune('A' + id)), CreatedAt: at})
	}
	return &backup.Document{
		Format:  backup.Format,
		Club:    backup.Club{ID: 1, Name: "Eichel", TimeZone: "Europe/Berlin", CreatedAt: at, ChangeSeq: 0},
		APIKeys: []backup.Key{{ID: 1, Role: ledger.RoleAdmin, Label: "admin", SecretSHA256: hash("0"), CreatedAt: at}},
		Players: players,
		Tables: []backup.Table{{
			ID: 1, Name: "Donnerstag", Game: "schwarze_dame", Preset: "standard", Options: json.RawMessage(`{}`),
			Rules: rules, Stake: score.Int(1), SettleMode: "table", Hands: 1, State: json.RawMessage(`{}`), CreatedAt: at,
		}},
		Sessions: []backup.Session{{ID: 1, TableID: 1, Date: "2026-11-19", Seating: seating, OpenedAt: at}},
		Hands: []backup.Hand{{
			ID: 1, TableID: 1, SessionID: 1, Number: 1, Game: "schwarze_dame", Rules: rules, Facts: facts,
			Result: result, StateAfter: res.State, RecordedBy: 1, RecordedAt: at, Hash: hash("a"),
			Revisions: []backup.Revision{{
				ID: 1, Revision: 2, Facts: facts, Result: void, StateAfter: json.RawMessage(`{}`),
				Void: true, Reason: "falsch", CausedBy: 1, RecordedBy: 1, RecordedAt: at, Hash: hash("b"),
			}},
		}},
		Settlements:   []backup.Settlement{},
		Transfers:     []backup.Transfer{},
		KittyBookings: []backup.KittyBooking{},
		Changes:       []backup.Change{},
	}
}

// fakeStore answers Import's port as told and records what Import did.
type fakeStore struct {
	present   backup.Present
	hashes    backup.Hashes
	breach    *backup.Breach
	fail      error // returned by InsertLedger
	calls     []string
	entries   map[int64][]backup.Entry
	committed bool
}

func (f *fakeStore) ImportTx(ctx context.Context, fn func(backup.ImportTx) error) error {
	f.calls = append(f.calls, "begin")
	err := fn(f)
	f.committed = err == nil
	return err
}

func (f *fakeStore) LockClubs(ctx context.Context) (backup.Present, error) {
	f.calls = append(f.calls, "lock")
	return f.present, nil
}

func (f *fakeStore) InsertLedger(ctx context.Context, d *backup.Document, entries map[int64][]backup.Entry) (backup.Hashes, error) {
	f.calls = append(f.calls, "insert")
	f.entries = entries
	return f.hashes, f.fail
}

func (f *fakeStore) Complete(ctx context.Context, d *backup.Document) error {
	f.calls = append(f.calls, "complete")
	return nil
}

func (f *fakeStore) FirstBreach(ctx context.Context, zeroSumGames []string) (*backup.Breach, error) {
	f.calls = append(f.calls, "verify")
	return f.breach, nil
}

// loads returns a store that computes the document's hashes.
func loads(d *backup.Document) *fakeStore {
	f := &fakeStore{hashes: backup.Hashes{Hands: map[int64]string{}, Revisions: map[int64]string{}}}
	for _, h := range d.Hands {
		f.hashes.Hands[h.ID] = h.Hash
		for _, r := range h.Revisions {
			f.hashes.Revisions[r.ID] = r.Hash
		}
	}
	return f
}

func assertRefused(t *testing.T, f *fakeStore, err error, code, message string) {
	t.Helper()
	if ledger.ErrorCode(err) != code || !strings.Contains(err.Error(), message) {
		t.Errorf("import: %v, want %s saying %q", err, code, message)
	}
	if f.committed {
		t.Error("the refused import was committed")
	}
}

func TestImportLoadsInOrder(t *testing.T) {
	d := document(t)
	f := loads(d)
	if err := backup.Import(context.Background(), f, d); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.calls, " "); got != "begin lock insert complete verify" || !f.committed {
		t.Errorf("import did %q (committed %t)", got, f.committed)
	}
	// Revision 1's points, then revision 2's difference: the void takes
	// every point back.
	var sum score.Points
	revisions := map[int]int{}
	for _, e := range f.entries[1] {
		sum = sum.Add(e.Points)
		revisions[e.Revision]++
	}
	if !sum.IsZero() || revisions[1] != 4 || revisions[2] == 0 {
		t.Errorf("entries %+v, want 4 of revision 1 and revision 2 taking them back", f.entries[1])
	}
}

func TestImportRefusesANonEmptyStore(t *testing.T) {
	d := document(t)
	f := loads(d)
	f.present = backup.Present{Clubs: 2, FirstID: 7, FirstName: `O'Brien's \ Club`}
	err := backup.Import(context.Background(), f, d)
	assertRefused(t, f, err, ledger.ECONFLICT, `the database is not empty: it holds 2 club(s), among them 7 E'O''Brien''s \\ Club'`)
	if strings.Join(f.calls, " ") != "begin lock" {
		t.Errorf("import went on after the refusal: %v", f.calls)
	}
}

func TestImportRefusesAHashThatDiffers(t *testing.T) {
	d := document(t)
	f := loads(d)
	f.hashes.Revisions[1] = strings.Repeat("c", 64)
	err := backup.Import(context.Background(), f, d)
	assertRefused(t, f, err, ledger.EINVALID, "table 1, hand 1, revision 2: the database computes the hash cccc")

	f = loads(d)
	f.hashes.Hands[1] = strings.Repeat("c", 64)
	f.hashes.Revisions[1] = strings.Repeat("d", 64)
	err = backup.Import(context.Background(), f, d)
	assertRefused(t, f, err, ledger.EINVALID, "table 1, hand 1: the database computes the hash cccc")
}

func TestImportRefusesABreach(t *testing.T) {
	d := document(t)
	f := loads(d)
	f.breach = &backup.Breach{Invariant: "every zero-sum hand sums to zero", Detail: "hand 1 sums to 1/1"}
	err := backup.Import(context.Background(), f, d)
	assertRefused(t, f, err, ledger.EINVALID, `the imported ledger breaks "every zero-sum hand sums to zero": hand 1 sums to 1/1`)
}

func TestImportPassesStoreErrors(t *testing.T) {
	d := document(t)
	f := loads(d)
	f.fail = errors.New("connection lost")
	if err := backup.Import(context.Background(), f, d); !errors.Is(err, f.fail) || f.committed {
		t.Errorf("import: %v (committed %t), want the store's error", err, f.committed)
	}
}

func TestImportChecksBeforeTheStore(t *testing.T) {
	d := document(t)
	d.Hands[0].Revisions[0].RecordedBy = 9
	f := loads(d)
	err := backup.Import(context.Background(), f, d)
	var le *ledger.Error
	if !errors.As(err, &le) || le.Field != "hands[0].revisions[0].recorded_by" {
		t.Errorf("import: %v, want the unknown key named", err)
	}

	d = document(t)
	d.Tables[0].State = json.RawMessage(`{"hands": 3}`)
	err = backup.Import(context.Background(), f, d)
	if ledger.ErrorCode(err) != ledger.EINVALID || !strings.Contains(err.Error(), "is not the state after its last hand") {
		t.Errorf("import: %v, want the table's state refused", err)
	}
	if len(f.calls) > 0 {
		t.Errorf("the store was used for a document that does not hang together: %v", f.calls)
	}
}
