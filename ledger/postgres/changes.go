package postgres

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
)

// changeSQL appends a change to the club's feed in the writer's
// transaction (record_change, migrations/00014_change_queue.sql): numbered
// at once when nothing of the club is queued and its numbering lock is
// free, else queued, answering 0; a queued change is numbered by
// numberChanges after the writer's commit. So no writer waits for another
// table's commit, and the feed stays gap-free in the order changes become
// visible. The NOTIFY goes out when a change is numbered,
// to every instance of the service.
const changeSQL = `SELECT record_change($1, $2, $3, $4, $5, $6)`

func changeArgs(clubID int64, c ledger.NewChange) []any {
	data := []byte(`{}`)
	if c.Data != nil {
		data, _ = json.Marshal(c.Data)
	}
	return []any{clubID, string(c.Kind), c.TableID, c.SessionID, c.Number, data}
}

// RecordChange appends a change to the feed in the transaction; if it was
// queued, InTx numbers it after the commit.
func (t *tx) RecordChange(ctx context.Context, c ledger.NewChange) error {
	var seq int64
	if err := t.QueryRow(ctx, changeSQL, changeArgs(t.club, c)...).Scan(&seq); err != nil {
		return err
	}
	t.queued = t.queued || seq == 0
	return nil
}

// queueChange adds RecordChange's statement to a batch; *queued turns true
// if the change was queued, to be numbered after the commit.
func queueChange(b *pgx.Batch, clubID int64, c ledger.NewChange, queued *bool) {
	b.Queue(changeSQL, changeArgs(clubID, c)...).QueryRow(func(row pgx.Row) error {
		var seq int64
		err := row.Scan(&seq)
		*queued = *queued || (err == nil && seq == 0)
		return err
	})
}

// numberChanges returns once the club's changes queued before the call
// are numbered: the store's numberer (one per club at a time) numbers
// every change committed by then in one transaction, for every writer
// that waits, so writers of a club share one numbering.
func (s *Store) numberChanges(ctx context.Context, clubID int64) error {
	return s.numbering.wait(ctx, clubID)
}

// numberer numbers queued changes for the writers that wait for it, per
// club one transaction at a time, each for all writers waiting when it
// starts (their changes are committed before they wait, so the
// transaction sees them).
type numberer struct {
	pool  *pgxpool.Pool
	mu    sync.Mutex
	clubs map[int64][]chan error // the writers waiting, per club being numbered
}

func newNumberer(pool *pgxpool.Pool) *numberer {
	return &numberer{pool: pool, clubs: map[int64][]chan error{}}
}

// wait waits until the club's queued changes are numbered, or ctx ends.
func (n *numberer) wait(ctx context.Context, clubID int64) error {
	done := make(chan error, 1)
	n.mu.Lock()
	waiting, running := n.clubs[clubID]
	n.clubs[clubID] = append(waiting, done)
	n.mu.Unlock()
	if !running {
		go n.run(clubID)
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// run numbers the club's queue for the writers waiting, again while more
// arrive, and ends when none are left.
func (n *numberer) run(clubID int64) {
	for {
		n.mu.Lock()
		batch := n.clubs[clubID]
		if len(batch) == 0 {
			delete(n.clubs, clubID)
			n.mu.Unlock()
			return
		}
		n.clubs[clubID] = batch[:0:0]
		n.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := n.pool.Exec(ctx, `SELECT number_changes($1)`, clubID)
		cancel()
		for _, done := range batch {
			done <- mapError(err)
		}
	}
}

// NumberQueuedChanges numbers every club's queued changes: those a writer
// committed but could not number itself (its connection or the service
// ended in between). serve runs it at start and then every few seconds.
func (s *Store) NumberQueuedChanges(ctx context.Context) error {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT club_id FROM change_queue`)
	if err != nil {
		return mapError(err)
	}
	clubs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return mapError(err)
	}
	for _, club := range clubs {
		if err := s.numberChanges(ctx, club); err != nil {
			return err
		}
	}
	return nil
}

// Changes returns a club's changes after seq, in order; tableID > 0 keeps
// only that table's.
func (s *Store) Changes(ctx context.Context, clubID, after int64, limit int, tableID int64) ([]ledger.Change, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT seq, kind, table_id, session_id, number, data, created_at
		FROM changes
		WHERE club_id = $1 AND seq > $2 AND ($3 = 0 OR table_id = $3)
		ORDER BY seq LIMIT $4`, clubID, after, tableID, limit)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Change, error) {
		var c ledger.Change
		var kind string
		err := r.Scan(&c.Seq, &kind, &c.TableID, &c.SessionID, &c.Number, &c.Data, &c.CreatedAt)
		c.Kind = ledger.ChangeKind(kind)
		return c, err
	})
	return list, mapError(err)
}

// ChangeHead returns the number of the club's latest change.
func (s *Store) ChangeHead(ctx context.Context, clubID int64) (int64, error) {
	var seq int64
	err := s.pool.QueryRow(ctx, `SELECT change_seq FROM clubs WHERE club_id = $1`, clubID).Scan(&seq)
	return seq, notFound(err, "club %d", clubID)
}

// KeepNumbering runs NumberQueuedChanges now and then every interval until
// ctx ends, logging what fails: the safety net for a writer that committed
// a queued change and could not number it.
func (s *Store) KeepNumbering(ctx context.Context, every time.Duration, log *slog.Logger) {
	for {
		if err := s.NumberQueuedChanges(ctx); err != nil && ctx.Err() == nil {
			log.Warn("numbering queued changes", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
