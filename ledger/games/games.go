// Package games is the registry of scoring engines: the one place that
// knows which games exist.
package games

import (
	"sort"

	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/games/klaberjass"
	"github.com/stichbuch/stichbuch/ledger/games/saukopf"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzedame"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzesau"
	"github.com/stichbuch/stichbuch/ledger/score"
)

var registry = map[string]score.Engine{}

func register(e score.Engine) { registry[e.Name()] = e }

func init() {
	register(doppelkopf.Engine{})
	register(klaberjass.Engine{})
	register(saukopf.Engine{})
	register(schwarzedame.Engine{})
	register(schwarzesau.Engine{})
}

// Lookup returns the engine of a game by its registry name.
func Lookup(name string) (score.Engine, bool) {
	e, ok := registry[name]
	return e, ok
}

// Names returns every registered game's name, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
