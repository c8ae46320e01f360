package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stichbuch/stichbuch/ledger"
)

// The codes of what only the transport can get wrong, in problems as
// ledger errors (the domain's codes are the ledger's).
const (
	codeRateLimit        = "rate_limited"           // too many requests with one key or from one address
	codeMediaType        = "unsupported_media_type" // the body is not JSON
	codeMalformed        = "malformed"              // the body is not well-formed JSON
	codeUnknownParameter = "unknown_parameter"      // a query parameter the operation does not take
)

// statusOf is the one place that maps error codes to HTTP statuses.
var statusOf = map[string]int{
	codeUnknownParameter: http.StatusBadRequest,
	ledger.EINVALID:      http.StatusUnprocessableEntity,
	ledger.ENOTFOUND:     http.StatusNotFound,
	ledger.ECONFLICT:     http.StatusConflict,
	ledger.EUNAUTHORIZED: http.StatusUnauthorized,
	ledger.EFORBIDDEN:    http.StatusForbidden,
	ledger.EIDEMPOTENCY:  http.StatusUnprocessableEntity,
	ledger.EUNAVAILABLE:  http.StatusServiceUnavailable,
	codeRateLimit:        http.StatusTooManyRequests,
	ledger.EPRECONDITION: http.StatusPreconditionFailed,
	ledger.EPRECONDREQ:   http.StatusPreconditionRequired,
	codeMediaType:        http.StatusUnsupportedMediaType,
	codeMalformed:        http.StatusBadRequest,
	ledger.EINTERNAL:     http.StatusInternalServerError,
}

// Problem is an RFC 9457 problem document.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Field  string `json:"field,omitempty"`
	Rule   string `json:"rule,omitempty"`
	// Hint is what the players read: German, players by name, saying what
	// to do (detail and rule are for developers).
	Hint   string         `json:"hint,omitempty"`
	Errors []FieldRule    `json:"errors,omitempty"`
	Extra  map[string]any `json:"-"`
}

// FieldRule names one offending field and the rule it breaks.
type FieldRule struct {
	Field string `json:"field"`
	Rule  string `json:"rule"`
	// Hint is the German sentence for the players about this field.
	Hint string `json:"hint"`
}

// errorHandler writes every error as application/problem+json: ledger
// errors by their code, echo's own errors (unknown route, body too large)
// by their status, anything else as a logged 500 that reveals nothing.
func (s *Server) errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		p := s.problem(c, err)
		if p.Status >= 500 {
			log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "status", p.Status, "err", err)
		}
		writeProblem(c, p)
	}
}

// problem is the problem document of err as the players read it: its
// hint's player references rendered with the names of the actor's club.
func (s *Server) problem(c echo.Context, err error) Problem {
	p := problemOf(err)
	if a := actorOf(c); a.ClubID != 0 && s.svc != nil {
		p.Hint = s.svc.RenderHint(c.Request().Context(), a, p.Hint)
		for i := range p.Errors {
			p.Errors[i].Hint = p.Hint
		}
	}
	return p
}

func problemOf(err error) Problem {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		if s, ok := he.Message.(string); ok && s != "" {
			msg = s
		}
		return Problem{Type: "about:blank", Title: http.StatusText(he.Code), Status: he.Code, Detail: msg, Hint: statusHint(he.Code)}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		err = ledger.Errorf(ledger.EUNAVAILABLE, "the request took too long or was cancelled")
	}
	e := ledger.AsError(err)
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusInternalServerError
	}
	p := Problem{
		Type:   "urn:stichbuch:problem:" + e.Code,
		Title:  titleOf(e.Code),
		Status: status,
		Detail: e.Message,
		Field:  e.Field,
		Rule:   e.Rule,
		Hint:   e.Hint,
		Extra:  e.Extra,
	}
	if p.Hint == "" {
		p.Hint = hintOf(e.Code)
	}
	if e.Code == ledger.EINTERNAL {
		p.Detail = "an internal error occurred; it has been logged"
	}
	if e.Field != "" {
		p.Errors = []FieldRule{{Field: e.Field, Rule: e.Rule, Hint: p.Hint}}
	}
	return p
}

