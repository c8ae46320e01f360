package klaberjass

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Suits and ranks as the facts spell them. Ranks are in sequence order
// 7-8-9-10-B-D-K-A, the order of Terz and Halber for every suit.
var (
	suitKeys  = []string{"kreuz", "pik", "herz", "karo"}
	suitNames = []string{"Kreuz", "Pik", "Herz", "Karo"}
	rankKeys  = []string{"7", "8", "9", "10", "bube", "dame", "koenig", "ass"}
	rankNames = []string{"7", "8", "9", "10", "Bube", "Dame", "König", "Ass"}
)

const (
	rankDame   = 5
	rankKoenig = 6
	maxMelds   = 20 // 4 players x (at most 5 melds each)
)

// meld is a validated Terz (length 3) or Halber (length 4).
type meld struct {
	player int64
	length int
	suit   int
	top    int
	index  int // position in facts.melds
}

func (m meld) points() int {
	if m.length == 4 {
		return halberPoints
	}
	return terzPoints
}

// holds reports whether the meld contains the card of rank r in suit s.
func (m meld) holds(s, r int) bool {
	return m.suit == s && r <= m.top && r > m.top-m.length
}

func (m meld) name() string {
	kind := "Terz"
	if m.length == 4 {
		kind = "Halber"
	}
	return fmt.Sprintf("%s %s bis %s", kind, suitNames[m.suit], rankNames[m.top])
}

// game is a validated hand: who plays, the sides, and what was declared.
type game struct {
	players     []int64 // seating order of the hand
	sides       [][]int64
	dealer      int64
	trumpPlayer int64
	trump       int
	orgi        bool
	melds       []meld
	bella       int64
	hasBella    bool
	cardPoints  []int // per side
	lastTrick   int64
	kontra, re  bool
}

// seat returns the player's index in the hand, or -1.
func (g *game) seat(id int64) int { return slices.Index(g.players, id) }

// side returns the index of the player's side; the player must be in the
// hand.
func (g *game) side(id int64) int {
	i := g.seat(id)
	if len(g.players) == 4 {
		return i % 2
	}
	return i
}

// fromDealer counts seats from the dealer's left: 0 for the player after
// the dealer, n-1 for the dealer.
func (g *game) fromDealer(id int64) int {
	n := len(g.players)
	return (g.seat(id) - g.seat(g.dealer) - 1 + 2*n) % n
}

// handSize is how many cards a player holds when melds are declared.
func (g *game) handSize() int {
	switch len(g.players) {
	case 4:
		return 8
	case 3:
		return 10
	}
	return 12
}

func validate(f Facts, seated []int64, r Rules) (*game, error) {
	players, err := handPlayers(f.Players, seated)
	if err != nil {
		return nil, err
	}
	g := &game{players: players, sides: makeSides(players), kontra: f.Kontra, re: f.Re, orgi: f.Orgi}
	if err := g.member("facts.dealer", f.Dealer, "the dealer"); err != nil {
		return nil, err
	}
	g.dealer = f.Dealer
	if err := g.member("facts.trump_player", f.TrumpPlayer, "the trump player"); err != nil {
		return nil, err
	}
	g.trumpPlayer = f.TrumpPlayer
	g.trump = slices.Index(suitKeys, f.TrumpSuit)
	if g.trump < 0 {
		return nil, score.Refuse("facts.trump_suit", "Wähle die Trumpffarbe: Kreuz, Pik, Herz oder Karo.", "must be kreuz, pik, herz or karo, got %q", f.TrumpSuit)
	}
	if f.Orgi && !r.Orgi {
		return nil, score.Refuse("facts.orgi", "An diesem Tisch wird ohne Orgi gespielt (Tischregeln). Bitte abwählen.", "this table does not play Orgi (option orgi is off)")
	}
	if err := g.addMelds(f.Melds); err != nil {
		return nil, err
	}
	if err := g.addBella(f.Bella); err != nil {
		return nil, err
	}
	if err := g.addCardPoints(f.CardPoints); err != nil {
		return nil, err
	}
	if err := g.member("facts.last_trick", f.LastTrick, "the winner of the last trick"); err != nil {
		return nil, err
	}
	g.lastTrick = f.LastTrick
	if f.Re && !f.Kontra {
		return nil, score.Refuse("facts.re", "Re kann nur auf ein Kontra gesagt werden. Wähle erst Kontra oder nimm Re zurück.", "Re is only said on top of a Kontra")
	}
	return g, nil
}

