package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
)

// spec is the API contract: the repository's openapi.yaml, embedded by
// the module's root package.
var spec = stichbuch.OpenAPI()

// The reports are documents, not data: their bodies are checked as text.
// The formats the contract uses are checked as the ledger reads them:
// kin-openapi checks neither uuid nor a date's calendar and range.
func init() {
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/css", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("image/svg+xml", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/manifest+json", openapi3filter.JSONBodyDecoder)
	openapi3.DefineStringFormatValidator("date", openapi3.NewCallbackValidator(checkDate))
	openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(uuidPattern))
}

// checkDate is format date: a calendar date from ledger.MinDate to
// ledger.MaxDate, as the ledger and PostgreSQL's date take it.
func checkDate(s string) error {
	if _, err := ledger.ParseDate("", s); err != nil {
		return errors.New(ledger.AsError(err).Rule)
	}
	return nil
}

// uuidPattern is format uuid: RFC 9562's 8-4-4-4-12 hex digits, any
// version, either case (a hand's client-chosen id).
const uuidPattern = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`

// Spec returns the API contract (openapi.yaml) as served by this build.
func Spec() []byte { return spec }

// LoadSpec returns the parsed, validated contract and a router over it
// that matches any host. It is parsed once; both are read-only.
func LoadSpec() (*openapi3.T, routers.Router, error) {
	specOnce.Do(func() { specDoc, specRouter, specErr = parseSpec() })
	return specDoc, specRouter, specErr
}

var (
	specOnce   sync.Once
	specDoc    *openapi3.T
	specRouter routers.Router
	specErr    error

	requestOnce   sync.Once
	requestRouter routers.Router
	requestErr    error
)

// factsSchemas returns the contract's schemas of a hand's facts, derived
// from the games' registry rather than listed: the union GameFacts, which
// a recorded or corrected hand's facts refer to, and for each registered
// game the schema its score endpoint's facts refer to, which the union
// must list. A registered game without its score endpoint or outside the
// union is an error, so a new game is added to the contract whole.
func factsSchemas(doc *openapi3.T) ([]*openapi3.SchemaRef, error) {
	union := doc.Components.Schemas["GameFacts"]
	if union == nil || union.Value == nil {
		return nil, errors.New("openapi.yaml: no GameFacts schema")
	}
	out := []*openapi3.SchemaRef{union}
	for _, game := range games.Names() {
		path := "/v1/games/" + game + "/score"
		item := doc.Paths.Find(path)
		if item == nil || item.Post == nil || item.Post.RequestBody == nil || item.Post.RequestBody.Value.Content.Get("application/json") == nil {
			return nil, fmt.Errorf("openapi.yaml: no POST %s with a JSON body for the registered game %s", path, game)
		}
		facts := property(item.Post.RequestBody.Value.Content.Get("application/json").Schema, "facts")
		if facts == nil || facts.Value == nil || facts.Ref == "" {
			return nil, fmt.Errorf("openapi.yaml: POST %s names no facts schema of its own", path)
		}
		if !slices.ContainsFunc(union.Value.OneOf, func(r *openapi3.SchemaRef) bool { return r.Ref == facts.Ref }) {
			return nil, fmt.Errorf("openapi.yaml: GameFacts does not list %s, the facts of %s", facts.Ref, game)
		}
		out = append(out, facts)
	}
	return out, nil
}

// property returns the schema of an object schema's member name, looked up
// in its allOf too.
func property(ref *openapi3.SchemaRef, name string) *openapi3.SchemaRef {
	if ref == nil || ref.Value == nil {
		return nil
	}
	if p := ref.Value.Properties[name]; p != nil {
		return p
	}
	for _, part := range ref.Value.AllOf {
		if p := property(part, name); p != nil {
			return p
		}
	}
	return nil
}

// RequestRouter is the router the API checks requests with: the contract
// with a hand's facts taken as any object, on every route. Game facts have
// one owner, the game's engine: recording, correcting and the score
// endpoints hand them to it alike, so the same facts are refused with the
// same field and the same rule wherever they are sent (the union of the
// five games' facts could not even say which game a recorded hand's facts
// break). Everything else is checked as the contract states it, and
// responses (ValidateResponse over LoadSpec's router) are checked against
// the typed facts, so an engine that accepted what its schema refuses
// fails the tests.
func RequestRouter() (routers.Router, error) {
	requestOnce.Do(func() {
		var doc *openapi3.T
		if doc, _, requestErr = parseSpec(); requestErr != nil {
			return
		}
		var facts []*openapi3.SchemaRef
		if facts, requestErr = factsSchemas(doc); requestErr != nil {
			return
		}
		for _, f := range facts {
			*f.Value = openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}, Description: f.Value.Description}
		}
		requestRouter, requestErr = legacy.NewRouter(doc)
	})
	return requestRouter, requestErr
}

func parseSpec() (*openapi3.T, routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, nil, fmt.Errorf("openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	doc.Servers = nil // match requests on any host
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, nil, err
	}
	return doc, router, nil
}

// validateRequests checks every request against the contract before a
// handler sees it. A route the contract does not know is left to echo (404
// or 405); a request that breaks the contract is refused naming the field.
func validateRequests(router routers.Router) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := CheckRequest(router, c.Request()); err != nil {
				return err
			}
			return next(c)
		}
	}
}

var requestOptions = &openapi3filter.Options{
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
	SkipSettingDefaults: true,
}

// CheckRequest checks a request against the contract as the API does before
// any handler runs: nil when the contract accepts it or knows no route for
// it, else the problem naming the field. The body is read and put back.
func CheckRequest(router routers.Router, req *http.Request) error {
	route, params, err := router.FindRoute(req)
	if err != nil {
		return nil
	}
	if err := knownParameters(route, req); err != nil {
		return err
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: requestOptions}
	if err := openapi3filter.ValidateRequest(req.Context(), in); err != nil {
		return contractError(err)
	}
	return nil
}

// knownParameters refuses a query parameter an API operation (/v1) does
// not declare, as an unknown member of a body is refused: a misspelt
// filter (sesion_id) would otherwise answer the unfiltered list as if it
// were the filtered one. The problem names it query.<name>. The app's
// page and files, the docs and the probes read no query parameter and
// refuse none: a browser or a messenger's link preview adds its own.
func knownParameters(route *routers.Route, req *http.Request) error {
	if req.URL.RawQuery == "" || !strings.HasPrefix(route.Path, "/v1/") {
		return nil
	}
	for name := range req.URL.Query() {
		if declared(route.Operation.Parameters, name) || declared(route.PathItem.Parameters, name) {
			continue
		}
		return &ledger.Error{Code: codeUnknownParameter, Message: fmt.Sprintf("%s %s takes no query parameter %q", req.Method, route.Path, name),
			Field: "query." + name, Rule: "is not a parameter of this operation (openapi.yaml lists those it takes)"}
	}
	return nil
}

// declared reports whether params declare the query parameter name.
func declared(params openapi3.Parameters, name string) bool {
	for _, p := range params {
		if p.Value != nil && p.Value.In == openapi3.ParameterInQuery && p.Value.Name == name {
			return true
		}
	}
	return false
}

// contractError turns a contract violation into a problem naming the field.
func contractError(err error) error {
	var reqErr *openapi3filter.RequestError
	if !errors.As(err, &reqErr) {
		var secErr *openapi3filter.SecurityRequirementsError
		if errors.As(err, &secErr) {
			return ledger.Errorf(ledger.EUNAUTHORIZED, "missing or invalid API key")
		}
		return ledger.Invalid("request", "%v", err)
	}
	if errors.Is(reqErr.Err, errBodyTooLarge) || strings.Contains(fmt.Sprint(reqErr.Err), "http: request body too large") {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "the request body is larger than the limit")
	}
	if reqErr.Parameter != nil && reqErr.Parameter.Name == "If-Match" && errors.Is(reqErr.Err, openapi3filter.ErrInvalidRequired) {
		return ledger.RevisionRequired() // 428: a correction must name the revision it corrects
	}
	var schemaErr *openapi3.SchemaError
	if errors.As(reqErr.Err, &schemaErr) {
		schemaErr = innermost(schemaErr)
		field := fieldPath(schemaErr.JSONPointer())
		if name, ok := unsupportedProperty(schemaErr.Reason); ok {
			field = joinField(schemaErr.JSONPointer(), name)
		}
		if reqErr.Parameter != nil {
			field = reqErr.Parameter.Name
		}
		return ledger.Refuse(field, contractHint(field), "%s", schemaErr.Reason)
	}
	if reqErr.Parameter != nil {
		return ledger.Refuse(reqErr.Parameter.Name, contractHint(reqErr.Parameter.Name), "%s", reasonOf(reqErr))
	}
	if reqErr.RequestBody != nil {
		if strings.Contains(reasonOf(reqErr), "header Content-Type") {
			return &ledger.Error{Code: codeMediaType, Message: "send the body as application/json", Field: "Content-Type", Rule: "must be application/json"}
		}
		if reqErr.Err == nil {
			return ledger.Invalid("body", "%s", reqErr.Reason)
		}
		var parseErr *openapi3filter.ParseError
		if errors.As(reqErr.Err, &parseErr) {
			return malformed(parseErr)
		}
		return ledger.Invalid("body", "is not valid JSON for this request: %s", reasonOf(reqErr))
	}
	return ledger.Invalid("request", "%s", reasonOf(reqErr))
}

// contractHint is the German hint for a field the contract refuses, where
// players type or follow it; "" leaves the general one.
func contractHint(field string) string {
	switch field {
	case "code":
		return "Dieser Einladungslink ist unvollständig oder falsch. Bitte öffne den ganzen Link noch einmal oder scanne den QR-Code."
	case "stake_cents_per_point":
		return ledger.StakeHint
	case "match_loss_cents":
		return "Gib an, was jeder Verlierer einer Partie zahlt, in ganzen Cent von 0 bis 1000000 (50 sind 50 Cent)."
	case "name":
		return "Bitte gib einen Namen ein."
	case "date":
		return "Bitte wähle ein Datum."
	case "player_ids":
		return "Bitte wähle, wer am Tisch sitzt (jeden einmal)."
	}
	return ""
}

// malformed is the 400 of a body that is not well-formed JSON: nothing
// in it can be read, so no field of it is named but the body.
func malformed(e *openapi3filter.ParseError) error {
	detail := e.Reason
	if e.Cause != nil {
		detail = e.Cause.Error()
	}
	return &ledger.Error{Code: codeMalformed, Message: "the body is not well-formed JSON: " + detail,
		Field: "body", Rule: "must be well-formed JSON"}
}

// innermost follows a schema error to the one that names the actual field:
// an allOf or oneOf failure wraps the error of the subschema that broke.
func innermost(e *openapi3.SchemaError) *openapi3.SchemaError {
	for {
		var inner *openapi3.SchemaError
		if e.Origin == nil || !errors.As(e.Origin, &inner) {
			return e
		}
		e = inner
	}
}

// unsupportedProperty reads the name out of kin-openapi's reason for an
// unknown property, so the problem names that field and not its parent.
func unsupportedProperty(reason string) (string, bool) {
	rest, ok := strings.CutPrefix(reason, "property \"")
	if !ok {
		return "", false
	}
	name, ok := strings.CutSuffix(rest, "\" is unsupported")
	return name, ok
}

func joinField(pointer []string, name string) string {
	return fieldPath(append(slices.Clone(pointer), name))
}

func reasonOf(e *openapi3filter.RequestError) string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Reason
}

// fieldPath turns a JSON pointer ["facts", "players", "2", "tricks"] into
// "facts.players[2].tricks".
func fieldPath(pointer []string) string {
	var b strings.Builder
	for _, part := range pointer {
		if isIndex(part) {
			b.WriteString("[" + part + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	if b.Len() == 0 {
		return "body"
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ValidateResponse checks a response against the contract; tests call it on
// every response they receive.
func ValidateResponse(ctx context.Context, router routers.Router, req *http.Request, status int, header http.Header, body []byte) error {
	route, params, err := router.FindRoute(req)
	if err != nil {
		return fmt.Errorf("no route in openapi.yaml for %s %s: %w", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  status,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(ctx, in)
}
