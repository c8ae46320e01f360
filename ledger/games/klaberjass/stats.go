package klaberjass

import (
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Statistics keys; the package documentation lists when each is given. A
// key that counts an event is spelt as the event type.
const (
	keyTrumpPlayed  = "trump_played"
	keyTrumpWon     = "trump_won"
	keyKontraSaid   = "kontra_said"
	keyKontraWon    = "kontra_won"
	keyReSaid       = "re_said"
	keyReWon        = "re_won"
	keyMatchWon     = string(score.EventMatchWon)
	keyMatchLost    = string(score.EventMatchLost)
	keyMeldsCounted = "melds_counted"
	keyBella        = "bella"
)

// handStats lists the statistics and the parties of a scored hand with
// outcome out; events are the hand's events (a finished match).
func (g *game) handStats(out outcome, events []score.Event, seated []int64) ([]score.Stat, [][]int64) {
	stats := make([]score.Stat, 0, 2+3*len(g.players))
	add := func(id int64, key string, n int64) {
		stats = append(stats, score.Stat{Player: id, Key: key, Count: n})
	}
	add(g.trumpPlayer, keyTrumpPlayed, 1)
	if out.trumpWon {
		add(g.trumpPlayer, keyTrumpWon, 1)
	}
	ts := g.side(g.trumpPlayer)
	counting := g.countingMelds()
	for _, id := range g.players {
		onTrump := g.side(id) == ts
		switch {
		case g.kontra && !onTrump:
			add(id, keyKontraSaid, 1)
			if !out.trumpWon {
				add(id, keyKontraWon, 1)
			}
		case g.re && onTrump:
			add(id, keyReSaid, 1)
			if out.trumpWon {
				add(id, keyReWon, 1)
			}
		}
		n := int64(0)
		for _, m := range counting {
			if m.player == id {
				n++
			}
		}
		if n > 0 {
			add(id, keyMeldsCounted, n)
		}
	}
	if g.hasBella {
		add(g.bella, keyBella, 1)
	}
	for _, ev := range events {
		key := ""
		switch ev.Type {
		case score.EventMatchWon:
			key = keyMatchWon
		case score.EventMatchLost:
			key = keyMatchLost
		}
		if key == "" {
			continue
		}
		for _, id := range ev.Players {
			add(id, key, 1)
		}
	}
	score.SortStats(stats, seated)
	if len(g.players) != 4 {
		return stats, nil
	}
	// One array holds both teams: the trump team, then the other.
	ids := make([]int64, 0, len(g.players))
	for _, trumpTeam := range [...]bool{true, false} {
		for _, id := range seated {
			if g.seat(id) >= 0 && (g.side(id) == ts) == trumpTeam {
				ids = append(ids, id)
			}
		}
	}
	return stats, [][]int64{ids[:2:2], ids[2:]}
}
