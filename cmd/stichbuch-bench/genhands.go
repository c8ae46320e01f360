package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/games/klaberjass"
	"github.com/stichbuch/stichbuch/ledger/games/saukopf"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzedame"
	"github.com/stichbuch/stichbuch/ledger/games/schwarzesau"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// The hands the generator plays, one function per game: typed facts of the
// engines, in proportions a club sees.

// --- Doppelkopf -------------------------------------------------------------------

// doppelkopfHand is a hand at the dealer's four: mostly normal games, some
// Hochzeiten, Armut, stille Hochzeiten and solos, now and then a Schmeißen.
// The four players are the engine's default (the seats after the dealer).
func doppelkopfHand(t *genTable, rng *rand.Rand) any {
	dealer, active := t.handPlayers()
	f := doppelkopf.Facts{Dealer: &dealer}
	reSize := doppelkopfGame(&f, rng)
	if f.Game == doppelkopf.GameSchmeissen {
		return f // a redeal: the same dealer deals again
	}
	t.nextDealer()
	// Re's Augen: around 125 in a normal game, a little better in a solo;
	// every trick holds at least 8, so neither party has 1 to 7.
	mean := 122.0
	if reSize == 1 {
		mean = 128
	}
	augen := max(0, min(240, int(math.Round(rng.NormFloat64()*38+mean))))
	switch {
	case augen > 0 && augen < 8:
		augen = 8
	case augen > 232 && augen < 240:
		augen = 232
	}
	re := &doppelkopf.PartyFacts{Players: pick(rng, active, reSize), Augen: &augen}
	kontra := &doppelkopf.PartyFacts{}
	if rng.Float64() < 0.18 {
		re.Announced = "re"
		if augen >= 151 && rng.Float64() < 0.35 {
			re.Announced = "keine90"
		}
	}
	if rng.Float64() < 0.12 {
		kontra.Announced = "kontra"
	}
	if reSize == 2 {
		doppelkopfSpecials(re, kontra, augen, rng)
	}
	if rng.Float64() < 0.04 && f.Suit != "herz" { // a Herz-Solo has no Herzstich
		f.Herzstich = true
	}
	f.Re = re
	if kontra.Announced != "" || kontra.FuchsGefangen > 0 {
		f.Kontra = kontra
	}
	return f
}

// doppelkopfGame draws the game type (and a solo's suit) into f and
// returns how many players Re has.
func doppelkopfGame(f *doppelkopf.Facts, rng *rand.Rand) (reSize int) {
	reSize = 2
	switch r := rng.Float64(); {
	case r < 0.025:
		f.Game = doppelkopf.GameSchmeissen
	case r < 0.74:
		f.Game = doppelkopf.GameNormal
	case r < 0.79:
		f.Game = doppelkopf.GameHochzeit
		if rng.Float64() < 0.1 {
			reSize = 1 // no partner found
		}
	case r < 0.82:
		f.Game = doppelkopf.GameArmut
	case r < 0.84:
		f.Game, reSize = doppelkopf.GameStilleHochzeit, 1
	default:
		reSize = 1
		switch s := rng.IntN(10); {
		case s < 3:
			f.Game = doppelkopf.GameDamensolo
		case s < 6:
			f.Game = doppelkopf.GameBubensolo
		case s < 9:
			f.Game = doppelkopf.GameFarbsolo
			f.Suit = []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)]
		default:
			f.Game = doppelkopf.GameFleischloser
		}
	}
	return reSize
}

// doppelkopfSpecials draws a normal game's special points (never in a solo,
// the house rules' default), only where they surely exist: a Fuchs caught
// by a party that took a trick, a Doppelkopf by one with 40 Augen, a
// Karlchen in the last trick of a party that took one.
func doppelkopfSpecials(re, kontra *doppelkopf.PartyFacts, augen int, rng *rand.Rand) {
	if rng.Float64() < 0.2 && augen >= 8 {
		re.FuchsGefangen = 1
	} else if rng.Float64() < 0.15 && augen <= 232 {
		kontra.FuchsGefangen = 1
	}
	if rng.Float64() < 0.2 && augen >= 40 {
		re.Doppelkopf = 1
	}
	if rng.Float64() < 0.05 && augen >= 8 {
		re.Karlchen = true
	}
}

// --- Saukopf ----------------------------------------------------------------------

