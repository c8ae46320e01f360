package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/api"
)

// TestContractBoundaries walks every operation of openapi.yaml and sends,
// for every path, query and header parameter and every scalar body field
// that states a constraint (minimum, maximum, minLength, maxLength,
// pattern, format, enum), the values at each boundary and one beyond each,
// and a query parameter it does not take (an API operation answers 400
// naming query.sesion_id).
// Never a 5xx; a value beyond a boundary is a 4xx problem naming the
// field; a value at a boundary passes the contract (the domain may still
// refuse it with a 4xx: no such id, not the next number, …). A new
// operation is covered as soon as it is in the contract; one with a
// request body needs an example body in contractExamples.
func TestContractBoundaries(t *testing.T) {
	e := newEnv(t)
	fx := newContractFixture(e)
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	ops, total := specOperations(doc), 0
	for _, op := range ops {
		t.Run(op.id, func(t *testing.T) {
			fx.e.t = t
			defer func() { fx.e.t = e.t }()
			cases := fx.casesOf(t, op)
			for _, c := range cases {
				fx.run(t, op, c)
			}
			total += len(cases)
		})
	}
	t.Logf("%d operations, %d cases", len(ops), total)
}

// specOp is one operation of the contract with its parameters, the path
// item's and its own.
type specOp struct {
	id, method, path string
	op               *openapi3.Operation
	params           []*openapi3.Parameter
	stream           bool // answers with an endless event stream
}

func specOperations(doc *openapi3.T) []specOp {
	var ops []specOp
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			o := specOp{id: op.OperationID, method: method, path: path, op: op}
			seen := map[string]bool{}
			for _, p := range append(slices.Clone(op.Parameters), item.Parameters...) { // the operation's own win
				if key := p.Value.In + " " + p.Value.Name; !seen[key] {
					seen[key] = true
					o.params = append(o.params, p.Value)
				}
			}
			if r := op.Responses.Status(200); r != nil && r.Value.Content.Get("text/event-stream") != nil {
				o.stream = true
			}
			ops = append(ops, o)
		}
	}
	slices.SortFunc(ops, func(a, b specOp) int { return strings.Compare(a.path+" "+a.method, b.path+" "+b.method) })
	return ops
}

// bound is one value to send for a field.
type bound struct {
	label  string
	value  any // a string or a json.Number
	beyond bool
}

// boundaryCase is one request: the operation's example with one field set
// to one bound.
type boundaryCase struct {
	variant int    // which of the operation's example bodies
	in      string // path, query, header or body; "" sends the example as it is
	field   string // the parameter's name, or the body field's path as a problem names it
	path    []string
	bound
}

// request is what a case sends, before it becomes an http.Request.
type request struct {
	path   map[string]string
	query  url.Values
	header map[string]string
	body   any // a JSON tree (map[string]any, []any, json.Number, …); nil for none
}

func (r request) http(ctx context.Context, op specOp, key string) *http.Request {
	target := op.path
	for name, v := range r.path {
		target = strings.ReplaceAll(target, "{"+name+"}", url.PathEscape(v))
	}
	if q := r.query.Encode(); q != "" {
		target += "?" + q
	}
	var body io.Reader
	if r.body != nil {
		raw, err := json.Marshal(r.body)
		if err != nil {
			panic(err)
		}
		body = bytes.NewReader(raw)
	}
	req := httptest.NewRequestWithContext(ctx, strings.ToUpper(op.method), target, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+key)
	for name, v := range r.header {
		req.Header.Set(name, v)
	}
	return req
}

// casesOf lists the cases of an operation: its parameters', then its
// body's.
func (fx *contractFixture) casesOf(t *testing.T, op specOp) []boundaryCase {
	base := fx.request(t, op, 0)
	var cases []boundaryCase
	for v := range fx.variants(op) {
		cases = append(cases, boundaryCase{variant: v, field: "the example", bound: bound{label: fmt.Sprintf("example %d", v+1)}})
	}
	// A query parameter an API operation does not take is refused, naming
	// it; the pages for browsers ignore one.
	cases = append(cases, boundaryCase{in: "unknown", field: "query.sesion_id",
		bound: bound{label: "an unknown query parameter", value: "1", beyond: strings.HasPrefix(op.path, "/v1/")}})
	for _, p := range op.params {
		s := merged(flatten(p.Schema.Value))
		if s.Items != nil { // a repeated query parameter: one value, at the items' bounds
			s = merged(flatten(s.Items.Value))
		}
		var example any
		switch p.In {
		case "path":
			example = base.path[p.Name]
		case "header":
			example = base.header[p.Name]
		}
		bounds, err := boundsOf(s, example)
		if err != nil {
			t.Errorf("parameter %s: %v", p.Name, err)
		}
		for _, b := range bounds {
			if b.value == "" && p.In != "path" {
				continue // an empty query parameter or header is an absent one
			}
			cases = append(cases, boundaryCase{in: p.In, field: p.Name, bound: b})
		}
	}
	if op.op.RequestBody == nil {
		return cases
	}
	mt := op.op.RequestBody.Value.Content.Get("application/json")
	if base.body == nil || mt == nil {
		t.Errorf("%s has a request body but no example in contractExamples: add one", op.id)
		return cases
	}
	return append(cases, fx.bodyCases(t, op, flatten(mt.Schema.Value))...)
}

