package backup_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/internal/backuptest"
	"github.com/stichbuch/stichbuch/ledger/score"
)

var at = time.Date(2026, 11, 19, 20, 0, 0, 0, time.UTC)

// dameFacts is worked example A of games/schwarzedame/README.md, with
// players 1 to 4.
var dameFacts = json.RawMessage(`{"dealer": 1, "players": [
	{"player": 1, "tricks": 4, "hearts": [2, 5, 13]},
	{"player": 2, "tricks": 3, "hearts": [14], "pik_dame": true},
	{"player": 3, "tricks": 5, "hearts": [3, 4, 6, 7, 8, 9, 10]},
	{"player": 4, "tricks": 1, "hearts": [11, 12]}]}`)

func hash(c string) string { return strings.Repeat(c, 64) }

// testKey is the chain key of the fake store's installation.
var testKey, _ = chain.NewKey([]byte("the backup tests' chain key, 32 bytes or more"))

// club returns the records of a club with tables Schwarze Dame tables,
// each with an open session of hands hands, one after the other: what
// passes every check without a settlement. When void is set, the first
// table's first hand is voided by its revision 2.
func club(t *testing.T, tables, hands int, void bool) []backup.Record {
	t.Helper()
	rules, err := ledger.ResolveRules("schwarze_dame", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := []backup.Record{{Club: &backup.Club{ID: 1, Name: "Eichel", TimeZone: "Europe/Berlin", CreatedAt: at}}}
	seating := []int64{1, 2, 3, 4}
	for _, id := range seating {
		recs = append(recs, backup.Record{Player: &backup.Player{ID: id, Name: string(rune('A' + id)), CreatedAt: at}})
	}
	handID := int64(0)
	for tbl := int64(1); tbl <= int64(tables); tbl++ {
		table := &backup.Table{ID: tbl, Name: fmt.Sprintf("Tisch %d", tbl), Game: "schwarze_dame", Preset: "standard",
			Options: json.RawMessage(`{}`), Rules: rules, Stake: score.Int(1), SettleMode: "transfers", Hands: hands, CreatedAt: at}
		session := backup.Session{ID: tbl, TableID: tbl, Date: "2026-11-19", Seating: seating, OpenedAt: at,
			Terms: backup.Terms{Rules: rules, Stake: table.Stake, SettleMode: table.SettleMode}}
		recs = append(recs, backup.Record{Table: table}, backup.Record{Session: &session})
		state := json.RawMessage(`{}`)
		for n := 1; n <= hands; n++ {
			res, err := ledger.ScoreHand(ledger.Table{ID: tbl, Game: "schwarze_dame", Rules: rules, State: state},
				ledger.Session{ID: tbl, TableID: tbl, Date: session.Date, Seating: seating, Terms: ledger.Terms{Rules: rules}}, dameFacts)
			if err != nil {
				t.Fatal(err)
			}
			result, _ := json.Marshal(res)
			if handID == 0 {
				// A key comes right before the first record that names it.
				recs = append(recs, backup.Record{Key: &backup.Key{ID: 1, Label: "Tablet", CreatedAt: at}})
			}
			handID++
			recs = append(recs, backup.Record{Hand: &backup.Hand{ID: handID, TableID: tbl, SessionID: tbl, Number: n,
				Facts: dameFacts, Result: result, StateAfter: res.State, RecordedBy: 1, RecordedAt: at, Hash: hash("a")}})
			if void && tbl == 1 && n == 1 {
				voided, _ := json.Marshal(ledger.VoidResult(res, state))
				recs = append(recs, backup.Record{Revision: &backup.Revision{ID: 1, HandID: handID, Revision: 2, Facts: dameFacts,
					Result: voided, StateAfter: state, Void: true, Reason: "falsch", CausedBy: 1, RecordedBy: 1, RecordedAt: at, Hash: hash("b")}})
				continue
			}
			state = res.State
		}
		table.State = state
	}
	backuptest.Seal(t, recs, testKey)
	return recs
}

func encode(t *testing.T, recs []backup.Record) []byte {
	t.Helper()
	var b bytes.Buffer
	w := backup.NewWriter(&b)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fakeStore answers Import's port as told and records what Import did.
type fakeStore struct {
	present   backup.Present
	breach    *backup.Breach
	fail      error // returned by Write
	calls     []string
	entries   map[int64][]backup.Entry
	hands     int
	links     []backup.Link
	maxRows   int
	read      *countingReader
	readAt    []int64 // how much of the document was read at each Write
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

func (f *fakeStore) ChainKey() chain.Key { return testKey }

func (f *fakeStore) Write(ctx context.Context, b *backup.Batch) error {
	if len(f.calls) == 0 || f.calls[len(f.calls)-1] != "write" {
		f.calls = append(f.calls, "write")
	}
	if f.read != nil {
		f.readAt = append(f.readAt, f.read.n)
	}
	if f.entries == nil {
		f.entries = map[int64][]backup.Entry{}
	}
	rows := len(b.Players) + len(b.Tables) + len(b.Sessions) + len(b.Keys)
	for _, hand := range b.Hands {
		f.entries[hand.ID] = hand.Entries
		f.hands++
		f.links = append(f.links, hand.Link)
		f.links = append(f.links, hand.RevisionLinks...)
		rows += 1 + len(hand.Revisions) + len(hand.Entries)
	}
	f.maxRows = max(f.maxRows, rows)
	return f.fail
}

func (f *fakeStore) Complete(ctx context.Context, clubID int64) error {
	f.calls = append(f.calls, "complete")
	return nil
}

// Stats is a club without statistics to rebuild: the fake keeps no
// sessions.
func (f *fakeStore) Stats(int64) ledger.StatsTx { return noStats{} }

// noStats is the statistics of a store that keeps no sessions.
type noStats struct{}

func (noStats) StatSession(context.Context, int64) (ledger.StatSession, error) {
	return ledger.StatSession{}, ledger.Errorf(ledger.ENOTFOUND, "no sessions")
}
func (noStats) StoreRollup(context.Context, ledger.SessionRollup) error { return nil }
func (noStats) MarkLive(context.Context, int64) error                   { return nil }
func (noStats) ClearStats(context.Context) error                        { return nil }
func (noStats) StatSessions(context.Context, int64, int) ([]int64, error) {
	return nil, nil
}

func (f *fakeStore) AddKey(ctx context.Context, clubID int64, k ledger.NewKey) (int64, error) {
	f.calls = append(f.calls, "key")
	if k.Role != ledger.RoleAdmin || k.Label != backup.AdminKeyLabel {
		return 0, fmt.Errorf("the new key is %+v", k)
	}
	return 2, nil
}

func (f *fakeStore) FirstBreach(ctx context.Context, zeroSumGames []string) (*backup.Breach, error) {
	f.calls = append(f.calls, "verify")
	return f.breach, nil
}

func importDoc(f *fakeStore, doc []byte) (backup.Imported, error) {
	return backup.Import(context.Background(), f, bytes.NewReader(doc))
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
	f := &fakeStore{}
	in, err := importDoc(f, encode(t, club(t, 1, 2, true)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.calls, " "); got != "begin lock write complete key verify" || !f.committed {
		t.Errorf("import did %q (committed %t)", got, f.committed)
	}
	if !strings.HasPrefix(in.AdminKey, "sb_1_2_") || in.Hands != 2 || in.Revisions != 1 || in.Club.Name != "Eichel" {
		t.Errorf("imported %+v", in)
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
	f := &fakeStore{present: backup.Present{Clubs: 2, FirstID: 7, FirstName: `O'Brien's \ Club`}}
	_, err := importDoc(f, encode(t, club(t, 1, 1, false)))
	assertRefused(t, f, err, ledger.ECONFLICT, `the database is not empty: it holds 2 club(s), among them 7 E'O''Brien''s \\ Club'`)
	if strings.Join(f.calls, " ") != "begin lock" {
		t.Errorf("import went on after the refusal: %v", f.calls)
	}
}

// TestImportRefusesAHashThatDiffers checks that a hash that is not the
// installation's MAC of its hand is refused, naming the hand and never the
// hash that would verify: a forger could paste it in.
func TestImportRefusesAHashThatDiffers(t *testing.T) {
	recs := club(t, 1, 2, false)
	var genuine string
	for _, r := range recs {
		if r.Hand != nil && r.Hand.Number == 2 {
			genuine, r.Hand.Hash = r.Hand.Hash, hash("c")
		}
	}
	f := &fakeStore{}
	_, err := importDoc(f, encode(t, recs))
	assertRefused(t, f, err, ledger.EINVALID, "table 1, hand 2: its hash does not verify with this installation's chain key")
	if err != nil && strings.Contains(err.Error(), genuine) {
		t.Errorf("the refusal %q prints the hash that verifies", err)
	}
}

// TestImportRefusesAForeignChainUnlessTold: hashes of another key, or of
// none, are refused, explaining --foreign; with it, every hand and
// revision is chained anew with the installation's key, and counted.
func TestImportRefusesAForeignChainUnlessTold(t *testing.T) {
	other, _ := chain.NewKey([]byte("another installation's chain key!!"))
	for name, change := range map[string]func(recs []backup.Record){
		"another key": func(recs []backup.Record) { backuptest.Seal(t, recs, other) },
		"no key": func(recs []backup.Record) {
			for _, r := range recs {
				if r.Hand != nil {
					r.Hand.ChainKey = ""
				}
				if r.Revision != nil {
					r.Revision.ChainKey = ""
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			recs := club(t, 2, 3, true)
			change(recs)
			doc := encode(t, recs)
			f := &fakeStore{}
			_, err := importDoc(f, doc)
			assertRefused(t, f, err, ledger.EINVALID, "table 1, hand 1: its hash ")
			if err != nil && !strings.Contains(err.Error(), "--foreign") {
				t.Errorf("the refusal %q does not name --foreign", err)
			}
			f = &fakeStore{}
			in, err := backup.ImportWith(context.Background(), f, bytes.NewReader(doc), backup.ImportOptions{Foreign: true})
			if err != nil {
				t.Fatalf("--foreign: %v", err)
			}
			if in.Rekeyed != 7 {
				t.Errorf("%d hands and revisions chained anew, want 7", in.Rekeyed)
			}
			// The links are the ones the installation itself would write.
			backuptest.Seal(t, recs, testKey)
			var want []string
			for _, r := range recs {
				if r.Hand != nil {
					want = append(want, r.Hand.Hash)
				}
				if r.Revision != nil {
					want = append(want, r.Revision.Hash)
				}
			}
			var got []string
			for _, l := range f.links {
				got = append(got, hex.EncodeToString(l.Hash))
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("the stored hashes are not this installation's chain")
			}
		})
	}
}

func TestImportRefusesABreach(t *testing.T) {
	f := &fakeStore{breach: &backup.Breach{Invariant: "every zero-sum hand sums to zero", Detail: "hand 1 sums to 1/1"}}
	_, err := importDoc(f, encode(t, club(t, 1, 1, false)))
	assertRefused(t, f, err, ledger.EINVALID, `the imported ledger breaks "every zero-sum hand sums to zero": hand 1 sums to 1/1`)
}

func TestImportPassesStoreErrors(t *testing.T) {
	f := &fakeStore{fail: errors.New("connection lost")}
	if _, err := importDoc(f, encode(t, club(t, 1, 1, false))); !errors.Is(err, f.fail) || f.committed {
		t.Errorf("import: %v (committed %t), want the store's error", err, f.committed)
	}
}

func TestImportNamesTheLine(t *testing.T) {
	recs := club(t, 1, 2, true)
	for _, r := range recs {
		if r.Revision != nil {
			r.Revision.RecordedBy = 9
		}
	}
	f := &fakeStore{}
	_, err := importDoc(f, encode(t, recs))
	var le *ledger.Error
	if !errors.As(err, &le) || le.Field != "line 11: revision.recorded_by" {
		t.Errorf("import: %v, want the unknown key named with its line", err)
	}

	recs = club(t, 1, 2, false)
	recs[5].Table.State = json.RawMessage(`{"hands": 3}`)
	_, err = importDoc(f, encode(t, recs))
	if ledger.ErrorCode(err) != ledger.EINVALID || !strings.Contains(err.Error(), "is not the state after its last hand") {
		t.Errorf("import: %v, want the table's state refused", err)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestImportStreams checks that an import works through a reader without
// loading the document whole: the store gets its first rows while most of
// the document is still unread, and never more than a batch at a time.
func TestImportStreams(t *testing.T) {
	doc := encode(t, club(t, 60, 40, false))
	f := &fakeStore{}
	f.read = &countingReader{r: bytes.NewReader(doc)}
	if _, err := backup.Import(context.Background(), f, f.read); err != nil {
		t.Fatal(err)
	}
	if f.hands != 60*40 || len(f.readAt) < 10 {
		t.Fatalf("the store got %d hands in %d batches", f.hands, len(f.readAt))
	}
	if f.readAt[0] > int64(len(doc))/4 {
		t.Errorf("the first batch was written after %d of %d bytes were read", f.readAt[0], len(doc))
	}
	if f.maxRows > 1200 {
		t.Errorf("a batch held %d rows", f.maxRows)
	}
}

// fakeExport answers Export's port from records, and records how much
// output was written when each hand was read.
type fakeExport struct {
	recs      []backup.Record
	out       *countingWriter
	writtenAt []int64
}

type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func (f *fakeExport) ExportTx(ctx context.Context, clubID int64, fn func(backup.ExportTx) error) error {
	return fn(f)
}

func (f *fakeExport) Club(context.Context) (backup.Club, error) { return *f.recs[0].Club, nil }

func (f *fakeExport) Keys(context.Context) ([]backup.Key, error) {
	keys := []backup.Key{{ID: 7, Label: "never used", CreatedAt: at}}
	for _, r := range f.recs {
		if r.Key != nil {
			keys = append(keys, *r.Key)
		}
	}
	return keys, nil
}

// list is a cursor over the records pick returns a value of.
type list[T any] struct {
	recs []backup.Record
	pick func(backup.Record) *T
	seen func()
}

func (l *list[T]) Next(context.Context) (T, bool, error) {
	for len(l.recs) > 0 {
		r := l.recs[0]
		l.recs = l.recs[1:]
		if v := l.pick(r); v != nil {
			if l.seen != nil {
				l.seen()
			}
			return *v, true, nil
		}
	}
	var zero T
	return zero, false, nil
}

func cursor[T any](f *fakeExport, pick func(backup.Record) *T) (backup.Cursor[T], error) {
	return &list[T]{recs: f.recs, pick: pick}, nil
}

func (f *fakeExport) Players(context.Context) (backup.Cursor[backup.Player], error) {
	return cursor(f, func(r backup.Record) *backup.Player { return r.Player })
}
func (f *fakeExport) Tables(context.Context) (backup.Cursor[backup.Table], error) {
	return cursor(f, func(r backup.Record) *backup.Table { return r.Table })
}
func (f *fakeExport) Sessions(context.Context) (backup.Cursor[backup.Session], error) {
	return cursor(f, func(r backup.Record) *backup.Session { return r.Session })
}
func (f *fakeExport) Hands(context.Context) (backup.Cursor[backup.Hand], error) {
	return &list[backup.Hand]{recs: f.recs, pick: func(r backup.Record) *backup.Hand { return r.Hand },
		seen: func() { f.writtenAt = append(f.writtenAt, f.out.n) }}, nil
}
func (f *fakeExport) Revisions(context.Context) (backup.Cursor[backup.Revision], error) {
	return cursor(f, func(r backup.Record) *backup.Revision { return r.Revision })
}
func (f *fakeExport) Settlements(context.Context) (backup.Cursor[backup.Settlement], error) {
	return cursor(f, func(r backup.Record) *backup.Settlement { return r.Settlement })
}
func (f *fakeExport) Transfers(context.Context) (backup.Cursor[backup.Transfer], error) {
	return cursor(f, func(r backup.Record) *backup.Transfer { return r.Transfer })
}
func (f *fakeExport) Tournaments(context.Context) (backup.Cursor[backup.Tournament], error) {
	return cursor(f, func(r backup.Record) *backup.Tournament { return r.Tournament })
}
func (f *fakeExport) TournamentRounds(context.Context) (backup.Cursor[backup.TournamentRound], error) {
	return cursor(f, func(r backup.Record) *backup.TournamentRound { return r.Round })
}
func (f *fakeExport) KittyBookings(context.Context) (backup.Cursor[backup.KittyBooking], error) {
	return cursor(f, func(r backup.Record) *backup.KittyBooking { return r.KittyBooking })
}
func (f *fakeExport) SeasonRules(context.Context) (backup.Cursor[backup.SeasonRules], error) {
	return cursor(f, func(r backup.Record) *backup.SeasonRules { return r.SeasonRules })
}
func (f *fakeExport) OldListImports(context.Context) (backup.Cursor[backup.OldListImport], error) {
	return cursor(f, func(r backup.Record) *backup.OldListImport { return r.OldListImport })
}
func (f *fakeExport) ImportedEvenings(context.Context) (backup.Cursor[backup.ImportedEvening], error) {
	return cursor(f, func(r backup.Record) *backup.ImportedEvening { return r.ImportedEvening })
}
func (f *fakeExport) Changes(context.Context) (backup.Cursor[backup.Change], error) {
	return cursor(f, func(r backup.Record) *backup.Change { return r.Change })
}

// TestExportStreams checks that an export writes each record as it reads
// it: by the time the last hand is read, nearly the whole document has
// gone out. It also writes the records in the document's order and names
// only the keys some record names.
func TestExportStreams(t *testing.T) {
	recs := club(t, 60, 40, true)
	f := &fakeExport{recs: recs, out: &countingWriter{}}
	var doc bytes.Buffer
	sum, err := backup.Export(context.Background(), f, 1, io.MultiWriter(f.out, &doc))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Hands != 60*40 || len(f.writtenAt) != sum.Hands {
		t.Fatalf("exported %+v, read %d hands", sum, len(f.writtenAt))
	}
	if last := f.writtenAt[len(f.writtenAt)-1]; last < f.out.n*9/10 {
		t.Errorf("when the last hand was read, %d of the document's %d bytes were written", last, f.out.n)
	}
	if want := encode(t, recs); !bytes.Equal(doc.Bytes(), want) {
		t.Errorf("the export differs from the records it read:\n%.300s\nwant\n%.300s", doc.String(), want)
	}
}

func TestReaderRefusals(t *testing.T) {
	doc := encode(t, club(t, 1, 1, false))
	for _, c := range []struct {
		name, doc, want string
	}{
		{"two records on a line", strings.Replace(string(doc), `{"api_key":{`, `{"player":{"id":9,"name":"X","created_at":"2026-11-19T20:00:00Z"},"api_key":{`, 1),
			"a line holds one record, this one holds 2"},
		{"an unknown kind", strings.Replace(string(doc), `{"api_key":{`, `{"apikey":{`, 1), "apikey: is not a known field"},
		{"something after the end", string(doc) + `{"change":{}}` + "\n", "nothing may follow the end line"},
		{"a second format line", strings.Replace(string(doc), `{"api_key":{`, `{"format":"x"}`+"\n"+`{"api_key":{`, 1), "format: is given twice"},
		{"no lines", "", "document: is empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeStore{}
			_, err := importDoc(f, []byte(c.doc))
			assertRefused(t, f, err, ledger.EINVALID, c.want)
		})
	}
}
