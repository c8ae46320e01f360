package api

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// listPlayers lists the club's players by name, a page at a time.
func (s *Server) listPlayers(c echo.Context) error {
	return listPage(c, "players", func(p ledger.Page) ([]ledger.Player, error) {
		return s.svc.ListPlayers(c.Request().Context(), actorOf(c), p)
	}, func(p ledger.Player) int64 { return p.ID })
}

func (s *Server) createPlayer(c echo.Context) error {
	var in struct {
		Name  string `json:"name"`
		Guest bool   `json:"guest"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	p, replayed, err := s.svc.CreatePlayerAs(c.Request().Context(), actorOf(c), in.Name, in.Guest, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, fmt.Sprintf("/v1/players/%d", p.ID), p)
}

func (s *Server) getPlayer(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	p, err := s.svc.FindPlayer(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, p)
}

// updatePlayer changes what may change of a player (PATCH, JSON merge:
// absent fields stay).
func (s *Server) updatePlayer(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	var in struct {
		Name    *string `json:"name"`
		Retired *bool   `json:"retired"`
		Guest   *bool   `json:"guest"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	p, err := s.svc.UpdatePlayer(c.Request().Context(), actorOf(c), id, ledger.PlayerUpdate{Name: in.Name, Retired: in.Retired, Guest: in.Guest})
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, p)
}