// bodyCases lists the cases of every constrained scalar field the
// operation's example bodies reach, each field from the first example
// that has it.
func (fx *contractFixture) bodyCases(t *testing.T, op specOp, schema []*openapi3.Schema) []boundaryCase {
	var cases []boundaryCase
	seen, missing := map[string]bool{}, map[string]bool{}
	for v := range fx.variants(op) {
		var fields []bodyField
		var miss []string
		walkBody(schema, fx.request(t, op, v).body, nil, &fields, &miss)
		for _, m := range miss {
			missing[m] = true
		}
		for _, f := range fields {
			name := fieldName(f.path)
			if seen[name] {
				continue
			}
			seen[name] = true
			bounds, err := boundsOf(f.schema, f.value)
			if err != nil {
				t.Errorf("body field %s: %v", name, err)
			}
			if f.schema.Type.Is("string") && len(f.schema.Enum) == 0 {
				bounds = append(bounds, bound{label: "a NUL character", value: "a\x00b", beyond: true})
			}
			for _, b := range bounds {
				cases = append(cases, boundaryCase{variant: v, in: "body", field: name, path: f.path, bound: b})
			}
		}
	}
	for m := range missing {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(seen)), func(f string) bool { return strings.HasPrefix(f, m) }) {
			t.Errorf("no example body of %s has %s, which states constraints: add it", op.id, m)
		}
	}
	return cases
}

// run sends one case through the real router and checks the answer.
// streamStart sends req to a stream's route over a real connection and
// returns the answer's status and headers once they arrive, with the body
// of a refusal; an accepted stream is closed at once. (A deadline instead
// would cut off a stream that a busy machine starts late, and the cut-off
// would read as the service's error.)
func streamStart(t *testing.T, h http.Handler, req *http.Request) response {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	out, err := http.NewRequestWithContext(req.Context(), req.Method, srv.URL+req.URL.RequestURI(), req.Body)
	if err != nil {
		t.Fatal(err)
	}
	out.Header = req.Header.Clone()
	res, err := srv.Client().Do(out)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	var body []byte
	if res.StatusCode != http.StatusOK {
		body, _ = io.ReadAll(res.Body)
	}
	return response{status: res.StatusCode, header: res.Header, body: body}
}

func (fx *contractFixture) run(t *testing.T, op specOp, c boundaryCase) {
	t.Helper()
	r := fx.request(t, op, c.variant)
	switch c.in {
	case "path":
		r.path[c.field] = fmt.Sprint(c.value)
	case "query":
		r.query.Set(c.field, fmt.Sprint(c.value))
	case "header":
		r.header[c.field] = fmt.Sprint(c.value)
	case "unknown":
		r.query.Set(strings.TrimPrefix(c.field, "query."), fmt.Sprint(c.value))
	case "body":
		r.body = setAt(r.body, c.path, c.value)
	}
	req := r.http(context.Background(), op, fx.key)
	var res response
	if op.stream { // an accepted stream is endless: look at its start only
		res = streamStart(t, fx.e.server, req)
	} else {
		rec := httptest.NewRecorder()
		fx.e.server.ServeHTTP(rec, req)
		res = response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	}
	what := fmt.Sprintf("%s %s=%.60q (%s)", c.in, c.field, c.value, c.label)
	vreq := httptest.NewRequest(req.Method, req.URL.String(), nil)
	if err := api.ValidateResponse(context.Background(), fx.e.router, vreq, res.status, res.header, res.body); err != nil {
		t.Errorf("%s: response %d breaks openapi.yaml: %v\n%.300s", what, res.status, err, res.body)
	}
	switch {
	case res.status >= 500:
		t.Errorf("%s: %d: %.300s", what, res.status, res.body)
	case c.in == "" && res.status >= 300:
		t.Errorf("%s: %d, want the example accepted: %.300s", what, res.status, res.body)
	case c.beyond && res.status < 400:
		t.Errorf("%s: accepted with %d, want a 4xx naming %s", what, res.status, c.field)
	case c.in == "unknown" && c.beyond && res.status != 400:
		t.Errorf("%s: %d, want 400 naming %s: %.300s", what, res.status, c.field, res.body)
	case c.in == "unknown" && !c.beyond && res.status >= 300:
		t.Errorf("%s: %d, want the page served as without it: %.300s", what, res.status, res.body)
	case c.beyond:
		var p struct{ Field, Rule string }
		_ = json.Unmarshal(res.body, &p)
		if p.Field != c.field {
			t.Errorf("%s: %d names field %q (%s), want %q", what, res.status, p.Field, p.Rule, c.field)
		}
	default:
		router, err := api.RequestRouter()
		if err != nil {
			t.Fatal(err)
		}
		if err := api.CheckRequest(router, r.http(context.Background(), op, fx.key)); err != nil {
			t.Errorf("%s: the contract refuses a value at its own boundary: %v", what, err)
		}
	}
}

