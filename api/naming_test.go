package api_test

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/api"
)

// engineSchema matches the contract's schemas the game engines own: a
// hand's facts, a table's state, a game's options and the engine's result.
// Their JSON is the games' own, stored and hashed with each hand as the
// engine wrote it, and keeps the engine's names ("players", "dealer").
var engineSchema = regexp.MustCompile(`(Facts|State|Options)$|^(ScoreResult|Line|Event)$`)

// bareReferences are names that reference another resource without
// saying so: a reference is named <resource>_id (with a role in front when
// it needs one: from_player_id), a list of them <resource>_ids.
var bareReferences = []string{
	"player", "players", "table", "tables", "session", "sessions", "tournament", "tournaments",
	"club", "key", "booking", "transfer", "from", "to", "dealer", "winner", "winners", "loser",
	"losers", "other", "partner", "partners", "seating", "seatings", "recipients", "aufspiel",
	"soloist", "spieler", "mitspieler", "recorded_by", "payer", "payee", "owner",
}

// notReferences are int64 members that count, cursor or bound rather than
// reference: a page's cursor, a feed's sequence number, money, an option's
// range.
var notReferences = []string{"after", "next_after", "seq", "cents", "amount", "minimum", "maximum"}

// idDescription is a description that says a member is another
// resource's id.
var idDescription = regexp.MustCompile(`(?i)\b(the|an?) id of\b|\bid of (a|an|the) (player|table|session|tournament|key|transfer|booking)\b`)

// namingViolations walks a contract's bodies and query parameters,
// outside the engine's schemas, and returns every member or parameter that
// references another resource by id without ending in _id (_ids for a
// list), sorted.
func namingViolations(doc *openapi3.T) []string {
	var out []string
	seen := map[*openapi3.Schema]bool{}
	var visit func(ref *openapi3.SchemaRef, at string)
	visit = func(ref *openapi3.SchemaRef, at string) {
		if ref == nil || ref.Value == nil || engineRef(ref) || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		if name := refName(ref); name != "" {
			at = name
		}
		for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, r := range refs {
				visit(r, at)
			}
		}
		for name, p := range s.Properties {
			if why := badReference(name, p, false); why != "" {
				out = append(out, at+"."+name+": "+why)
			}
			visit(p, at+"."+name)
		}
		visit(s.Items, at+"[]")
		visit(s.AdditionalProperties.Schema, at+"{}")
	}
	for name, s := range doc.Components.Schemas {
		visit(&openapi3.SchemaRef{Ref: "#/components/schemas/" + name, Value: s.Value}, name)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			at := method + " " + path
			for _, p := range append(slices.Clone(item.Parameters), op.Parameters...) {
				if p.Value == nil || p.Value.In != openapi3.ParameterInQuery {
					continue
				}
				if why := badReference(p.Value.Name, p.Value.Schema, true); why != "" {
					out = append(out, at+" ?"+p.Value.Name+": "+why)
				}
				if why := describedReference(p.Value.Name, p.Value.Description); why != "" {
					out = append(out, at+" ?"+p.Value.Name+": "+why)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					visit(mt.Schema, at+" body")
				}
			}
			for code, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					visit(mt.Schema, at+" "+code)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// badReference says why a member or query parameter named name with
// schema ref breaks the naming scheme, or "" when it keeps it. A query
// parameter repeated for a list names one id per value: _id.
func badReference(name string, ref *openapi3.SchemaRef, query bool) string {
	if ref == nil || ref.Value == nil || engineRef(ref) {
		return ""
	}
	s := ref.Value
	if len(s.AllOf) == 1 && s.Type == nil {
		if engineRef(s.AllOf[0]) {
			return ""
		}
		s = s.AllOf[0].Value
	}
	if why := describedReference(name, s.Description); why != "" {
		return why
	}
	switch {
	case isID(s):
		if slices.Contains(bareReferences, name) {
			return "a bare reference: name it <resource>_id"
		}
		if name != "id" && !strings.HasSuffix(name, "_id") && !strings.HasSuffix(name, "_cents") && !slices.Contains(notReferences, name) {
			return "an id that does not end in _id"
		}
	case s.Type.Is(openapi3.TypeArray) && s.Items != nil && s.Items.Value != nil && isID(s.Items.Value) && !engineRef(s.Items):
		if query && strings.HasSuffix(name, "_id") {
			return ""
		}
		if !strings.HasSuffix(name, "_ids") {
			return "a list of ids that does not end in _ids"
		}
	case s.Type.Is(openapi3.TypeInteger) && slices.Contains(bareReferences, name) && !strings.HasSuffix(name, "s"):
		return "a bare reference: name it <resource>_id"
	}
	return ""
}

// describedReference says why a member whose description calls it
// another resource's id breaks the scheme, or "".
func describedReference(name, description string) string {
	if name == "id" || strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_ids") || slices.Contains(notReferences, name) {
		return ""
	}
	if idDescription.MatchString(description) {
		return "described as an id, but not named _id"
	}
	return ""
}