func titleOf(code string) string {
	switch code {
	case ledger.EINVALID:
		return "The request breaks a rule"
	case ledger.ENOTFOUND:
		return "Not found"
	case ledger.ECONFLICT:
		return "Conflict with the current state"
	case ledger.EUNAUTHORIZED:
		return "Missing or invalid API key"
	case ledger.EFORBIDDEN:
		return "The API key's role does not allow this"
	case ledger.EIDEMPOTENCY:
		return "Idempotency-Key reused with a different request"
	case ledger.EUNAVAILABLE:
		return "Service unavailable"
	case codeRateLimit:
		return "Too many requests"
	case ledger.EPRECONDITION:
		return "The hand has changed since you read it"
	case ledger.EPRECONDREQ:
		return "Name the revision you correct with If-Match"
	case codeMediaType:
		return "Send JSON"
	case codeMalformed:
		return "The body is not well-formed JSON"
	case codeUnknownParameter:
		return "Unknown query parameter"
	}
	return "Internal error"
}

// hintOf is the German hint of a problem whose flow words none of its
// own: what the players can do about that kind of problem.
func hintOf(code string) string {
	switch code {
	case ledger.EINVALID:
		return "Diese Angabe passt so nicht. Bitte prüfe die Eingabe und sende sie noch einmal."
	case ledger.ENOTFOUND:
		return "Das gibt es hier nicht (mehr). Bitte lade die Seite neu."
	case ledger.ECONFLICT:
		return "Inzwischen hat sich am Tisch etwas geändert. Bitte lade neu und versuche es dann noch einmal."
	case ledger.EUNAUTHORIZED:
		return "Dieses Gerät ist nicht (mehr) angemeldet. Bitte lass dir vom Tisch eine neue Einladung geben."
	case ledger.EFORBIDDEN:
		return "Das darf dieses Gerät nicht. Bitte frag jemanden, der den Club verwaltet."
	case ledger.EIDEMPOTENCY:
		return "Diese Eingabe wurde schon einmal mit anderem Inhalt gesendet. Bitte lade neu und gib sie noch einmal ein."
	case ledger.EUNAVAILABLE:
		return "Der Server ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal."
	case codeRateLimit:
		return "Zu viele Anfragen auf einmal. Bitte warte kurz und versuche es dann noch einmal."
	case ledger.EPRECONDITION:
		return "Dieses Spiel wurde inzwischen auf einem anderen Gerät geändert. Bitte lade es neu und korrigiere dann."
	case ledger.EPRECONDREQ:
		return "Zum Korrigieren braucht die App den aktuellen Stand des Spiels. Bitte lade es neu und korrigiere dann."
	case codeMediaType, codeMalformed, codeUnknownParameter:
		return "Die App hat etwas gesendet, das der Server nicht versteht. Bitte lade die App neu."
	}
	return "Auf dem Server ist ein Fehler passiert; er wurde notiert. Bitte versuche es noch einmal."
}

// statusHint is the German hint of an error echo answers itself.
func statusHint(status int) string {
	switch status {
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return "Diese Adresse gibt es nicht. Bitte prüfe den Link oder öffne die App neu."
	case http.StatusRequestEntityTooLarge:
		return "Das ist zu viel auf einmal. Bitte sende weniger."
	}
	return hintOf("")
}

func writeProblem(c echo.Context, p Problem) {
	body := map[string]any{"type": p.Type, "title": p.Title, "status": p.Status}
	for k, v := range p.Extra {
		body[k] = v
	}
	if p.Detail != "" {
		body["detail"] = p.Detail
	}
	if p.Field != "" {
		body["field"], body["rule"] = p.Field, p.Rule
	}
	if p.Hint != "" {
		body["hint"] = p.Hint
	}
	if len(p.Errors) > 0 {
		body["errors"] = p.Errors
	}
	if (p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests) && c.Response().Header().Get("Retry-After") == "" {
		c.Response().Header().Set("Retry-After", "1")
	}
	if p.Status == http.StatusUnauthorized {
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, wwwAuthenticate(c.Request()))
	}
	c.Response().Header().Set(echo.HeaderContentType, "application/problem+json")
	c.Response().WriteHeader(p.Status)
	if c.Request().Method == http.MethodHead {
		return
	}
	_ = jsonEncode(c.Response(), body)
}

// wwwAuthenticate is the challenge of a 401 (RFC 6750): the Bearer scheme,
// and error="invalid_token" when the request sent a key that was refused
// (unknown, revoked, malformed), so a client knows to get another key
// rather than to add one.
func wwwAuthenticate(r *http.Request) string {
	if r.Header.Get(echo.HeaderAuthorization) == "" {
		return `Bearer realm="stichbuch"`
	}
	return `Bearer realm="stichbuch", error="invalid_token", error_description="the API key is unknown, revoked or malformed"`
}
