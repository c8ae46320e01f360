package saukopf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

const (
	spielPoints       = 5
	stallgeruchPoints = 3
	laufendeLuck      = 4 // mit this many Laufende or more: Glücksschwein
)

// settle holds the Schlachtfest of a validated hand: the per-loser amount,
// the bowl, the shares, and Stallgeruch. It returns the result without
// state and the summary for the state.
func settle(g game, r Rules, seated []int64) (score.Result, string) {
	if g.tie != "" {
		return settleTie(g, seated)
	}
	won := g.spielerWins()
	winners, losers := g.parties(won, seated)
	title := g.title()
	lines := make([]score.Line, 0, 16)
	lines = append(lines, g.headline(title, won))
	amount, lines := g.perLoser(won, lines)

	points := make(map[int64]score.Points, len(g.players))
	lines = append(lines, share(points, amount, winners, losers, r)...)
	if g.stallgeruch {
		lines = append(lines, g.settleStallgeruch(points, won)...)
	}

	res := score.Result{Title: g.sheetTitle(won), Events: []score.Event{}, Winners: winners}
	for _, id := range seated {
		p, ok := points[id]
		if !ok {
			continue
		}
		res.Points = append(res.Points, score.PlayerPoints{Player: id, Points: p})
		lines = append(lines, score.Line{Label: "Ergebnis", Op: score.OpEq, Value: p, Player: id})
	}
	res.Lines = lines
	return res, fmt.Sprintf("Letztes Spiel: %s %s, je Verlierer %d", title, outcome(won), amount)
}

// settleTie scores a Wilde Sauerei tied for most or fewest Augen: no
// Schlachtfest, everyone 0, no winners.
func settleTie(g game, seated []int64) (score.Result, string) {
	label := "Wilde Sauerei: " + g.tie + ", kein Schlachtfest"
	res := score.Result{
		Title:   "Wilde Sauerei: Gleichstand, kein Schlachtfest",
		Lines:   []score.Line{{Label: label, Op: score.OpEq, Value: score.Int(0)}},
		Events:  []score.Event{},
		Winners: []int64{},
	}
	for _, id := range seated {
		if slices.Contains(g.players, id) {
			res.Points = append(res.Points, score.PlayerPoints{Player: id, Points: score.Int(0)})
		}
	}
	return res, "Letztes Spiel: " + label
}

// spielerWins applies the winning criterion of the contract and the bid.
func (g *game) spielerWins() bool {
	switch {
	case g.contract == cMastschwein:
		return g.tricks == 0
	case g.contract == cSchwarte, g.schwarz:
		return g.otherTricks == 0
	}
	return g.augen >= g.bid
}

// parties returns the winners and the losers in seating order.
func (g *game) parties(won bool, seated []int64) (winners, losers []int64) {
	winners, losers = []int64{}, []int64{}
	for _, id := range seated {
		if !slices.Contains(g.players, id) {
			continue
		}
		if g.inSpielerParty(id) == won {
			winners = append(winners, id)
		} else {
			losers = append(losers, id)
		}
	}
	return winners, losers
}

// perLoser computes what each loser puts into the bowl, with its lines:
// Spiel, Laufende, Schneider, Schwarz, Saukopf, Hauer, then the
// Bolzenschüsse. The lines are appended to lines.
func (g *game) perLoser(won bool, lines []score.Line) (int64, []score.Line) {
	amount := int64(spielPoints)
	lines = append(lines, line("Spiel", score.OpAdd, spielPoints))
	add := func(label string, v int64) {
		op := score.OpAdd
		if v < 0 {
			op = score.OpSub
		}
		amount += v
		lines = append(lines, line(label, op, abs(v)))
	}
	byTricksOnly := g.contract == cMastschwein || g.contract == cSchwarte
	if !byTricksOnly && g.hasLauf {
		label, v := g.laufende(won)
		add(label, v)
	}
	if !byTricksOnly && g.schneider(won) {
		add("Schneider", 1)
	}
	if g.tricks == 0 || g.otherTricks == 0 {
		add("Schwarz", 1)
	}
	if g.contract == cSauerei && g.hasSaukopf {
		add("Saukopf", g.forWinners(g.saukopfBy, won))
	}
	if g.contract == cSauerei && g.hasHauer {
		add("Hauer", g.forWinners(g.hauer, won))
	}
	lines = append(lines, line("je Verlierer", score.OpEq, amount))

	doublings := 0
	for range g.huftritte {
		lines = append(lines, line("Bolzenschuss", score.OpMul, 2))
		doublings++
	}
	if !won && g.unrein {
		lines = append(lines, line("Bolzenschuss (Unreine Sauerei verloren)", score.OpMul, 2))
		doublings++
	}
	if !won && g.trog == mitTrog {
		lines = append(lines, line("Bolzenschuss (Dreihaxer mit Trog verloren)", score.OpMul, 2))
		doublings++
	}
	if doublings == 0 {
		return amount, lines
	}
	amount <<= doublings
	return amount, append(lines, line("je Verlierer", score.OpEq, amount))
}

