package api_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/api"
	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/games"
)

// TestSpecStatesTheLedgersLimits: where openapi.yaml and the ledger both
// state a limit, they state the same one (the ledger's named constant).
func TestSpecStatesTheLedgersLimits(t *testing.T) {
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	schema := func(name string) *openapi3.Schema { return doc.Components.Schemas[name].Value }
	prop := func(s *openapi3.Schema, name string) *openapi3.Schema {
		for _, v := range flatten(s) {
			if p, ok := v.Properties[name]; ok {
				return p.Value
			}
		}
		t.Fatalf("no property %s", name)
		return nil
	}
	body := func(opID string) *openapi3.Schema {
		return operation(t, doc, opID).RequestBody.Value.Content.Get("application/json").Schema.Value
	}
	param := func(opID, name string) *openapi3.Schema {
		for _, p := range operationParams(t, doc, opID) {
			if p.Name == name {
				return p.Schema.Value
			}
		}
		t.Fatalf("%s has no parameter %s", opID, name)
		return nil
	}
	newHand := schema("NewHand")
	for _, c := range []struct {
		what      string
		spec, ged float64
	}{
		{"NewPlayer.name maxLength", maxLen(prop(schema("NewPlayer"), "name")), ledger.MaxPlayerNameLen},
		{"NewTable.name maxLength", maxLen(prop(schema("NewTable"), "name")), ledger.MaxTableNameLen},
		{"NewKey.label maxLength", maxLen(prop(schema("NewKey"), "label")), ledger.MaxKeyLabelLen},
		{"NewJoin.ttl_seconds minimum", *prop(schema("NewJoin"), "ttl_seconds").Min, ledger.MinJoinTTL},
		{"NewJoin.ttl_seconds maximum", *prop(schema("NewJoin"), "ttl_seconds").Max, ledger.MaxJoinTTL},
		{"NewJoin.ttl_seconds default", prop(schema("NewJoin"), "ttl_seconds").Default.(float64), ledger.DefaultJoinTTL},
		{"correctHand reason maxLength", maxLen(prop(body("correctHand"), "reason")), ledger.MaxReasonLen},
		{"bookKitty note maxLength", maxLen(prop(body("bookKitty"), "note")), ledger.MaxNoteLen},
		{"bookKitty cents maximum", *prop(body("bookKitty"), "cents").Max, ledger.MaxKittyBookingCents},
		{"bookKitty cents minimum", *prop(body("bookKitty"), "cents").Min, -ledger.MaxKittyBookingCents},
		{"NewTable.match_loss_cents maximum", *prop(schema("NewTable"), "match_loss_cents").Max, ledger.MaxMatchLossCents},
		{"NewHand.number maximum", *prop(newHand, "number").Max, ledger.MaxHandNumber},
		{"HandNumber maximum", *doc.Components.Parameters["HandNumber"].Value.Schema.Value.Max, ledger.MaxHandNumber},
		{"listHands after maximum", *param("listHands", "after").Max, ledger.MaxHandNumber},
		{"Idempotency-Key maxLength", maxLen(doc.Components.Parameters["IdempotencyKey"].Value.Schema.Value), ledger.MaxIdempotencyKeyLen},
		{"NewSession.player_ids minItems", float64(prop(schema("NewSession"), "player_ids").MinItems), ledger.MinSeated},
		{"NewSession.player_ids maxItems", float64(*prop(schema("NewSession"), "player_ids").MaxItems), ledger.MaxSeated},
		{"ScoreRequest.player_ids minItems", float64(prop(schema("ScoreRequest"), "player_ids").MinItems), ledger.MinSeated},
		{"ScoreRequest.player_ids maxItems", float64(*prop(schema("ScoreRequest"), "player_ids").MaxItems), ledger.MaxSeated},
	} {
		if c.spec != c.ged {
			t.Errorf("openapi.yaml's %s is %v, the ledger's %v", c.what, c.spec, c.ged)
		}
	}
	checkDateSchema(t, schema("Date"))
	if got, want := enumStrings(schema("GameName")), games.Names(); !slices.Equal(got, want) {
		t.Errorf("GameName lists %v, the games are %v", got, want)
	}
}

// checkDateSchema: the Date schema's pattern and description state the
// ledger's MinDate and MaxDate, and it is format date, which the API
// checks with the ledger's ParseDate.
func checkDateSchema(t *testing.T, s *openapi3.Schema) {
	re := regexp.MustCompile(s.Pattern)
	for _, d := range []string{ledger.MinDate, ledger.MaxDate} {
		if !re.MatchString(d) || !strings.Contains(s.Description, d) {
			t.Errorf("the Date schema's pattern or description does not take %s", d)
		}
	}
	for _, b := range dateBounds() {
		if b.beyond && re.MatchString(b.value.(string)) && b.label != "no such day" {
			t.Errorf("the Date schema's pattern takes %s (%s)", b.value, b.label)
		}
	}
	if s.Format != "date" {
		t.Errorf("the Date schema is format %q", s.Format)
	}
}

// TestEveryFormatIsChecked: kin-openapi checks only the formats it has a
// validator for; every format openapi.yaml uses must have one.
func TestEveryFormatIsChecked(t *testing.T) {
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]string{}
	var visit func(s *openapi3.Schema, seen map[*openapi3.Schema]bool)
	visit = func(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Format != "" {
			formats[s.Format] = strings.Join(s.Type.Slice(), ",")
		}
		for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, r := range refs {
				visit(r.Value, seen)
			}
		}
		for _, p := range s.Properties {
			visit(p.Value, seen)
		}
		if s.Items != nil {
			visit(s.Items.Value, seen)
		}
		if ap := s.AdditionalProperties.Schema; ap != nil {
			visit(ap.Value, seen)
		}
	}
	seen := map[*openapi3.Schema]bool{}
	for _, s := range doc.Components.Schemas {
		visit(s.Value, seen)
	}
	for _, op := range specOperations(doc) {
		for _, p := range op.params {
			visit(p.Schema.Value, seen)
		}
		if rb := op.op.RequestBody; rb != nil {
			for _, mt := range rb.Value.Content {
				visit(mt.Schema.Value, seen)
			}
		}
	}
	for format, typ := range formats {
		_, isString := openapi3.SchemaStringFormats[format]
		_, isInteger := openapi3.SchemaIntegerFormats[format]
		if (typ == "string" && !isString) || (typ == "integer" && !isInteger) || (typ != "string" && typ != "integer") {
			t.Errorf("format %q (%s) has no validator: kin-openapi would let anything through", format, typ)
		}
	}
	if len(formats) < 4 {
		t.Errorf("found only the formats %v", formats)
	}
}

func maxLen(s *openapi3.Schema) float64 {
	if s.MaxLength == nil {
		return -1
	}
	return float64(*s.MaxLength)
}

func enumStrings(s *openapi3.Schema) []string {
	var out []string
	for _, v := range s.Enum {
		out = append(out, v.(string))
	}
	slices.Sort(out)
	return out
}

func operation(t *testing.T, doc *openapi3.T, id string) *openapi3.Operation {
	for _, op := range specOperations(doc) {
		if op.id == id {
			return op.op
		}
	}
	t.Fatalf("no operation %s", id)
	return nil
}

func operationParams(t *testing.T, doc *openapi3.T, id string) []*openapi3.Parameter {
	for _, op := range specOperations(doc) {
		if op.id == id {
			return op.params
		}
	}
	t.Fatalf("no operation %s", id)
	return nil
}
