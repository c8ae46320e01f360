package score

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Catalogue is what a game offers a table: its presets and the options
// that override them, each with a one-line description. An engine derives
// it from its own option struct (CatalogueOf), so it lists exactly the
// options Rules accepts and the defaults Rules yields.
type Catalogue struct {
	// DefaultPreset is the preset Rules takes for "".
	DefaultPreset string       `json:"default_preset"`
	Presets       []PresetInfo `json:"presets"`
	Options       []OptionInfo `json:"options"`
}

// PresetInfo is one named rule set.
type PresetInfo struct {
	Name          string `json:"name"`
	DescriptionDE string `json:"description_de"`
	DescriptionEN string `json:"description_en"`
}

// OptionInfo is one option a table may set: its JSON type (boolean,
// integer or string), the value each preset gives it, the values it
// allows (Enum for a string, Minimum and Maximum for an integer) and a
// one-line description.
type OptionInfo struct {
	Name          string                     `json:"name"`
	Type          string                     `json:"type"`
	Defaults      map[string]json.RawMessage `json:"defaults"`
	Enum          []string                   `json:"enum,omitempty"`
	Minimum       *int64                     `json:"minimum,omitempty"`
	Maximum       *int64                     `json:"maximum,omitempty"`
	DescriptionDE string                     `json:"description_de"`
	DescriptionEN string                     `json:"description_en"`
}

// CatalogueOf builds a game's catalogue from its option struct: every
// field (a pointer to bool, an integer or string) is an option named by
// its json tag, described by its `de` and `en` tags, its allowed values
// stated by `enum` (comma-separated) or `min` and `max`. Each preset's
// default of an option is the member of the same name in the rule set
// e.Rules(preset, nil) yields; an option the rule set lacks is an error.
func CatalogueOf(e Engine, options any, defaultPreset string, presets []PresetInfo) (Catalogue, error) {
	c := Catalogue{DefaultPreset: defaultPreset, Presets: presets, Options: []OptionInfo{}}
	rules, err := presetRules(e, presets)
	if err != nil {
		return c, err
	}
	t := reflect.TypeOf(options)
	for i := range t.NumField() {
		o, err := optionOf(t.Field(i))
		if err != nil {
			return c, fmt.Errorf("%s options: %w", e.Name(), err)
		}
		o.Defaults = map[string]json.RawMessage{}
		for _, p := range presets {
			v, ok := rules[p.Name][o.Name]
			if !ok {
				return c, fmt.Errorf("%s preset %s: the rule set has no %s", e.Name(), p.Name, o.Name)
			}
			o.Defaults[p.Name] = v
		}
		c.Options = append(c.Options, o)
	}
	return c, nil
}

// MustCatalogue is CatalogueOf for an engine's own, fixed option struct:
// an error is a programming error of the engine, caught by its tests.
func MustCatalogue(e Engine, options any, defaultPreset string, presets []PresetInfo) Catalogue {
	c, err := CatalogueOf(e, options, defaultPreset, presets)
	if err != nil {
		panic(err)
	}
	return c
}

// presetRules resolves every preset without overrides, as JSON members.
func presetRules(e Engine, presets []PresetInfo) (map[string]map[string]json.RawMessage, error) {
	out := map[string]map[string]json.RawMessage{}
	for _, p := range presets {
		raw, err := e.Rules(p.Name, nil)
		if err != nil {
			return nil, fmt.Errorf("%s preset %s: %w", e.Name(), p.Name, err)
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(raw, &members); err != nil {
			return nil, err
		}
		for k, v := range members {
			members[k] = bytes.TrimSpace(v)
		}
		out[p.Name] = members
	}
	return out, nil
}

// optionOf reads one field of an option struct.
func optionOf(f reflect.StructField) (OptionInfo, error) {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	o := OptionInfo{Name: name, DescriptionDE: f.Tag.Get("de"), DescriptionEN: f.Tag.Get("en")}
	if name == "" || o.DescriptionDE == "" || o.DescriptionEN == "" {
		return o, fmt.Errorf("field %s needs a json name and de and en descriptions", f.Name)
	}
	if f.Type.Kind() != reflect.Pointer {
		return o, fmt.Errorf("option %s is no pointer: an override must be told from its absence", name)
	}
	switch k := f.Type.Elem().Kind(); {
	case k == reflect.Bool:
		o.Type = "boolean"
	case k == reflect.String:
		o.Type = "string"
		if enum := f.Tag.Get("enum"); enum != "" {
			o.Enum = strings.Split(enum, ",")
		}
	case k >= reflect.Int && k <= reflect.Int64:
		o.Type = "integer"
		var err error
		if o.Minimum, err = tagInt(f, "min"); err != nil {
			return o, err
		}
		if o.Maximum, err = tagInt(f, "max"); err != nil {
			return o, err
		}
	default:
		return o, fmt.Errorf("option %s is a %s: only booleans, integers and strings are options", name, k)
	}
	if o.Type == "string" && o.Enum == nil {
		return o, fmt.Errorf("option %s states no enum", name)
	}
	return o, nil
}

// tagInt reads a required integer tag.
func tagInt(f reflect.StructField, tag string) (*int64, error) {
	n, err := strconv.ParseInt(f.Tag.Get(tag), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("option field %s needs an integer %s tag", f.Name, tag)
	}
	return &n, nil
}
