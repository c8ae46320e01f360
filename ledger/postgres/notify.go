package postgres

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
)

// Listener hears the NOTIFY every committed change sends, from whichever
// instance of the service wrote it, on one dedicated connection, and tells
// the subscribers of that club. After a lost connection it tells every
// subscriber to look again, since notifications may have been missed.
type Listener struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	mu   sync.Mutex
	subs map[int64]map[chan int64]struct{}
}

var _ ledger.Notifier = (*Listener)(nil)

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

func (l *Listener) run(ctx context.Context) {
	for ctx.Err() == nil {
		err := l.listen(ctx)
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

func (l *Listener) listen(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, l.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN stichbuch_changes"); err != nil {
		return err
	}
	l.tellAll(-1) // anything committed while we were not listening
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		club, seq, ok := parseNotification(n.Payload)
		if ok {
			l.tell(club, seq)
		}
	}
}

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
