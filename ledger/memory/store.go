// Package memory is an in-memory implementation of the ledger's ports, for
// the flow tests: it keeps everything in maps and runs each transaction
// under one lock, recording how to undo every write, so a transaction that
// fails leaves nothing. It holds nothing on disk; the PostgreSQL store stays
// the one that is tested for what a database adds (durability,
// concurrency, the schema's triggers).
package memory

import (
	"context"
	"sync"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Store holds the ledger in memory.
type Store struct {
	mu  sync.Mutex
	d   data
	now func() time.Time
}

// New returns an empty store.
func New() *Store {
	return &Store{d: newData(), now: time.Now}
}

// Ports returns the store as every port of the ledger.
func (s *Store) Ports() ledger.Ports {
	return ledger.Ports{Clubs: s, Players: s, Tables: s, Hands: s, Money: s, Feed: s, Stats: s, Tournaments: s, Health: s, Writer: s}
}

// Service returns the ledger's use-cases on this store.
func (s *Store) Service() *ledger.Service { return ledger.NewService(s.Ports()) }

// Ping always answers.
func (s *Store) Ping(context.Context) error { return nil }

// InTx runs fn under the store's lock; when fn returns an error, every
// write it made is undone.
func (s *Store) InTx(ctx context.Context, clubID int64, fn func(ledger.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	t := &tx{d: &s.d, club: clubID, now: s.now()}
	err := fn(t)
	if err != nil {
		for i := len(t.undo) - 1; i >= 0; i-- {
			t.undo[i]()
		}
	}
	return err
}

// read runs fn on the data under the store's lock.
func read[T any](s *Store, fn func(d *data) (T, error)) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(&s.d)
}

// tx is one transaction: the ledger's Tx port on the data, with the undo
// of every write it made.
type tx struct {
	d    *data
	club int64
	now  time.Time
	undo []func()
}

// put sets m[k] = v in the transaction.
func put[K comparable, V any](t *tx, m map[K]V, k K, v V) {
	old, had := m[k]
	t.undo = append(t.undo, func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
	m[k] = v
}

// del deletes m[k] in the transaction.
func del[K comparable, V any](t *tx, m map[K]V, k K) {
	old, had := m[k]
	if !had {
		return
	}
	t.undo = append(t.undo, func() { m[k] = old })
	delete(m, k)
}

// appendTo appends v to the list m[k] in the transaction. Undoing it
// shortens the list again; what was appended beyond is never read.
func appendTo[K comparable, V any](t *tx, m map[K][]V, k K, v V) {
	old, had := m[k]
	t.undo = append(t.undo, func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
	m[k] = append(old, v)
}

// next is the next id of the one sequence.
func (t *tx) next() int64 {
	t.undo = append(t.undo, func() { t.d.seq-- })
	t.d.seq++
	return t.d.seq
}

var _ ledger.Tx = (*tx)(nil)

// data is the whole ledger. Maps hold values that are never changed in
// place: a write puts a new value, so it can be undone.
type data struct {
	seq         int64 // the one id sequence of everything
	clubs       map[int64]clubRow
	keys        map[int64]keyRow
	players     map[int64]playerRow
	tables      map[int64]tableRow
	sessions    map[int64]sessionRow
	hands       map[int64]handRow
	handNumbers map[tableNumber]int64
	tableTotals map[totalKey]total
	sessTotals  map[totalKey]total
	settlements map[int64]settlementRow
	versions    map[int64][]int64 // settlement ids by session, oldest first
	transfers   map[int64]transferRow
	payments    map[int64]time.Time // paid_at of the standing payment by transfer
	paidBy      map[int64]int64     // the key that marked it, by transfer
	kitty       map[int64]kittyRow
	changes     map[int64][]ledger.Change // by club, in order
	idempotency map[idemKey]ledger.Claimed
	statOpen    map[int64]bool          // sessions read live
	rollups     map[int64]ledger.Rollup // by session
	statMoney   map[int64]ledger.Settlement
	tournaments map[int64]tournamentRow
	joins       map[int64]joinRow
}

func newData() data {
	return data{
		clubs: map[int64]clubRow{}, keys: map[int64]keyRow{}, players: map[int64]playerRow{},
		tables: map[int64]tableRow{}, sessions: map[int64]sessionRow{}, hands: map[int64]handRow{},
		handNumbers: map[tableNumber]int64{}, tableTotals: map[totalKey]total{}, sessTotals: map[totalKey]total{},
		settlements: map[int64]settlementRow{}, versions: map[int64][]int64{}, transfers: map[int64]transferRow{}, payments: map[int64]time.Time{}, paidBy: map[int64]int64{},
		kitty: map[int64]kittyRow{}, changes: map[int64][]ledger.Change{}, idempotency: map[idemKey]ledger.Claimed{},
		statOpen: map[int64]bool{}, rollups: map[int64]ledger.Rollup{},
		statMoney: map[int64]ledger.Settlement{}, tournaments: map[int64]tournamentRow{}, joins: map[int64]joinRow{},
	}
}

type clubRow struct {
	ledger.Club
	changeSeq int64
}

type keyRow struct{ ledger.StoredKey }

type joinRow struct {
	ledger.StoredJoin
	hash  []byte
	keyID int64
}

type playerRow struct {
	club int64
	ledger.Player
}

type tableRow struct {
	club int64
	ledger.Table
}

type sessionRow struct {
	club int64
	ledger.Session
}

// handRow is a hand as recorded and its revisions, the current last.
type handRow struct {
	club      int64
	revisions []ledger.Revision
	ledger.Hand
}

type tableNumber struct {
	table  int64
	number int
}

type totalKey struct{ owner, player int64 }

type total struct {
	points         score.Points
	hands          int // hands with an entry
	played, satOut int
}

type settlementRow struct {
	club int64
	id   int64
	ledger.Settlement
}

type transferRow struct {
	club, settlement int64
	ledger.Transfer
}

type kittyRow struct {
	club int64
	ledger.KittyBooking
}

type idemKey struct {
	club int64
	key  string
}

// notFound is the ENOTFOUND of a thing looked for.
func notFound(format string, args ...any) error {
	return ledger.Errorf(ledger.ENOTFOUND, format+" not found", args...)
}
