package ledger

import (
	"context"
	"encoding/json"
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

// HandChange is what a hand's change carries to an event stream: the hand
// as it is now, the table's standings and its state, with names.
type HandChange struct {
	Hand      *Hand
	Standings []Standing
	State     json.RawMessage
}

// HandChangeOf reads the hand a change is about, the table's standings and
// its state, their texts with names from one query; what cannot be read
// is left out (the stream still sends the change).
func (s *Service) HandChangeOf(ctx context.Context, a Actor, ch Change) HandChange {
	var out HandChange
	if ch.TableID == nil || ch.Number == nil {
		return out
	}
	n, err := s.names(ctx, a.ClubID)
	if err != nil {
		return out
	}
	if h, err := s.Hands.FindHand(ctx, a.ClubID, *ch.TableID, *ch.Number); err == nil {
		h = n.Hand(h)
		out.Hand = &h
	}
	if st, err := s.TableStandings(ctx, a, *ch.TableID); err == nil {
		out.Standings = st
	}
	if t, err := s.Tables.FindTable(ctx, a.ClubID, *ch.TableID); err == nil {
		out.State = n.State(t.State)
	}
	return out
}