// saukopfHand is a Vierer at the dealer's four: the Spieler's contract, his
// party's tricks and Augen, who holds the top trump and how many Laufende.
func saukopfHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	t.nextDealer()
	spieler := players[rng.IntN(4)]
	others := slices.DeleteFunc(slices.Clone(players), func(id int64) bool { return id == spieler })
	f := saukopf.Facts{Variant: "vierer", Players: players, Dealer: dealer, Spieler: &spieler,
		Bid: json.RawMessage(strconv.Itoa(61 + rng.IntN(20)))}
	trumps := 14
	switch r := rng.Float64(); {
	case r < 0.55:
		f.Contract = "sauerei"
		f.CalledSau = []string{"eichel", "gras", "schellen"}[rng.IntN(3)]
		if rng.Float64() < 0.04 {
			f.Unrein = true
		} else {
			f.Mitspieler = &others[rng.IntN(3)]
		}
	case r < 0.77:
		f.Contract = "keiler"
		f.TrumpSuit = []string{"eichel", "gras", "herz", "schellen"}[rng.IntN(4)]
	case r < 0.87:
		f.Contract, trumps = "wutz", 4
	case r < 0.93:
		f.Contract, trumps = "eber", 4
	case r < 0.95:
		// Won without a trick; Laufende never count.
		f.Contract = "mastschwein"
		tricks, augen := 0, 0
		if rng.Float64() < 0.4 {
			tricks, augen = 1, 2+rng.IntN(20)
		}
		f.Tricks, f.Augen = &tricks, &augen
		return f
	case r < 0.965:
		// Won with every trick; no trumps, so no Laufende.
		f.Contract = "schwarte"
		tricks, augen := 8, 120
		if rng.Float64() < 0.5 {
			tricks, augen = 7, 90+rng.IntN(28)
		}
		f.Tricks, f.Augen = &tricks, &augen
		return f
	default:
		f.Contract, trumps = "ferkelparade", 12
	}
	// The Spieler party's tricks and Augen: a won game usually has 5 or 6
	// tricks and 70 to 90 Augen. No card is worth 1 Auge, and the other
	// party took a trick: 2 to 118 Augen in 1 to 7 tricks.
	tricks := max(1, min(7, int(math.Round(rng.NormFloat64()*1.4+4.6))))
	augen := max(2, min(118, int(math.Round(float64(tricks)*15+rng.NormFloat64()*10))))
	f.Tricks, f.Augen = &tricks, &augen
	holder := players[rng.IntN(4)]
	f.Laufende = &saukopf.Laufende{Holder: &holder, Count: 1 + rng.IntN(min(3, trumps))}
	if rng.Float64() < 0.08 {
		f.Huftritte = 1
	}
	return f
}

// --- Schwarze Sau --------------------------------------------------------------

// schwarzeSauHand is a four-player hand: the dealer plays the two Stock
// cards (at most 2 tricks), the others share the rest of the 10 tricks and
// the 120 card points; whoever took the Pik-Dame loses.
func schwarzeSauHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	if !slices.Contains(players, dealer) {
		// More seated than play: the dealer is one of the hand's players.
		dealer = players[0]
	}
	t.nextDealer()
	tricks := map[int64]int{}
	if rng.Float64() < 0.012 { // a Durchmarsch
		winner := players[rng.IntN(4)]
		if winner == dealer {
			winner = players[(slices.Index(players, dealer)+1)%4]
		}
		tricks[winner] = 10
	} else {
		tricks[dealer] = rng.IntN(3)
		left := 10 - tricks[dealer]
		var hold []int64
		for _, id := range players {
			if id != dealer {
				hold = append(hold, id)
			}
		}
		for i, id := range hold {
			if i == len(hold)-1 {
				tricks[id] = left
				break
			}
			n := min(left, rng.IntN(left+1))
			tricks[id] = n
			left -= n
		}
	}
	// Card points roughly in proportion to the tricks, at least 3 for
	// everyone who took a trick (never the impossible 1, and enough for the
	// Pik-Dame's 3).
	points := map[int64]int{}
	total := 0
	var takers []int64
	for _, id := range players {
		if tricks[id] > 0 {
			takers = append(takers, id)
		}
	}
	for i, id := range takers {
		if i == len(takers)-1 {
			points[id] = 120 - total
			break
		}
		share := int(math.Round(float64(tricks[id]) * (9 + rng.Float64()*6)))
		share = max(3, min(share, 120-total-3*(len(takers)-i-1)))
		points[id] = share
		total += share
	}
	sau := takers[rng.IntN(len(takers))]
	f := schwarzesau.Facts{Dealer: dealer}
	for _, id := range players {
		f.Players = append(f.Players, schwarzesau.PlayerFacts{Player: id, CardPoints: points[id], Tricks: tricks[id], PikDame: id == sau})
	}
	calls := []string{"Kontra", "Re", "Sub", "Hirsch"}
	odds := []float64{0.3, 0.4, 0.3, 0.2}
	callers := pick(rng, players, 4)
	for i, call := range calls {
		if rng.Float64() >= odds[i] {
			break
		}
		f.Doublings = append(f.Doublings, schwarzesau.Doubling{Call: call, Player: callers[i]})
	}
	return f
}

