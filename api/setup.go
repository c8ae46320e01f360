package api

import (
	"crypto/subtle"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// firstRun is the first-run setup: while the service has no club, serve
// holds a one-time token (it prints it in the app's link) with which the
// app creates the first club and its admin key. Without a token, or once
// it is used, there is no setup.
type firstRun struct {
	mu    sync.Mutex
	token string
}

// createFirstClub creates the club of a fresh service (POST /v1/setup):
// the token serve printed, once. Anything else is 404: no setup pending.
func (s *Server) createFirstClub(c echo.Context) error {
	var in struct {
		Token    string `json:"token"`
		Name     string `json:"name"`
		TimeZone string `json:"time_zone"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	s.setup.mu.Lock()
	defer s.setup.mu.Unlock()
	if s.setup.token == "" || subtle.ConstantTimeCompare([]byte(in.Token), []byte(s.setup.token)) != 1 {
		return ledger.Errorf(ledger.ENOTFOUND, "no setup is pending with this token; an admin creates keys with the club's admin key")
	}
	club, secret, err := s.svc.CreateClub(c.Request().Context(), ledger.NewClub{Name: in.Name, TimeZone: in.TimeZone})
	if err != nil {
		return err
	}
	s.setup.token = ""
	return created(c, false, "/v1/club", map[string]any{"club": club, "key": secret})
}
