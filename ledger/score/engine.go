package score

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Engine is the contract every game keeps. An engine is pure: the same hand
// gives the same result, it touches no clock, network or database, and it is
// safe for concurrent use.
type Engine interface {
	// Name is the game's registry name, e.g. "schwarze_dame".
	Name() string
	// DisplayName is the game's German name as a score sheet writes it,
	// e.g. "Schwarze Dame".
	DisplayName() string
	// ZeroSum reports whether every hand's points sum to exactly zero; the
	// ledger checks it on every hand of such a game.
	ZeroSum() bool
	// Rules resolves a preset ("" means the game's default) and option
	// overrides (a JSON object, may be empty) into the complete rule set
	// that is stored with every hand. Unknown presets or options, and
	// values out of range, are a *Violation naming the field.
	Rules(preset string, overrides json.RawMessage) (json.RawMessage, error)
	// Score validates the hand's facts against the rules and the deck and
	// scores them. A refused hand is a *Violation naming the field and the
	// broken rule; nothing else is returned as an error for bad input.
	Score(h Hand) (Result, error)
	// Preview returns the table's state as the next hand of a session
	// finds it, before that hand is recorded, in the game's own state
	// shape: the same schema as the State of a Result. h carries the
	// table's rules and state (empty or "{}" for a new table) and the
	// session's seating, id and date; h.Facts is empty, and h.Seated
	// and h.Date are empty for a table with no session yet.
	//
	// What carries over between hands and evenings is shown as it
	// carries (Bock rounds, tallies, dice, matches); what belongs to
	// an evening starts again when h.Session is another than the
	// state's; what the next hand derives from the seating and the
	// date (its dealer and players where the facts may leave them out,
	// the day's limit, the sides of a match) is derived from h. The
	// next hand scored from the same state in the same session finds
	// what the preview shows, and scores from the preview as from the
	// state (but for the event of what the preview shows done already,
	// such as the Klaberjass match another seating abandons); right
	// after a hand, the preview for the same session and
	// seating is the state that hand left. A new table's preview is a
	// complete state: every member the schema requires, arrays and
	// objects empty rather than null, and a German summary naming
	// players by PlayerRef. Preview is pure like Score and changes
	// nothing; a seating, date or rule set the game refuses is a
	// *Violation naming the field ("seated", "date.day", "rules").
	Preview(h Hand) (json.RawMessage, error)
	// Catalogue lists the game's presets and the options Rules accepts,
	// each option with its type, allowed values, every preset's default
	// (what Rules(preset, nil) yields) and a one-line description. It is
	// derived from the engine's own option struct (CatalogueOf).
	Catalogue() Catalogue
}

// Date is a calendar date (the session's date in the club's time zone).
type Date struct {
	Year  int `json:"year"`
	Month int `json:"month"`
	Day   int `json:"day"`
}

// Hand is everything an engine may look at to score one hand.
type Hand struct {
	// Seated are the players of the session in seating order; the facts
	// name the players of this hand among them.
	Seated []int64
	// Session identifies the evening, so an engine can keep per-evening
	// counts in its state and restart them when a new session begins.
	Session int64
	// Date is the session's date.
	Date Date
	// Rules is the resolved rule set, as returned by Engine.Rules.
	Rules json.RawMessage
	// State is the table's state after the previous hand; empty for the
	// first hand of a table.
	State json.RawMessage
	// Facts are the recorded facts of the hand, in the game's own schema.
	Facts json.RawMessage
}

