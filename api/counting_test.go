package api_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// reads counts the store reads the event streams make, through wrappers
// of the ports; findKey counts the key lookups of authentication.
type reads struct {
	changes, hands, tables, standings, findKey atomic.Int64
}

// eventData is the reads of what a change's events carry: the hands, the
// tables (for their state) and the standings; pages are the reads of the
// feed.
func (r *reads) eventData() int64 { return r.hands.Load() + r.tables.Load() + r.standings.Load() }
func (r *reads) pages() int64     { return r.changes.Load() }

func (r *reads) reset() {
	r.changes.Store(0)
	r.hands.Store(0)
	r.tables.Store(0)
	r.standings.Store(0)
}

type countingFeed struct {
	ledger.FeedStore
	n *reads
}

func (f countingFeed) Changes(ctx context.Context, clubID, after int64, limit int, tableID int64) ([]ledger.Change, error) {
	f.n.changes.Add(1)
	return f.FeedStore.Changes(ctx, clubID, after, limit, tableID)
}

type countingHands struct {
	ledger.HandStore
	n *reads
}

func (h countingHands) FindHand(ctx context.Context, clubID, tableID int64, number int) (ledger.Hand, error) {
	h.n.hands.Add(1)
	return h.HandStore.FindHand(ctx, clubID, tableID, number)
}

func (h countingHands) ListHands(ctx context.Context, clubID, tableID int64, f ledger.HandFilter) ([]ledger.Hand, error) {
	h.n.hands.Add(1)
	return h.HandStore.ListHands(ctx, clubID, tableID, f)
}

type countingTables struct {
	ledger.TableStore
	n *reads
}

func (t countingTables) FindTable(ctx context.Context, clubID, id int64) (ledger.Table, error) {
	t.n.tables.Add(1)
	return t.TableStore.FindTable(ctx, clubID, id)
}

func (t countingTables) TableStandings(ctx context.Context, clubID, tableID int64) ([]ledger.Standing, error) {
	t.n.standings.Add(1)
	return t.TableStore.TableStandings(ctx, clubID, tableID)
}

type countingClubs struct {
	ledger.ClubStore
	n *reads
}

func (c countingClubs) FindKey(ctx context.Context, clubID, keyID int64) (ledger.StoredKey, error) {
	c.n.findKey.Add(1)
	return c.ClubStore.FindKey(ctx, clubID, keyID)
}

// newCountingEnv is newEnv whose server runs on ports that count their
// reads, with change notifications (LISTEN/NOTIFY), tuned by cfg; it is
// also served over HTTP for the streams.
func newCountingEnv(t *testing.T, cfg api.Config) (*env, *httptest.Server, *reads) {
	t.Helper()
	e := newEnv(t)
	n := &reads{}
	p := postgres.New(e.pool, pgtest.ChainKey).Ports()
	p.Feed, p.Hands = countingFeed{p.Feed, n}, countingHands{p.Hands, n}
	p.Tables, p.Clubs = countingTables{p.Tables, n}, countingClubs{p.Clubs, n}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	log := slog.New(slog.DiscardHandler)
	cfg.Notifier = postgres.Listen(ctx, e.pool, log)
	srv, err := api.New(ledger.NewService(p), log, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.server = srv
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return e, hs, n
}
