package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// defaultChangesPage is how many changes a page lists unless asked.
const defaultChangesPage = 100

func (s *Server) listChanges(c echo.Context) error {
	after, err := queryInt(c, "after", 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", defaultChangesPage)
	if err != nil {
		return err
	}
	list, err := s.svc.Changes(c.Request().Context(), actorOf(c), after, int(limit), 0)
	if err != nil {
		return err
	}
	// next_after names the last change of any page, as a feed is polled
	// from it; the Link header only follows a full page.
	var next *int64
	if len(list) > 0 {
		next = &list[len(list)-1].Seq
		linkNext(c, len(list) == int(limit), *next)
	}
	return writeJSON(c, http.StatusOK, map[string]any{"changes": list, "next_after": next})
}
