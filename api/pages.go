package api

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"
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
