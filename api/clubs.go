package api

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

func (s *Server) healthz(c echo.Context) error {
	return writeJSON(c, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(c echo.Context) error {
	if err := s.svc.Ping(c.Request().Context()); err != nil {
		return ledger.Errorf(ledger.EUNAVAILABLE, "the database does not answer")
	}
	return writeJSON(c, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) getClub(c echo.Context) error {
	club, err := s.svc.FindClub(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, club)
}

func (s *Server) createKey(c echo.Context) error {
	var in struct {
		Role  ledger.Role `json:"role"`
		Label string      `json:"label"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	key, secret, err := s.svc.CreateKey(c.Request().Context(), actorOf(c), in.Role, in.Label)
	if err != nil {
		return err
	}
	return created(c, false, fmt.Sprintf("/v1/keys/%d", key.ID), struct {
		ledger.APIKey
		Secret string `json:"secret"`
	}{key, secret})
}

// listKeys lists the club's keys, oldest first, a page at a time.
func (s *Server) listKeys(c echo.Context) error {
	return listPage(c, "keys", func(p ledger.Page) ([]ledger.APIKey, error) {
		return s.svc.ListKeys(c.Request().Context(), actorOf(c), p)
	}, func(k ledger.APIKey) int64 { return k.ID })
}

func (s *Server) getKey(c echo.Context) error {
	id, err := pathID(c, "keyID")
	if err != nil {
		return err
	}
	key, err := s.svc.FindKey(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, key)
}

func (s *Server) revokeKey(c echo.Context) error {
	id, err := pathID(c, "keyID")
	if err != nil {
		return err
	}
	key, err := s.svc.RevokeKey(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, key)
}

func (s *Server) rotateKey(c echo.Context) error {
	id, err := pathID(c, "keyID")
	if err != nil {
		return err
	}
	key, secret, err := s.svc.RotateKey(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return created(c, false, fmt.Sprintf("/v1/keys/%d", key.ID), struct {
		ledger.APIKey
		Secret string `json:"secret"`
	}{key, secret})
}