// laufende gives the Laufende line from the winners' side: "ohne n" pays
// n, "mit n" pays nothing, and mit 4 or more is the Glücksschwein (-1).
func (g *game) laufende(won bool) (string, int64) {
	n := int64(g.laufCount)
	spiess := ""
	if g.amSpiess {
		spiess = " am Spieß"
	}
	winnersHold := g.inSpielerParty(g.laufHolder) == won
	switch {
	case !winnersHold:
		return fmt.Sprintf("ohne %d%s", n, spiess), n
	case n >= laufendeLuck:
		return fmt.Sprintf("mit %d%s: Glücksschwein", n, spiess), -1
	}
	return fmt.Sprintf("mit %d%s", n, spiess), 0
}

// schneider reports whether the losers took no trick or less than half
// the Augen they needed.
func (g *game) schneider(won bool) bool {
	if won {
		if g.otherTricks == 0 {
			return true
		}
		if g.schwarz {
			return false // the Nichtspieler needed one trick and took it
		}
		need := g.total + 1 - g.bid
		return 2*(g.total-g.augen) < need
	}
	if g.tricks == 0 {
		return true
	}
	need := g.bid
	if g.schwarz {
		need = g.total
	}
	return 2*g.augen < need
}

// forWinners is +1 when player id is of the winning party, -1 otherwise.
func (g *game) forWinners(id int64, won bool) int64 {
	if g.inSpielerParty(id) == won {
		return 1
	}
	return -1
}

// share empties the bowl: every loser pays amount and the winners share
// the bowl equally, unless a lone losing Spieler pays every winner in full
// (verlorenes_solo = jeder_einzeln).
func share(points map[int64]score.Points, amount int64, winners, losers []int64, r Rules) []score.Line {
	each := score.Int(amount)
	if r.VerlorenesSolo == JederEinzeln && len(losers) == 1 && len(winners) > 1 {
		for _, id := range winners {
			points[id] = each
		}
		points[losers[0]] = each.MulInt(-int64(len(winners)))
		label := fmt.Sprintf("jeder einzeln: %d an jeden der %d Gewinner", amount, len(winners))
		return []score.Line{{Label: label, Op: score.OpEq, Value: each}}
	}
	bowl := each.MulInt(int64(len(losers)))
	perWinner := bowl.DivInt(int64(len(winners)))
	for _, id := range losers {
		points[id] = each.Neg()
	}
	for _, id := range winners {
		points[id] = perWinner
	}
	label := fmt.Sprintf("Schüssel %s / %d Gewinner", bowl, len(winners))
	return []score.Line{{Label: label, Op: score.OpEq, Value: perWinner}}
}

// settleStallgeruch moves 3 points between Spieler and Mitspieler: to the
// Mitspieler when they lose, to the Spieler when they win.
func (g *game) settleStallgeruch(points map[int64]score.Points, won bool) []score.Line {
	payee, payer, label := g.spieler, g.mitspieler, "Stallgeruch: Stallgeruchsentschädigung"
	if !won {
		payee, payer, label = g.mitspieler, g.spieler, "Stallgeruch: Rauborstigkeitsentschädigung"
	}
	three := score.Int(stallgeruchPoints)
	points[payee] = points[payee].Add(three)
	points[payer] = points[payer].Sub(three)
	return []score.Line{
		{Label: label, Op: score.OpAdd, Value: three, Player: payee},
		{Label: label, Op: score.OpSub, Value: three, Player: payer},
	}
}

