package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// linkNext sets the Link header of a full page: the same request asking
// for the items after the last one (its cursor), as rel="next". It
// returns the cursor for the body's next_after, nil on the last page.
func linkNext(c echo.Context, full bool, cursor int64) *int64 {
	if !full {
		return nil
	}
	u := *c.Request().URL
	q := u.Query()
	q.Set("after", strconv.FormatInt(cursor, 10))
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = "", ""
	c.Response().Header().Add("Link", fmt.Sprintf(`<%s>; rel="next"`, (&url.URL{Path: u.Path, RawQuery: u.RawQuery}).String()))
	return &cursor
}

// pageParams reads a list's after and limit, limit defaulting to def.
func pageParams(c echo.Context, def int64) (after int64, limit int, err error) {
	if after, err = queryInt(c, "after", 0); err != nil {
		return 0, 0, err
	}
	n, err := queryInt(c, "limit", def)
	return after, int(n), err
}

// defaultPage is how many items a page of players, tables, keys,
// tournaments or kitty bookings lists unless asked (the contract's
// default; its maximum is 500).
const defaultPage = 100

// listPage answers a list a page at a time: it reads after and limit,
// asks list for the page, and writes the items under name with the
// cursor of the next page (next_after and a Link header) when the page is
// full. id is an item's cursor.
func listPage[T any](c echo.Context, name string, list func(ledger.Page) ([]T, error), id func(T) int64) error {
	after, limit, err := pageParams(c, defaultPage)
	if err != nil {
		return err
	}
	p := ledger.Page{After: after, Limit: limit}
	items, err := list(p)
	if err != nil {
		return err
	}
	var last int64
	if len(items) > 0 {
		last = id(items[len(items)-1])
	}
	next := linkNext(c, len(items) == p.Limit, last)
	return writeJSON(c, http.StatusOK, map[string]any{name: nonNil(items), "next_after": next})
}
