package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
)

// handCommits writes the hands of every table and club this process
// serves in group commits: a hand that arrives while fewer than
// MaxInFlight commits are being written starts one at once (one table
// alone waits for nothing), and the hands that arrive while they are all
// busy are written together in the next transaction, each in its own
// savepoint, and answered once that transaction's commit is durable. A
// hand the database refuses (a lost compare-and-set, a constraint) rolls
// back (to its savepoint) and gets its own answer; the others commit. A
// failed commit answers every hand of the batch with its error, and
// stores none of them.
//
// A batch's hands are written in the order of their club and table, and
// of their arrival within a table, so two batches (of this or another
// instance) take tables' row locks in one order and never deadlock on
// them, and hands of one table keep their order and chain.
type handCommits struct {
	pool *pgxpool.Pool
	// MaxInFlight is how many batches are written at once; MaxHands and
	// MaxBytes bound a batch.
	MaxInFlight, MaxHands, MaxBytes int
	// beforeCommit, when set (by tests), runs after a batch's statements
	// have answered and before its COMMIT is sent on its own.
	beforeCommit func(ctx context.Context, conn *pgx.Conn)

	// commits and hands count the transactions written and the hands
	// they held (refused ones too).
	commits, hands atomic.Int64

	mu       sync.Mutex
	queue    []*handWrite
	inFlight int
}

// The batch's bounds. A batch of more than 64 hands would overflow the
// 64 subtransactions PostgreSQL caches per backend
// (PGPROC_MAX_CACHED_SUBXIDS), after which every snapshot of every
// session looks them up in pg_subtrans.
const (
	maxBatchHands = 64
	maxBatchBytes = 1 << 20
	// batchInFlight: one batch written while the next gathers hands; a
	// second lets PostgreSQL work on one while the service reads the
	// other's answers.
	batchInFlight = 1
	// batchTimeout bounds a batch's round trips: a database that answers
	// nothing within it fails the batch's hands, which their keys make
	// safe to send again.
	batchTimeout = 10 * time.Second
)

func newHandCommits(pool *pgxpool.Pool) *handCommits {
	return &handCommits{pool: pool, MaxInFlight: batchInFlight, MaxHands: maxBatchHands, MaxBytes: maxBatchBytes}
}

// handWrite is one hand on its way to the database: what it stores, and,
// once done is closed, what became of it.
type handWrite struct {
	club int64
	rec  ledger.HandRecord
	hand ledger.Hand
	body []byte
	link chainLink
	done chan struct{}

	// What the batch answered: the stored hand's id and session number in
	// hand, whether its change waits to be numbered, or its error.
	queued bool
	err    error
}

func (w *handWrite) size() int { return len(w.body) + len(w.rec.Facts) + 512 }

// write queues w and waits until a committed batch holds it or refused it
// (w.err). When ctx ends first, a hand no batch has taken yet is
// withdrawn; one being written may still be stored, which its key makes
// safe to send again.
func (c *handCommits) write(ctx context.Context, w *handWrite) error {
	c.mu.Lock()
	c.queue = append(c.queue, w)
	if c.inFlight < c.MaxInFlight {
		c.inFlight++
		go c.run()
	}
	c.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.queue, w); i >= 0 {
		c.queue = slices.Delete(c.queue, i, i+1)
	}
	return ctx.Err()
}

// run writes batches while hands wait, and ends when none do.
func (c *handCommits) run() {
	for {
		batch := c.take()
		if batch == nil {
			return
		}
		c.commitSafely(batch)
		for _, w := range batch {
			close(w.done)
		}
	}
}

// commitSafely commits a batch; a panic while writing it (a bug) fails
// the batch's hands with an error of no code of its own (internal)
// instead of taking the service down, as a panic in a request's own
// goroutine would not. What the transaction held is rolled back with
// its connection.
func (c *handCommits) commitSafely(batch []*handWrite) {
	defer func() {
		if p := recover(); p != nil {
			failAll(batch, fmt.Errorf("writing a batch of %d hands: panic: %v", len(batch), p))
		}
	}()
	c.commit(batch)
}

