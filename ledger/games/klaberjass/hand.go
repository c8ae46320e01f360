package klaberjass

import (
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// total is one side's account of a hand.
type total struct {
	cards, lastTrick, melds, bella, sum int
}

// outcome is who won the hand and how far each side's die moves.
type outcome struct {
	trumpWon bool
	winners  []bool // per side
	moves    []int  // per side
	lines    []score.Line
}

// bestMeld returns the meld that decides whose melds count, if any was
// declared.
func (g *game) bestMeld() (meld, bool) {
	if len(g.melds) == 0 {
		return meld{}, false
	}
	best := g.melds[0]
	for _, m := range g.melds[1:] {
		if g.outranks(m, best) {
			best = m
		}
	}
	return best, true
}

// outranks reports whether meld a beats meld b: a Halber beats a Terz, then
// the higher top card, then trump, then the player nearer the dealer's left.
func (g *game) outranks(a, b meld) bool {
	if a.length != b.length {
		return a.length > b.length
	}
	if a.top != b.top {
		return a.top > b.top
	}
	if at, bt := a.suit == g.trump, b.suit == g.trump; at != bt {
		return at
	}
	return g.fromDealer(a.player) < g.fromDealer(b.player)
}

// countingMelds are the melds that score: all of the best meld's team with
// four players, only its player's with two or three.
func (g *game) countingMelds() []meld {
	best, ok := g.bestMeld()
	if !ok {
		return nil
	}
	var out []meld
	for _, m := range g.melds {
		if m.player == best.player || (len(g.players) == 4 && g.side(m.player) == g.side(best.player)) {
			out = append(out, m)
		}
	}
	return out
}

func (g *game) sideTotals() []total {
	t := make([]total, len(g.sides))
	for s := range t {
		t[s].cards = g.cardPoints[s]
	}
	t[g.side(g.lastTrick)].lastTrick = lastTrickBonus
	for _, m := range g.countingMelds() {
		t[g.side(m.player)].melds += m.points()
	}
	if g.hasBella {
		t[g.side(g.bella)].bella = bellaPoints
	}
	for s := range t {
		t[s].sum = t[s].cards + t[s].lastTrick + t[s].melds + t[s].bella
	}
	return t
}

// sideOrder lists the sides for the breakdown: the trump side first, then
// the others in seating order.
func (g *game) sideOrder() []int {
	n := len(g.sides)
	first := g.side(g.trumpPlayer)
	order := make([]int, n)
	for k := range order {
		order[k] = (first + k) % n
	}
	return order
}

// singlePlayer returns the player a side consists of, or 0 for a team.
func singlePlayer(side []int64) int64 {
	if len(side) == 1 {
		return side[0]
	}
	return 0
}

// meldLines says which melds count and why.
func (g *game) meldLines() []score.Line {
	best, ok := g.bestMeld()
	if !ok {
		return nil
	}
	s := g.side(best.player)
	sum := 0
	for _, m := range g.countingMelds() {
		sum += m.points()
	}
	label := fmt.Sprintf("höchste Meldung %s (%s): es zählen nur die Meldungen von %s", best.name(), score.PlayerRef(best.player), sideName(g.sides[s]))
	if len(g.players) < 4 {
		label = fmt.Sprintf("höchste Meldung %s (%s): es zählen nur seine Meldungen", best.name(), score.PlayerRef(best.player))
	}
	return []score.Line{{Label: label, Op: score.OpEq, Value: score.Int(int64(sum)), Player: singlePlayer(g.sides[s])}}
}

// totalLines is a side's total by parts: card points, last trick, melds,
// Bella.
func (g *game) totalLines(s int, t total) []score.Line {
	name := sideName(g.sides[s])
	if s == g.side(g.trumpPlayer) {
		name += " (Trumpf)"
	}
	who := singlePlayer(g.sides[s])
	lines := []score.Line{{Label: "Augen " + name, Op: score.OpAdd, Value: score.Int(int64(t.cards)), Player: who}}
	if t.lastTrick > 0 {
		lines = append(lines, score.Line{Label: "letzter Stich", Op: score.OpAdd, Value: score.Int(lastTrickBonus), Player: who})
	}
	for _, m := range g.countingMelds() {
		if g.side(m.player) != s {
			continue
		}
		lines = append(lines, score.Line{Label: fmt.Sprintf("%s (%s)", m.name(), score.PlayerRef(m.player)), Op: score.OpAdd, Value: score.Int(int64(m.points())), Player: m.player})
	}
	if t.bella > 0 {
		lines = append(lines, score.Line{Label: "Bella (" + score.PlayerRef(g.bella) + ")", Op: score.OpAdd, Value: score.Int(bellaPoints), Player: g.bella})
	}
	return append(lines, score.Line{Label: "Summe " + name, Op: score.OpEq, Value: score.Int(int64(t.sum)), Player: who})
}

// factor is the product of Kontra, Re and (when the table plays it) Orgi.
func (g *game) factorLines(r Rules) (int, []score.Line) {
	factor := 1
	var lines []score.Line
	if g.kontra {
		factor *= 2
		lines = append(lines, score.Line{Label: "Kontra", Op: score.OpMul, Value: score.Int(2)})
	}
	if g.re {
		factor *= 2
		lines = append(lines, score.Line{Label: "Re", Op: score.OpMul, Value: score.Int(2)})
	}
	if g.orgi && r.Orgi {
		factor *= 2
		lines = append(lines, score.Line{Label: "Orgi (Trumpf von der offenen Karte)", Op: score.OpMul, Value: score.Int(2)})
	}
	return factor, lines
}

// outcome compares the trump side with every other side and decides the
// dice moves: trump strictly ahead moves its die 1; otherwise the opponent
// moves 2 (two sides) or each opponent moves 1 (three players).
func (g *game) outcome(t []total, r Rules) outcome {
	n := len(g.sides)
	ts := g.side(g.trumpPlayer)
	out := outcome{winners: make([]bool, n), moves: make([]int, n)}
	best := -1 // highest opponent total
	for s := range t {
		if s == ts {
			continue
		}
		best = max(best, t[s].sum)
	}
	out.trumpWon = t[ts].sum > best
	out.lines = append(out.lines, g.comparisonLine(t, ts, best, out.trumpWon))

	factor, factorLines := g.factorLines(r)
	base := 1
	var baseLine score.Line
	switch {
	case out.trumpWon:
		out.winners[ts] = true
		baseLine = score.Line{Label: "Würfel " + sideName(g.sides[ts]) + ": Trumpf gewinnt", Op: score.OpAdd, Value: score.Int(1), Player: singlePlayer(g.sides[ts])}
	case n == 2:
		base = 2
		baseLine = score.Line{Label: "Würfel " + sideName(g.sides[1-ts]) + ": Trumpf verliert", Op: score.OpAdd, Value: score.Int(2), Player: singlePlayer(g.sides[1-ts])}
	default:
		baseLine = score.Line{Label: "Würfel je Gegner: Trumpf verliert", Op: score.OpAdd, Value: score.Int(1)}
	}
	for s := range out.moves {
		if out.trumpWon == (s == ts) {
			out.winners[s] = true
			out.moves[s] = base * factor
		}
	}
	out.lines = append(out.lines, baseLine)
	out.lines = append(out.lines, factorLines...)
	out.lines = append(out.lines, score.Line{Label: "Würfelzug", Op: score.OpEq, Value: score.Int(int64(base * factor))})
	return out
}

func (g *game) comparisonLine(t []total, ts, best int, won bool) score.Line {
	label := fmt.Sprintf("Trumpf %d gegen %d", t[ts].sum, best)
	if len(g.sides) == 3 {
		label = fmt.Sprintf("Trumpf %d gegen jeden Gegner (höchster %d)", t[ts].sum, best)
	}
	switch {
	case won:
		label += ": Trumpf vorn"
	case t[ts].sum == best:
		label += ": Gleichstand, Trumpf verliert"
	default:
		label += ": Trumpf verliert"
	}
	return score.Line{Label: label, Op: score.OpEq, Value: score.Int(int64(t[ts].sum - best))}
}

// title names the hand for a score sheet: the trump suit, who won and the
// doublings that count ("Trumpf Herz, Anna/Clara gewinnen, Kontra", the names as references). Re
// stands for Kontra and Re.
func (g *game) title(out outcome, r Rules) string {
	n := 0 // players who won
	var parts []string
	for s, won := range out.winners {
		if !won {
			continue
		}
		parts = append(parts, sideName(g.sides[s]))
		n += len(g.sides[s])
	}
	verb := "gewinnen"
	if n == 1 {
		verb = "gewinnt"
	}
	t := fmt.Sprintf("Trumpf %s, %s %s", suitNames[g.trump], strings.Join(parts, " und "), verb)
	switch {
	case g.re:
		t += ", Re"
	case g.kontra:
		t += ", Kontra"
	}
	if g.orgi && r.Orgi {
		t += ", Orgi"
	}
	return t
}
