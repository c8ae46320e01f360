package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// correctHand records a correction of a past hand. The request names the
// revision it corrects in If-Match ("2" or the ETag "\"2\"").
func (s *Server) correctHand(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	number, err := pathNumber(c)
	if err != nil {
		return err
	}
	revision, err := ifMatchRevision(c.Request().Header.Get("If-Match"))
	if err != nil {
		return err
	}
	var in struct {
		Facts  json.RawMessage `json:"facts"`
		Void   bool            `json:"void"`
		Reason string          `json:"reason"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	res, replayed, err := s.store.CorrectHand(c.Request().Context(), actorOf(c), ledger.Correction{
		TableID: tableID, Number: number, Revision: revision, Facts: in.Facts, Void: in.Void, Reason: in.Reason,
	}, idempotency(c, body))
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(res.Hand.Revision))
	return created(c, replayed, res)
}

func (s *Server) handRevisions(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	number, err := pathNumber(c)
	if err != nil {
		return err
	}
	list, err := s.store.HandRevisions(c.Request().Context(), actorOf(c), tableID, number)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"revisions": list})
}

// ifMatchRevision reads the revision a correction corrects.
func ifMatchRevision(header string) (int, error) {
	if header == "" {
		return 0, &ledger.Error{Code: ledger.EPRECONDREQ, Message: "send If-Match with the hand's current revision (its ETag) so a stale correction cannot overwrite a newer one",
			Field: "If-Match", Rule: "is required"}
	}
	v := strings.Trim(strings.TrimPrefix(strings.TrimSpace(header), "W/"), `"`)
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, ledger.Invalid("If-Match", "must be the hand's revision, e.g. \"1\", got %q", header)
	}
	return n, nil
}

func etag(revision int) string { return `"` + strconv.Itoa(revision) + `"` }

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
	if _, err := s.store.FindTable(c.Request().Context(), actorOf(c), tableID); err != nil {
		return err // a table that is not the club's is 404, not a batch of refusals
	}
	results := make([]batchResult, 0, len(in.Hands))
	refused := false
	for _, item := range in.Hands {
		r := batchResult{ID: item.ID, Number: item.Number}
		if refused {
			r.Status = "not_applied"
			results = append(results, r)
			continue
		}
		h, replayed, err := s.store.RecordHand(c.Request().Context(), actorOf(c), ledger.NewHand{
			TableID: tableID, SessionID: item.SessionID, Number: item.Number, Facts: item.Facts,
		}, handIdempotency(item))
		switch {
		case err != nil:
			p := problemOf(err)
			if p.Status >= 500 {
				return err // the database is gone: the client retries the whole batch
			}
			r.Status, r.Problem, refused = "refused", &p, true
		case replayed:
			r.Status, r.Hand = "already_applied", &h
		default:
			r.Status, r.Hand = "applied", &h
		}
		results = append(results, r)
	}
	return writeJSON(c, http.StatusOK, map[string]any{"results": results})
}

// handIdempotency makes a hand's client id its idempotency key: the same id
// with the same hand replays, with another hand is refused.
func handIdempotency(item batchItem) *ledger.Idempotency {
	raw, _ := json.Marshal(struct {
		SessionID int64           `json:"session_id"`
		Number    int             `json:"number"`
		Facts     json.RawMessage `json:"facts"`
	}{item.SessionID, item.Number, canonicalJSON(item.Facts)})
	return &ledger.Idempotency{Key: "hand:" + item.ID, Hash: hashBytes(raw)}
}

// canonicalJSON re-encodes a JSON value so that spelling (whitespace, key
// order) does not change its hash.
func canonicalJSON(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

func (s *Server) listChanges(c echo.Context) error {
	after, limit, err := feedPage(c)
	if err != nil {
		return err
	}
	list, err := s.store.Changes(c.Request().Context(), actorOf(c), after, limit, 0)
	if err != nil {
		return err
	}
	var next *int64
	if len(list) > 0 {
		next = &list[len(list)-1].Seq
	}
	return writeJSON(c, http.StatusOK, map[string]any{"changes": list, "next_after": next})
}

// feedPage reads ?after= and ?limit= of the change feed.
func feedPage(c echo.Context) (after int64, limit int, err error) {
	limit = 100
	if v := c.QueryParam("after"); v != "" {
		if after, err = strconv.ParseInt(v, 10, 64); err != nil || after < 0 {
			return 0, 0, ledger.Invalid("after", "must be a change number of 0 or more")
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 1000 {
			return 0, 0, ledger.Invalid("limit", "must be between 1 and 1000")
		}
	}
	return after, limit, nil
}