// isID reports whether a schema is an id: an int64 integer.
func isID(s *openapi3.Schema) bool {
	return s.Type.Is(openapi3.TypeInteger) && s.Format == "int64"
}

// refName is the name of the component schema a reference names, "" for
// an inline schema.
func refName(ref *openapi3.SchemaRef) string {
	name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/")
	if !ok {
		return ""
	}
	return name
}

// engineRef reports whether a reference names an engine-owned schema.
func engineRef(ref *openapi3.SchemaRef) bool {
	return ref != nil && engineSchema.MatchString(refName(ref))
}

// TestReferencesEndInID: every member of a body and every query parameter
// of the contract that references another resource by id ends in _id (a
// list in _ids), outside the engine's facts, state, options and result,
// whose references keep the engine's names.
func TestReferencesEndInID(t *testing.T) {
	doc, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range namingViolations(doc) {
		t.Error(v)
	}
}

// TestNamingViolationsAreFound: the walk finds a bare reference wherever
// one hides (a member, a list, a nested item, a query parameter, a
// description), and leaves the engine's schemas and embedded resources
// alone.
func TestNamingViolationsAreFound(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData([]byte(`
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      parameters:
        - {name: table, in: query, schema: {type: integer, format: int64}}
        - {name: player_id, in: query, schema: {type: array, items: {type: integer, format: int64}}}
        - {name: after, in: query, schema: {type: integer, format: int64}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  schemas:
    PlayerID: {type: integer, format: int64}
    Thing:
      type: object
      properties:
        id: {type: integer, format: int64}
        player: {$ref: '#/components/schemas/PlayerID'}
        from: {type: integer, format: int64, nullable: true}
        seating: {type: array, items: {$ref: '#/components/schemas/PlayerID'}}
        player_ids: {type: array, items: {$ref: '#/components/schemas/PlayerID'}}
        dealer: {allOf: [{$ref: '#/components/schemas/PlayerID'}]}
        owner: {type: integer, description: 'The id of the player who owns it.'}
        net_cents: {type: integer, format: int64}
        sessions: {type: integer}
        table: {$ref: '#/components/schemas/Table'}
        rows:
          type: array
          items:
            type: object
            properties:
              tournament: {type: integer, format: int64}
              keeper: {type: integer, format: int64}
        facts: {$ref: '#/components/schemas/DoppelkopfFacts'}
    Table:
      type: object
      properties:
        id: {type: integer, format: int64}
    DoppelkopfFacts:
      type: object
      properties:
        dealer: {type: integer, format: int64}
        players: {type: array, items: {type: integer, format: int64}}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /x ?table: a bare reference: name it <resource>_id",
		"Thing.dealer: a bare reference: name it <resource>_id",
		"Thing.from: a bare reference: name it <resource>_id",
		"Thing.owner: described as an id, but not named _id",
		"Thing.player: a bare reference: name it <resource>_id",
		"Thing.rows[].keeper: an id that does not end in _id",
		"Thing.rows[].tournament: a bare reference: name it <resource>_id",
		"Thing.seating: a list of ids that does not end in _ids",
	}
	if got := namingViolations(doc); !slices.Equal(got, want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
