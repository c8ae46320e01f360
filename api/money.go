package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

func (s *Server) getSettlement(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	st, err := s.svc.FindSettlement(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, st)
}

func (s *Server) markTransferPaid(c echo.Context) error {
	id, err := pathID(c, "transferID")
	if err != nil {
		return err
	}
	t, err := s.svc.MarkTransferPaid(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, t)
}

// undoTransferPaid undoes a payment marked by mistake (a new fact; the
// payment stays in the audit trail).
func (s *Server) undoTransferPaid(c echo.Context) error {
	id, err := pathID(c, "transferID")
	if err != nil {
		return err
	}
	t, err := s.svc.UndoPayment(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, t)
}

func (s *Server) getKitty(c echo.Context) error {
	k, err := s.svc.Kitty(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, k)
}

func (s *Server) bookKitty(c echo.Context) error {
	var in struct {
		Cents int64  `json:"cents"`
		Note  string `json:"note"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	b, replayed, err := s.svc.BookKitty(c.Request().Context(), actorOf(c), in.Cents, in.Note, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, "/v1/kitty", b)
}

// listKittyBookings lists the club's kitty bookings by id, a page at a time.
func (s *Server) listKittyBookings(c echo.Context) error {
	return listPage(c, "bookings", func(p ledger.Page) ([]ledger.KittyBooking, error) {
		return s.svc.ListKittyBookings(c.Request().Context(), actorOf(c), p)
	}, func(b ledger.KittyBooking) int64 { return b.ID })
}

// defaultTransfersPage is how many transfers a page lists unless asked.
const defaultTransfersPage = 100

func (s *Server) listTransfers(c echo.Context) error {
	f := ledger.TransferFilter{Status: ledger.TransferStatus(c.QueryParam("status")), From: c.QueryParam("from"), To: c.QueryParam("to")}
	var err error
	if f.PlayerID, err = queryInt(c, "player_id", 0); err != nil {
		return err
	}
	if f.SessionID, err = queryInt(c, "session_id", 0); err != nil {
		return err
	}
	if f.Page.After, err = queryInt(c, "after", 0); err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", defaultTransfersPage)
	if err != nil {
		return err
	}
	f.Page.Limit = int(limit)
	list, err := s.svc.ListTransfers(c.Request().Context(), actorOf(c), f)
	if err != nil {
		return err
	}
	var last int64
	if len(list) > 0 {
		last = list[len(list)-1].ID
	}
	next := linkNext(c, len(list) == f.Page.Limit, last)
	return writeJSON(c, http.StatusOK, map[string]any{"transfers": list, "next_after": next})
}

func (s *Server) playerBalance(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	b, err := s.svc.PlayerBalance(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, b)
}