// bodyField is a scalar field of a request body: its path, its schema and
// the example's value (nil when the example leaves it out).
type bodyField struct {
	path   []string
	schema *openapi3.Schema
	value  any
}

// flatten returns a schema with the schemas of its allOf, recursively.
func flatten(s *openapi3.Schema) []*openapi3.Schema {
	out := []*openapi3.Schema{s}
	for _, sub := range s.AllOf {
		out = append(out, flatten(sub.Value)...)
	}
	return out
}

// walkBody lists the constrained scalar fields of a body, following the
// example value into objects and the first element of arrays. An object
// the example leaves out is walked when it requires nothing; an array it
// leaves out (or a required object) is reported missing when it holds a
// constrained field. With missing nil it only probes for fields.
func walkBody(views []*openapi3.Schema, value any, path []string, out *[]bodyField, missing *[]string) {
	props, required, items := map[string][]*openapi3.Schema{}, false, []*openapi3.Schema(nil)
	for _, v := range views {
		for name, p := range v.Properties {
			props[name] = append(props[name], flatten(p.Value)...)
		}
		required = required || len(v.Required) > 0
		if v.Items != nil {
			items = append(items, flatten(v.Items.Value)...)
		}
	}
	switch {
	case len(props) > 0:
		m, ok := value.(map[string]any)
		if !ok && required && missing != nil {
			reportMissing(views, path, missing)
			return
		}
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			walkBody(props[name], m[name], append(slices.Clone(path), name), out, missing)
		}
	case items != nil:
		list, _ := value.([]any)
		if len(list) == 0 && missing != nil {
			reportMissing(items, append(slices.Clone(path), "0"), missing)
			return
		}
		var first any
		if len(list) > 0 {
			first = list[0]
		}
		walkBody(items, first, append(slices.Clone(path), "0"), out, missing)
	default:
		if s := merged(views); constrained(s) {
			*out = append(*out, bodyField{path: path, schema: s, value: value})
		}
	}
}

// reportMissing reports path when the schema holds a constrained field.
func reportMissing(views []*openapi3.Schema, path []string, missing *[]string) {
	var fields []bodyField
	walkBody(views, nil, path, &fields, nil)
	if len(fields) > 0 {
		*missing = append(*missing, fieldName(path))
	}
}

// merged is one scalar schema from a schema and its allOf: the typed one,
// with the constraints the others add.
func merged(views []*openapi3.Schema) *openapi3.Schema {
	var m openapi3.Schema
	for _, v := range views {
		if m.Type == nil || m.Type.IsEmpty() {
			m.Type = v.Type
		}
		if m.Format == "" {
			m.Format = v.Format
		}
		if m.Pattern == "" {
			m.Pattern = v.Pattern
		}
		if len(m.Enum) == 0 {
			m.Enum = v.Enum
		}
		if len(m.OneOf) == 0 {
			m.OneOf = v.OneOf
		}
		if len(m.OneOf) == 0 { // anyOf branches bound a field as oneOf's do
			m.OneOf = v.AnyOf
		}
		if m.Min == nil {
			m.Min = v.Min
		}
		if m.Max == nil {
			m.Max = v.Max
		}
		m.MinLength = max(m.MinLength, v.MinLength)
		if m.MaxLength == nil {
			m.MaxLength = v.MaxLength
		}
		m.Items = cmpOr(m.Items, v.Items)
		m.ExclusiveMin, m.ExclusiveMax = cmpOr(m.ExclusiveMin, v.ExclusiveMin), cmpOr(m.ExclusiveMax, v.ExclusiveMax)
	}
	return &m
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a == zero {
		return b
	}
	return a
}

// constrained reports whether a scalar schema states anything the test
// can push against; integers and strings always must (the boundsOf check).
func constrained(s *openapi3.Schema) bool {
	return s.Type.Is("integer") || s.Type.Is("string") || s.Type.Is("number") || len(s.OneOf) > 0
}

// fieldName writes a body path as problems name fields: hands[0].id.
func fieldName(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// setAt returns the JSON tree with the value at path, creating objects on
// the way.
func setAt(tree any, path []string, v any) any {
	if len(path) == 0 {
		return v
	}
	if list, ok := tree.([]any); ok {
		var i int
		fmt.Sscan(path[0], &i)
		list[i] = setAt(list[i], path[1:], v)
		return list
	}
	m, _ := tree.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	m[path[0]] = setAt(m[path[0]], path[1:], v)
	return m
}
