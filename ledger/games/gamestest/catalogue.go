package gamestest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// CheckCatalogue checks an engine's catalogue against the engine: it lists
// exactly the presets (the keys of the engine's Presets) and the options of
// the engine's option struct, each preset with a German and an English
// line; every listed default is what Rules(preset, nil) yields; every
// allowed value (both booleans, each enum value, an integer's minimum and
// maximum) is accepted and lands in the rule set, while a value beyond
// them and an option not listed are refused naming the field.
func CheckCatalogue(t *testing.T, e score.Engine, options any, presets []string) {
	t.Helper()
	c := e.Catalogue()
	var listed []string
	for _, p := range c.Presets {
		listed = append(listed, p.Name)
		if p.DescriptionDE == "" || p.DescriptionEN == "" || strings.Contains(p.DescriptionDE+p.DescriptionEN, "\n") {
			t.Errorf("%s preset %s: descriptions must be one line each: %+v", e.Name(), p.Name, p)
		}
	}
	slices.Sort(presets)
	slices.Sort(listed)
	if !slices.Equal(listed, presets) {
		t.Errorf("%s: catalogue lists presets %v, the engine has %v", e.Name(), listed, presets)
	}
	if !bytes.Equal(MustRules(t, e, "", ""), MustRules(t, e, c.DefaultPreset, "")) {
		t.Errorf("%s: the default preset is not %s", e.Name(), c.DefaultPreset)
	}
	var names []string
	for _, o := range c.Options {
		names = append(names, o.Name)
		checkOption(t, e, c, o)
	}
	if want := jsonNames(options); !slices.Equal(names, want) {
		t.Errorf("%s: catalogue lists options %v, the engine accepts %v", e.Name(), names, want)
	}
	refused(t, e, c.DefaultPreset, "no_such_option", `true`)
}

// checkOption checks one option's defaults and allowed values.
func checkOption(t *testing.T, e score.Engine, c score.Catalogue, o score.OptionInfo) {
	t.Helper()
	if o.DescriptionDE == "" || o.DescriptionEN == "" || strings.Contains(o.DescriptionDE+o.DescriptionEN, "\n") {
		t.Errorf("%s option %s: descriptions must be one line each", e.Name(), o.Name)
	}
	for _, p := range c.Presets {
		got, want := o.Defaults[p.Name], member(t, MustRules(t, e, p.Name, ""), o.Name)
		if !jsonEqual(got, want) {
			t.Errorf("%s option %s: default under %s is %s, Rules yields %s", e.Name(), o.Name, p.Name, got, want)
		}
	}
	var allowed, beyond []string
	switch o.Type {
	case "boolean":
		allowed = []string{"true", "false"}
		beyond = []string{`"yes"`}
	case "string":
		for _, v := range o.Enum {
			allowed = append(allowed, fmt.Sprintf("%q", v))
		}
		beyond = []string{`"no_such_value"`}
	case "integer":
		if o.Minimum == nil || o.Maximum == nil {
			t.Fatalf("%s option %s: an integer without a range", e.Name(), o.Name)
		}
		allowed = []string{fmt.Sprint(*o.Minimum), fmt.Sprint(*o.Maximum)}
		beyond = []string{fmt.Sprint(*o.Minimum - 1), fmt.Sprint(*o.Maximum + 1)}
	default:
		t.Errorf("%s option %s: unknown type %q", e.Name(), o.Name, o.Type)
	}
	for _, p := range c.Presets {
		for _, v := range allowed {
			rules := MustRules(t, e, p.Name, fmt.Sprintf(`{%q: %s}`, o.Name, v))
			if got := member(t, rules, o.Name); !jsonEqual(got, json.RawMessage(v)) {
				t.Errorf("%s option %s=%s under %s: the rule set says %s", e.Name(), o.Name, v, p.Name, got)
			}
		}
		for _, v := range beyond {
			refused(t, e, p.Name, o.Name, v)
		}
	}
}

// refused checks that Rules refuses an option value naming the option.
func refused(t *testing.T, e score.Engine, preset, name, value string) {
	t.Helper()
	_, err := e.Rules(preset, json.RawMessage(fmt.Sprintf(`{%q: %s}`, name, value)))
	var v *score.Violation
	if !errors.As(err, &v) || !strings.HasPrefix(v.Field, "options") {
		t.Errorf("%s: option %s=%s under %s: %v, want a violation of options", e.Name(), name, value, preset, err)
	}
}

// member returns one member of a JSON object.
func member(t *testing.T, raw json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// jsonNames returns the json names of a struct's fields, in order.
func jsonNames(v any) []string {
	t := reflect.TypeOf(v)
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}
