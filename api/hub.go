package api

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// hubPage is how many changes a hub reads at once.
const hubPage = 100

// subscriberBuffer is how many events a stream may fall behind its hub
// before the hub drops it (the stream then asks its client to reconnect).
const subscriberBuffer = 256

// hubs are the per-club hubs of the event streams on this instance. A
// hub reads each change of its club once, with what the events carry
// (ledger.Events), encodes it once and hands it to every stream of the
// club, which keeps the events of its table; so N open streams cost the
// database what one does. A hub runs while its club has a stream.
type hubs struct {
	svc      *ledger.Service
	notifier ledger.Notifier // nil: hubs look at the feed every poll
	poll     time.Duration
	log      *slog.Logger

	mu    sync.Mutex
	clubs map[int64]*hub
}

// hub is one club's fan-out.
type hub struct {
	club int64
	refs int // streams subscribed or subscribing; guarded by hubs.mu
	poke chan struct{}

	mu      sync.Mutex
	started bool
	stop    func()
	head    int64 // the last change handed out
	subs    map[*subscriber]struct{}
}

// subscriber is one stream's place at its club's hub.
type subscriber struct {
	hub    *hub
	table  int64 // 0: every change of the club
	events chan hubEvent
	lagged chan struct{} // closed when the hub dropped it for falling behind
}

// hubEvent is one change as a stream sends it: its whole SSE frame,
// encoded once for every stream.
type hubEvent struct {
	seq   int64
	frame []byte
}

// newHubEvent encodes an event's frame: its id (the change number), its
// kind and its data, the change as the API names it (publicChange).
func newHubEvent(ev ledger.Event) (hubEvent, error) {
	ev.Change = publicChange(ev.Change)
	data, err := json.Marshal(ev)
	if err != nil {
		return hubEvent{}, err
	}
	frame := fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", ev.Change.Seq, ev.Change.Kind, data)
	return hubEvent{seq: ev.Change.Seq, frame: frame}, nil
}

func newHubs(svc *ledger.Service, notifier ledger.Notifier, log *slog.Logger) *hubs {
	return &hubs{svc: svc, notifier: notifier, poll: keepAlive, log: log, clubs: map[int64]*hub{}}
}

// subscribe joins the club's hub, starting it if it is not running, and
// returns the number of the last change the hub has handed out: the
// subscriber gets every later change of its table.
func (hs *hubs) subscribe(ctx context.Context, clubID, table int64) (*subscriber, int64, error) {
	hs.mu.Lock()
	h := hs.clubs[clubID]
	if h == nil {
		h = &hub{club: clubID, poke: make(chan struct{}, 1), subs: map[*subscriber]struct{}{}}
		hs.clubs[clubID] = h
	}
	h.refs++
	hs.mu.Unlock()

	sub := &subscriber{hub: h, table: table, events: make(chan hubEvent, subscriberBuffer), lagged: make(chan struct{})}
	h.mu.Lock()
	if !h.started {
		if err := hs.start(ctx, h); err != nil {
			h.mu.Unlock()
			hs.unsubscribe(sub)
			return nil, 0, err
		}
	}
	h.subs[sub] = struct{}{}
	head := h.head
	h.mu.Unlock()
	return sub, head, nil
}

// start reads where the club's feed is and runs the hub; h.mu is held.
// The hub listens for notifications before it reads the head, so it
// misses no change in between.
func (hs *hubs) start(ctx context.Context, h *hub) error {
	var wake <-chan int64
	cancelWake := func() {}
	if hs.notifier != nil {
		wake, cancelWake = hs.notifier.Subscribe(h.club)
	}
	head, err := hs.svc.ChangeHead(ctx, ledger.Actor{ClubID: h.club, Role: ledger.RoleReader})
	if err != nil {
		cancelWake()
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	h.head, h.started = head, true
	h.stop = func() { cancel(); cancelWake() }
	go hs.run(runCtx, h, wake)
	return nil
}

// unsubscribe leaves the hub; the last subscriber to leave stops it.
func (hs *hubs) unsubscribe(sub *subscriber) {
	h := sub.hub
	hs.mu.Lock()
	defer hs.mu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, sub)
	h.refs--
	if h.refs > 0 {
		return
	}
	if h.stop != nil {
		h.stop()
	}
	delete(hs.clubs, h.club)
}

// poke tells a club's hub, if it runs, to look at the feed now: after a
// write of this instance, so its streams need no notification.
func (hs *hubs) poke(clubID int64) {
	hs.mu.Lock()
	h := hs.clubs[clubID]
	hs.mu.Unlock()
	if h == nil {
		return
	}
	select {
	case h.poke <- struct{}{}:
	default:
	}
}

// run reads the feed whenever the club's changes are announced, this
// instance wrote one, or poll has passed, until ctx ends.
func (hs *hubs) run(ctx context.Context, h *hub, wake <-chan int64) {
	poll := time.NewTicker(hs.poll)
	defer poll.Stop()
	for {
		hs.pull(ctx, h)
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-h.poke:
		case <-poll.C:
		}
	}
}

// pull reads the changes after the hub's head, page by page, and hands
// each to the subscribers of its table. A subscriber that cannot take
// one more is dropped: its stream tells the client to reconnect, and the
// client catches up from its Last-Event-ID.
func (hs *hubs) pull(ctx context.Context, h *hub) {
	reader := ledger.Actor{ClubID: h.club, Role: ledger.RoleReader}
	for ctx.Err() == nil {
		h.mu.Lock()
		after := h.head
		h.mu.Unlock()
		events, err := hs.svc.Events(ctx, reader, after, hubPage, 0)
		if err != nil {
			if ctx.Err() == nil {
				hs.log.Warn("event hub: reading the change feed", "club", h.club, "err", err)
			}
			return
		}
		encoded := make([]hubEvent, len(events))
		for i, ev := range events {
			if encoded[i], err = newHubEvent(ev); err != nil {
				hs.log.Error("event hub: encoding an event", "club", h.club, "seq", ev.Change.Seq, "err", err)
				encoded[i], _ = newHubEvent(ledger.Event{Change: ledger.Change{Seq: ev.Change.Seq, Kind: ev.Change.Kind}})
			}
		}
		h.broadcast(events, encoded)
		if len(events) < hubPage {
			return
		}
	}
}

// broadcast hands out a page of events and moves the head past it.
func (h *hub) broadcast(events []ledger.Event, encoded []hubEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, ev := range events {
		h.head = ev.Change.Seq
		for sub := range h.subs {
			if sub.table != 0 && (ev.Change.TableID == nil || *ev.Change.TableID != sub.table) {
				continue
			}
			select {
			case sub.events <- encoded[i]:
			default:
				delete(h.subs, sub)
				close(sub.lagged)
			}
		}
	}
}
