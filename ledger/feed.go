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
