package api

import (
	"encoding/json"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// listTables lists the club's tables by name, a page at a time.
func (s *Server) listTables(c echo.Context) error {
	return listPage(c, "tables", func(p ledger.Page) ([]ledger.Table, error) {
		return s.svc.ListTables(c.Request().Context(), actorOf(c), p)
	}, func(t ledger.Table) int64 { return t.ID })
}

func (s *Server) createTable(c echo.Context) error {
	var in struct {
		Name    string            `json:"name"`
		Game    string            `json:"game"`
		Preset  string            `json:"preset"`
		Options json.RawMessage   `json:"options"`
		Stake   *string           `json:"stake_cents_per_point"`
		Mode    ledger.SettleMode `json:"settle_mode"`
		Loss    int64             `json:"match_loss_cents"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	var stake score.Points
	if in.Stake != nil {
		if stake, err = score.ParseDecimal(*in.Stake); err != nil {
			return ledger.Refuse("stake_cents_per_point", ledger.StakeHint, "%v", err)
		}
	}
	t, replayed, err := s.svc.CreateTable(c.Request().Context(), actorOf(c), ledger.NewTable{
		Name: in.Name, Game: in.Game, Preset: in.Preset, Options: in.Options, Stake: stake,
		SettleMode: in.Mode, MatchLossCents: in.Loss,
	}, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, fmt.Sprintf("/v1/tables/%d", t.ID), t)
}

func (s *Server) getTable(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	t, err := s.svc.FindTable(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeTagged(c, "", t)
}

// updateTable changes a table's name and settings (PATCH, JSON merge:
// absent fields stay); the settings apply from its next evening on.
func (s *Server) updateTable(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Name    *string            `json:"name"`
		Options json.RawMessage    `json:"options"`
		Stake   *string            `json:"stake_cents_per_point"`
		Mode    *ledger.SettleMode `json:"settle_mode"`
		Loss    *int64             `json:"match_loss_cents"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	u := ledger.TableUpdate{Name: in.Name, Options: in.Options, SettleMode: in.Mode, MatchLossCents: in.Loss}
	if in.Stake != nil {
		stake, err := score.ParseDecimal(*in.Stake)
		if err != nil {
			return ledger.Refuse("stake_cents_per_point", ledger.StakeHint, "%v", err)
		}
		u.Stake = &stake
	}
	t, err := s.svc.UpdateTable(c.Request().Context(), actorOf(c), id, u)
	if err != nil {
		return err
	}
	return writeTagged(c, "", t)
}

func (s *Server) tableStandings(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	list, err := s.svc.TableStandings(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeTagged(c, "", map[string]any{"standings": nonNil(list)})
}
