package api

import (
	"context"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// DefaultRequestTimeout bounds a request's work when Config.RequestTimeout
// is 0: long enough for a failover of the database (Patroni's ttl of 10 s
// and the reconnect), short enough that a phone's outbox hears 503 with
// Retry-After instead of waiting on a dead connection.
const DefaultRequestTimeout = 15 * time.Second

// boundRequests gives each request's context the deadline of
// cfg.RequestTimeout: a request still waiting for the database then ends
// with 503 and Retry-After (problemOf maps the deadline). Event streams,
// which are long by design, are not bounded.
func (s *Server) boundRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.cfg.RequestTimeout < 0 || strings.HasSuffix(c.Request().URL.Path, "/events") {
			return next(c)
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), s.cfg.RequestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		// The problem is written here, while the request's context lives:
		// writing it reads the club's names for its hint, and echo's error
		// handler would run only after cancel.
		if err := next(c); err != nil {
			c.Error(err)
		}
		return nil
	}
}
