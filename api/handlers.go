package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
	"github.com/stichbuch/stichbuch/ledger/score"
)

func (s *Server) healthz(c echo.Context) error {
	return writeJSON(c, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(c echo.Context) error {
	if err := s.store.Ping(c.Request().Context()); err != nil {
		return ledger.Errorf(ledger.EUNAVAILABLE, "the database does not answer")
	}
	return writeJSON(c, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) getClub(c echo.Context) error {
	club, err := s.store.FindClub(c.Request().Context(), actorOf(c))
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
	key, secret, err := s.store.CreateKey(c.Request().Context(), actorOf(c), in.Role, in.Label)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, struct {
		ledger.APIKey
		Secret string `json:"secret"`
	}{key, secret})
}

func (s *Server) listKeys(c echo.Context) error {
	keys, err := s.store.ListKeys(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"keys": nonNil(keys)})
}

func (s *Server) revokeKey(c echo.Context) error {
	id, err := pathID(c, "keyID")
	if err != nil {
		return err
	}
	key, err := s.store.RevokeKey(c.Request().Context(), actorOf(c), id)
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
	key, secret, err := s.store.RotateKey(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, struct {
		ledger.APIKey
		Secret string `json:"secret"`
	}{key, secret})
}

func (s *Server) listPlayers(c echo.Context) error {
	players, err := s.store.ListPlayers(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"players": nonNil(players)})
}

func (s *Server) createPlayer(c echo.Context) error {
	var in struct {
		Name string `json:"name"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	p, replayed, err := s.store.CreatePlayer(c.Request().Context(), actorOf(c), in.Name, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, p)
}

func (s *Server) listTables(c echo.Context) error {
	tables, err := s.store.ListTables(c.Request().Context(), actorOf(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"tables": nonNil(tables)})
}

func (s *Server) createTable(c echo.Context) error {
	var in struct {
		Name    string          `json:"name"`
		Game    string          `json:"game"`
		Preset  string          `json:"preset"`
		Options json.RawMessage `json:"options"`
		Stake   *string         `json:"stake_cents_per_point"`
		Mode    string          `json:"settle_mode"`
		Loss    int64           `json:"match_loss_cents"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	var stake score.Points
	if in.Stake != nil {
		if stake, err = score.Parse(*in.Stake); err != nil {
			return ledger.Invalid("stake_cents_per_point", "%v", err)
		}
	}
	t, replayed, err := s.store.CreateTable(c.Request().Context(), actorOf(c), ledger.NewTable{
		Name: in.Name, Game: in.Game, Preset: in.Preset, Options: in.Options, Stake: stake,
		SettleMode: in.Mode, MatchLossCents: in.Loss,
	}, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, t)
}

func (s *Server) getTable(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	t, err := s.store.FindTable(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, t)
}

func (s *Server) tableStandings(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	list, err := s.store.TableStandings(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"standings": nonNil(list)})
}

func (s *Server) listSessions(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	list, err := s.store.ListSessions(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"sessions": nonNil(list)})
}

