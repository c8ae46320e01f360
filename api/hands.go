package api

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

func (s *Server) recordHand(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in batchItem
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	// With a client-chosen id the ledger keys the hand by it, even when an
	// Idempotency-Key comes too: the outbox retries under that id.
	h, replayed, err := s.svc.RecordHand(c.Request().Context(), actorOf(c), ledger.NewHand{
		TableID: tableID, SessionID: in.SessionID, Number: in.Number, Facts: in.Facts, ClientID: in.ID,
	}, idempotency(c, body))
	s.observeHand(h, replayed, err)
	if err != nil {
		return err
	}
	return created(c, replayed, handPath(h), h)
}

// defaultHandsPage is how many hands a page lists unless asked.
const defaultHandsPage = 50

func (s *Server) listHands(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	after, err := queryInt(c, "after", 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", defaultHandsPage)
	if err != nil {
		return err
	}
	session, err := queryInt(c, "session_id", 0)
	if err != nil {
		return err
	}
	f := ledger.HandFilter{SessionID: session, Page: ledger.Page{After: after, Limit: int(limit)}}
	hands, err := s.svc.ListHands(c.Request().Context(), actorOf(c), tableID, f)
	if err != nil {
		return err
	}
	var last int64
	if len(hands) > 0 {
		last = int64(hands[len(hands)-1].Number)
	}
	next := linkNext(c, len(hands) == f.Page.Limit, last)
	return writeJSON(c, http.StatusOK, map[string]any{"hands": nonNil(hands), "next_after": next})
}

// handPath is where a hand is read.
func handPath(h ledger.Hand) string {
	return fmt.Sprintf("/v1/tables/%d/hands/%d", h.TableID, h.Number)
}

func (s *Server) getHand(c echo.Context) error {
	tableID, n, err := pathHand(c)
	if err != nil {
		return err
	}
	h, err := s.svc.FindHand(c.Request().Context(), actorOf(c), tableID, n)
	if err != nil {
		return err
	}
	// The tag starts with the revision, which is what a correction's
	// If-Match names (ifMatchRevision reads it back).
	return writeTagged(c, strconv.Itoa(h.Revision)+".", h)
}
