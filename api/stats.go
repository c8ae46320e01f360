package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// statsFilter reads the optional filters from, to, game and table; the
// ledger checks them.
func statsFilter(c echo.Context) (ledger.StatsFilter, error) {
	f := ledger.StatsFilter{From: c.QueryParam("from"), To: c.QueryParam("to"), Game: c.QueryParam("game")}
	var err error
	f.TableID, err = queryInt(c, "table_id", 0)
	return f, err
}

func (s *Server) playerStats(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	f, err := statsFilter(c)
	if err != nil {
		return err
	}
	ps, err := s.svc.PlayerStats(c.Request().Context(), actorOf(c), id, f)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, ps)
}

func (s *Server) partnerStats(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	f, err := statsFilter(c)
	if err != nil {
		return err
	}
	p, err := s.svc.PartnerStats(c.Request().Context(), actorOf(c), id, f)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, p)
}

func (s *Server) headToHead(c echo.Context) error {
	id, err := pathID(c, "playerID")
	if err != nil {
		return err
	}
	other, err := pathID(c, "otherID")
	if err != nil {
		return err
	}
	f, err := statsFilter(c)
	if err != nil {
		return err
	}
	h, err := s.svc.HeadToHead(c.Request().Context(), actorOf(c), id, other, f)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, h)
}

func (s *Server) leaderboard(c echo.Context) error {
	f, err := statsFilter(c)
	if err != nil {
		return err
	}
	q := ledger.LeaderboardQuery{By: ledger.LeaderboardOrder(c.QueryParam("by")), Filter: f, Mix: c.QueryParam("mix") == "true"}
	if q.MinHands, err = queryOptionalInt(c, "min_hands"); err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", 0)
	if err != nil {
		return err
	}
	q.Limit = int(limit)
	lb, err := s.svc.Leaderboard(c.Request().Context(), actorOf(c), q)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, lb)
}

func (s *Server) pointsSeries(c echo.Context) error {
	f, err := statsFilter(c)
	if err != nil {
		return err
	}
	players, err := queryIDs(c, "player_id")
	if err != nil {
		return err
	}
	series, err := s.svc.PointsSeries(c.Request().Context(), actorOf(c), players, f)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"filter": f, "series": series})
}
