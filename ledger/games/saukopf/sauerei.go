package saukopf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Validation of the Sauereien (Wilde, Reine, Unreine Sauerei) and of
// their extras: who took what, the Knorpel, the Saukopf.

// checkWild validates a Wilde Sauerei and finds its Spieler and Mitspieler.
func checkWild(f Facts, g *game) error {
	if g.dreihaxer {
		return score.Invalid("facts.bid", `a Dreihaxer needs a bid (61..120 or "schwarz"): when nobody bids the cards are dealt again`)
	}
	if f.Huftritte != 0 {
		return score.Invalid("facts.huftritte", "a Wilde Sauerei has no bidder, so nobody may say Huftritt")
	}
	if f.Stallgeruch {
		return score.Invalid("facts.stallgeruch", "Stallgeruch needs a Sauerei bid at 75 or more; a Wilde Sauerei has no bid")
	}
	foreign := []struct {
		field   string
		present bool
	}{
		{"facts.spieler", f.Spieler != nil},
		{"facts.contract", f.Contract != ""},
		{"facts.called_sau", f.CalledSau != ""},
		{"facts.unrein", f.Unrein},
		{"facts.mitspieler", f.Mitspieler != nil},
		{"facts.trump_suit", f.TrumpSuit != ""},
		{"facts.knorpel_card", f.KnorpelCard != ""},
		{"facts.knorpel_holder", f.KnorpelHolder != nil},
		{"facts.am_spiess", f.AmSpiess},
		{"facts.augen", f.Augen != nil},
		{"facts.tricks", f.Tricks != nil},
	}
	for _, c := range foreign {
		if c.present {
			return score.Invalid(c.field, "does not belong to a Wilde Sauerei (no bid): its Spieler and Mitspieler are found from per_player after the hand")
		}
	}
	if err := checkTakes(f.PerPlayer, g); err != nil {
		return err
	}
	g.wild = true
	g.contract = cSauerei
	g.bid = wildNeed
	g.total = augenTotal
	g.takes = f.PerPlayer
	findWildParties(g)
	return nil
}

// checkTakes validates every player's Augen and tricks of a Wilde Sauerei.
func checkTakes(takes []PlayerTake, g *game) error {
	if len(takes) != len(g.players) {
		return score.Invalid("facts.per_player", "a Wilde Sauerei records Augen and tricks for each of the %d players, got %d", len(g.players), len(takes))
	}
	sumAugen, sumTricks := 0, 0
	for i, t := range takes {
		field := fmt.Sprintf("facts.per_player[%d]", i)
		if !slices.Contains(g.players, t.Player) {
			return score.Invalid(field+".player", "player %d does not play this hand", t.Player)
		}
		if slices.ContainsFunc(takes[:i], func(o PlayerTake) bool { return o.Player == t.Player }) {
			return score.Invalid(field+".player", "player %d is named twice", t.Player)
		}
		if t.Augen == nil {
			return score.Invalid(field+".augen", "is required")
		}
		if t.Tricks == nil {
			return score.Invalid(field+".tricks", "is required")
		}
		a, n := *t.Augen, *t.Tricks
		if a < 0 || a > augenTotal {
			return score.Invalid(field+".augen", "must be between 0 and 120, got %d", a)
		}
		if n < 0 || n > 8 {
			return score.Invalid(field+".tricks", "must be between 0 and 8, got %d", n)
		}
		if a == 1 {
			return score.Invalid(field+".augen", "no card is worth 1 Auge, so no player can have exactly 1")
		}
		if n == 0 && a > 0 {
			return score.Invalid(field+".augen", "player %d took no trick, so has no Augen, got %d", t.Player, a)
		}
		sumAugen += a
		sumTricks += n
	}
	if sumAugen != augenTotal {
		return score.Invalid("facts.per_player[].augen", "Augen add up to %d, need 120", sumAugen)
	}
	if sumTricks != 8 {
		return score.Invalid("facts.per_player[].tricks", "tricks add up to %d, need 8", sumTricks)
	}
	return nil
}

// findWildParties makes the player with the most Augen the Spieler and the
// one with the fewest the Mitspieler; a tie for either means no
// Schlachtfest.
func findWildParties(g *game) {
	most, fewest := g.takes[0], g.takes[0]
	for _, t := range g.takes[1:] {
		if *t.Augen > *most.Augen {
			most = t
		}
		if *t.Augen < *fewest.Augen {
			fewest = t
		}
	}
	mostCount, fewestCount := 0, 0
	for _, t := range g.takes {
		if *t.Augen == *most.Augen {
			mostCount++
		}
		if *t.Augen == *fewest.Augen {
			fewestCount++
		}
	}
	switch {
	case mostCount > 1:
		g.tie = fmt.Sprintf("Gleichstand bei den meisten Augen (%d)", *most.Augen)
		return
	case fewestCount > 1:
		g.tie = fmt.Sprintf("Gleichstand bei den wenigsten Augen (%d)", *fewest.Augen)
		return
	}
	g.spieler, g.mitspieler, g.hasMit = most.Player, fewest.Player, true
	g.spielerParty = []int64{most.Player, fewest.Player}
	g.augen = *most.Augen + *fewest.Augen
	g.tricks = *most.Tricks + *fewest.Tricks
	g.otherTricks = 8 - g.tricks
}

