package score

import "slices"

// Seats are who deals, who plays and who sits out in one hand to come.
type Seats struct {
	Dealer     int64   `json:"dealer_id"`
	Players    []int64 `json:"player_ids"`
	SittingOut []int64 `json:"sitting_out_ids"`
}

// Rotator is an engine that tells a session's hands to come ahead of
// time, so a phone without a connection can record a whole round with
// the right dealer and players to choose from. Ahead returns the seats of
// the next hands, the next one first, as many as are seated (one full
// round of dealers), as the game's rules rotate them when no hand
// changes the rotation (a redeal, a solo that deals again, a winner who
// deals). h is as for Preview (rules, state, seating, session);
// lastDealer is who dealt the session's last hand (0: none yet), for the
// games whose state does not remember it. Ahead is pure like Preview;
// without a seating it returns none.
type Rotator interface {
	Ahead(h Hand, lastDealer int64) ([]Seats, error)
}

// Rotate is one round of seats at a table where the deal passes to the
// next seated player: first deals the first hand, each next seated player
// the next one. perHand play each hand, in seating order: everyone seated
// when no more are seated; else the perHand seats after the dealer when
// the dealer sits out (dealerPlays false), or the dealer and the seats
// after him. The others sit out.
func Rotate(seated []int64, first int64, perHand int, dealerPlays bool) []Seats {
	n := len(seated)
	start := slices.Index(seated, first)
	if n == 0 || start < 0 {
		return []Seats{}
	}
	out := make([]Seats, n)
	for k := range n {
		d := (start + k) % n
		s := Seats{Dealer: seated[d], Players: []int64{}, SittingOut: []int64{}}
		for pos, id := range seated {
			offset := (pos - d + n) % n // 0: the dealer
			plays := n <= perHand ||
				(dealerPlays && offset < perHand) ||
				(!dealerPlays && offset >= 1 && offset <= perHand)
			if plays {
				s.Players = append(s.Players, id)
			} else {
				s.SittingOut = append(s.SittingOut, id)
			}
		}
		out[k] = s
	}
	return out
}

// NextOf is the player seated after last, or the first seated player
// when last is not seated (0: nobody dealt yet).
func NextOf(seated []int64, last int64) int64 {
	if len(seated) == 0 {
		return 0
	}
	i := slices.Index(seated, last)
	if i < 0 {
		return seated[0]
	}
	return seated[(i+1)%len(seated)]
}