// handPlayers returns the players of the hand in seating order: the facts'
// list, or the seated players when 2 to 4 sit at the table.
func handPlayers(named, seated []int64) ([]int64, error) {
	if named == nil {
		if len(seated) < 2 || len(seated) > 4 {
			return nil, score.Refuse("facts.players", fmt.Sprintf("Am Tisch sitzen %d; Klaberjass spielen 2 bis 4. Wähle, wer dieses Spiel spielt.", len(seated)), "is required: %d players are seated, name the 2 to 4 players of this hand in seating order", len(seated))
		}
		named = seated
	}
	if len(named) < 2 || len(named) > 4 {
		return nil, score.Refuse("facts.players", fmt.Sprintf("Klaberjass spielen 2, 3 oder 4, gewählt sind %d. Bitte die Spieler prüfen.", len(named)), "Klaberjass is played by 2, 3 or 4 players, got %d", len(named))
	}
	for i, id := range named {
		field := fmt.Sprintf("facts.players[%d]", i)
		if !slices.Contains(seated, id) {
			return nil, score.Refuse(field, "Mitspielen kann nur, wer heute am Tisch sitzt: "+score.PlayerList(seated)+".", "player %d is not seated in this session", id)
		}
		if slices.Index(named, id) != i {
			return nil, score.Refuse(field, score.PlayerRef(id)+" ist zweimal gewählt. Bitte verschiedene Spieler wählen.", "player %d is named twice", id)
		}
	}
	return slices.Clone(named), nil
}

// makeSides groups the players: partners opposite with four players, each
// for himself with two or three.
func makeSides(players []int64) [][]int64 {
	if len(players) == 4 {
		return [][]int64{{players[0], players[2]}, {players[1], players[3]}}
	}
	sides := make([][]int64, len(players))
	for i, id := range players {
		sides[i] = []int64{id}
	}
	return sides
}

func (g *game) member(field string, id int64, role string) error {
	if g.seat(id) < 0 {
		return score.Refuse(field, score.PlayerRef(id)+" spielt dieses Spiel nicht mit. Wähle unter "+score.PlayerList(g.players)+".", "%s (player %d) is not one of the hand's players", role, id)
	}
	return nil
}

// addMelds checks every declared meld against the deck and the hand sizes.
func (g *game) addMelds(ms []Meld) error {
	if len(ms) > maxMelds {
		return score.Invalid("facts.melds", "at most %d melds fit in a hand of Klaberjass, got %d", maxMelds, len(ms))
	}
	var owner [4][8]int // 1 + index of the meld holding the card
	var terze, halbe, cards [4]int
	for i, m := range ms {
		field := fmt.Sprintf("facts.melds[%d]", i)
		p := g.seat(m.Player)
		if p < 0 {
			return score.Invalid(field+".player", "player %d is not one of the hand's players", m.Player)
		}
		pm, err := parseMeld(field, m, i)
		if err != nil {
			return err
		}
		for r := pm.top - pm.length + 1; r <= pm.top; r++ {
			if j := owner[pm.suit][r]; j != 0 {
				return score.Invalid(field, "%s %s is already in facts.melds[%d]; every card is in the deck once", suitNames[pm.suit], rankNames[r], j-1)
			}
			owner[pm.suit][r] = i + 1
		}
		if pm.length == 4 {
			halbe[p]++
		} else {
			terze[p]++
		}
		cards[p] += pm.length
		if terze[p] > 3 || halbe[p] > 2 {
			return score.Invalid(field, "a player declares at most 3 Terze and 2 Halbe")
		}
		if cards[p] > g.handSize() {
			return score.Invalid(field, "player %d's melds need %d cards, but a hand of %d players holds %d", m.Player, cards[p], len(g.players), g.handSize())
		}
		g.melds = append(g.melds, pm)
	}
	return nil
}

