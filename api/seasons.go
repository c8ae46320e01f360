package api

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/api/report"
	"github.com/stichbuch/stichbuch/ledger"
)

// seasonRoutes adds the season's routes (issue 30): the rules, the table,
// a player's line, the evening winners and the chart.
func (s *Server) seasonRoutes(v1 *echo.Group, read, admin echo.MiddlewareFunc) {
	v1.GET("/seasons", s.listSeasons, read)
	v1.POST("/seasons", s.createSeason, admin)
	v1.GET("/seasons/:name", s.getSeason, read)
	v1.GET("/seasons/:name/players/:playerID", s.seasonPlayer, read)
	v1.GET("/seasons/:name/evenings", s.seasonEvenings, read)
	v1.GET("/seasons/:name/chart", s.seasonChart, read)
}

func (s *Server) listSeasons(c echo.Context) error {
	list, err := s.svc.ListSeasonRules(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"seasons": nonNil(list)})
}

// createSeason stores a new version of a season's rules (201), or
// answers the latest when it has the same rules (200): sending the same
// rules twice stores them once.
func (s *Server) createSeason(c echo.Context) error {
	var in ledger.NewSeasonRules
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	sr, isNew, err := s.svc.CreateSeasonRules(c.Request().Context(), actorOf(c), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, fmt.Sprintf("/v1/seasons/%s?version=%d", sr.Name, sr.Version))
	if !isNew {
		return writeJSON(c, http.StatusOK, sr)
	}
	return writeJSON(c, http.StatusCreated, sr)
}

// seasonVersion reads the optional version (0: the latest).
func seasonVersion(c echo.Context) (int, error) {
	v, err := queryInt(c, "version", 0)
	return int(v), err
}

func (s *Server) getSeason(c echo.Context) error {
	version, err := seasonVersion(c)
	if err != nil {
		return err
	}
	format, err := reportFormat(c)
	if err != nil {
		return err
	}
	ctx, a := c.Request().Context(), actorOf(c)
	st, err := s.svc.SeasonTableForAll(ctx, a, c.Param("name"), version)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="wertung-%s-%d.csv"`, st.Name, st.Version))
		return render(c, "text/csv; charset=utf-8", func(b *bytes.Buffer) error { return report.SeasonCSV(b, st) })
	case "html":
		course, err := s.svc.SeasonCourse(ctx, a, st.Name, st.Version)
		if err != nil {
			return err
		}
		club, err := s.svc.FindClub(ctx, a)
		if err != nil {
			return err
		}
		return render(c, "text/html; charset=utf-8", func(b *bytes.Buffer) error { return report.SeasonHTML(b, club.Name, st, course) })
	}
	return writeJSON(c, http.StatusOK, st)
}

func (s *Server) seasonPlayer(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	version, err := seasonVersion(c)
	if err != nil {
		return err
	}
	remaining, err := queryInt(c, "remaining", 0)
	if err != nil {
		return err
	}
	line, err := s.svc.SeasonPlayer(c.Request().Context(), actorOf(c), c.Param("name"), version, id, int(remaining))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, line)
}

func (s *Server) seasonEvenings(c echo.Context) error {
	version, err := seasonVersion(c)
	if err != nil {
		return err
	}
	st, err := s.svc.SeasonTable(c.Request().Context(), actorOf(c), c.Param("name"), version)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"name": st.Name, "version": st.Version, "evening_winners": st.EveningWinners})
}

func (s *Server) seasonChart(c echo.Context) error {
	version, err := seasonVersion(c)
	if err != nil {
		return err
	}
	format := c.QueryParam("format")
	if format != "" && format != "svg" && format != "json" {
		return ledger.Invalid("format", "must be svg or json, got %q", format)
	}
	course, err := s.svc.SeasonCourse(c.Request().Context(), actorOf(c), c.Param("name"), version)
	if err != nil {
		return err
	}
	if format == "json" {
		return writeJSON(c, http.StatusOK, course)
	}
	return render(c, "image/svg+xml", func(b *bytes.Buffer) error { return report.SeasonSVG(b, course) })
}
