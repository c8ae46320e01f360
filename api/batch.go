package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// batchItem is one queued hand of an offline outbox.
type batchItem struct {
	ID        string          `json:"id"`
	SessionID int64           `json:"session_id"`
	Number    int             `json:"number"`
	Facts     json.RawMessage `json:"facts"`
}

// batchResult is the answer for one queued hand.
type batchResult struct {
	ID      string       `json:"id"`
	Number  int          `json:"number"`
	Status  string       `json:"status"` // applied, already_applied, refused, not_applied
	Hand    *ledger.Hand `json:"hand,omitempty"`
	Problem *Problem     `json:"problem,omitempty"`
}

// recordBatch applies an offline outbox in order, each hand in its own
// transaction, idempotent by the hand's client-chosen id. After a refused
// hand the rest are not applied, and the answer says so.
func (s *Server) recordBatch(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Hands []batchItem `json:"hands"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	if _, err := s.svc.FindTable(c.Request().Context(), actorOf(c), tableID); err != nil {
		return err // a table that is not the club's is 404, not a batch of refusals
	}
	batch := make([]ledger.NewHand, len(in.Hands))
	for i, item := range in.Hands {
		batch[i] = ledger.NewHand{
			TableID: tableID, SessionID: item.SessionID, Number: item.Number, Facts: item.Facts, ClientID: item.ID,
		}
	}
	outcomes, err := s.svc.RecordBatch(c.Request().Context(), actorOf(c), batch)
	if err != nil {
		return err // the database is gone: the client retries the whole batch
	}
	results := make([]batchResult, len(in.Hands))
	for i, o := range outcomes {
		if !o.NotApplied {
			s.observeHand(o.Hand, o.Replayed, o.Err)
		}
		r := batchResult{ID: in.Hands[i].ID, Number: in.Hands[i].Number}
		switch {
		case o.NotApplied:
			r.Status = "not_applied"
		case o.Err != nil:
			p := s.problem(c, o.Err)
			r.Status, r.Problem = "refused", &p
		case o.Replayed:
			r.Status, r.Hand = "already_applied", &o.Hand
		default:
			r.Status, r.Hand = "applied", &o.Hand
		}
		results[i] = r
	}
	return writeJSON(c, http.StatusOK, map[string]any{"results": results})
}
