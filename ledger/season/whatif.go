package season

import "math/big"

// WhatIf is what a player needs on his remaining evenings to pass the
// leader: each of them must score more than PerEvening (in the season's
// unit). It assumes the leader's final stays, every remaining evening of
// the player counts (no drop, no best-k cut) and his missed evenings stay
// as they are.
type WhatIf struct {
	Player      int64  `json:"player_id"`
	Remaining   int    `json:"remaining"`
	Leader      int64  `json:"leader_id"` // 0: nobody else is ranked
	LeaderName  string `json:"leader_name"`
	LeaderFinal Exact  `json:"leader_final"`
	// PerEvening: more than this on each remaining evening passes the leader.
	PerEvening Exact  `json:"more_than_per_evening"`
	Assumes    string `json:"assumes"`
}

// WhatIfAssumes is the what-if's assumption, stated in every answer.
const WhatIfAssumes = "the leader's final stays; every remaining evening counts (no drop, no best-k cut); missed evenings stay"

// WhatIfOf computes the what-if of player over the ranked rows. For a
// sum: sum + R·x − penalty > L, so x > (L + penalty − sum)/R; for an
// average over n counted: (sum + R·x)/(n + R) − penalty > L, so
// x > ((L + penalty)(n + R) − sum)/R.
func WhatIfOf(r Rules, rows []Row, player int64, remaining int) WhatIf {
	w := WhatIf{Player: player, Remaining: remaining, Assumes: WhatIfAssumes}
	var me *Row
	for i := range rows {
		if rows[i].Player == player {
			me = &rows[i]
		}
	}
	for i := range rows {
		if rows[i].Eligible && rows[i].Player != player {
			w.Leader, w.LeaderName, w.LeaderFinal = rows[i].Player, rows[i].Name, rows[i].Final
			break
		}
	}
	if me == nil || w.Leader == 0 || remaining <= 0 {
		return w
	}
	target := new(big.Rat).Add(w.LeaderFinal.Rat, me.Penalty.Rat)
	sum := me.sum
	if sum == nil {
		sum = new(big.Rat)
	}
	R := big.NewRat(int64(remaining), 1)
	if r.Aggregate.Kind == Average {
		target.Mul(target, big.NewRat(int64(me.units+remaining), 1))
	}
	x := new(big.Rat).Sub(target, sum)
	w.PerEvening = exact(x.Quo(x, R))
	return w
}
