package schwarzedame

import (
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Statistics keys; the package documentation lists when each is given. A
// key that counts an event is spelt as the event type.
const (
	keyPikDame  = "pik_dame"
	keyTricks   = "tricks"
	keyMatchWon = string(score.EventMatchWon)
)

// handStats lists the statistics of a hand; matchWinners are the winners
// of the match the hand ended, if it ended one.
func handStats(f Facts, matchWinners, seated []int64) []score.Stat {
	stats := make([]score.Stat, 0, len(f.Players)+len(matchWinners)+1)
	for _, p := range f.Players {
		if p.Tricks > 0 {
			stats = append(stats, score.Stat{Player: p.Player, Key: keyTricks, Count: int64(p.Tricks)})
		}
		if p.PikDame {
			stats = append(stats, score.Stat{Player: p.Player, Key: keyPikDame, Count: 1})
		}
	}
	for _, id := range matchWinners {
		stats = append(stats, score.Stat{Player: id, Key: keyMatchWon, Count: 1})
	}
	score.SortStats(stats, seated)
	return stats
}
