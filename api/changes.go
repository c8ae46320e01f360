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
	var next *int64
	if len(list) > 0 {
		next = &list[len(list)-1].Seq
	}
	return writeJSON(c, http.StatusOK, map[string]any{"changes": list, "next_after": next})
}
