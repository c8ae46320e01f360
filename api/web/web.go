// Package web owns the score app "Der Tisch": the HTML, ES modules, CSS,
// service worker, manifest and icon that stichbuch serves at / and under
// /app/. The files are plain sources embedded into the binary; there is no
// build step, so `go run ./cmd/stichbuch serve` serves the app as edited.
package web

import (
	"embed"
	"io/fs"
	"mime"
	"path"
)

//go:embed static
var files embed.FS

// File returns the embedded file name (as "app.js", "index.html") and its
// media type, or ok=false when the app has no such file.
func File(name string) (body []byte, mediaType string, ok bool) {
	if !fs.ValidPath(name) || name == "." {
		return nil, "", false
	}
	body, err := files.ReadFile(path.Join("static", name))
	if err != nil {
		return nil, "", false
	}
	return body, typeOf(name), true
}

// Names lists the app's files, for the service worker's offline shell and
// the tests.
func Names() []string {
	var out []string
	entries, _ := files.ReadDir("static")
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func typeOf(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".webmanifest":
		return "application/manifest+json"
	case ".svg":
		return "image/svg+xml"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}