func parseMeld(field string, m Meld, index int) (meld, error) {
	pm := meld{player: m.Player, index: index}
	switch m.Kind {
	case "terz":
		pm.length = 3
	case "halber":
		pm.length = 4
	default:
		return meld{}, score.Invalid(field+".kind", "must be terz or halber, got %q", m.Kind)
	}
	pm.suit = slices.Index(suitKeys, m.Suit)
	if pm.suit < 0 {
		return meld{}, score.Invalid(field+".suit", "must be kreuz, pik, herz or karo, got %q", m.Suit)
	}
	pm.top = slices.Index(rankKeys, m.Top)
	if pm.top < 0 {
		return meld{}, score.Invalid(field+".top", "must be one of %s, got %q", strings.Join(rankKeys, ", "), m.Top)
	}
	if pm.top < pm.length-1 {
		lowest := rankNames[pm.length-1]
		return meld{}, score.Invalid(field+".top", "a %s runs within 7..Ass, so its top card is %s or higher, got %s", kindName(pm.length), lowest, rankNames[pm.top])
	}
	return pm, nil
}

func kindName(length int) string {
	if length == 4 {
		return "Halber"
	}
	return "Terz"
}

// addBella checks that the declarer is in the hand and that nobody else
// declared a meld holding one of Bella's cards.
func (g *game) addBella(bella *int64) error {
	if bella == nil {
		return nil
	}
	if err := g.member("facts.bella", *bella, "the Bella declarer"); err != nil {
		return err
	}
	for _, m := range g.melds {
		if m.player == *bella {
			continue
		}
		for _, r := range []int{rankDame, rankKoenig} {
			if m.holds(g.trump, r) {
				return score.Invalid("facts.bella", "player %d cannot hold Bella: player %d declared the trump %s in facts.melds[%d]", *bella, m.player, rankNames[r], m.index)
			}
		}
	}
	g.bella, g.hasBella = *bella, true
	return nil
}

// addCardPoints checks one entry per side, each a possible number of card
// points, together 152.
func (g *game) addCardPoints(sp []SidePoints) error {
	n := len(g.sides)
	if len(sp) != n {
		return score.Refuse("facts.card_points", fmt.Sprintf("Trag die Kartenpunkte jeder Seite ein (%d Seiten).", n), "give the card points of each of the %d sides (%s), got %d entries", n, g.sideList(), len(sp))
	}
	g.cardPoints = make([]int, n)
	given := make([]int, n) // 1 + entry index per side
	sum := 0
	for i, e := range sp {
		field := fmt.Sprintf("facts.card_points[%d]", i)
		if g.seat(e.Player) < 0 {
			return score.Refuse(field+".player", score.PlayerRef(e.Player)+" spielt dieses Spiel nicht mit. Wähle unter "+score.PlayerList(g.players)+".", "player %d is not one of the hand's players", e.Player)
		}
		s := g.side(e.Player)
		if given[s] != 0 {
			return score.Refuse(field+".player", score.PlayerList(g.sides[s])+" haben schon Kartenpunkte: jede Seite einmal eintragen.", "%s already has card points in facts.card_points[%d]", sideIDs(g.sides[s]), given[s]-1)
		}
		given[s] = i + 1
		if e.Points < 0 || e.Points > cardPointsTotal {
			return score.Refuse(field+".points", "Kartenpunkte sind 0 bis 152 je Seite (Meldungen und letzter Stich zählen extra). Bitte prüfen.", "must be between 0 and 152, got %d", e.Points)
		}
		if e.Points == 1 {
			return score.Refuse(field+".points", "Keine Karte zählt 1 Punkt, also hat keine Seite genau 1 Kartenpunkt. Bitte prüfen.", "no card is worth 1 point, so no side takes exactly 1 card point")
		}
		g.cardPoints[s] = e.Points
		sum += e.Points
	}
	if sum != cardPointsTotal {
		return score.Refuse("facts.card_points", fmt.Sprintf("Die Kartenpunkte aller Seiten ergeben zusammen 152 (ohne Meldungen und letzten Stich), eingetragen sind %d. Bitte prüfen.", sum), "card points add up to %d, need 152", sum)
	}
	return nil
}

func (g *game) sideList() string {
	names := make([]string, len(g.sides))
	for i, s := range g.sides {
		names[i] = sideIDs(s)
	}
	return strings.Join(names, ", ")
}

// sideIDs names a side by its players' ids, for a refusal: "Spieler 1/3".
func sideIDs(players []int64) string {
	parts := make([]string, len(players))
	for i, id := range players {
		parts[i] = fmt.Sprint(id)
	}
	return "Spieler " + strings.Join(parts, "/")
}

// sideName names a side as on paper, its players' names by references:
// "Anna/Clara".
func sideName(players []int64) string {
	parts := make([]string, len(players))
	for i, id := range players {
		parts[i] = score.PlayerRef(id)
	}
	return strings.Join(parts, "/")
}