// Result is the outcome of scoring one hand.
type Result struct {
	// Title names the hand for a score sheet, in German: "Normalspiel,
	// Re gewinnt 187:53", "Sauerei auf 70 gewonnen".
	Title string `json:"title"`
	// Points holds one entry per player the hand concerns (sitting-out
	// players included with 0 where the game has them), in seating order.
	Points []PlayerPoints `json:"points"`
	// Lines explain the score in the order it was computed.
	Lines []Line `json:"lines"`
	// Events are things that happened beyond points: a match won, a
	// payout due, a Bock round queued.
	Events []Event `json:"events"`
	// Winners are the players who won this hand, as the game defines it
	// (documented per engine); used for statistics.
	Winners []int64 `json:"winners"`
	// State is the table's state after this hand.
	State json.RawMessage `json:"state"`
	// Stats are the hand's countable facts for statistics, per player
	// ("solo_won" for the soloist); each engine documents its keys.
	Stats []Stat `json:"stats,omitempty"`
	// Parties are the sides of the hand in a partnership game (Re and
	// Kontra, Spieler party and Nichtspieler, the Klaberjass teams), for
	// partner statistics; empty where everyone plays for himself.
	Parties [][]int64 `json:"parties,omitempty"`
	// Dealer is who dealt this hand, as the engine resolved it: named in
	// the facts or, where the game lets the facts leave him out, the
	// table's next dealer from the state. Every game of the registry has
	// a dealer; 0 would mean a game that has none.
	Dealer int64 `json:"dealer,omitempty"`
	// Players are the players who played this hand, in seating order,
	// without those sitting out (the dealer among them where he only
	// deals, as at a Doppelkopf table of five).
	Players []int64 `json:"players,omitempty"`
}

// MarshalJSON writes a result with its lists always as arrays: a result
// without lines, events or winners has [] there, never null, whichever
// engine made it and whenever it was stored.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result // without this method
	p := plain(r)
	if p.Lines == nil {
		p.Lines = []Line{}
	}
	if p.Events == nil {
		p.Events = []Event{}
	}
	if p.Winners == nil {
		p.Winners = []int64{}
	}
	return json.Marshal(p)
}

// Stat is one countable fact of a hand for one player: Key names it in
// snake_case ("solo_played", "solo_won", "kontra_said"), Count how often
// (usually 1).
type Stat struct {
	Player int64  `json:"player"`
	Key    string `json:"key"`
	Count  int64  `json:"count"`
}

// PlayerPoints is one player's exact points from one hand.
type PlayerPoints struct {
	Player int64  `json:"player"`
	Points Points `json:"points"`
}

// Line is one step of a score's computation, as a player would check it on
// paper: "keine 90" "+" 1, "Bock" "x" 2, "Schüssel 14 / 3 Gewinner" "=" 14/3.
type Line struct {
	Label string `json:"label"`
	// Op is how the value applies (OpAdd, OpSub, OpMul, OpDiv, OpEq).
	Op    Op     `json:"op"`
	Value Points `json:"value"`
	// Player is set when the line concerns one player only.
	Player int64 `json:"player,omitempty"`
}

// Op is how a Line's value applies to the running computation. It is
// written into the result's JSON as is.
type Op string

// The operations a Line may state.
const (
	OpAdd Op = "+" // adds the value
	OpSub Op = "-" // subtracts the value
	OpMul Op = "x" // multiplies by the value
	OpDiv Op = "/" // divides by the value
	OpEq  Op = "=" // states a result
)

// EventType names what an Event is. Engines emit and the ledger reads
// events only by these constants, so a misspelt type is a compile error
// instead of a payout silently dropped. The values are stored in results
// and served in the API: they never change.
type EventType string

// The event types engines emit.
const (
	// EventMatchWon: a match was won; Players are its winners, Amount 1.
	EventMatchWon EventType = "match_won"
	// EventMatchLost: a match was lost; Players are its losers (each pays
	// the table's match loss to the winners), Amount 1.
	EventMatchLost EventType = "match_lost"
	// EventMatchAbandoned: a match in progress ended without a winner
	// (other sides played a hand); nobody is charged.
	EventMatchAbandoned EventType = "match_abandoned"
	// EventPayout: Players each pay Amount cents, to the Recipients or to
	// the club's kitty.
	EventPayout EventType = "payout"
	// EventBockGame: the hand was played as a Bock game.
	EventBockGame EventType = "bock_game"
	// EventBockQueued: the hand queued Amount Bock rounds.
	EventBockQueued EventType = "bock_queued"
	// EventRedeal: the hand was thrown in and dealt again by Players[0].
	EventRedeal EventType = "redeal"
	// EventVerworfen: Players[0] revoked (falsch bedient); his party loses.
	EventVerworfen EventType = "verworfen"
)

