package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// MaxBodyBytes is the largest request body accepted.
const MaxBodyBytes = 1 << 20

var errBodyTooLarge = errors.New("request body too large")

// MaxDepth is how deeply a request's JSON may nest: far more than any
// hand's facts need, far less than what makes a decoder crawl.
const MaxDepth = 64

// limitBody refuses bodies over MaxBodyBytes with 413, whether announced by
// Content-Length or discovered while reading, and bodies nested deeper than
// MaxDepth with 422, before anything decodes them. It runs after the API
// key is checked (guard).
func limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.ContentLength > MaxBodyBytes {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB")
		}
		if req.Body == nil || req.Body == http.NoBody {
			return next(c)
		}
		body, err := readBody(c.Response(), req.Body)
		if err != nil {
			return err
		}
		if depth(body) > MaxDepth {
			return ledger.Invalid("body", "is nested deeper than %d levels", MaxDepth)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		return next(c)
	}
}

// depth is how deeply a JSON text nests its arrays and objects (strings
// are skipped; the text need not be valid).
func depth(body []byte) int {
	deepest, level, inString, escaped := 0, 0, false, false
	for _, b := range body {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			level++
			deepest = max(deepest, level)
		case b == ']' || b == '}':
			level--
		}
	}
	return deepest
}

// readBody reads a request body of at most MaxBodyBytes. A failed read is
// the client's: 413 for a larger body, 408 for one that did not arrive
// within the server's read timeout, 400 for one that ended before its
// Content-Length or is malformed (a broken chunked encoding).
func readBody(w http.ResponseWriter, r io.ReadCloser) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r, MaxBodyBytes))
	if err == nil {
		return body, nil
	}
	var maxErr *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &maxErr):
		return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB")
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, echo.NewHTTPError(http.StatusRequestTimeout, "the request body did not arrive within the read timeout")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, echo.NewHTTPError(http.StatusBadRequest, "the request body ended before its Content-Length")
	}
	return nil, echo.NewHTTPError(http.StatusBadRequest, "the request body could not be read: "+err.Error())
}

// decodeBody reads the body and decodes it strictly into v, returning the
// raw bytes for the idempotency hash.
func decodeBody(c echo.Context, v any) ([]byte, error) {
	body, err := readBody(c.Response(), c.Request().Body)
	if err != nil {
		return nil, err
	}
	if !json.Valid(body) {
		return nil, &ledger.Error{Code: codeMalformed, Message: "the body is not well-formed JSON (a single JSON value)",
			Field: "body", Rule: "must be well-formed JSON"}
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

// or returns v, or fallback when v is the zero value.
func or[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

// created answers a create: 201 with the resource and its Location (the
// path to GET it), marked when replayed.
func created(c echo.Context, replayed bool, location string, v any) error {
	c.Response().Header().Set(echo.HeaderLocation, location)
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
