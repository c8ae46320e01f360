package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// correctHand records a correction of a past hand. The request names the
// revision it corrects in If-Match ("2" or the ETag "\"2\"").
func (s *Server) correctHand(c echo.Context) error {
	tableID, number, err := pathHand(c)
	if err != nil {
		return err
	}
	revision, err := ifMatchRevision(c.Request().Header.Get("If-Match"))
	if err != nil {
		return err
	}
	var in struct {
		Facts  json.RawMessage `json:"facts"`
		Void   bool            `json:"void"`
		Reason string          `json:"reason"`
	}
	body, err := decodeBody(c, &in)
	if err != nil {
		return err
	}
	res, replayed, err := s.svc.CorrectHand(c.Request().Context(), actorOf(c), ledger.Correction{
		TableID: tableID, Number: number, Revision: revision, Facts: in.Facts, Void: in.Void, Reason: in.Reason,
	}, idempotency(c, body))
	kind := CorrectionFacts
	if in.Void {
		kind = CorrectionVoid
	}
	s.observeCorrection(kind, replayed, err)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(res.Hand.Revision))
	return created(c, replayed, handPath(res.Hand), res)
}

func (s *Server) handRevisions(c echo.Context) error {
	tableID, number, err := pathHand(c)
	if err != nil {
		return err
	}
	list, err := s.svc.HandRevisions(c.Request().Context(), actorOf(c), tableID, number)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"revisions": list})
}

// ifMatchRevision reads the revision a correction corrects, from "2" or a
// hand's ETag ("2.<hash>", the revision before the dot); 0 when the
// header is missing, which the ledger refuses (428).
func ifMatchRevision(header string) (int, error) {
	if header == "" {
		return 0, nil
	}
	v := strings.Trim(strings.TrimPrefix(strings.TrimSpace(header), "W/"), `"`)
	v, _, _ = strings.Cut(v, ".") // a GET's ETag: "2.<hash>"
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, ledger.Invalid("If-Match", "must be the hand's revision, e.g. \"1\", got %q", header)
	}
	return n, nil
}

func etag(revision int) string { return `"` + strconv.Itoa(revision) + `"` }

// undoHand takes back the last hand that counts (POST
// /v1/tables/{tableID}/hands/{number}/undo): 200 with the voided hand and
// the next hand, the same again for a hand already void.
func (s *Server) undoHand(c echo.Context) error {
	tableID, number, err := pathHand(c)
	if err != nil {
		return err
	}
	res, replayed, err := s.svc.UndoHand(c.Request().Context(), actorOf(c), tableID, number)
	s.observeCorrection(CorrectionUndo, replayed, err)
	if err != nil {
		return err
	}
	if replayed {
		c.Response().Header().Set("Idempotent-Replayed", "true")
	}
	c.Response().Header().Set("ETag", etag(res.Hand.Revision))
	return writeJSON(c, http.StatusOK, res)
}
