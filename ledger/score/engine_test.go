package score

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// strictFacts is a small facts schema like the engines decode.
type strictFacts struct {
	Dealer  int64 `json:"dealer"`
	Players []struct {
		Player int64 `json:"player"`
		Tricks int   `json:"tricks"`
	} `json:"players"`
	Note string `json:"note"`
	Open bool   `json:"open"`
}

// violation returns err as a *Violation, failing the test when it is not.
func violation(t *testing.T, what string, err error) *Violation {
	t.Helper()
	if err == nil {
		t.Errorf("%s: accepted, want a *Violation", what)
		return nil
	}
	var v *Violation
	if !errors.As(err, &v) {
		t.Errorf("%s: error %v is %T, want *score.Violation", what, err, err)
		return nil
	}
	return v
}

func TestDecodeStrictAccepts(t *testing.T) {
	var f strictFacts
	in := "  \n{\"dealer\":7,\"players\":[{\"player\":1,\"tricks\":3},{\"player\":2,\"tricks\":10}],\"note\":\"x\",\"open\":true}\n\t "
	if err := DecodeStrict("facts", []byte(in), &f); err != nil {
		t.Fatalf("DecodeStrict: %v", err)
	}
	if f.Dealer != 7 || len(f.Players) != 2 || f.Players[1].Player != 2 || f.Players[1].Tricks != 10 || f.Note != "x" || !f.Open {
		t.Errorf("decoded %+v", f)
	}
	// null is one JSON value: it decodes to nothing and is not refused.
	var g strictFacts
	if err := DecodeStrict("facts", []byte(`null`), &g); err != nil {
		t.Errorf("DecodeStrict(null): %v", err)
	}
}

func TestDecodeStrictRefusals(t *testing.T) {
	tests := []struct {
		name, prefix, in string
		field            string // exact Violation field
		rule             string // a part of the rule
	}{
		{"unknown field", "facts", `{"dealer":1,"color":"red"}`, "facts.color", "is not a known field"},
		{"unknown field, bare", "", `{"dealer":1,"color":"red"}`, "color", "is not a known field"},
		{"unknown field, options", "options", `{"x":1}`, "options.x", "is not a known field"},
		{"string for integer", "facts", `{"dealer":"1"}`, "facts.dealer", "must be an integer in range, got string"},
		{"string for integer, bare", "", `{"dealer":"1"}`, "dealer", "must be an integer in range"},
		{"bool for integer", "facts", `{"dealer":true}`, "facts.dealer", "must be an integer in range, got bool"},
		{"fraction for integer", "facts", `{"dealer":1.5}`, "facts.dealer", "must be an integer in range"},
		{"integer out of range", "facts", `{"dealer":99999999999999999999}`, "facts.dealer", "must be an integer in range"},
		{"number for string", "facts", `{"note":5}`, "facts.note", "must be a string"},
		{"string for bool", "facts", `{"open":"yes"}`, "facts.open", "must be true or false"},
		{"object for array", "facts", `{"players":{}}`, "facts.players", "must be an array"},
		{"array for object", "facts", `[]`, "facts", "must be an object"},
		{"trailing value", "facts", `{"dealer":1} {"dealer":2}`, "facts", "must be a single JSON value"},
		{"trailing garbage", "facts", `{"dealer":1} x`, "facts", "must be a single JSON value"},
		{"trailing number", "options", `{} 1`, "options", "must be a single JSON value"},
		{"empty", "facts", ``, "facts", "is required"},
		{"whitespace only", "facts", " \n\t", "facts", "is required"},
		{"empty, bare", "", ``, "body", "is required"},
		{"syntax error", "facts", `{dealer:1}`, "facts", "is not valid JSON"},
		{"syntax error, bare", "", `{dealer:1}`, "body", "is not valid JSON"},
		{"truncated", "facts", `{"dealer":`, "facts", "unexpected EOF"},
	}
	for _, tt := range tests {
		var f strictFacts
		v := violation(t, tt.name, DecodeStrict(tt.prefix, []byte(tt.in), &f))
		if v == nil {
			continue
		}
		if v.Field != tt.field {
			t.Errorf("%s: field %q, want %q (rule %q)", tt.name, v.Field, tt.field, v.Rule)
		}
		if !strings.Contains(v.Rule, tt.rule) {
			t.Errorf("%s: rule %q, want it to contain %q", tt.name, v.Rule, tt.rule)
		}
	}
}

// TestDecodeStrictNestedTypeNamesField: a wrong type inside an array names
// the array and the field.
func TestDecodeStrictNestedTypeNamesField(t *testing.T) {
	var f strictFacts
	v := violation(t, "nested type", DecodeStrict("facts", []byte(`{"players":[{"player":1,"tricks":"4"}]}`), &f))
	if v == nil {
		return
	}
	if !strings.HasPrefix(v.Field, "facts.players") || !strings.HasSuffix(v.Field, "tricks") {
		t.Errorf("field %q, want facts.players…tricks", v.Field)
	}
}

func TestDecodeStrictRefusesTrailingClosers(t *testing.T) {
	for _, in := range []string{`{"dealer":1}}`, `{"dealer":1}]`, `{}}garbage`, `{} ]`} {
		var f strictFacts
		v := violation(t, in, DecodeStrict("facts", []byte(in), &f))
		if v != nil && v.Field != "facts" {
			t.Errorf("%s: field %q, want facts", in, v.Field)
		}
	}
}

