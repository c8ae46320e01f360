// Package api is stichbuch's HTTP adapter (echo v4): routes, handlers,
// API-key auth, idempotent writes, request validation against openapi.yaml,
// and the one table that maps domain errors to problem documents.
package api

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
)

// Server is the HTTP API over a ledger store.
type Server struct {
	svc      *ledger.Service
	log      *slog.Logger
	echo     *echo.Echo
	router   routers.Router
	now      func() time.Time
	cfg      Config
	limiter  *middleware.RateLimiterMemoryStore // nil: no limit
	failures *authFailures
	// hubs fan the change feed out to the event streams, streams counts
	// and ends them.
	hubs    *hubs
	streams *streamLimits
	setup   firstRun
}

// Config tunes the API.
type Config struct {
	// RateLimit is how many requests per second one API key may make on
	// average (bursts of twice that pass); 0 means no limit.
	RateLimit int
	// Notifier tells event streams about changes committed by any
	// instance of the service (PostgreSQL LISTEN/NOTIFY); without one they
	// see this instance's writes at once and others' every keep-alive.
	Notifier ledger.Notifier
	// StreamsPerKey and StreamsPerClub are how many event streams one key
	// and one club may have open on this instance (0: the defaults).
	StreamsPerKey, StreamsPerClub int
	// ReplayLimit is how many events of backlog one stream request sends
	// before it asks the client to reconnect (0: the default).
	ReplayLimit int
	// AuthFailures limits failed authentications (zero fields: the
	// defaults, DefaultFailureLimits).
	AuthFailures FailureLimits
	// SetupToken, when set, lets POST /v1/setup create the first club
	// once (serve sets it while the database has no club).
	SetupToken string
	// Network is how phones reach the service: the address links carry,
	// the trusted proxies, whether HTTPS is configured.
	Network Network
	// Observer, when set, hears every answered request and what the
	// ledger made of the hands written (the metrics).
	Observer Observer
	// RequestTimeout bounds each request but the event streams: past it
	// the answer is 503 with Retry-After (0: DefaultRequestTimeout,
	// negative: no bound).
	RequestTimeout time.Duration
}

// DefaultConfig is what serve uses unless told otherwise: far above what a
// score app at a table sends, low enough to stop a runaway client.
var DefaultConfig = Config{RateLimit: 50}

// New builds the API over the ledger's use-cases. It fails only if
// openapi.yaml is broken.
func New(svc *ledger.Service, log *slog.Logger, cfg Config) (*Server, error) {
	router, err := RequestRouter()
	if err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client's address is the connection's peer (or what a trusted
	// proxy names): the failed-auth limit counts by it, and a header from
	// anyone else would let a client choose it.
	e.IPExtractor = cfg.Network.ipExtractor()
	cfg.StreamsPerKey = or(cfg.StreamsPerKey, DefaultStreamsPerKey)
	cfg.StreamsPerClub = or(cfg.StreamsPerClub, DefaultStreamsPerClub)
	cfg.ReplayLimit = or(cfg.ReplayLimit, DefaultReplayLimit)
	cfg.RequestTimeout = or(cfg.RequestTimeout, DefaultRequestTimeout)
	s := &Server{svc: svc, log: log, echo: e, router: router, now: time.Now, cfg: cfg, failures: newAuthFailures(cfg.AuthFailures),
		hubs: newHubs(svc, cfg.Notifier, log), streams: newStreamLimits(cfg.StreamsPerKey, cfg.StreamsPerClub),
		setup: firstRun{token: cfg.SetupToken}}
	e.HTTPErrorHandler = s.errorHandler(log)
	if cfg.RateLimit > 0 {
		s.limiter = middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(cfg.RateLimit), Burst: 2 * cfg.RateLimit, ExpiresIn: 5 * time.Minute,
		})
	}

	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			log.Error("panic", "path", c.Request().URL.Path, "err", err, "stack", string(stack))
			return ledger.Errorf(ledger.EINTERNAL, "panic: %v", err)
		},
	}))
	e.Use(s.logRequests)
	e.Use(s.boundRequests)
	e.Use(s.secureTransport)
	s.routes()
	return s, nil
}

// EndStreams ends every open event stream with a final `shutdown` event
// and refuses new ones; it returns once they have ended or ctx has. A
// shutdown calls it before it drains the other requests, which streams
// would otherwise hold open until the drain gives up.
func (s *Server) EndStreams(ctx context.Context) error { return s.streams.shutdown(ctx) }

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Routes lists every route as "METHOD /path/{param}" for the contract test.
func (s *Server) Routes() []string {
	var out []string
	for _, r := range s.echo.Routes() {
		if r.Method == echo.RouteNotFound || r.Path == "/*" {
			continue
		}
		out = append(out, r.Method+" "+openAPIPath(r.Path))
	}
	return out
}