// --- Klaberjass -------------------------------------------------------------------

// klaberjassHand is a four-player hand in the evening's seating (first and
// third against second and fourth); the player after the dealer usually
// takes the trump.
func klaberjassHand(t *genTable, rng *rand.Rand) any {
	p := t.seated
	d := t.dealer % 4
	t.nextDealer()
	trump := p[(d+1+rng.IntN(4))%4]
	if rng.Float64() < 0.6 {
		trump = p[(d+1)%4]
	}
	ti := slices.Index(p, trump)
	opponent := p[(ti+1)%4]
	trumpWins := rng.Float64() < 0.62
	x := 77 + rng.IntN(76) // the winning side's card points, 77..152
	if x == 151 {
		x = 152 // no card is worth 1 point: the other side cannot have 1
	}
	winner, loser := trump, opponent
	if !trumpWins {
		winner, loser = opponent, trump
	}
	f := klaberjass.Facts{
		Players: slices.Clone(p), Dealer: p[d], TrumpPlayer: trump,
		TrumpSuit:  []string{"kreuz", "pik", "herz", "karo"}[rng.IntN(4)],
		CardPoints: []klaberjass.SidePoints{{Player: winner, Points: x}, {Player: loser, Points: 152 - x}},
		LastTrick:  winner,
	}
	if rng.Float64() < 0.12 {
		f.Kontra = true
		f.Re = rng.Float64() < 0.15 // only on top of a Kontra
	}
	return f
}

// --- Schwarze Dame ----------------------------------------------------------------

// schwarzeDameHand deals the 13 tricks among the dealer's four and gives
// every heart and the Pik-Dame to a player who took a trick.
func schwarzeDameHand(t *genTable, rng *rand.Rand) any {
	dealer, players := t.handPlayers()
	if !slices.Contains(players, dealer) {
		dealer = players[0]
	}
	t.nextDealer()
	tricks := make([]int, 4)
	for range 13 {
		tricks[rng.IntN(4)]++
	}
	var takers []int
	for i, n := range tricks {
		if n > 0 {
			takers = append(takers, i)
		}
	}
	hearts := make([][]int, 4)
	for rank := 2; rank <= 14; rank++ {
		i := takers[rng.IntN(len(takers))]
		hearts[i] = append(hearts[i], rank)
	}
	dame := takers[rng.IntN(len(takers))]
	f := schwarzedame.Facts{Dealer: dealer}
	for i, id := range players {
		f.Players = append(f.Players, schwarzedame.PlayerFacts{Player: id, Tricks: tricks[i], Hearts: hearts[i], PikDame: i == dame})
	}
	return f
}

// --- helpers ----------------------------------------------------------------------

// pick returns n of the players, in random order.
func pick(rng *rand.Rand, players []int64, n int) []int64 {
	out := slices.Clone(players)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:n]
}

func mustPoints(s string) score.Points {
	var p score.Points
	if err := json.Unmarshal([]byte(`"`+s+`"`), &p); err != nil {
		panic(err)
	}
	return p
}

var (
	genFirstNames = []string{"Anna", "Bernd", "Clara", "Dieter", "Erika", "Friedrich", "Gisela", "Hans", "Ilse", "Jürgen",
		"Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate", "Stefan", "Traudl", "Uwe", "Vroni", "Werner",
		"Xaver", "Yvonne", "Zenzi", "Alois", "Brigitte", "Conny", "Detlef", "Elfriede"}
	genLastNames = []string{"Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz",
		"Hoffmann", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Huber", "Maier", "Kaiser"}
)

// genName is member i's unique name.
func genName(i int) string {
	name := genFirstNames[i%len(genFirstNames)] + " " + genLastNames[(i/len(genFirstNames))%len(genLastNames)]
	if round := i / (len(genFirstNames) * len(genLastNames)); round > 0 {
		name += fmt.Sprintf(" %d", round+1)
	}
	return name
}
