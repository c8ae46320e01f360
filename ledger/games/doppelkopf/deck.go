package doppelkopf

import (
	"fmt"
	"strings"
)

// The Augen of the card ranks. Every rank is in the pack eight times: twice
// in each of the four suits.
const (
	augenNeun     = 0
	augenBube     = 2
	augenDame     = 3
	augenKoenig   = 4
	augenZehn     = 10
	augenAss      = 11
	copiesPerRank = 8
	cardsPerTrick = 4
)

// deck is the pack a table plays with: 40 cards without nines (10 tricks,
// every trick at least 8 Augen) or 48 cards with nines (TSR 2.2; 12
// tricks, a trick of four nines holds 0 Augen). Both hold 240 Augen.
type deck struct{ nines bool }

func deckOf(r Rules) deck { return deck{nines: r.Nines} }

// tricks is the number of tricks in a hand.
func (d deck) tricks() int {
	if d.nines {
		return 12
	}
	return 10
}

// name opens every message that depends on the deck.
func (d deck) name() string {
	if d.nines {
		return "with 48 cards (nines)"
	}
	return "with 40 cards (no nines)"
}

// floorGerman says in German what the least trick holds, as a sentence.
func (d deck) floorGerman() string {
	if d.nines {
		return "Mit 48 Karten hat ein Stich mindestens 0 Augen (vier Neunen)."
	}
	return "Ohne Neunen hat jeder Stich mindestens 8 Augen (vier Buben)."
}

// ranks are the Augen of the ranks in the pack, lowest first.
func (d deck) ranks() []int {
	if d.nines {
		return []int{augenNeun, augenBube, augenDame, augenKoenig, augenZehn, augenAss}
	}
	return []int{augenBube, augenDame, augenKoenig, augenZehn, augenAss}
}

// trickFloor says what the fewest Augen of a trick are.
func (d deck) trickFloor() string {
	if d.nines {
		return "a trick holds 0 Augen at the least (four nines)"
	}
	return "every trick holds at least 8 Augen (four Buben)"
}

// content is what a party's tricks must hold besides their number: its
// Doppelköpfe (tricks of four Asse or Zehnen), the Füchse (Karo-Asse) it
// caught and the Karlchen (the Kreuz-Bube in its last trick).
type content struct {
	doppelkopf int
	fuchs      int
	karlchen   bool
}

func contentOf(p PartyFacts) content {
	return content{doppelkopf: p.Doppelkopf, fuchs: p.FuchsGefangen, karlchen: p.Karlchen}
}

// extraTrick reports whether the content needs a trick besides the
// Doppelköpfe: the last trick with the Karlchen, or a trick in which a Fuchs
// was caught when there is no Doppelkopf to catch it in. One trick does for
// both: the Kreuz-Bube beats a Karo-Ass.
func (c content) extraTrick() bool {
	return c.karlchen || (c.fuchs > 0 && c.doppelkopf == 0)
}

// tricksNeeded is the fewest tricks that hold the content: each Doppelkopf
// is a trick of its own.
func (c content) tricksNeeded() int {
	n := c.doppelkopf
	if c.extraTrick() {
		n++
	}
	return n
}

func (c content) String() string {
	var parts []string
	switch c.doppelkopf {
	case 0:
	case 1:
		parts = append(parts, "1 Doppelkopf")
	default:
		parts = append(parts, fmt.Sprintf("%d Doppelköpfe", c.doppelkopf))
	}
	switch c.fuchs {
	case 0:
	case 1:
		parts = append(parts, "1 Fuchs")
	default:
		parts = append(parts, fmt.Sprintf("%d Füchse", c.fuchs))
	}
	if c.karlchen {
		parts = append(parts, "the Karlchen")
	}
	return joinList(parts, "and")
}

// minAugen is the fewest Augen t tricks can hold that hold the content c:
// the lowest 4t cards of the pack that include c's cards. With 40 cards
// only the number of tricks c needs is counted, not its cards (the house
// rules' bounds stay as they were: 40 Augen for each Doppelkopf, a trick
// for a Fuchs or the Karlchen). ok is false when t tricks cannot hold c.
func (d deck) minAugen(t int, c content) (augen int, ok bool) {
	if t < c.tricksNeeded() || t > d.tricks() {
		return 0, false
	}
	if !d.nines {
		c = content{}
	}
	var left [augenAss + 1]int
	for _, v := range d.ranks() {
		left[v] = copiesPerRank
	}
	used := 0
	take := func(v, n int) {
		left[v] -= n
		augen += v * n
		used += n
	}
	// The Karo-Asse caught. Where there are Doppelköpfe they are caught in
	// them (an Ass fits there anyway); otherwise in a trick of their own,
	// won by at least a Bube (which the Karlchen may be).
	take(augenAss, c.fuchs)
	if c.doppelkopf > 0 {
		need := cardsPerTrick*c.doppelkopf - c.fuchs
		zehnen := min(need, left[augenZehn])
		take(augenZehn, zehnen)
		take(augenAss, need-zehnen)
	}
	if c.extraTrick() {
		take(augenBube, 1)
	}
	for _, v := range d.ranks() {
		take(v, max(0, min(left[v], cardsPerTrick*t-used)))
	}
	return augen, true
}

