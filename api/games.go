package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// listGames lists every game with its default rule set and its catalogue
// of presets and options, as the engines state them.
func (s *Server) listGames(c echo.Context) error {
	type game struct {
		Name         string          `json:"name"`
		ZeroSum      bool            `json:"zero_sum"`
		DefaultRules json.RawMessage `json:"default_rules"`
		score.Catalogue
	}
	var list []game
	for _, name := range games.Names() {
		e, _ := games.Lookup(name)
		rules, err := e.Rules("", nil)
		if err != nil {
			return err
		}
		list = append(list, game{Name: name, ZeroSum: e.ZeroSum(), DefaultRules: rules, Catalogue: e.Catalogue()})
	}
	return writeJSON(c, http.StatusOK, map[string]any{"games": list, "table_fields": ledger.TableFieldsHelp})
}

// scoreHand scores a hand of game without storing anything.
func (s *Server) scoreHand(game string) echo.HandlerFunc {
	return func(c echo.Context) error {
		var in struct {
			Preset  string          `json:"preset"`
			Options json.RawMessage `json:"options"`
			Players []int64         `json:"player_ids"`
			Date    string          `json:"date"`
			State   json.RawMessage `json:"state"`
			Facts   json.RawMessage `json:"facts"`
		}
		if _, err := decodeBody(c, &in); err != nil {
			return err
		}
		if in.Date == "" {
			in.Date = ledger.Today(s.now(), "UTC")
		}
		res, err := s.svc.ScoreDraft(c.Request().Context(), actorOf(c), game, in.Preset, in.Options, in.Players, in.Date, in.State, in.Facts)
		if err != nil {
			return err
		}
		return writeJSON(c, http.StatusOK, res)
	}
}