func checkSauerei(f Facts, g *game) error {
	if g.dreihaxer {
		return score.Invalid("facts.contract", "Sauereien are not allowed in a Dreihaxer")
	}
	switch f.CalledSau {
	case "eichel", "gras", "schellen":
	case "herz":
		return score.Invalid("facts.called_sau", "the called Sau is never the Herz-Sau: call eichel, gras or schellen")
	case "":
		return score.Invalid("facts.called_sau", "is required: the called Sau, eichel, gras or schellen")
	default:
		return score.Invalid("facts.called_sau", "must be eichel, gras or schellen, got %q", short(f.CalledSau))
	}
	g.calledSau = f.CalledSau
	if f.Unrein {
		if f.Mitspieler != nil {
			return score.Invalid("facts.mitspieler", "an Unreine Sauerei has no Mitspieler: the Spieler holds the called Sau and plays alone")
		}
		g.unrein = true
		return nil
	}
	if f.Mitspieler == nil {
		return score.Invalid("facts.mitspieler", "is required: the holder of the called Sau (or set unrein when the Spieler holds it)")
	}
	m := *f.Mitspieler
	if !slices.Contains(g.players, m) {
		return score.Invalid("facts.mitspieler", "player %d does not play this hand", m)
	}
	if m == g.spieler {
		return score.Invalid("facts.mitspieler", "the Spieler cannot be his own Mitspieler; set unrein when he holds the called Sau")
	}
	g.mitspieler, g.hasMit = m, true
	g.spielerParty = []int64{g.spieler, m}
	return nil
}

func checkKnorpel(f Facts, g *game) error {
	if f.KnorpelCard == "" {
		return score.Invalid("facts.knorpel_card", "is required: the Knorpel's trump card, e.g. \"gras_ober\"")
	}
	if !validCard(f.KnorpelCard) {
		return score.Invalid("facts.knorpel_card", "must be <suit>_<rank> with suit eichel, gras, herz or schellen and rank sau, 10, koenig, ober, unter, 9, 8 or 7, got %q", short(f.KnorpelCard))
	}
	if f.KnorpelHolder == nil {
		return score.Invalid("facts.knorpel_holder", "is required: the Nichtspieler holding the Knorpel card")
	}
	holder := *f.KnorpelHolder
	if !slices.Contains(g.players, holder) {
		return score.Invalid("facts.knorpel_holder", "player %d does not play this hand", holder)
	}
	if holder == g.spieler {
		return score.Invalid("facts.knorpel_holder", "the Knorpel card must be held by a Nichtspieler, not by the Spieler")
	}
	g.knorpelCard, g.knorpelHolder = f.KnorpelCard, holder
	return nil
}

func validCard(card string) bool {
	suit, rank, ok := strings.Cut(card, "_")
	return ok && slices.Contains(suits, suit) && slices.Contains(ranks, rank)
}

// checkSauereiExtras validates Saukopf and Hauer, which count in Sauereien
// only (called, unrein and wild).
func checkSauereiExtras(f Facts, g *game) error {
	if f.Saukopf != nil {
		if err := checkSaukopf(*f.Saukopf, g); err != nil {
			return err
		}
	}
	if f.Hauer == nil {
		return nil
	}
	if g.contract != cSauerei {
		return score.Invalid("facts.hauer", "Hauer counts only in Sauereien")
	}
	if !slices.Contains(g.players, *f.Hauer) {
		return score.Invalid("facts.hauer", "player %d does not play this hand", *f.Hauer)
	}
	g.hasHauer, g.hauer = true, *f.Hauer
	return nil
}

func checkSaukopf(s Saukopf, g *game) error {
	if g.contract != cSauerei {
		return score.Invalid("facts.saukopf", "Saukopf counts only in Sauereien")
	}
	if s.TrumpedBy == nil {
		return score.Invalid("facts.saukopf.trumped_by", "is required: the player who trumped the Herz-Sau")
	}
	if s.HerzSauOf == nil {
		return score.Invalid("facts.saukopf.herz_sau_of", "is required: the player whose Herz-Sau was trumped")
	}
	by, of := *s.TrumpedBy, *s.HerzSauOf
	if !slices.Contains(g.players, by) {
		return score.Invalid("facts.saukopf.trumped_by", "player %d does not play this hand", by)
	}
	if !slices.Contains(g.players, of) {
		return score.Invalid("facts.saukopf.herz_sau_of", "player %d does not play this hand", of)
	}
	if by == of {
		return score.Invalid("facts.saukopf.herz_sau_of", "a player cannot trump his own Herz-Sau")
	}
	if g.tie == "" && g.sameParty(by, of) {
		return score.Invalid("facts.saukopf", "players %d and %d are partners; a Saukopf trumps the other party's Herz-Sau", by, of)
	}
	g.hasSaukopf, g.saukopfBy = true, by
	return nil
}
