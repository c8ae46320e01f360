package api

import (
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/stichbuch/stichbuch/ledger/games"
)

// TestFactsSchemasFollowTheRegistry: the facts schemas the request router
// takes as any object are the union and one per registered game, found
// from the game's score endpoint; a game the contract leaves out of the
// union or without its endpoint is an error naming it, not a game whose
// facts the router would judge by the union.
func TestFactsSchemasFollowTheRegistry(t *testing.T) {
	load := func() *openapi3.T {
		doc, err := openapi3.NewLoader().LoadFromData(spec)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	facts, err := factsSchemas(load())
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != 1+len(games.Names()) {
		t.Errorf("%d facts schemas, want the union and one per game (%v)", len(facts), games.Names())
	}
	game := games.Names()[0]
	doc := load()
	doc.Paths.Delete("/v1/games/" + game + "/score")
	if _, err := factsSchemas(doc); err == nil || !strings.Contains(err.Error(), game) {
		t.Errorf("a registered game without its score endpoint: %v, want an error naming %s", err, game)
	}
	doc = load()
	union := doc.Components.Schemas["GameFacts"].Value
	union.OneOf = slices.Delete(union.OneOf, 0, 1)
	if _, err := factsSchemas(doc); err == nil || !strings.Contains(err.Error(), "GameFacts does not list") {
		t.Errorf("a game's facts left out of the union: %v, want an error", err)
	}
}
