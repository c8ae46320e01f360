package api_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// optionsSchemas names each game's options schema in openapi.yaml.
var optionsSchemas = map[string]string{
	"doppelkopf": "DoppelkopfOptions", "saukopf": "SaukopfOptions", "schwarze_sau": "SchwarzeSauOptions",
	"schwarze_dame": "SchwarzeDameOptions", "klaberjass": "KlaberjassOptions",
}

// TestGamesListTheirCatalogue: GET /v1/games lists each game's presets and
// options as the engines state them, and each game's options are exactly
// what the contract's *Options schema of that game allows: the same names,
// types, enums and ranges.
func TestGamesListTheirCatalogue(t *testing.T) {
	e := newEnv(t)
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	list := e.must(200, "GET", "/v1/games", e.admin, nil)["games"].([]any)
	if len(list) != len(optionsSchemas) {
		t.Fatalf("%d games listed, want %d", len(list), len(optionsSchemas))
	}
	for _, g := range list {
		game := g.(map[string]any)
		name := game["name"].(string)
		schema := doc.Components.Schemas[optionsSchemas[name]].Value
		var listed, stated []string
		for _, o := range game["options"].([]any) {
			opt := o.(map[string]any)
			on := opt["name"].(string)
			listed = append(listed, on)
			prop := schema.Properties[on]
			if prop == nil {
				t.Errorf("%s option %s is not in %s", name, on, optionsSchemas[name])
				continue
			}
			p := prop.Value
			if !p.Type.Is(opt["type"].(string)) {
				t.Errorf("%s option %s: type %v, the contract says %v", name, on, opt["type"], p.Type)
			}
			var enum []string
			for _, v := range p.Enum {
				enum = append(enum, fmt.Sprint(v))
			}
			var got []string
			for _, v := range asSlice(opt["enum"]) {
				got = append(got, v.(string))
			}
			if !slices.Equal(got, enum) {
				t.Errorf("%s option %s: enum %v, the contract says %v", name, on, got, enum)
			}
			if !sameBound(opt["minimum"], p.Min) || !sameBound(opt["maximum"], p.Max) {
				t.Errorf("%s option %s: range %v..%v, the contract says %v..%v", name, on, opt["minimum"], opt["maximum"], deref(p.Min), deref(p.Max))
			}
			if len(opt["defaults"].(map[string]any)) != len(game["presets"].([]any)) {
				t.Errorf("%s option %s: defaults %v, want one per preset", name, on, opt["defaults"])
			}
		}
		for prop := range schema.Properties {
			stated = append(stated, prop)
		}
		slices.Sort(listed)
		slices.Sort(stated)
		if !slices.Equal(listed, stated) {
			t.Errorf("%s: catalogue lists %v, %s allows %v", name, listed, optionsSchemas[name], stated)
		}
	}
	dk := list[0].(map[string]any)
	bock := dk["options"].([]any)[3].(map[string]any)
	if dk["name"] != "doppelkopf" || dk["default_preset"] != "house" || bock["name"] != "bock" ||
		bock["defaults"].(map[string]any)["house"] != true || bock["defaults"].(map[string]any)["ddv"] != false {
		t.Errorf("doppelkopf's bock: %v", bock)
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func sameBound(listed any, stated *float64) bool {
	if listed == nil || stated == nil {
		return listed == nil && stated == nil
	}
	return listed.(float64) == *stated
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