// headline states the contract, the criterion and the outcome.
func (g *game) headline(title string, won bool) score.Line {
	var crit string
	var value int
	switch {
	case g.contract == cMastschwein:
		crit, value = fmt.Sprintf("Spieler %d Stiche", g.tricks), g.tricks
	case g.contract == cSchwarte:
		crit, value = fmt.Sprintf("Nichtspieler %d Stiche", g.otherTricks), g.otherTricks
	case g.schwarz:
		crit, value = fmt.Sprintf("Gebot schwarz, Nichtspieler %d Stiche", g.otherTricks), g.otherTricks
	case g.wild:
		crit, value = fmt.Sprintf("61 nötig, Spielerpartei %d Augen", g.augen), g.augen
	default:
		crit, value = fmt.Sprintf("Gebot %d, Spielerpartei %d Augen", g.bid, g.augen), g.augen
	}
	label := fmt.Sprintf("%s, %s: %s", title, crit, outcome(won))
	return line(label, score.OpEq, int64(value))
}

// sheetTitle names the hand for a score sheet, shorter than title: the
// contract with the bid and the outcome ("Sauerei auf 70 gewonnen",
// "Dreihaxer mit Trog: Eber auf schwarz verloren"). Mastschwein and
// Schwarte are won by tricks whatever the bid, so they leave it out; a
// Wilde Sauerei has no bid and names the party the count made.
func (g *game) sheetTitle(won bool) string {
	if g.wild {
		return fmt.Sprintf("Wilde Sauerei von %s/%s %s", score.PlayerRef(g.spieler), score.PlayerRef(g.mitspieler), outcome(won))
	}
	var name string
	switch g.contract {
	case cSauerei:
		name = "Sauerei"
		if g.unrein {
			name = "Unreine Sauerei"
		}
	case cKeiler:
		name = suitName(g.trumpSuit) + "-Keiler"
	default:
		name = contractName(g.contract)
	}
	if g.amSpiess {
		name += " am Spieß"
	}
	if g.dreihaxer {
		name = "Dreihaxer " + g.trog + " Trog: " + name
	}
	switch {
	case g.contract == cMastschwein, g.contract == cSchwarte:
	case g.schwarz:
		name += " auf schwarz"
	default:
		name += fmt.Sprintf(" auf %d", g.bid)
	}
	return name + " " + outcome(won)
}

// title names the game as a player says it, with the Spieler and
// Mitspieler.
func (g *game) title() string {
	var name string
	switch g.contract {
	case cSauerei:
		name = g.sauereiName()
	case cKeiler:
		name = suitName(g.trumpSuit) + "-Keiler"
	case cKnorpel:
		name = "Knorpel (" + cardName(g.knorpelCard) + ")"
	default:
		name = contractName(g.contract)
	}
	if g.amSpiess {
		name += " am Spieß"
	}
	if g.dreihaxer {
		name = "Dreihaxer " + g.trog + " Trog: " + name
	}
	if g.hasMit {
		return fmt.Sprintf("%s (Spieler %s, Mitspieler %s)", name, score.PlayerRef(g.spieler), score.PlayerRef(g.mitspieler))
	}
	return fmt.Sprintf("%s (Spieler %s)", name, score.PlayerRef(g.spieler))
}

func (g *game) sauereiName() string {
	switch {
	case g.wild:
		return "Wilde Sauerei"
	case g.unrein:
		return "Unreine Sauerei mit der " + suitName(g.calledSau) + "-Sau"
	}
	return "Sauerei mit der " + suitName(g.calledSau) + "-Sau"
}

func contractName(c string) string {
	switch c {
	case cMastschwein:
		return "Mastschwein"
	case cSauerei:
		return "Sauerei"
	case cKeiler:
		return "Keiler"
	case cEber:
		return "Eber"
	case cWutz:
		return "Wutz"
	case cFerkelparade:
		return "Ferkelparade"
	case cKnorpel:
		return "Knorpel"
	}
	return "Schwarte"
}

func suitName(s string) string {
	switch s {
	case "eichel":
		return "Eichel"
	case "gras":
		return "Gras"
	case "herz":
		return "Herz"
	}
	return "Schellen"
}

func cardName(card string) string {
	suit, rank, _ := strings.Cut(card, "_")
	switch rank {
	case "sau":
		rank = "Sau"
	case "koenig":
		rank = "König"
	case "ober":
		rank = "Ober"
	case "unter":
		rank = "Unter"
	}
	return suitName(suit) + "-" + rank
}

func outcome(won bool) string {
	if won {
		return "gewonnen"
	}
	return "verloren"
}

func line(label string, op score.Op, v int64) score.Line {
	return score.Line{Label: label, Op: op, Value: score.Int(v)}
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
