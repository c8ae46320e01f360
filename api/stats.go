package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// defaultRatioMinHands is the leaderboard's min_hands for the ratio
// orders, which need some hands to mean anything.
const defaultRatioMinHands = 20

// defaultLeaderboard is how many entries a leaderboard lists unless asked.
const defaultLeaderboard = 50

// statsFilter reads the optional filters from, to, game and table.
func statsFilter(c echo.Context) (ledger.StatsFilter, error) {
	f := ledger.StatsFilter{From: c.QueryParam("from"), To: c.QueryParam("to"), Game: c.QueryParam("game")}
	var err error
	if f.TableID, err = queryInt(c, "table_id", 0); err != nil {
		return f, err
	}
	return f, f.Check()
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
	by := ledger.LeaderboardOrder(c.QueryParam("by"))
	if by == "" {
		by = ledger.ByPoints
	}
	var def int64
	if by == ledger.ByPointsPerHand || by == ledger.ByWinRate {
		def = defaultRatioMinHands
	}
	minHands, err := queryInt(c, "min_hands", def)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", defaultLeaderboard)
	if err != nil {
		return err
	}
	q := ledger.LeaderboardQuery{By: by, Filter: f, MinHands: int(min(minHands, 1<<31-1)), Limit: int(limit), Mix: c.QueryParam("mix") == "true"}
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
