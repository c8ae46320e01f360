package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
)

// Listener hears the NOTIFY every committed change sends, from whichever
// instance of the service wrote it, on one dedicated connection, and tells
// the subscribers of that club. After a lost connection it tells every
// subscriber to look again, since notifications may have been missed.
//
// It also hears the revoked API keys (channel stichbuch_keys, sent by
// RevokeKey's transaction) and tells its KeyWatchers, together with
// whether it listens: a lost connection is told at once, a silent one
// within listenPing + pingWithin.
type Listener struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	mu   sync.Mutex
	subs map[int64]map[chan int64]struct{}

	// wmu is held while the watchers are told, so they hear one thing at
	// a time and in order.
	wmu       sync.Mutex
	watchers  []ledger.KeyWatcher
	listening bool
}

var (
	_ ledger.Notifier    = (*Listener)(nil)
	_ ledger.KeyNotifier = (*Listener)(nil)
)

// The channels the Listener hears, and its connection's application_name
// (in pg_stat_activity).
const (
	changesChannel  = "stichbuch_changes"
	keysChannel     = "stichbuch_keys"
	listenerAppName = "stichbuch listener"
)

// Listen starts a Listener that runs until ctx ends.
func Listen(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) *Listener {
	l := &Listener{pool: pool, log: log, subs: map[int64]map[chan int64]struct{}{}}
	go l.run(ctx)
	return l
}

// Subscribe returns a channel that receives a club's change numbers (or -1
// for "look again"); cancel ends the subscription. A slow subscriber misses
// notifications, never changes: it reads the feed itself.
func (l *Listener) Subscribe(clubID int64) (<-chan int64, func()) {
	ch := make(chan int64, 1)
	l.mu.Lock()
	if l.subs[clubID] == nil {
		l.subs[clubID] = map[chan int64]struct{}{}
	}
	l.subs[clubID][ch] = struct{}{}
	l.mu.Unlock()
	return ch, func() {
		l.mu.Lock()
		delete(l.subs[clubID], ch)
		if len(l.subs[clubID]) == 0 {
			delete(l.subs, clubID)
		}
		l.mu.Unlock()
	}
}

// WatchKeys tells w at once whether the Listener listens, then every
// change of that and every revoked key it hears, until the Listener ends.
func (l *Listener) WatchKeys(w ledger.KeyWatcher) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.watchers = append(l.watchers, w)
	w.Listening(l.listening)
}

// setListening tells the watchers whether revocations are heard.
func (l *Listener) setListening(on bool) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.listening = on
	for _, w := range l.watchers {
		w.Listening(on)
	}
}

// keyRevoked tells the watchers of a revoked key.
func (l *Listener) keyRevoked(club, key int64) {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	for _, w := range l.watchers {
		w.KeyRevoked(club, key)
	}
}

func (l *Listener) run(ctx context.Context) {
	for ctx.Err() == nil {
		err := l.listen(ctx)
		l.setListening(false)
		if ctx.Err() != nil {
			return
		}
		l.log.Warn("change notifications interrupted; reconnecting", "err", err)
		l.tellAll(-1)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// listenPing is how long the listening connection may be silent before
// it is asked whether it is alive. A connection to a primary that died or
// was demoted, or one whose link was cut, can stay open without an error
// for minutes (TCP keeps no time of its own); the ping finds it within
// listenPing + pingWithin, and the listener connects again, through
// DATABASE_URL, to whichever node is the primary now.
const (
	listenPing = 5 * time.Second
	pingWithin = 3 * time.Second
)

func (l *Listener) listen(ctx context.Context) error {
	cfg := l.pool.Config().ConnConfig.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["application_name"] = listenerAppName
	// A wait that times out leaves the connection usable: its deadline
	// ends the read, no cancel request is sent that could hit the ping.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.DeadlineContextWatcherHandler{Conn: c.Conn()}
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, ch := range []string{changesChannel, keysChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			return err
		}
	}
	l.setListening(true) // the key watchers forget what they hold
	l.tellAll(-1)        // anything committed while we were not listening
	for {
		waitCtx, cancel := context.WithTimeout(ctx, listenPing)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			if err := ping(ctx, conn); err != nil {
				return fmt.Errorf("the listening connection does not answer: %w", err)
			}
			continue
		}
		if err != nil {
			return err
		}
		club, num, ok := parseNotification(n.Payload)
		switch {
		case !ok:
		case n.Channel == keysChannel:
			l.keyRevoked(club, num)
		default:
			l.tell(club, num)
		}
	}
}

// ping asks the listening connection whether it is alive and still on a
// primary: LISTEN on a node that became a replica hears nothing more.
func ping(ctx context.Context, conn *pgx.Conn) error {
	ctx, cancel := context.WithTimeout(ctx, pingWithin)
	defer cancel()
	var recovering bool
	if err := conn.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil {
		return err
	}
	if recovering {
		return errors.New("the server is in recovery (no longer the primary)")
	}
	return nil
}

// parseNotification reads a payload "club:number": a change number on
// stichbuch_changes, a key id on stichbuch_keys.
func parseNotification(payload string) (club, seq int64, ok bool) {
	a, b, found := strings.Cut(payload, ":")
	club, err1 := strconv.ParseInt(a, 10, 64)
	seq, err2 := strconv.ParseInt(b, 10, 64)
	return club, seq, found && err1 == nil && err2 == nil
}

func (l *Listener) tell(club, seq int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for ch := range l.subs[club] {
		select {
		case ch <- seq:
		default: // a notification is waiting already; the subscriber reads the feed
		}
	}
}

func (l *Listener) tellAll(seq int64) {
	l.mu.Lock()
	clubs := make([]int64, 0, len(l.subs))
	for club := range l.subs {
		clubs = append(clubs, club)
	}
	l.mu.Unlock()
	for _, club := range clubs {
		l.tell(club, seq)
	}
}
