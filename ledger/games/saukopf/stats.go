package saukopf

import (
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Statistics keys; the package documentation lists when each is given.
const (
	keyContractPlayed = "contract_played"
	keyContractWon    = "contract_won"
	keyMastschweinWon = "mastschwein_won"
	keySchwarteWon    = "schwarte_won"
	keyHuftritt       = "huftritt"
)

// contractKeys holds "contract_played_<contract>" and
// "contract_won_<contract>" per contract, built once.
var contractKeys = func() map[string][2]string {
	m := make(map[string][2]string, len(trumpCount))
	for c := range trumpCount {
		m[c] = [2]string{keyContractPlayed + "_" + c, keyContractWon + "_" + c}
	}
	return m
}()

// handStats lists the statistics and the parties of a settled hand: the
// Spieler party first, then the Nichtspieler, each in seating order. A
// tied Wilde Sauerei has neither.
func handStats(g *game, seated []int64) ([]score.Stat, [][]int64) {
	if g.tie != "" {
		return nil, nil
	}
	var stats []score.Stat
	if !g.wild {
		won := g.spielerWins()
		k := contractKeys[g.contract]
		stats = make([]score.Stat, 0, 4+len(g.players))
		stats = append(stats, score.Stat{Player: g.spieler, Key: k[0], Count: 1})
		if won {
			stats = append(stats, score.Stat{Player: g.spieler, Key: k[1], Count: 1})
			switch g.contract {
			case cMastschwein:
				stats = append(stats, score.Stat{Player: g.spieler, Key: keyMastschweinWon, Count: 1})
			case cSchwarte:
				stats = append(stats, score.Stat{Player: g.spieler, Key: keySchwarteWon, Count: 1})
			}
		}
	}
	if g.huftritte > 0 {
		for _, id := range g.players {
			stats = append(stats, score.Stat{Player: id, Key: keyHuftritt, Count: int64(g.huftritte)})
		}
	}
	score.SortStats(stats, seated)
	// One array holds both parties: the Spieler party, then the others.
	ids := make([]int64, 0, len(g.players))
	ids = appendParty(ids, g, seated, true)
	n := len(ids)
	ids = appendParty(ids, g, seated, false)
	return stats, [][]int64{ids[:n:n], ids[n:]}
}

// appendParty appends the hand's players of the Spieler party (spieler)
// or of the Nichtspieler in seating order.
func appendParty(ids []int64, g *game, seated []int64, spieler bool) []int64 {
	for _, id := range seated {
		if slices.Contains(g.players, id) && g.inSpielerParty(id) == spieler {
			ids = append(ids, id)
		}
	}
	return ids
}
