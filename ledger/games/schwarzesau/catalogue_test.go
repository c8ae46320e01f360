package schwarzesau

import (
	"maps"
	"slices"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/games/gamestest"
)

// TestCatalogue: the catalogue lists every preset and every option the
// engine accepts, with the defaults and allowed values Rules holds to.
func TestCatalogue(t *testing.T) {
	gamestest.CheckCatalogue(t, Engine{}, Options{}, slices.Collect(maps.Keys(Presets)))
}
