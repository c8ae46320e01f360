package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
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
	for i := range list {
		list[i] = publicChange(list[i])
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

// dataNames are the members of a change's stored data that the API sends
// under another name. The feed keeps its data as it was written (history
// is append-only, and a backup carries it as stored), with references
// named bare ("tournament", "seating"); the API names every reference
// with _id, a list of them with _ids.
var dataNames = map[string]string{
	"seating":    "player_ids",
	"tournament": "tournament_id",
	"booking":    "booking_id",
	"transfer":   "transfer_id",
}

// roundTableNames are the members of each of a round's "tables" in a
// change's stored data that the API sends under another name.
var roundTableNames = map[string]string{"table": "table_id", "session": "session_id"}

// publicChange returns a change as the API sends it (the change list and
// the event streams): its data's references renamed (dataNames). Data that
// is not an object is sent as stored.
func publicChange(c ledger.Change) ledger.Change {
	var data map[string]json.RawMessage
	if json.Unmarshal(c.Data, &data) != nil || data == nil {
		return c
	}
	out := make(map[string]json.RawMessage, len(data))
	for k, v := range data {
		if k == "tables" {
			v = renameEach(v, roundTableNames)
		}
		if name, ok := dataNames[k]; ok {
			k = name
		}
		out[k] = v
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return c
	}
	c.Data = raw
	return c
}

// renameEach renames the members of each object of a JSON array; anything
// else it returns as it is.
func renameEach(raw json.RawMessage, names map[string]string) json.RawMessage {
	var list []map[string]json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return raw
	}
	for i, m := range list {
		renamed := make(map[string]json.RawMessage, len(m))
		for k, v := range m {
			if name, ok := names[k]; ok {
				k = name
			}
			renamed[k] = v
		}
		list[i] = renamed
	}
	out, err := json.Marshal(list)
	if err != nil {
		return raw
	}
	return out
}
