package api

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// defaultSessionsPage is how many sessions a page lists unless asked.
const defaultSessionsPage = 100

// listSessions lists the club's sessions (GET /v1/sessions) or a table's
// (GET /v1/tables/{tableID}/sessions), oldest first, a page at a time.
func (s *Server) listSessions(c echo.Context) error {
	f := ledger.SessionFilter{From: c.QueryParam("from"), To: c.QueryParam("to")}
	var err error
	if c.Param("tableID") != "" {
		f.TableID, err = pathID(c, "tableID")
	} else {
		f.TableID, err = queryInt(c, "table_id", 0)
	}
	if err != nil {
		return err
	}
	if v := c.QueryParam("open"); v != "" {
		open := v == "true"
		f.Open = &open
	}
	if f.Page.After, f.Page.Limit, err = pageParams(c, defaultSessionsPage); err != nil {
		return err
	}
	list, err := s.svc.ListSessions(c.Request().Context(), actorOf(c), f)
	if err != nil {
		return err
	}
	var last int64
	if len(list) > 0 {
		last = list[len(list)-1].ID
	}
	next := linkNext(c, len(list) == f.Page.Limit, last)
	return writeJSON(c, http.StatusOK, map[string]any{"sessions": list, "next_after": next})
}

func (s *Server) openSession(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Date    string  `json:"date"`
		Seating []int64 `json:"player_ids"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	sess, replayed, err := s.svc.OpenSession(c.Request().Context(), actorOf(c), id, in.Date, in.Seating, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, fmt.Sprintf("/v1/sessions/%d", sess.ID), sess)
}

func (s *Server) getSession(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	sess, err := s.svc.FindSession(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeTagged(c, "", sess)
}

func (s *Server) closeSession(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	sess, err := s.svc.CloseSession(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, sess)
}

func (s *Server) sessionStandings(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	list, err := s.svc.SessionStandings(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeTagged(c, "", map[string]any{"standings": nonNil(list)})
}