// take removes the next batch from the queue, bounded by MaxHands and
// MaxBytes (and at least one hand); nil when nothing waits, and then this
// runner is no longer in flight.
func (c *handCommits) take() []*handWrite {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.queue) == 0 {
		c.inFlight--
		return nil
	}
	n, bytes := 0, 0
	for n < len(c.queue) && n < c.MaxHands && (n == 0 || bytes+c.queue[n].size() <= c.MaxBytes) {
		bytes += c.queue[n].size()
		n++
	}
	batch := slices.Clone(c.queue[:n])
	c.queue = slices.Delete(c.queue, 0, n)
	return batch
}

// commit writes a batch in one transaction and sets each hand's outcome.
func (c *handCommits) commit(batch []*handWrite) {
	c.commits.Add(1)
	c.hands.Add(int64(len(batch)))
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	if len(batch) == 1 && c.beforeCommit == nil {
		c.commitOne(ctx, batch[0])
		return
	}
	slices.SortStableFunc(batch, func(a, b *handWrite) int {
		return cmp.Or(cmp.Compare(a.club, b.club), cmp.Compare(a.rec.Table.ID, b.rec.Table.ID))
	})
	conn, err := c.pool.Acquire(ctx)
	if err != nil {
		failAll(batch, mapError(err))
		return
	}
	defer conn.Release() // a connection left in a transaction is closed, not reused
	if err := c.statements(ctx, conn.Conn(), batch); err != nil {
		failAll(batch, err)
		return
	}
	if c.beforeCommit == nil {
		return // the statements' pipeline ended with the COMMIT
	}
	c.beforeCommit(ctx, conn.Conn())
	if _, err := conn.Exec(ctx, "COMMIT"); err != nil {
		failAll(batch, mapError(err))
	}
}

// commitOne writes a hand that has the database to itself as one
// pipeline in one implicit transaction: one round trip, as before any
// batching.
func (c *handCommits) commitOne(ctx context.Context, w *handWrite) {
	b := &pgx.Batch{}
	w.queue(b)
	err := send(ctx, c.pool, b)
	if isStale(err) {
		w.err = ledger.ErrStale
		return
	}
	if err != nil {
		w.err = where(mapError(err), "appending hand %d of table %d", w.hand.Number, w.hand.TableID)
	}
}

// statements sends the batch's hands in as few round trips as their
// refusals allow. First all of them, between BEGIN and COMMIT (unless a
// test holds the COMMIT back), in one pipeline without savepoints, which
// cost PostgreSQL a subtransaction per hand. A hand's failed statement
// makes PostgreSQL skip the rest of the pipeline: that hand is answered
// with its error, the transaction is rolled back, and the others are sent
// again, each between SAVEPOINT and RELEASE; a refusal among them rolls
// back to its savepoint only (a round trip of its own), and the hands
// after it are sent again in the next pipeline. The error returned is one
// every hand of the batch gets: the transaction's, or the connection's.
func (c *handCommits) statements(ctx context.Context, conn *pgx.Conn, batch []*handWrite) error {
	i, err := c.pipeline(ctx, conn, batch, false)
	if err == nil || i < 0 {
		return err
	}
	if err := conn.PgConn().Exec(ctx, "ROLLBACK; BEGIN").Close(); err != nil {
		return mapError(err)
	}
	rest := slices.Delete(slices.Clone(batch), i, i+1)
	for {
		if len(rest) == 0 {
			return c.commitEmpty(ctx, conn)
		}
		i, err := c.pipeline(ctx, conn, rest, true)
		if err == nil || i < 0 {
			return err
		}
		rest = rest[i+1:]
		// On its own, in the simple protocol: an aborted transaction
		// prepares no statement, which the next pipeline may need.
		if err := conn.PgConn().Exec(ctx, "ROLLBACK TO SAVEPOINT hand; RELEASE SAVEPOINT hand").Close(); err != nil {
			return mapError(err)
		}
	}
}

