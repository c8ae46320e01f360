package api

import (
	"net/http"

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
	if err != nil {
		return err
	}
	return created(c, replayed, h)
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
	page := ledger.Page{After: after, Limit: int(limit)}
	hands, err := s.svc.ListHands(c.Request().Context(), actorOf(c), tableID, page)
	if err != nil {
		return err
	}
	var next *int
	if len(hands) == page.Limit {
		next = &hands[len(hands)-1].Number
	}
	return writeJSON(c, http.StatusOK, map[string]any{"hands": nonNil(hands), "next_after": next})
}

func (s *Server) getHand(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	n, err := pathNumber(c)
	if err != nil {
		return err
	}
	h, err := s.svc.FindHand(c.Request().Context(), actorOf(c), tableID, n)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(h.Revision))
	return writeJSON(c, http.StatusOK, h)
}
