package ledger

import (
	"errors"
	"fmt"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Error codes: what the domain decides. The API maps them to HTTP
// statuses in one table, beside the codes of what only the transport gets
// wrong (a body that is not JSON, too many requests, an unknown query
// parameter), which are the API's.
const (
	EINVALID      = "invalid"               // the request breaks a rule of the game or the API
	ENOTFOUND     = "not_found"             // no such thing in this club
	ECONFLICT     = "conflict"              // the request collides with the current state
	EUNAUTHORIZED = "unauthorized"          // no valid API key
	EFORBIDDEN    = "forbidden"             // the key's role may not do this
	EIDEMPOTENCY  = "idempotency"           // an Idempotency-Key reused with another request
	EUNAVAILABLE  = "unavailable"           // the database cannot be reached
	EPRECONDITION = "precondition"          // If-Match names a revision that is no longer current
	EPRECONDREQ   = "precondition_required" // the request must name the revision it changes
	EINTERNAL     = "internal"              // a bug
)

// Error is a domain error: a code, a message for people, and where it
// applies the field and rule that were broken and extra members for the
// problem document (e.g. the current hand number of a conflict).
type Error struct {
	Code    string
	Message string
	Field   string
	Rule    string
	// Hint is what the players read: German, players named by
	// score.PlayerRef (rendered with the club's names before it leaves
	// the service), saying what to do. Empty where the flow words none.
	Hint  string
	Extra map[string]any
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", e.Code, e.Field, e.Rule)
	}
	return e.Code + ": " + e.Message
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns an EINVALID error naming the field and the rule broken.
func Invalid(field, format string, args ...any) *Error {
	rule := fmt.Sprintf(format, args...)
	return &Error{Code: EINVALID, Message: field + ": " + rule, Field: field, Rule: rule}
}

// WithHint returns a copy of e with the German hint for the players.
func (e *Error) WithHint(hint string) *Error {
	c := *e
	c.Hint = hint
	return &c
}

// Refuse returns an EINVALID error naming the field and the rule broken,
// with the German hint for the players.
func Refuse(field, hint, format string, args ...any) *Error {
	return Invalid(field, format, args...).WithHint(hint)
}

// ErrorCode returns the code of err: an *Error's own code, EINVALID for an
// engine's *score.Violation, EINTERNAL for anything else.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var v *score.Violation
	if errors.As(err, &v) {
		return EINVALID
	}
	if err == nil {
		return ""
	}
	return EINTERNAL
}

// AsError converts err to an *Error (engine violations become EINVALID with
// their field and rule; unknown errors become EINTERNAL).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var v *score.Violation
	if errors.As(err, &v) {
		return Invalid(v.Field, "%s", v.Rule).WithHint(v.Hint)
	}
	return &Error{Code: EINTERNAL, Message: "internal error"}
}

// wrap says where err happened, keeping what it wraps for errors.Is and
// errors.As (a ledger *Error's code, ErrStale): what a log shows of an
// internal error names the step of the flow. nil stays nil; on a hot path
// call it only once err is not nil, as its arguments are boxed before it
// looks.
func wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}