// commitEmpty ends a transaction whose every hand was refused, as a
// pipeline would have.
func (c *handCommits) commitEmpty(ctx context.Context, conn *pgx.Conn) error {
	if c.beforeCommit != nil {
		return nil
	}
	return mapError(conn.PgConn().Exec(ctx, "COMMIT").Close())
}

// pipeline sends hands' statements in one pipeline, in a transaction
// begun by it unless savepoints is set (then the transaction is open,
// and each hand goes between SAVEPOINT and RELEASE), ending with COMMIT
// unless a test holds it back. When a hand's statement fails, it answers
// that hand (w.err) and returns its index with the error; an error no
// hand is answered for comes with -1 and is every hand's.
func (c *handCommits) pipeline(ctx context.Context, conn *pgx.Conn, hands []*handWrite, savepoints bool) (int, error) {
	b := &pgx.Batch{}
	if !savepoints {
		b.Queue("BEGIN")
	}
	opening := b.Len()
	first := make([]int, len(hands)) // the index of each hand's first statement
	for i, w := range hands {
		first[i] = b.Len()
		if savepoints {
			b.Queue("SAVEPOINT hand")
		}
		w.queue(b)
		if savepoints {
			b.Queue("RELEASE SAVEPOINT hand")
		}
	}
	body := b.Len()
	if c.beforeCommit == nil {
		b.Queue("COMMIT")
	}
	answered := countAnswers(b)
	err := conn.SendBatch(ctx, b).Close()
	if err == nil {
		return -1, nil
	}
	at := *answered // the statement that failed
	var pgErr *pgconn.PgError
	if at < opening || at >= body || !errors.As(err, &pgErr) {
		return -1, mapError(err)
	}
	i, _ := slices.BinarySearch(first, at+1)
	w := hands[i-1]
	if w.err = handRefusal(w, err); ledger.ErrorCode(w.err) == ledger.EUNAVAILABLE {
		return -1, w.err
	}
	return i - 1, err
}

// handRefusal is the answer to a hand whose statement failed in a batch:
// ErrStale, to decide it again, when its table moved, its key was used
// first, or it met another writer in a deadlock; else the error.
func handRefusal(w *handWrite, err error) error {
	var pgErr *pgconn.PgError
	if isStale(err) || (errors.As(err, &pgErr) && pgErr.Code == "40P01") {
		return ledger.ErrStale
	}
	return where(mapError(err), "appending hand %d of table %d", w.hand.Number, w.hand.TableID)
}

// countAnswers makes every statement of b count itself in the returned
// counter once it has answered without error: after a failed pipeline the
// count is the index of the statement that failed.
func countAnswers(b *pgx.Batch) *int {
	n := new(int)
	for _, q := range b.QueuedQueries {
		fn := q.Fn
		q.Fn = func(br pgx.BatchResults) error {
			var err error
			if fn != nil {
				err = fn(br)
			} else {
				_, err = br.Exec()
			}
			if err == nil {
				*n++
			}
			return err
		}
	}
	return n
}

// failAll answers every hand of a batch that the database did not refuse
// on its own with err: none of them is stored.
func failAll(batch []*handWrite, err error) {
	for _, w := range batch {
		if w.err == nil {
			w.err = err
		}
	}
}

// HandCommits is how many transactions the store's hand writer has
// committed (or tried to) and how many hands they held: hands / commits is
// the mean batch.
type HandCommits struct {
	Commits, Hands int64
}

// HandCommits returns what the store's hand writer has written so far.
func (s *Store) HandCommits() HandCommits {
	return HandCommits{Commits: s.commits.commits.Load(), Hands: s.commits.hands.Load()}
}
