package api

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/api/report"
	"github.com/stichbuch/stichbuch/ledger"
)

// tournamentRoutes adds the tournament evenings' routes.
func (s *Server) tournamentRoutes(v1 *echo.Group, read, score echo.MiddlewareFunc) {
	v1.GET("/tournaments", s.listTournaments, read)
	v1.POST("/tournaments", s.createTournament, score)
	v1.GET("/tournaments/:tournamentID", s.getTournament, read)
	v1.POST("/tournaments/:tournamentID/rounds", s.openRound, score)
	v1.POST("/tournaments/:tournamentID/rounds/:round/time-up", s.roundTimeUp, score)
	v1.GET("/tournaments/:tournamentID/ranking", s.tournamentRanking, read)
	v1.GET("/tournaments/:tournamentID/spielliste", s.spielliste, read)
}

// listTournaments lists the club's tournaments, newest first, a page at a
// time.
func (s *Server) listTournaments(c echo.Context) error {
	return listPage(c, "tournaments", func(p ledger.Page) ([]ledger.Tournament, error) {
		return s.svc.ListTournaments(c.Request().Context(), actorOf(c), p)
	}, func(t ledger.Tournament) int64 { return t.ID })
}

func (s *Server) createTournament(c echo.Context) error {
	var in struct {
		Name          string  `json:"name"`
		Date          string  `json:"date"`
		HandsPerRound int     `json:"hands_per_round"`
		Tables        []int64 `json:"table_ids"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	tr, replayed, err := s.svc.CreateTournament(c.Request().Context(), actorOf(c),
		ledger.NewTournament{Name: in.Name, Date: in.Date, HandsPerRound: in.HandsPerRound, Tables: in.Tables}, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, fmt.Sprintf("/v1/tournaments/%d", tr.ID), tr)
}

func (s *Server) getTournament(c echo.Context) error {
	id, err := pathID(c, "tournamentID")
	if err != nil {
		return err
	}
	tr, err := s.svc.FindTournament(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, tr)
}

func (s *Server) openRound(c echo.Context) error {
	id, err := pathID(c, "tournamentID")
	if err != nil {
		return err
	}
	var in struct {
		Seatings []struct {
			Table   int64   `json:"table_id"`
			Players []int64 `json:"player_ids"`
		} `json:"seatings"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	seatings := make([]ledger.RoundSeating, 0, len(in.Seatings))
	for _, st := range in.Seatings {
		seatings = append(seatings, ledger.RoundSeating{Table: st.Table, Players: st.Players})
	}
	_, replayed, err := s.svc.OpenRound(c.Request().Context(), actorOf(c), id, seatings, idempotency(c, body))
	if err != nil {
		return err
	}
	// Answer with where every table stands, as GET does.
	tr, err := s.svc.FindTournament(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return created(c, replayed, fmt.Sprintf("/v1/tournaments/%d", tr.ID), tr)
}

func (s *Server) roundTimeUp(c echo.Context) error {
	id, err := pathID(c, "tournamentID")
	if err != nil {
		return err
	}
	round, err := pathID(c, "round")
	if err != nil {
		return err
	}
	if _, err := s.svc.RoundTimeUp(c.Request().Context(), actorOf(c), id, int(round)); err != nil {
		return err
	}
	tr, err := s.svc.FindTournament(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, tr)
}

func (s *Server) tournamentRanking(c echo.Context) error {
	id, err := pathID(c, "tournamentID")
	if err != nil {
		return err
	}
	format, err := reportFormat(c)
	if err != nil {
		return err
	}
	rk, err := s.svc.Ranking(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	if format == "html" {
		return render(c, "text/html; charset=utf-8", func(b *bytes.Buffer) error { return report.RankingHTML(b, rk) })
	}
	return writeJSON(c, http.StatusOK, rk)
}

func (s *Server) spielliste(c echo.Context) error {
	id, err := pathID(c, "tournamentID")
	if err != nil {
		return err
	}
	table, err := queryInt(c, "table_id", 0)
	if err != nil {
		return err
	}
	round, err := queryInt(c, "round", 0)
	if err != nil {
		return err
	}
	lists, err := s.svc.Spiellisten(c.Request().Context(), actorOf(c), id, table, int(round))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"spiellisten": lists})
}
