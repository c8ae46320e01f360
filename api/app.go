package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/stichbuch/stichbuch/api/web"
	"github.com/stichbuch/stichbuch/ledger"
)

// appRoutes serves the score app (package web) without a key: the page at
// /, the service worker and manifest at the root (a worker's scope is its
// own folder) and the other files under /app/. Everything is gzip-compressed
// for clients that accept it; the app's JSON comes from /v1 as usual.
func (s *Server) appRoutes() {
	gz := middleware.GzipWithConfig(middleware.GzipConfig{Level: 6})
	s.echo.GET("/", s.appFile("index.html", "no-cache"), gz)
	s.echo.GET("/sw.js", s.appFile("sw.js", "no-cache"), gz)
	s.echo.GET("/manifest.webmanifest", s.appFile("manifest.webmanifest", "no-cache"), gz)
	s.echo.GET("/app/:file", func(c echo.Context) error {
		return s.appFile(c.Param("file"), "no-cache")(c)
	}, gz, validateRequests(s.router))
}

// appFile answers with one embedded file of the app. The files change with
// the binary, so clients revalidate (no-cache) and the service worker keeps
// the copy it has for offline use.
func (s *Server) appFile(name, cache string) echo.HandlerFunc {
	return func(c echo.Context) error {
		body, mediaType, ok := web.File(name)
		if !ok || name == "sw.js" && c.Path() != "/sw.js" {
			return ledger.Errorf(ledger.ENOTFOUND, "the app has no file %q", name)
		}
		h := c.Response().Header()
		h.Set("Cache-Control", cache)
		h.Set("X-Content-Type-Options", "nosniff")
		return c.Blob(http.StatusOK, mediaType, body)
	}
}
