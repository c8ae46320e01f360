package api

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// The contract (openapi.yaml) owns the type and range of every path and
// query parameter: requests are checked against it before a handler runs,
// so a handler only reads the values. A value that does not parse here got
// past a contract that forgot to state its type, and is refused as such.

// pathID reads a positive id from the path.
func pathID(c echo.Context, name string) (int64, error) {
	return parseInt(name, c.Param(name))
}

// pathHand reads the table and the hand's number of a hand's path
// (/v1/tables/{tableID}/hands/{number}/…).
func pathHand(c echo.Context) (tableID int64, number int, err error) {
	if tableID, err = pathID(c, "tableID"); err != nil {
		return 0, 0, err
	}
	n, err := parseInt("number", c.Param("number"))
	return tableID, int(n), err
}

// queryInt reads an optional integer query parameter, def when absent.
func queryInt(c echo.Context, name string, def int64) (int64, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	return parseInt(name, v)
}

// queryOptionalInt reads an optional integer query parameter, nil when
// absent (the ledger knows its default).
func queryOptionalInt(c echo.Context, name string) (*int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	n, err := parseInt(name, v)
	if err != nil {
		return nil, err
	}
	i := int(n)
	return &i, nil
}

// queryIDs reads a repeated query parameter of ids.
func queryIDs(c echo.Context, name string) ([]int64, error) {
	var ids []int64
	for _, v := range c.QueryParams()[name] {
		id, err := parseInt(name, v)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func parseInt(name, v string) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, ledger.Invalid(name, "must be an integer, got %q", v)
	}
	return n, nil
}
