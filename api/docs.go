package api

import (
	"bytes"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
)

// getSpec serves the contract this build embeds (GET /openapi.yaml).
func (s *Server) getSpec(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/yaml", Spec())
}

// getDocs serves the contract as a page for people (GET /docs), rendered
// from the embedded openapi.yaml by html/template: no script, nothing
// loaded from elsewhere.
func (s *Server) getDocs(c echo.Context) error {
	doc, _, err := LoadSpec()
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := docsPage.Execute(&page, docsOf(doc)); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, page.Bytes())
}

// docsOp is one operation as the page shows it.
type docsOp struct {
	Method, Path, ID, Summary, Description, Body string
	Params                                       []string
	Responses                                    []string
}

// docsOf lists the contract's operations by path and method.
func docsOf(doc *openapi3.T) map[string]any {
	var ops []docsOp
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			d := docsOp{Method: method, Path: path, ID: op.OperationID, Summary: op.Summary, Description: op.Description}
			for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
				d.Params = append(d.Params, p.Value.In+" "+p.Value.Name)
			}
			if op.RequestBody != nil {
				d.Body = schemaName(op.RequestBody.Value.Content.Get("application/json"))
			}
			for code := range op.Responses.Map() {
				d.Responses = append(d.Responses, code)
			}
			slices.Sort(d.Responses)
			ops = append(ops, d)
		}
	}
	slices.SortFunc(ops, func(a, b docsOp) int { return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method) })
	var schemas []string
	for name := range doc.Components.Schemas {
		schemas = append(schemas, name)
	}
	slices.Sort(schemas)
	return map[string]any{"Title": doc.Info.Title, "Version": doc.Info.Version, "Description": doc.Info.Description, "Ops": ops, "Schemas": schemas}
}

// schemaName is the name of a body's schema, or "JSON" for an inline one.
func schemaName(mt *openapi3.MediaType) string {
	if mt == nil || mt.Schema == nil {
		return ""
	}
	if ref := mt.Schema.Ref; ref != "" {
		return ref[strings.LastIndex(ref, "/")+1:]
	}
	return "JSON"
}

var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} API {{.Version}}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ccc}.op{margin:1rem 0;padding:.5rem .8rem;border-left:4px solid #4a7}
.m{font:bold 13px monospace;text-transform:uppercase;margin-right:.5rem}code{font-size:13px}
pre{white-space:pre-wrap;background:#f6f6f6;padding:.6rem}small{color:#666}
</style></head><body>
<h1>{{.Title}} API <small>{{.Version}}</small></h1>
<p>The contract itself: <a href="/openapi.yaml">/openapi.yaml</a> (OpenAPI 3.0).</p>
<pre>{{.Description}}</pre>
<h2>Operations</h2>
{{range .Ops}}<div class="op" id="{{.ID}}"><span class="m">{{.Method}}</span><code>{{.Path}}</code> <small>{{.ID}}</small>
<p>{{.Summary}}</p>{{if .Description}}<pre>{{.Description}}</pre>{{end}}
{{if .Params}}<p><small>parameters:</small> {{range .Params}}<code>{{.}}</code> {{end}}</p>{{end}}
{{if .Body}}<p><small>body:</small> <code>{{.Body}}</code></p>{{end}}
<p><small>answers:</small> {{range .Responses}}<code>{{.}}</code> {{end}}</p></div>
{{end}}
<h2>Schemas</h2>
<p>{{range .Schemas}}<code>{{.}}</code> {{end}}</p>
</body></html>
`))
