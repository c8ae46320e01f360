package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// Leaderboard defaults: the ratio orders need some hands to mean anything.
const (
	defaultRatioMinHands = 20
	defaultLeaderboard   = 50
	maxLeaderboard       = 500
	maxSeriesPlayers     = 50
)

// statsFilter reads the optional filters from, to, game and table.
func statsFilter(c echo.Context) (ledger.StatsFilter, error) {
	f := ledger.StatsFilter{From: c.QueryParam("from"), To: c.QueryParam("to"), Game: c.QueryParam("game")}
	if v := c.QueryParam("table"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return f, ledger.Invalid("table", "must be a positive table id")
		}
		f.TableID = id
	}
	return f, f.Check()
}

// queryInt reads an optional integer query parameter within [lo, hi].
func queryInt(c echo.Context, name string, def, lo, hi int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, ledger.Invalid(name, "must be an integer from %d to %d", lo, hi)
	}
	return n, nil
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
	ps, err := s.store.PlayerStats(c.Request().Context(), actorOf(c), id, f)
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
	p, err := s.store.PartnerStats(c.Request().Context(), actorOf(c), id, f)
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
	h, err := s.store.HeadToHead(c.Request().Context(), actorOf(c), id, other, f)
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
	by := c.QueryParam("by")
	if by == "" {
		by = ledger.ByPoints
	}
	def := 0
	if by == ledger.ByPointsPerHand || by == ledger.ByWinRate {
		def = defaultRatioMinHands
	}
	minHands, err := queryInt(c, "min_hands", def, 0, 1_000_000_000)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", defaultLeaderboard, 1, maxLeaderboard)
	if err != nil {
		return err
	}
	lb, err := s.store.Leaderboard(c.Request().Context(), actorOf(c), by, f, minHands, limit)
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
	var players []int64
	for _, v := range c.QueryParams()["player"] {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return ledger.Invalid("player", "must be a positive player id, got %q", v)
		}
		players = append(players, id)
	}
	if len(players) > maxSeriesPlayers {
		return ledger.Invalid("player", "at most %d players at once", maxSeriesPlayers)
	}
	series, err := s.store.PointsSeries(c.Request().Context(), actorOf(c), players, f)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"filter": f, "series": series})
}