func (s *Server) routes() {
	e := s.echo
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/openapi.yaml", s.getSpec)
	e.GET("/docs", s.getDocs)
	s.appRoutes()

	v1 := e.Group("/v1")
	// Each route names the role it needs and how much of the club it
	// reaches (ledger.Scope), which limits a key that is for one table.
	g := func(need ledger.Role, scope ledger.Scope) echo.MiddlewareFunc { return s.guard(need, scope) }
	const reader, scorer, admin = ledger.RoleReader, ledger.RoleScorer, ledger.RoleAdmin
	const club, table, session, shared = ledger.ScopeClub, ledger.ScopeTable, ledger.ScopeSession, ledger.ScopeShared
	v1.GET("/club", s.getClub, g(reader, shared))
	v1.GET("/keys", s.listKeys, g(admin, club))
	v1.POST("/keys", s.createKey, g(admin, club))
	v1.GET("/keys/:keyID", s.getKey, g(admin, club))
	v1.POST("/keys/:keyID/revoke", s.revokeKey, g(admin, club))
	v1.POST("/keys/:keyID/rotate", s.rotateKey, g(admin, club))
	v1.POST("/joins/:code", s.redeemJoin, s.unkeyed())
	v1.POST("/setup", s.createFirstClub, s.unkeyed())
	v1.GET("/players", s.listPlayers, g(reader, shared))
	v1.POST("/players", s.createPlayer, g(scorer, shared))
	v1.GET("/players/:playerID", s.getPlayer, g(reader, shared))
	v1.PATCH("/players/:playerID", s.updatePlayer, g(scorer, club))
	v1.GET("/tables", s.listTables, g(reader, shared))
	v1.POST("/tables", s.createTable, g(admin, club))
	v1.GET("/tables/:tableID", s.getTable, g(reader, table))
	v1.PATCH("/tables/:tableID", s.updateTable, g(admin, table))
	v1.POST("/tables/:tableID/joins", s.createJoin, g(admin, table))
	v1.GET("/tables/:tableID/standings", s.tableStandings, g(reader, table))
	v1.GET("/tables/:tableID/sessions", s.listSessions, g(reader, table))
	v1.POST("/tables/:tableID/sessions", s.openSession, g(scorer, table))
	v1.GET("/tables/:tableID/hands", s.listHands, g(reader, table))
	v1.POST("/tables/:tableID/hands", s.recordHand, g(scorer, table))
	v1.GET("/tables/:tableID/hands/:number", s.getHand, g(reader, table))
	v1.POST("/tables/:tableID/hands/batch", s.recordBatch, g(scorer, table))
	v1.POST("/tables/:tableID/hands/:number/corrections", s.correctHand, g(scorer, table))
	v1.GET("/tables/:tableID/hands/:number/revisions", s.handRevisions, g(reader, table))
	v1.POST("/tables/:tableID/hands/:number/undo", s.undoHand, g(scorer, table))
	v1.GET("/tables/:tableID/events", s.streamEvents(true), g(reader, table))
	v1.GET("/events", s.streamEvents(false), g(reader, club))
	v1.GET("/changes", s.listChanges, g(reader, club))
	v1.GET("/sessions", s.listSessions, g(reader, club))
	v1.GET("/sessions/:sessionID", s.getSession, g(reader, session))
	v1.POST("/sessions/:sessionID/close", s.closeSession, g(scorer, session))
	v1.GET("/sessions/:sessionID/standings", s.sessionStandings, g(reader, session))
	v1.GET("/sessions/:sessionID/settlement", s.getSettlement, g(reader, session))
	v1.GET("/sessions/:sessionID/report", s.sessionReport, g(reader, session))
	v1.GET("/sessions/:sessionID/report-link", s.reportLink, g(reader, session))
	v1.GET("/report-links/:token", s.openReportLink, s.unkeyed())
	v1.GET("/reports/evening", s.eveningReport, g(reader, club))
	v1.GET("/transfers", s.listTransfers, g(reader, club))
	v1.POST("/transfers/:transferID/paid", s.markTransferPaid, g(scorer, club))
	v1.POST("/transfers/:transferID/unpaid", s.undoTransferPaid, g(scorer, club))
	v1.GET("/players/:playerID/balance", s.playerBalance, g(reader, club))
	v1.GET("/kitty", s.getKitty, g(reader, club))
	v1.GET("/kitty/bookings", s.listKittyBookings, g(reader, club))
	v1.POST("/kitty/bookings", s.bookKitty, g(admin, club))
	v1.GET("/stats/players/:playerID", s.playerStats, g(reader, club))
	v1.GET("/stats/players/:playerID/partners", s.partnerStats, g(reader, club))
	v1.GET("/stats/players/:playerID/versus/:otherID", s.headToHead, g(reader, club))
	v1.GET("/stats/leaderboard", s.leaderboard, g(reader, club))
	v1.GET("/stats/series", s.pointsSeries, g(reader, club))
	s.tournamentRoutes(v1, g(reader, club), g(scorer, club))
	s.seasonRoutes(v1, g(reader, club), g(admin, club))
	s.importRoutes(v1, g(admin, club))
	v1.GET("/games", s.listGames, g(reader, shared))
	for _, game := range games.Names() {
		v1.POST("/games/"+game+"/score", s.scoreHand(game), g(reader, shared))
	}
}

// logRequests writes one slog line per request.
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		status := c.Response().Status
		took := time.Since(start)
		s.observeRequest(c, status, took)
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		s.log.Log(c.Request().Context(), level, "request",
			"method", c.Request().Method, "path", c.Request().URL.Path, "status", status,
			"bytes", c.Response().Size, "took", took.Round(time.Microsecond))
		return nil
	}
}

// jsonEncode writes v as JSON and a newline, HTML not escaped. A hand
// (every hand write's answer) is written as its MarshalJSON gives it,
// compact from json.Marshal: the encoder would only scan it again.
func jsonEncode(w io.Writer, v any) error {
	if h, ok := v.(ledger.Hand); ok {
		b, err := h.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeJSON writes v as the response with status.
func writeJSON(c echo.Context, status int, v any) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().WriteHeader(status)
	return jsonEncode(c.Response(), v)
}

// openAPIPath turns echo's "/tables/:tableID" into "/tables/{tableID}".
func openAPIPath(p string) string {
	out := []byte{}
	for i := 0; i < len(p); i++ {
		if p[i] != ':' {
			out = append(out, p[i])
			continue
		}
		j := i + 1
		for j < len(p) && p[j] != '/' {
			j++
		}
		out = append(out, '{')
		out = append(out, p[i+1:j]...)
		out = append(out, '}')
		i = j - 1
	}
	return string(out)
}
