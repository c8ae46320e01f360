package api

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

const actorKey = "stichbuch.actor"

// auth resolves the request's API key and requires at least role need.
func (s *Server) auth(need ledger.Role) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			header := c.Request().Header.Get(echo.HeaderAuthorization)
			token, ok := strings.CutPrefix(header, "Bearer ")
			if !ok || token == "" {
				return ledger.Errorf(ledger.EUNAUTHORIZED, "send the club's API key as `Authorization: Bearer <key>`")
			}
			actor, err := s.svc.Authenticate(c.Request().Context(), strings.TrimSpace(token))
			if err != nil {
				return err
			}
			if err := s.allow(actor); err != nil {
				return err
			}
			if !actor.Role.Includes(need) {
				return ledger.Errorf(ledger.EFORBIDDEN, "this needs a %s key; yours is a %s key", need, actor.Role)
			}
			c.Set(actorKey, actor)
			return next(c)
		}
	}
}

// allow applies the per-key rate limit.
func (s *Server) allow(a ledger.Actor) error {
	if s.limiter == nil {
		return nil
	}
	ok, err := s.limiter.Allow(fmt.Sprintf("%d/%d", a.ClubID, a.KeyID))
	if err != nil || !ok {
		return ledger.Errorf(ledger.ERATELIMIT, "too many requests with this API key; retry after a second")
	}
	return nil
}

func actorOf(c echo.Context) ledger.Actor {
	a, _ := c.Get(actorKey).(ledger.Actor)
	return a
}

// idempotency returns the request's Idempotency-Key with a hash of what
// makes the request this request: method, path and body. Nil without a key.
func idempotency(c echo.Context, body []byte) *ledger.Idempotency {
	key := c.Request().Header.Get("Idempotency-Key")
	if key == "" {
		return nil
	}
	return &ledger.Idempotency{Key: key, Hash: hashBytes([]byte(c.Request().Method+" "+c.Request().URL.Path+"\n"), body)}
}

// hashBytes is the SHA-256 of the parts, one after the other.
func hashBytes(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}
