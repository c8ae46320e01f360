package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

func (s *Server) listSessions(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	list, err := s.svc.ListSessions(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"sessions": nonNil(list)})
}

func (s *Server) openSession(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Date    string  `json:"date"`
		Seating []int64 `json:"seating"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	sess, replayed, err := s.svc.OpenSession(c.Request().Context(), actorOf(c), id, in.Date, in.Seating, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, sess)
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
	return writeJSON(c, http.StatusOK, sess)
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
	return writeJSON(c, http.StatusOK, map[string]any{"standings": nonNil(list)})
}
