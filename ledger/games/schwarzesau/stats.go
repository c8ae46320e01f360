package schwarzesau

import (
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Statistics keys; the package documentation lists when each is given. A
// key that counts an event is spelt as the event type.
const (
	keySauTaken    = "sau_taken"
	keyLost        = "lost"
	keyDurchmarsch = "durchmarsch"
	keyPayout      = string(score.EventPayout)
)

// callKeys are the keys of the doublings, in the order of calls.
var callKeys = [...]string{"kontra_said", "re_said", "sub_said", "hirsch_said"}

// handStats lists the statistics of a scored hand: o is its outcome and
// payers are the players who pay a payout after it.
func handStats(f Facts, o outcome, payers, seated []int64) []score.Stat {
	stats := make([]score.Stat, 0, len(o.minus)+len(f.Doublings)+len(payers)+2)
	add := func(id int64, key string) {
		stats = append(stats, score.Stat{Player: id, Key: key, Count: 1})
	}
	for _, p := range f.Players {
		if p.PikDame {
			add(p.Player, keySauTaken)
		}
		if _, lost := o.minus[p.Player]; lost {
			add(p.Player, keyLost)
		}
	}
	if f.VerstossBy == nil {
		if id, ok := f.durchmarsch(); ok {
			add(id, keyDurchmarsch)
		}
	}
	for i, d := range f.Doublings {
		add(d.Player, callKeys[i])
	}
	for _, id := range payers {
		add(id, keyPayout)
	}
	score.SortStats(stats, seated)
	return stats
}