// Event is something a hand caused beyond points.
type Event struct {
	// Type is a stable identifier, one of the EventType constants.
	Type EventType `json:"type"`
	// Text is a human-readable German or English sentence.
	Text string `json:"text"`
	// Players are the players concerned (the winners of a match, the
	// payers of a payout).
	Players []int64 `json:"players,omitempty"`
	// Recipients are who receives what the event moves, where that is not
	// the club's kitty (the players sharing a payout); empty for the kitty.
	Recipients []int64 `json:"recipients,omitempty"`
	// Amount is a count or sum where the event has one (rounds queued,
	// payout cents), 0 otherwise.
	Amount int64 `json:"amount,omitempty"`
}

// SortStats puts stats in the order engines report them: by the players'
// places in order (players not in it after them, by id), then by key.
func SortStats(stats []Stat, order []int64) {
	place := func(id int64) int {
		if i := slices.Index(order, id); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortFunc(stats, func(a, b Stat) int {
		if c := cmp.Compare(place(a.Player), place(b.Player)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Player, b.Player); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
}

// Violation is a refused input: the field (a JSON path like
// "facts.players[2].tricks") and the rule it breaks.
type Violation struct {
	Field string `json:"field"`
	Rule  string `json:"rule"`
	// Hint says the same to the players at the table, in German: what is
	// wrong and what to do, naming players by PlayerRef, never by id or
	// field path ("Bei einem Solo spielt nur der Solist Re: wähle ihn
	// aus."). Empty where the engine words none; the ledger then gives a
	// general one.
	Hint string `json:"hint,omitempty"`
}

func (v *Violation) Error() string { return v.Field + ": " + v.Rule }

// Invalid returns a *Violation for field with a formatted rule.
func Invalid(field, format string, args ...any) error {
	return &Violation{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// Refuse returns a *Violation for field with a formatted rule and the
// German hint for the players (see Violation.Hint).
func Refuse(field, hint, format string, args ...any) error {
	return &Violation{Field: field, Rule: fmt.Sprintf(format, args...), Hint: hint}
}

// HintOf is the hint of err's *Violation, "" without one.
func HintOf(err error) string {
	var v *Violation
	if errors.As(err, &v) {
		return v.Hint
	}
	return ""
}

// WithHint gives err's *Violation the hint when it has none yet; any other
// error is returned as it is. An engine uses it where one refusal has many
// causes and one German sentence says what to do about all of them.
func WithHint(err error, hint string) error {
	var v *Violation
	if !errors.As(err, &v) || v.Hint != "" {
		return err
	}
	c := *v
	c.Hint = hint
	return &c
}

// DecodeStrict decodes one JSON value into v, refusing unknown fields and
// trailing data, and names the offending field under prefix ("facts").
func DecodeStrict(prefix string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeViolation(prefix, data, v, err)
	}
	// Only whitespace may follow the value (dec.More misses a stray '}').
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return Invalid(or(prefix, "body"), "must be a single JSON value")
	}
	return nil
}

func decodeViolation(prefix string, data []byte, target any, err error) error {
	var typeErr *json.UnmarshalTypeError
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		typeErr = e
		field := join(prefix, typeErr.Field)
		if path, ok := pathAt(data, typeErr.Offset); ok {
			field = join(prefix, path)
		}
		return Invalid(field, "must be %s, got %s", jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	case *json.SyntaxError:
		return Invalid(or(prefix, "body"), "is not valid JSON: %v", e)
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return Invalid(join(prefix, unknownFieldPath(data, reflect.TypeOf(target), name)), "is not a known field")
	}
	if msg == "EOF" {
		return Invalid(or(prefix, "body"), "is required")
	}
	return Invalid(or(prefix, "body"), "%s", strings.TrimPrefix(msg, "json: "))
}

// pathAt returns the JSON path ("players[1].hearts") of the value that ends
// at byte offset of data: encoding/json reports a type error by its offset
// and a field path without array indexes.
func pathAt(data []byte, offset int64) (string, bool) {
	found, at := "", false
	walkJSON(data, func(path func() string, tok json.Token, isKey bool, end int64) bool {
		if isKey || end < offset {
			return false
		}
		found, at = path(), true
		return true
	})
	return found, at
}

// FindString returns the path of the first string (value or key) of a JSON
// document for which match is true. It sees every token, so a string under
// the first of two duplicate keys is found too.
func FindString(data []byte, match func(string) bool) (string, bool) {
	found, at := "", false
	walkJSON(data, func(path func() string, tok json.Token, _ bool, _ int64) bool {
		if s, ok := tok.(string); ok && match(s) {
			found, at = path(), true
		}
		return at
	})
	return found, at
}

// walkJSON calls visit for every token of data with the path of the value
// it belongs to (a key: the value it names; built only when called, since
// it costs the depth), whether it is a key, and the input offset after it;
// visit returns true to stop. An opening bracket is visited before its
// container is entered.
func walkJSON(data []byte, visit func(path func() string, tok json.Token, isKey bool, end int64) bool) {
	type frame struct {
		array   bool
		index   int
		key     string
		wantKey bool
	}
	var stack []frame
	render := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				fmt.Fprintf(&b, "[%d]", f.index)
			} else if f.key != "" {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].wantKey {
			if key, ok := tok.(string); ok {
				stack[top].key, stack[top].wantKey = key, false
				if visit(render, tok, true, dec.InputOffset()) {
					return
				}
				continue
			}
		}
		if top >= 0 && stack[top].array && tok != json.Delim(']') {
			stack[top].index++
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			if visit(render, tok, false, dec.InputOffset()) {
				return
			}
			stack = append(stack, frame{array: tok == json.Delim('['), index: -1, wantKey: tok == json.Delim('{')})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
		}
		if visit(render, tok, false, dec.InputOffset()) {
			return
		}
		if n := len(stack) - 1; n >= 0 && !stack[n].array {
			stack[n].wantKey = true
		}
	}
}

// unknownFieldPath finds where the unknown field name sits in data, walking
// the JSON beside the Go type it was decoded into, since encoding/json does
// not say: "players[0].color". It falls back to the bare name.
func unknownFieldPath(data []byte, t reflect.Type, name string) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return name
	}
	if path, ok := findUnknown(v, t, name, ""); ok {
		return path
	}
	return name
}

func findUnknown(v any, t reflect.Type, name, path string) (string, bool) {
	for t != nil && (t.Kind() == reflect.Pointer) {
		t = t.Elem()
	}
	if t == nil {
		return "", false
	}
	switch val := v.(type) {
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return "", false
		}
		for i, elem := range val {
			if p, ok := findUnknown(elem, t.Elem(), name, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return "", false
		}
		for key, elem := range val {
			field, ok := structField(t, key)
			if !ok {
				if key == name {
					return join(path, key), true
				}
				continue
			}
			if p, ok := findUnknown(elem, field.Type, name, join(path, key)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// structField finds the field of struct t that JSON key decodes into.
func structField(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			if inner, ok := structField(f.Type, key); ok {
				return inner, true
			}
			continue
		}
		if tag == key || (tag == "" && strings.EqualFold(f.Name, key)) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func or(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func join(prefix, field string) string {
	switch {
	case field == "":
		return prefix
	case prefix == "":
		return field
	}
	return prefix + "." + field
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer in range"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return "a " + goKind
}
