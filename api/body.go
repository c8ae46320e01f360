package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

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

// nonNil makes an empty list encode as [] rather than null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
