package schwarzesau

import (
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// outcome is what a hand writes down: each loser's minus points (as a
// positive number) and the lines that explain them.
type outcome struct {
	minus map[int64]score.Points
	lines []score.Line
}

// outcome scores validated facts: a Verstoß first, then a Durchmarsch,
// then the Sau in the blind Stock, else the Sau holder loses.
func (f Facts) outcome() outcome {
	if f.VerstossBy != nil {
		return f.loserOutcome(*f.VerstossBy, "Verstoß")
	}
	if winner, ok := f.durchmarsch(); ok {
		return f.durchmarschOutcome(winner)
	}
	if f.Stock != nil && f.Stock.PikDame {
		return outcome{
			minus: map[int64]score.Points{},
			lines: []score.Line{{Label: "Schwarze Sau im Stock: kein Verlierer", Op: score.OpEq, Value: score.Int(0)}},
		}
	}
	return f.loserOutcome(f.sauHolder(), "Schwarze Sau")
}

// factor is 2 to the power of the doublings said.
func (f Facts) factor() int64 { return int64(1) << len(f.Doublings) }

// factorLine is "x8 (Kontra, Re, Sub)"; ok is false without doublings.
func (f Facts) factorLine() (score.Line, bool) {
	if len(f.Doublings) == 0 {
		return score.Line{}, false
	}
	names := make([]string, len(f.Doublings))
	for i, d := range f.Doublings {
		names[i] = d.Call
	}
	label := fmt.Sprintf("x%d (%s)", f.factor(), strings.Join(names, ", "))
	return score.Line{Label: label, Op: score.OpMul, Value: score.Int(f.factor())}, true
}

// durchmarsch returns the player who took every trick.
func (f Facts) durchmarsch() (int64, bool) {
	for _, p := range f.Players {
		if p.Tricks == handTricks {
			return p.Player, true
		}
	}
	return 0, false
}

func (f Facts) durchmarschOutcome(winner int64) outcome {
	o := outcome{minus: map[int64]score.Points{}}
	o.lines = append(o.lines, score.Line{Label: "Durchmarsch", Op: score.OpAdd, Value: score.Int(deckPoints), Player: winner})
	if l, ok := f.factorLine(); ok {
		o.lines = append(o.lines, l)
	}
	minus := score.Int(deckPoints).MulInt(f.factor())
	for _, p := range f.Players {
		if p.Player == winner {
			continue
		}
		o.minus[p.Player] = minus
		o.lines = append(o.lines, score.Line{Label: "Minuspunkte", Op: score.OpEq, Value: minus.Neg(), Player: p.Player})
	}
	return o
}

// loserOutcome writes the highest card-point total times the factor,
// halved when every player took a trick, down for the loser.
func (f Facts) loserOutcome(loser int64, reason string) outcome {
	high := f.highest()
	o := outcome{minus: map[int64]score.Points{}}
	o.lines = append(o.lines, score.Line{Label: fmt.Sprintf("höchste Augen %d", high), Op: score.OpAdd, Value: score.Int(int64(high))})
	if l, ok := f.factorLine(); ok {
		o.lines = append(o.lines, l)
	}
	minus := score.Int(int64(high)).MulInt(f.factor())
	if f.everyoneTookATrick() {
		minus = minus.DivInt(2)
		o.lines = append(o.lines, score.Line{Label: "halbiert", Op: score.OpDiv, Value: score.Int(2)})
	}
	o.minus[loser] = minus
	o.lines = append(o.lines, score.Line{Label: reason, Op: score.OpEq, Value: minus.Neg(), Player: loser})
	return o
}

// highest is the highest card-point total of a player (the Stock is no
// player).
func (f Facts) highest() int {
	high := 0
	for _, p := range f.Players {
		high = max(high, p.CardPoints)
	}
	return high
}

func (f Facts) everyoneTookATrick() bool {
	for _, p := range f.Players {
		if p.Tricks == 0 {
			return false
		}
	}
	return true
}

// sauHolder is the player who took the Pik-Dame; validated facts without
// a Verstoß and without the Sau in the Stock always have one.
func (f Facts) sauHolder() int64 {
	for _, p := range f.Players {
		if p.PikDame {
			return p.Player
		}
	}
	return 0
}

// title names the hand for a score sheet: who lost it and why ("Spieler 2
// hat die Sau", "Verstoß von Spieler 3"), or who took every trick
// ("Durchmarsch von Spieler 2"), with the last doubling said (", Sub"
// means Kontra, Re and Sub).
func (f Facts) title() string {
	var t string
	switch winner, ok := f.durchmarsch(); {
	case f.VerstossBy != nil:
		t = "Verstoß von " + score.PlayerRef(*f.VerstossBy)
	case ok:
		t = "Durchmarsch von " + score.PlayerRef(winner)
	case f.Stock != nil && f.Stock.PikDame:
		return "Sau im Stock, kein Verlierer"
	default:
		t = score.PlayerRef(f.sauHolder()) + " hat die Sau"
	}
	if n := len(f.Doublings); n > 0 {
		t += ", " + f.Doublings[n-1].Call
	}
	return t
}
