package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// writeTagged answers a GET with v and an ETag, or with 304 Not Modified
// when the request's If-None-Match names that ETag. The tag is a hash of
// the encoded body (SHA-256, its first 12 bytes), after prefix: it changes
// whenever the representation does, whatever changed it (a hand, a
// correction, a session opened, a player's name in a summary), which a
// version number of one row could not promise. The body is computed either
// way; a 304 saves the client the transfer and the parsing.
func writeTagged(c echo.Context, prefix string, v any) error {
	var body bytes.Buffer
	if err := jsonEncode(&body, v); err != nil {
		return err
	}
	sum := sha256.Sum256(body.Bytes())
	tag := `"` + prefix + hex.EncodeToString(sum[:12]) + `"`
	h := c.Response().Header()
	h.Set("ETag", tag)
	if matchesETag(c.Request().Header.Get("If-None-Match"), tag) {
		c.Response().WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	c.Response().WriteHeader(http.StatusOK)
	_, err := c.Response().Write(body.Bytes())
	return err
}

// matchesETag reports whether an If-None-Match header names tag: "*", or
// one of its comma-separated tags by the weak comparison (RFC 9110
// 13.1.2: W/ is ignored).
func matchesETag(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
