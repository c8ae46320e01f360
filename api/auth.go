package api

import (
	"crypto/sha256"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

const actorKey = "stichbuch.actor"

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