func (s *Server) openSession(c echo.Context) error {
	id, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in struct {
		Date    string  `json:"date"`
		Seating []int64 `json:"seating"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	sess, replayed, err := s.store.OpenSession(c.Request().Context(), actorOf(c), id, in.Date, in.Seating, idempotency(c, body))
	if err != nil {
		return err
	}
	return created(c, replayed, sess)
}

func (s *Server) getSession(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	sess, err := s.store.FindSession(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, sess)
}

func (s *Server) closeSession(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	sess, err := s.store.CloseSession(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, sess)
}

func (s *Server) sessionStandings(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	list, err := s.store.SessionStandings(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"standings": nonNil(list)})
}

func (s *Server) recordHand(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	var in batchItem
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	idem := idempotency(c, body)
	if idem == nil && in.ID != "" {
		idem = handIdempotency(in) // the client-chosen id makes retries safe
	}
	h, replayed, err := s.store.RecordHand(c.Request().Context(), actorOf(c), ledger.NewHand{
		TableID: tableID, SessionID: in.SessionID, Number: in.Number, Facts: in.Facts,
	}, idem)
	if err != nil {
		return err
	}
	return created(c, replayed, h)
}

func (s *Server) listHands(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	page := ledger.Page{Limit: 50}
	if v := c.QueryParam("after"); v != "" {
		if page.After, err = strconv.ParseInt(v, 10, 64); err != nil || page.After < 0 {
			return ledger.Invalid("after", "must be a hand number of 0 or more")
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		if page.Limit, err = strconv.Atoi(v); err != nil || page.Limit < 1 || page.Limit > 200 {
			return ledger.Invalid("limit", "must be between 1 and 200")
		}
	}
	hands, err := s.store.ListHands(c.Request().Context(), actorOf(c), tableID, page)
	if err != nil {
		return err
	}
	var next *int
	if len(hands) == page.Limit {
		next = &hands[len(hands)-1].Number
	}
	return writeJSON(c, http.StatusOK, map[string]any{"hands": nonNil(hands), "next_after": next})
}

func (s *Server) getHand(c echo.Context) error {
	tableID, err := pathID(c, "tableID")
	if err != nil {
		return err
	}
	n, err := pathNumber(c)
	if err != nil {
		return err
	}
	h, err := s.store.FindHand(c.Request().Context(), actorOf(c), tableID, n)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(h.Revision))
	return writeJSON(c, http.StatusOK, h)
}

func (s *Server) listGames(c echo.Context) error {
	type game struct {
		Name         string          `json:"name"`
		ZeroSum      bool            `json:"zero_sum"`
		DefaultRules json.RawMessage `json:"default_rules"`
	}
	var list []game
	for _, name := range games.Names() {
		e, _ := games.Lookup(name)
		rules, err := e.Rules("", nil)
		if err != nil {
			return err
		}
		list = append(list, game{Name: name, ZeroSum: e.ZeroSum(), DefaultRules: rules})
	}
	return writeJSON(c, http.StatusOK, map[string]any{"games": list})
}

// scoreHand scores a hand of game without storing anything.
func (s *Server) scoreHand(game string) echo.HandlerFunc {
	return func(c echo.Context) error {
		var in struct {
			Preset  string          `json:"preset"`
			Options json.RawMessage `json:"options"`
			Players []int64         `json:"players"`
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
		res, _, err := ledger.Preview(game, in.Preset, in.Options, in.Players, in.Date, in.State, in.Facts)
		if err != nil {
			return err
		}
		return writeJSON(c, http.StatusOK, res)
	}
}

// decodeBody reads the body and decodes it strictly into v, returning the
// raw bytes for the idempotency hash.
func decodeBody(c echo.Context, v any) ([]byte, error) {
	body, err := readBody(c.Response(), c.Request().Body)
	if err != nil {
		return nil, err
	}
	if err := score.DecodeStrict("", body, v); err != nil {
		return nil, err
	}
	if field, ok := score.FindString(body, func(s string) bool { return strings.ContainsRune(s, 0) }); ok {
		// PostgreSQL's jsonb and text cannot hold it; refuse it here.
		return nil, ledger.Invalid(or(field, "body"), "must not contain the NUL character (\\u0000)")
	}
	return body, nil
}

// or returns s, or fallback when s is empty.
func or(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// created answers a create: 201 with the resource, marked when replayed.
func created(c echo.Context, replayed bool, v any) error {
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	return writeJSON(c, http.StatusCreated, v)
}

// pathNumber reads a hand's number from the path.
func pathNumber(c echo.Context) (int, error) {
	n, err := strconv.Atoi(c.Param("number"))
	if err != nil || n < 1 {
		return 0, ledger.Invalid("number", "must be a hand number from 1")
	}
	return n, nil
}

func pathID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id < 1 {
		return 0, ledger.Invalid(name, "must be a positive integer id")
	}
	return id, nil
}

// nonNil makes an empty list encode as [] rather than null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
