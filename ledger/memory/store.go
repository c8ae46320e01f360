// Package memory is an in-memory implementation of the ledger's ports, for
// the flow tests: it keeps everything in maps, runs each transaction under
// one lock on a copy of the data, and commits by swapping the copy in. It
// holds nothing on disk and promises no speed; the PostgreSQL store stays
// the one that is tested for what a database adds (durability,
// concurrency, the schema's triggers).
package memory

import (
	"context"
	"maps"
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
	return ledger.Ports{Clubs: s, Players: s, Tables: s, Hands: s, Money: s, Feed: s, Stats: s, Health: s, Writer: s}
}

// Service returns the ledger's use-cases on this store.
func (s *Store) Service() *ledger.Service { return ledger.NewService(s.Ports()) }

// Ping always answers.
func (s *Store) Ping(context.Context) error { return nil }

// InTx runs fn on a copy of the data under the store's lock and keeps the
// copy when fn returns nil: a transaction that fails leaves nothing.
func (s *Store) InTx(ctx context.Context, clubID int64, fn func(ledger.Tx) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	work := s.d.clone()
	if err := fn(&tx{d: &work, club: clubID, now: s.now()}); err != nil {
		return err
	}
	s.d = work
	return nil
}

// read runs fn on the data under the store's lock.
func read[T any](s *Store, fn func(d *data) (T, error)) (T, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn(&s.d)
}

// tx is one transaction: the ledger's Tx port on a copy of the data.
type tx struct {
	d    *data
	club int64
	now  time.Time
}

var _ ledger.Tx = (*tx)(nil)

// data is the whole ledger. Maps hold values that are never changed in
// place (a change stores a new value), so a shallow copy of every map is a
// snapshot.
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
	transfers   map[int64]transferRow
	payments    map[int64]time.Time // paid_at by transfer
	kitty       map[int64]kittyRow
	changes     map[int64][]ledger.Change // by club, in order
	idempotency map[idemKey]ledger.Claimed
	statRows    map[int64][]ledger.StatRow // by hand
	statOpen    map[int64]bool             // sessions read live
	rollups     map[int64]ledger.Rollup    // by session
	statMoney   map[int64]ledger.Settlement
}

func newData() data {
	return data{
		clubs: map[int64]clubRow{}, keys: map[int64]keyRow{}, players: map[int64]playerRow{},
		tables: map[int64]tableRow{}, sessions: map[int64]sessionRow{}, hands: map[int64]handRow{},
		handNumbers: map[tableNumber]int64{}, tableTotals: map[totalKey]total{}, sessTotals: map[totalKey]total{},
		settlements: map[int64]settlementRow{}, transfers: map[int64]transferRow{}, payments: map[int64]time.Time{},
		kitty: map[int64]kittyRow{}, changes: map[int64][]ledger.Change{}, idempotency: map[idemKey]ledger.Claimed{},
		statRows: map[int64][]ledger.StatRow{}, statOpen: map[int64]bool{}, rollups: map[int64]ledger.Rollup{},
		statMoney: map[int64]ledger.Settlement{},
	}
}

func (d data) clone() data {
	c := d
	c.clubs, c.keys, c.players = maps.Clone(d.clubs), maps.Clone(d.keys), maps.Clone(d.players)
	c.tables, c.sessions, c.hands = maps.Clone(d.tables), maps.Clone(d.sessions), maps.Clone(d.hands)
	c.handNumbers, c.tableTotals, c.sessTotals = maps.Clone(d.handNumbers), maps.Clone(d.tableTotals), maps.Clone(d.sessTotals)
	c.settlements, c.transfers, c.payments = maps.Clone(d.settlements), maps.Clone(d.transfers), maps.Clone(d.payments)
	c.kitty, c.changes, c.idempotency = maps.Clone(d.kitty), maps.Clone(d.changes), maps.Clone(d.idempotency)
	c.statRows, c.statOpen, c.rollups, c.statMoney = maps.Clone(d.statRows), maps.Clone(d.statOpen), maps.Clone(d.rollups), maps.Clone(d.statMoney)
	return c
}

func (d *data) next() int64 {
	d.seq++
	return d.seq
}

type clubRow struct {
	ledger.Club
	changeSeq int64
}

type keyRow struct{ ledger.StoredKey }

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
	points score.Points
	hands  int
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
