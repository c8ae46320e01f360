package doppelkopf

import (
	"fmt"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// ownGoal is the Augen a party needs after its own Absage (DDV 7.1).
var ownGoal = [...]int{levelKeine90: 151, levelKeine60: 181, levelKeine30: 211}

// againstGoal is the Augen a party needs against the other party's Absage
// when it made none itself (DDV 7.1).
var againstGoal = [...]int{levelKeine90: 90, levelKeine60: 60, levelKeine30: 30}

// reachedGoal is what a party must reach against an Absage to score the ddv
// point "120 gegen keine 90" and its kin.
var reachedGoal = [...]int{levelKeine90: 120, levelKeine60: 90, levelKeine30: 60, levelSchwarz: 30}

// winner is the party that won the hand by DDV rule 7.1, noParty when
// neither reached its goal. A revoker's party always loses.
func (hd hand) winner() party {
	if hd.revoker != nil {
		return hd.partyOf(*hd.revoker).other()
	}
	if reaches(hd.re, hd.kontra, true) {
		return reParty
	}
	if reaches(hd.kontra, hd.re, false) {
		return kontraParty
	}
	return noParty
}

// reaches reports whether the party own reached its goal against opp.
func reaches(own, opp side, isRe bool) bool {
	switch {
	case own.level == levelSchwarz:
		return !opp.tookTrick
	case own.level >= levelKeine90:
		return own.augen >= ownGoal[own.level]
	case opp.level == levelSchwarz:
		return own.tookTrick
	case opp.level >= levelKeine90:
		return own.augen >= againstGoal[opp.level]
	}
	return own.augen >= plainGoal(own, opp, isRe)
}

// plainGoal is the goal without Absagen: Re 121 and Kontra 120, swapped
// when only Kontra announced.
func plainGoal(own, opp side, isRe bool) int {
	reLevel, kontraLevel := own.level, opp.level
	if !isRe {
		reLevel, kontraLevel = opp.level, own.level
	}
	onlyKontra := reLevel == levelNone && kontraLevel == levelAnnounced
	if isRe == onlyKontra {
		return 120
	}
	return 121
}

// calc builds a hand's value line by line.
type calc struct {
	v     score.Points
	lines []score.Line
}

func (c *calc) add(label string, n int) {
	if n == 0 {
		return
	}
	p := score.Int(int64(n))
	c.v = c.v.Add(p)
	c.lines = append(c.lines, score.Line{Label: label, Op: score.OpAdd, Value: p})
}

func (c *calc) sub(label string, n int) {
	if n == 0 {
		return
	}
	p := score.Int(int64(n))
	c.v = c.v.Sub(p)
	c.lines = append(c.lines, score.Line{Label: label, Op: score.OpSub, Value: p})
}

func (c *calc) mul(label string, k int64) {
	c.v = c.v.MulInt(k)
	c.lines = append(c.lines, score.Line{Label: label, Op: score.OpMul, Value: score.Int(k)})
}

// signed adds n for sign > 0 and subtracts it otherwise.
func (c *calc) signed(label string, n, sign int) {
	if sign > 0 {
		c.add(label, n)
		return
	}
	c.sub(label, n)
}

func (c *calc) note(label string) {
	c.lines = append(c.lines, score.Line{Label: label, Op: score.OpEq, Value: score.Int(0)})
}

// houseValue is the seed's Abrechnung, steps 1 to 5; Bock and Solo
// verloren follow in the caller.
func houseValue(c *calc, hd hand, r Rules, w party) {
	if w == noParty {
		c.note("keine Partei erreicht ihr Ziel")
		if r.NoWinnerUnterGespielt {
			unterLines(c, hd)
		}
		specialLines(c, reParty, hd.re, 1)
		specialLines(c, kontraParty, hd.kontra, -1)
		return
	}
	lose := hd.side(w.other())
	baseValue(c, lose)
	absagen(c, hd)
	if w == kontraParty && (!hd.solo || r.GegenDieAltenInSolo) {
		c.add("gegen die Alten", 1)
	}
	if hd.re.level >= levelAnnounced {
		c.mul("Re angesagt", 2)
	}
	if hd.kontra.level >= levelAnnounced {
		c.mul("Kontra angesagt", 2)
	}
	specialLines(c, w, hd.side(w), 1)
	specialLines(c, w.other(), lose, -1)
}

// ddvValue is the DDV Spielbewertung; Bock and Solo verloren follow in the
// caller when switched on.
func ddvValue(c *calc, hd hand, r Rules, w party) {
	if w == noParty {
		c.note("keine Partei erreicht ihr Ziel")
		if r.NoWinnerUnterGespielt {
			unterLines(c, hd)
		}
		reachedLines(c, reParty, hd.re, hd.kontra.level, 1)
		reachedLines(c, kontraParty, hd.kontra, hd.re.level, -1)
		specialLines(c, reParty, hd.re, 1)
		specialLines(c, kontraParty, hd.kontra, -1)
		return
	}
	win, lose := hd.side(w), hd.side(w.other())
	baseValue(c, lose)
	if hd.re.level >= levelAnnounced {
		c.add("Re angesagt", 2)
	}
	if hd.kontra.level >= levelAnnounced {
		c.add("Kontra angesagt", 2)
	}
	absagen(c, hd)
	reachedLines(c, w, win, lose.level, 1)
	reachedLines(c, w.other(), lose, win.level, -1)
	if w == kontraParty && (!hd.solo || r.GegenDieAltenInSolo) {
		c.add("gegen die Kreuz-Damen", 1)
	}
	specialLines(c, w, win, 1)
	specialLines(c, w.other(), lose, -1)
}

// baseValue: won, and the losers under 90, 60, 30 and schwarz.
func baseValue(c *calc, lose side) {
	c.add("gewonnen", 1)
	for _, t := range []struct {
		label string
		under int
	}{{"keine 90", 90}, {"keine 60", 60}, {"keine 30", 30}} {
		if lose.augen < t.under {
			c.add(t.label, 1)
		}
	}
	if !lose.tookTrick {
		c.add("schwarz", 1)
	}
}

// unterLines scores, when neither party reached its goal, TSR 7.2.2 (a)
// without "gewonnen" (TSR 7.1.3): a point to a party for each of 90, 60, 30
// its opponents stayed under, and one for schwarz (which cannot happen
// there: a party that took every trick reaches its goal).
func unterLines(c *calc, hd hand) {
	for _, p := range []party{reParty, kontraParty} {
		sign := 1
		if p == kontraParty {
			sign = -1
		}
		opp := hd.side(p.other())
		for _, under := range []int{90, 60, 30} {
			if opp.augen < under {
				c.signed(fmt.Sprintf("unter %d gespielt (%s)", under, p), 1, sign)
			}
		}
		if !opp.tookTrick {
			c.signed(fmt.Sprintf("schwarz gespielt (%s)", p), 1, sign)
		}
	}
}

// absagen adds one point per Absage level said, for each party.
func absagen(c *calc, hd hand) {
	for _, p := range []party{reParty, kontraParty} {
		for lvl := levelKeine90; lvl <= hd.side(p).level; lvl++ {
			c.add(fmt.Sprintf("%s angesagt (%s)", levelLabels[lvl], p), 1)
		}
	}
}

// reachedLines scores the ddv points a party earned against the other
// party's Absage (120 against keine 90, 90 against keine 60, ...).
func reachedLines(c *calc, p party, s side, oppLevel, sign int) {
	for lvl := levelKeine90; lvl <= oppLevel; lvl++ {
		if s.augen >= reachedGoal[lvl] {
			c.signed(fmt.Sprintf("%d gegen %s (%s)", reachedGoal[lvl], levelLabels[lvl], p), 1, sign)
		}
	}
}

// specialLines adds (sign > 0) or subtracts a party's special points.
func specialLines(c *calc, p party, s side, sign int) {
	c.signed(fmt.Sprintf("Doppelkopf (%s)", p), s.doppelkopf, sign)
	c.signed(fmt.Sprintf("Fuchs gefangen (%s)", p), s.fuchs, sign)
	if s.karlchen {
		c.signed(fmt.Sprintf("Karlchen (%s)", p), 1, sign)
	}
}

// settle shares the value v among the active players: the party pos (the
// winner, or Re when nobody won) gets +v each, the others -v; a soloist
// three times. With revoker_pays_alone a revoker carries his party's whole
// loss. It returns the points and the per-player result lines.
func settle(hd hand, r Rules, w party, v score.Points) (map[int64]score.Points, []score.Line) {
	pos := w
	if pos == noParty {
		pos = reParty
	}
	pts := make(map[int64]score.Points, playersPerHand)
	each := v
	if pos == kontraParty {
		each = v.Neg()
	}
	// each is what one Re player gets per opponent.
	for _, id := range hd.kontra.players {
		pts[id] = each.Neg()
	}
	for _, id := range hd.re.players {
		pts[id] = each.MulInt(int64(len(hd.kontra.players) / len(hd.re.players)))
	}
	if hd.revoker != nil && r.RevokerPaysAlone {
		payAlone(pts, hd, *hd.revoker)
	}
	lines := make([]score.Line, 0, playersPerHand)
	for _, id := range hd.active {
		lines = append(lines, score.Line{Label: roleLabel(hd, id), Op: score.OpEq, Value: pts[id], Player: id})
	}
	return pts, lines
}

// payAlone moves the whole result of the revoker's party onto the revoker.
func payAlone(pts map[int64]score.Points, hd hand, revoker int64) {
	mates := hd.side(hd.partyOf(revoker)).players
	var total score.Points
	for _, id := range mates {
		total = total.Add(pts[id])
		pts[id] = score.Int(0)
	}
	pts[revoker] = total
}

// roleLabel labels a player's line of the result with his name and his
// role in the hand: "{{player:3}} (Solist)".
func roleLabel(hd hand, id int64) string {
	role := "Kontra"
	switch {
	case hd.solo && hd.partyOf(id) == reParty:
		role = "Solist"
	case hd.solo:
		role = "Gegenspieler"
	case hd.partyOf(id) == reParty:
		role = "Re"
	}
	if hd.revoker != nil && *hd.revoker == id {
		role += ", verworfen"
	}
	return score.PlayerRef(id) + " (" + role + ")"
}

// bockTriggers lists what happened in a played hand that queues a Bock
// round.
func bockTriggers(hd hand, w party) []string {
	var reasons []string
	if hd.herz {
		reasons = append(reasons, "Herzstich")
	}
	if hd.kontra.level >= levelAnnounced && w == reParty {
		reasons = append(reasons, "Kontra angesagt und verloren")
	}
	if hd.re.level >= levelAnnounced && hd.kontra.level >= levelAnnounced {
		reasons = append(reasons, "Re und Kontra angesagt")
	}
	if hd.re.augen == totalAugen/2 {
		reasons = append(reasons, "120:120 (Spaltarsch)")
	}
	return reasons
}
