package api_test

import (
	"log/slog"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// TestFirstClubSetup: the setup token creates one club with an admin key
// that works, once; a wrong token, a second use and a service without a
// token answer 404.
func TestFirstClubSetup(t *testing.T) {
	e := newEnv(t)
	e.must(404, "POST", "/v1/setup", "", map[string]any{"token": "geheim", "name": "Neu"})
	srv, err := api.New(e.store, slog.New(slog.DiscardHandler), api.Config{SetupToken: "geheim"})
	if err != nil {
		t.Fatal(err)
	}
	e.server = srv
	e.must(404, "POST", "/v1/setup", "", map[string]any{"token": "falsch", "name": "Neu"})
	got := e.must(201, "POST", "/v1/setup", "", map[string]any{"token": "geheim", "name": "Skatclub Eichel"})
	key, _ := got["key"].(string)
	if club := e.must(200, "GET", "/v1/club", key, nil); club["name"] != "Skatclub Eichel" {
		t.Errorf("the new key's club: %v", club)
	}
	e.must(201, "POST", "/v1/keys", key, map[string]any{"role": "reader"}) // an admin key
	e.must(404, "POST", "/v1/setup", "", map[string]any{"token": "geheim", "name": "Zweiter"})
}
