package api

import (
	"bytes"
	"mime"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/api/report"
	"github.com/stichbuch/stichbuch/ledger"
)

func (s *Server) sessionReport(c echo.Context) error {
	id, err := pathID(c, "sessionID")
	if err != nil {
		return err
	}
	format, err := reportFormat(c)
	if err != nil {
		return err
	}
	r, err := s.svc.Report(c.Request().Context(), actorOf(c), id)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return render(c, "text/csv; charset=utf-8", func(b *bytes.Buffer) error { return report.CSV(b, r) })
	case "html":
		return render(c, "text/html; charset=utf-8", func(b *bytes.Buffer) error { return report.HTML(b, r) })
	}
	return writeJSON(c, http.StatusOK, r)
}

func (s *Server) eveningReport(c echo.Context) error {
	format, err := reportFormat(c)
	if err != nil {
		return err
	}
	date := c.QueryParam("date")
	if date == "" {
		club, err := s.svc.FindClub(c.Request().Context(), actorOf(c))
		if err != nil {
			return err
		}
		date = ledger.Today(s.now(), club.TimeZone)
	}
	r, err := s.svc.EveningReport(c.Request().Context(), actorOf(c), date)
	if err != nil {
		return err
	}
	switch format {
	case "csv":
		return render(c, "text/csv; charset=utf-8", func(b *bytes.Buffer) error { return report.EveningCSV(b, r) })
	case "html":
		return render(c, "text/html; charset=utf-8", func(b *bytes.Buffer) error { return report.EveningHTML(b, r) })
	}
	return writeJSON(c, http.StatusOK, r)
}

// reportFormat picks json, csv or html: ?format= wins, then Accept.
func reportFormat(c echo.Context) (string, error) {
	if f := c.QueryParam("format"); f != "" {
		switch f {
		case "json", "csv", "html":
			return f, nil
		}
		return "", ledger.Invalid("format", "must be json, csv or html, got %q", f)
	}
	for _, part := range strings.Split(c.Request().Header.Get("Accept"), ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "text/csv":
			return "csv", nil
		case "text/html":
			return "html", nil
		case "application/json":
			return "json", nil
		}
	}
	return "json", nil
}

// render writes a rendered body only once rendering succeeded, so a failure
// is a clean problem rather than half a page.
func render(c echo.Context, contentType string, fn func(*bytes.Buffer) error) error {
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		return err
	}
	return c.Blob(http.StatusOK, contentType, b.Bytes())
}