func TestDecodeStrictNestedUnknownFieldPath(t *testing.T) {
	var f strictFacts
	v := violation(t, "nested unknown", DecodeStrict("facts", []byte(`{"players":[{"player":1,"color":1}]}`), &f))
	if v != nil && (!strings.HasPrefix(v.Field, "facts.players") || !strings.HasSuffix(v.Field, "color")) {
		t.Errorf("field %q, want facts.players[0].color", v.Field)
	}
}

func TestDecodeStrictBareWholeBodyErrorsNameBody(t *testing.T) {
	for _, in := range []string{`{} {}`, `{"dealer":`} {
		var f strictFacts
		v := violation(t, in, DecodeStrict("", []byte(in), &f))
		if v != nil && v.Field != "body" {
			t.Errorf("%s: field %q, want body", in, v.Field)
		}
	}
}

func TestInvalidAndViolation(t *testing.T) {
	err := Invalid("facts.players[2].tricks", "tricks add up to %d, need %d", 14, 13)
	var v *Violation
	if !errors.As(err, &v) {
		t.Fatalf("Invalid returned %T, want *Violation", err)
	}
	if v.Field != "facts.players[2].tricks" || v.Rule != "tricks add up to 14, need 13" {
		t.Errorf("Violation = %+v", *v)
	}
	if got, want := err.Error(), "facts.players[2].tricks: tricks add up to 14, need 13"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"field":"facts.players[2].tricks","rule":"tricks add up to 14, need 13"}` {
		t.Errorf("Violation JSON = %s", b)
	}
	// Still found when wrapped.
	wrapped := errors.Join(errors.New("context"), err)
	if !errors.As(wrapped, &v) || v.Field != "facts.players[2].tricks" {
		t.Errorf("errors.As through a wrap lost the Violation")
	}
}

func TestResultJSONShape(t *testing.T) {
	res := Result{
		Points:  []PlayerPoints{{Player: 1, Points: Frac(-7, 2)}, {Player: 2, Points: Frac(7, 2)}},
		Lines:   []Line{{Label: "Ergebnis", Op: "=", Value: Frac(7, 2), Player: 2}},
		Events:  []Event{{Type: "match_won", Text: "Partie 1", Players: []int64{2}}},
		Winners: []int64{2},
		State:   json.RawMessage(`{"match":2}`),
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	// Field by field, so that new fields of Result do not break the test.
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"points":  `[{"player":1,"points":"-7/2"},{"player":2,"points":"7/2"}]`,
		"lines":   `[{"label":"Ergebnis","op":"=","value":"7/2","player":2}]`,
		"events":  `[{"type":"match_won","text":"Partie 1","players":[2]}]`,
		"winners": `[2]`,
		"state":   `{"match":2}`,
	} {
		if string(got[key]) != want {
			t.Errorf("Result JSON %q = %s, want %s", key, got[key], want)
		}
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !same(back.Points[0].Points, Frac(-7, 2)) || !same(back.Lines[0].Value, Frac(7, 2)) {
		t.Errorf("Result JSON round trip: %+v", back)
	}
}

// TestEventTypesAndOpsKeepTheirWireValues pins the JSON of every event type
// and operation: they are stored with every hand and read back by the
// ledger, so a constant must never change its spelling.
func TestEventTypesAndOpsKeepTheirWireValues(t *testing.T) {
	events := map[EventType]string{
		EventMatchWon:       `"match_won"`,
		EventMatchLost:      `"match_lost"`,
		EventMatchAbandoned: `"match_abandoned"`,
		EventPayout:         `"payout"`,
		EventBockGame:       `"bock_game"`,
		EventBockQueued:     `"bock_queued"`,
		EventRedeal:         `"redeal"`,
		EventVerworfen:      `"verworfen"`,
	}
	for typ, want := range events {
		if b, err := json.Marshal(Event{Type: typ}); err != nil || !strings.HasPrefix(string(b), `{"type":`+want+`,`) {
			t.Errorf("Event{Type: %q} JSON = %s (%v), want type %s", typ, b, err, want)
		}
	}
	ops := map[Op]string{OpAdd: `"+"`, OpSub: `"-"`, OpMul: `"x"`, OpDiv: `"/"`, OpEq: `"="`}
	for op, want := range ops {
		if b, err := json.Marshal(Line{Op: op}); err != nil || !strings.Contains(string(b), `"op":`+want+`,`) {
			t.Errorf("Line{Op: %q} JSON = %s (%v), want op %s", op, b, err, want)
		}
	}
	var back Event
	if err := json.Unmarshal([]byte(`{"type":"payout","text":""}`), &back); err != nil || back.Type != EventPayout {
		t.Errorf("stored event type reads back as %q (%v), want EventPayout", back.Type, err)
	}
}

// TestDecodeStrictNamesTheArrayIndexOfATypeError: encoding/json reports a
// type error without array indexes; DecodeStrict names the exact path.
func TestDecodeStrictNamesTheArrayIndexOfATypeError(t *testing.T) {
	var v struct {
		Players []struct {
			Player int   `json:"player"`
			Hearts []int `json:"hearts"`
		} `json:"players"`
	}
	cases := []struct{ body, field string }{
		{`{"players":[{"player":1,"hearts":[2]},{"player":2,"hearts":"14"}]}`, "facts.players[1].hearts"},
		{`{"players":[{"player":1,"hearts":[2,"3"]}]}`, "facts.players[0].hearts[1]"},
		{`{"players":[{"player":"x"}]}`, "facts.players[0].player"},
		{`{"players":{"player":1}}`, "facts.players"},
	}
	for _, c := range cases {
		err := DecodeStrict("facts", []byte(c.body), &v)
		var viol *Violation
		if !errors.As(err, &viol) || viol.Field != c.field {
			t.Errorf("%s: %v, want field %s", c.body, err, c.field)
		}
	}
}
