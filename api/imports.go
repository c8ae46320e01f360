package api

import (
	"encoding/base64"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// importRoutes adds the old lists' import (issue 30).
func (s *Server) importRoutes(v1 *echo.Group, admin echo.MiddlewareFunc) {
	v1.POST("/imports", s.importOldLists, admin)
}

// importOldLists reads a file of old lists (base64, as it lies on disk:
// UTF-8 or Windows-1252) and stores its evenings: 201 when it stored
// them, 200 for a dry run or a file imported before.
func (s *Server) importOldLists(c echo.Context) error {
	var in struct {
		FileName string `json:"file_name"`
		Content  string `json:"content_base64"`
		DryRun   bool   `json:"dry_run"`
	}
	if _, err := decodeBody(c, &in); err != nil {
		return err
	}
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return ledger.Invalid("content_base64", "must be the file in base64 (RFC 4648)")
	}
	pv, err := s.svc.ImportOldLists(c.Request().Context(), actorOf(c), ledger.OldListImport{FileName: in.FileName, Content: raw, DryRun: in.DryRun})
	if err != nil {
		return err
	}
	if pv.Stored {
		return writeJSON(c, http.StatusCreated, pv)
	}
	return writeJSON(c, http.StatusOK, pv)
}
