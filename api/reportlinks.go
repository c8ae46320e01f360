package api

import (
	"bytes"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/api/report"
)

// reportLink answers the stable addresses of a session's report for the
// request's key: the printable page and the CSV, which a browser opens
// without the key (ledger.ReportLink).
func (s *Server) reportLink(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	token, err := s.svc.ReportLink(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	path := "/v1/report-links/" + url.PathEscape(token)
	return writeJSON(c, http.StatusOK, map[string]any{
		"session_id": id,
		"html_url":   path + "?format=html",
		"csv_url":    path + "?format=csv",
	})
}

// openReportLink serves a session's report by its stable link: HTML (the
// default) or CSV, authorised by the key the link was made with.
func (s *Server) openReportLink(c echo.Context) error {
	format := c.QueryParam("format")
	if format == "" {
		format = "html"
	}
	a, sessionID, err := s.svc.OpenReportLink(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	r, err := s.svc.Report(c.Request().Context(), a, sessionID)
	if err != nil {
		return err
	}
	if format == "csv" {
		c.Response().Header().Set("Content-Disposition", `attachment; filename="stichbuch-`+r.Session.Date+`.csv"`)
		return render(c, "text/csv; charset=utf-8", func(b *bytes.Buffer) error { return report.CSV(b, r) })
	}
	return render(c, "text/html; charset=utf-8", func(b *bytes.Buffer) error { return report.HTML(b, r) })
}
