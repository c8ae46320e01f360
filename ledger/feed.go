package ledger

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// Change is one entry of a club's change feed, numbered gap-free in commit
// order.
type Change struct {
	Seq       int64           `json:"seq"`
	Kind      ChangeKind      `json:"kind"`
	TableID   *int64          `json:"table_id,omitempty"`
	SessionID *int64          `json:"session_id,omitempty"`
	Number    *int            `json:"number,omitempty"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// ChangeKind is what a change of the feed is about.
type ChangeKind string

// The kinds of change in the feed.
const (
	ChangeHandRecorded  ChangeKind = "hand_recorded"
	ChangeHandCorrected ChangeKind = "hand_corrected"
	ChangeSessionOpened ChangeKind = "session_opened"
	ChangeSessionClosed ChangeKind = "session_closed"
	ChangeSettlement    ChangeKind = "settlement"
	ChangeKittyBooking  ChangeKind = "kitty_booking"
	ChangeTransferPaid  ChangeKind = "transfer_paid"
	// ChangeTransferUnpaid: a payment marked by mistake was undone.
	ChangeTransferUnpaid ChangeKind = "transfer_unpaid"
	ChangePlayerUpdated  ChangeKind = "player_updated"
	ChangeTableUpdated   ChangeKind = "table_updated"
)

// Notifier tells subscribers that a club has new changes, whichever
// instance of the service wrote them. A subscriber reads the feed itself;
// a notification only says "look again".
type Notifier interface {
	Subscribe(clubID int64) (changes <-chan int64, cancel func())
}

// Changes returns the club's change feed after a change number (of one
// table when tableID > 0).
func (s *Service) Changes(ctx context.Context, a Actor, after int64, limit int, tableID int64) ([]Change, error) {
	list, err := s.Feed.Changes(ctx, a.ClubID, after, limit, tableID)
	if list == nil {
		list = []Change{}
	}
	return list, err
}

// ChangeHead returns the number of the club's latest change.
func (s *Service) ChangeHead(ctx context.Context, a Actor) (int64, error) {
	return s.Feed.ChangeHead(ctx, a.ClubID)
}

// Event is a change as the event streams send it: a hand's change carries
// the hand as it is now, its table's standings and its state.
type Event struct {
	Change    Change          `json:"change"`
	Hand      *Hand           `json:"hand,omitempty"`
	Standings []Standing      `json:"standings,omitempty"`
	State     json.RawMessage `json:"state,omitempty"`
}

// Events returns up to limit changes of the club's feed after a change
// number (of one table when tableID > 0) as events. What the events carry
// is read once per page: per table in the page its standings and state,
// and its hands in one read when they lie close together, so a page costs
// a few queries whatever its length. Their texts come with the players'
// names.
func (s *Service) Events(ctx context.Context, a Actor, after int64, limit int, tableID int64) ([]Event, error) {
	changes, err := s.Feed.Changes(ctx, a.ClubID, after, limit, tableID)
	if err != nil {
		return nil, wrap(err, "Events: Changes")
	}
	events := make([]Event, len(changes))
	numbers := map[int64][]int{} // the hand numbers of each table in the page
	var tables []int64
	for i, ch := range changes {
		events[i].Change = ch
		if ch.TableID == nil || ch.Number == nil {
			continue
		}
		if _, seen := numbers[*ch.TableID]; !seen {
			tables = append(tables, *ch.TableID)
		}
		numbers[*ch.TableID] = append(numbers[*ch.TableID], *ch.Number)
	}
	if len(tables) == 0 {
		return events, nil
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		if err := s.fillTableEvents(ctx, a.ClubID, t, numbers[t], events, n); err != nil {
			return nil, err
		}
	}
	return events, nil
}

// fillTableEvents adds to the page's events of one table its hands, its
// standings and its state. A table or hand that is gone leaves its events
// bare.
func (s *Service) fillTableEvents(ctx context.Context, clubID, tableID int64, numbers []int, events []Event, n Names) error {
	t, err := s.Tables.FindTable(ctx, clubID, tableID)
	if ErrorCode(err) == ENOTFOUND {
		return nil
	}
	if err != nil {
		return err
	}
	standings, err := s.Tables.TableStandings(ctx, clubID, tableID)
	if err != nil {
		return wrap(err, "fillTableEvents: TableStandings")
	}
	standings = SortStandings(standings)
	state := n.State(t.State)
	hands, err := s.handsNumbered(ctx, clubID, tableID, numbers)
	if err != nil {
		return err
	}
	for i := range events {
		ch := events[i].Change
		if ch.TableID == nil || *ch.TableID != tableID || ch.Number == nil {
			continue
		}
		if h, ok := hands[*ch.Number]; ok {
			h = n.Hand(h)
			events[i].Hand = &h
		}
		events[i].Standings, events[i].State = standings, state
	}
	return nil
}

// handsNumbered reads a table's hands of the given numbers: in one read of
// their range when it is at most twice as long as the list, else one by one.
func (s *Service) handsNumbered(ctx context.Context, clubID, tableID int64, numbers []int) (map[int]Hand, error) {
	out := make(map[int]Hand, len(numbers))
	lo, hi := slices.Min(numbers), slices.Max(numbers)
	if hi-lo+1 <= 2*len(numbers) {
		list, err := s.Hands.ListHands(ctx, clubID, tableID, HandFilter{Page: Page{After: int64(lo - 1), Limit: hi - lo + 1}})
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return nil, err
		}
		for _, h := range list {
			out[h.Number] = h
		}
		return out, nil
	}
	for _, n := range numbers {
		h, err := s.Hands.FindHand(ctx, clubID, tableID, n)
		if ErrorCode(err) == ENOTFOUND {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[n] = h
	}
	return out, nil
}