// augenSums are, per deck, the Augen exactly 4t cards of the pack can
// hold, for t from 0 to the deck's tricks: which Augen a party taking t
// tricks can have. They are not every number between the fewest and the
// most: no cards hold 1 Auge (the smallest card worth anything is a Bube
// with 2), one trick never holds 38 or 39 (four cards reach 37 and 40, not
// between), eleven of the twelve tricks of the 48-card pack never 201 or
// 202 (what the twelfth would leave).
var augenSums = map[bool][][totalAugen + 1]bool{false: sumsOf(deck{}), true: sumsOf(deck{nines: true})}

// sumsOf counts, rank by rank, which sums each number of the pack's cards
// can make.
func sumsOf(d deck) [][totalAugen + 1]bool {
	cards := cardsPerTrick * d.tricks()
	// can[n][a]: n of the ranks seen so far make a.
	can := make([][totalAugen + 1]bool, cards+1)
	can[0][0] = true
	for _, v := range d.ranks() {
		next := make([][totalAugen + 1]bool, cards+1)
		for n := range can {
			for a, ok := range can[n] {
				for k := 0; ok && k <= copiesPerRank && n+k <= cards && a+v*k <= totalAugen; k++ {
					next[n+k][a+v*k] = true
				}
			}
		}
		can = next
	}
	out := make([][totalAugen + 1]bool, d.tricks()+1)
	for t := range out {
		out[t] = can[cardsPerTrick*t]
	}
	return out
}

// holds reports whether t tricks of the pack can hold exactly a Augen.
func (d deck) holds(t, a int) bool {
	return t >= 0 && t <= d.tricks() && a >= 0 && a <= totalAugen && augenSums[d.nines][t][a]
}

// reAugen lists the Augen the Re party can hold, exactly, when it took
// reT tricks and Kontra the others within kT (Kontra holds the rest of
// the cards, so the rest of the Augen).
func (d deck) reAugen(reT, kT trickRange) []span {
	var out []span
	for a := 0; a <= totalAugen; a++ {
		if !d.splits(a, reT, kT) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].hi == a-1 {
			out[n-1].hi = a
			continue
		}
		out = append(out, span{a, a})
	}
	return out
}

// splits reports whether Re can hold exactly a Augen in some number of
// tricks within reT that leaves Kontra a number within kT.
func (d deck) splits(a int, reT, kT trickRange) bool {
	for t := reT.lo; t <= reT.hi; t++ {
		if kt := d.tricks() - t; kt >= kT.lo && kt <= kT.hi && d.holds(t, a) {
			return true
		}
	}
	return false
}

// trickRange is the tricks a party may have taken, lo to hi.
type trickRange struct{ lo, hi int }

func (r trickRange) known() bool { return r.lo == r.hi }

// span is a range of Augen, lo to hi.
type span struct{ lo, hi int }

// reSpans lists the Augen the Re party can hold when it took reT tricks and
// Kontra the others within kT, their tricks holding reC and kC.
func (d deck) reSpans(reT, kT trickRange, reC, kC content) []span {
	var out []span
	for t := reT.lo; t <= reT.hi; t++ {
		kt := d.tricks() - t
		if kt < kT.lo || kt > kT.hi {
			continue
		}
		lo, okRe := d.minAugen(t, reC)
		klo, okKontra := d.minAugen(kt, kC)
		if !okRe || !okKontra || lo > totalAugen-klo {
			continue
		}
		s := span{lo, totalAugen - klo}
		if n := len(out); n > 0 && s.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, s.hi)
			continue
		}
		out = append(out, s)
	}
	return out
}

func inSpans(a int, spans []span) bool {
	for _, s := range spans {
		if a >= s.lo && a <= s.hi {
			return true
		}
	}
	return false
}

// spansText reads "0, 8 to 232 or 240".
func spansText(spans []span) string {
	if len(spans) == 0 {
		return "no number of"
	}
	parts := make([]string, len(spans))
	for i, s := range spans {
		if s.lo == s.hi {
			parts[i] = fmt.Sprint(s.lo)
		} else {
			parts[i] = fmt.Sprintf("%d to %d", s.lo, s.hi)
		}
	}
	return joinList(parts, "or")
}

// joinList joins "a, b and c".
func joinList(parts []string, conj string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " " + conj + " " + parts[len(parts)-1]
}
