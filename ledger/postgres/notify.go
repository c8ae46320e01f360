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

// Listener hears the NOTIFY the service sends after every commit of
// changes (announcer), from whichever instance of the service wrote them,
// on one dedicated connection, and tells the subscribers of that club.
// After a lost connection, and every LookAgain besides, it tells every
// subscriber to look again, since notifications may have been missed (an
// instance that ended between a commit and its NOTIFY sends none).
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

// LookAgain is how often a Listener tells every subscriber to look again
// even if it heard nothing: the longest a change whose NOTIFY was lost can
// wait to be seen.
const LookAgain = 5 * time.Second

func (l *Listener) run(ctx context.Context) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(LookAgain):
				l.tellAll(-1)
			}
		}
	}()
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

// announcer sends the NOTIFY of committed changes, after their commit and
// outside their transaction: a NOTIFY in the writer's transaction would
// hold PostgreSQL's notification lock, and with it the club's numbering
// lock, through the commit. Writers do not wait for it; the heads of the
// clubs written while one NOTIFY is sent go together in the next. A
// NOTIFY lost to an ending process is made up by the Listeners' LookAgain.
type announcer struct {
	pool    *pgxpool.Pool
	mu      sync.Mutex
	heads   map[int64]int64 // the newest change per club, to announce
	sending bool
}

func newAnnouncer(pool *pgxpool.Pool) *announcer {
	return &announcer{pool: pool, heads: map[int64]int64{}}
}

// announce tells every instance that the club's feed reaches head; 0 is
// nothing to tell.
func (a *announcer) announce(club, head int64) {
	if head == 0 {
		return
	}
	a.mu.Lock()
	a.heads[club] = max(a.heads[club], head)
	start := !a.sending
	a.sending = true
	a.mu.Unlock()
	if start {
		go a.send()
	}
}

// send notifies what is waiting, again while more arrives, and ends when
// nothing is left.
func (a *announcer) send() {
	for {
		a.mu.Lock()
		if len(a.heads) == 0 {
			a.sending = false
			a.mu.Unlock()
			return
		}
		payloads := make([]string, 0, len(a.heads))
		for club, head := range a.heads {
			payloads = append(payloads, strconv.FormatInt(club, 10)+":"+strconv.FormatInt(head, 10))
		}
		clear(a.heads)
		a.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		// A failure loses only the notification: LookAgain makes it up.
		_, _ = a.pool.Exec(ctx, `SELECT pg_notify('stichbuch_changes', p) FROM unnest($1::text[]) p`, payloads)
		cancel()
	}
}
