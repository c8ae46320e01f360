package schwarzesau

import (
	"fmt"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Facts are the recorded facts of one hand, as ParseFacts returns them:
// every field present and checked against the deck.
type Facts struct {
	// Players are the hand's three or four players.
	Players []PlayerFacts `json:"players"`
	// Dealer is one of the players. With four players he holds no hand
	// and plays the two Stock cards.
	Dealer int64 `json:"dealer"`
	// Stock is the blind Stock of a three-player hand; nil with four.
	Stock *StockFacts `json:"stock,omitempty"`
	// Doublings are the calls said, in order: Kontra, Re, Sub, Hirsch.
	Doublings []Doubling `json:"doublings,omitempty"`
	// VerstossBy is the player who broke a rule and loses the hand.
	VerstossBy *int64 `json:"verstoss_by,omitempty"`
}

// PlayerFacts is what one player took.
type PlayerFacts struct {
	Player     int64 `json:"player"`
	CardPoints int   `json:"card_points"`
	Tricks     int   `json:"tricks"`
	PikDame    bool  `json:"pik_dame,omitempty"`
}

// StockFacts is what the blind Stock of a three-player hand won.
type StockFacts struct {
	CardPoints int  `json:"card_points"`
	Tricks     int  `json:"tricks"`
	PikDame    bool `json:"pik_dame,omitempty"`
}

// Doubling is one call and the player who said it.
type Doubling struct {
	Call   string `json:"call"`
	Player int64  `json:"player"`
}

// The wire forms use pointers so that a missing required field is refused
// rather than read as 0.
type wireFacts struct {
	Players    []wirePlayer   `json:"players"`
	Dealer     *int64         `json:"dealer"`
	Stock      *wireStock     `json:"stock"`
	Doublings  []wireDoubling `json:"doublings"`
	VerstossBy *int64         `json:"verstoss_by"`
}

type wirePlayer struct {
	Player     *int64 `json:"player"`
	CardPoints *int   `json:"card_points"`
	Tricks     *int   `json:"tricks"`
	PikDame    bool   `json:"pik_dame"`
}

type wireStock struct {
	CardPoints *int `json:"card_points"`
	Tricks     *int `json:"tricks"`
	PikDame    bool `json:"pik_dame"`
}

type wireDoubling struct {
	Call   string `json:"call"`
	Player *int64 `json:"player"`
}

// ParseFacts decodes the facts strictly and checks them against the deck
// and the seating; a refused hand is a *score.Violation naming the field.
func ParseFacts(raw []byte, seated []int64) (Facts, error) {
	var w wireFacts
	if err := score.DecodeStrict("facts", raw, &w); err != nil {
		return Facts{}, err
	}
	players, err := parsePlayers(w.Players, seated)
	if err != nil {
		return Facts{}, err
	}
	f := Facts{Players: players}
	steps := []func(wireFacts, *Facts) error{
		parseVerstoss, parseDealer, parseStock, checkSums, checkSau, parseDoublings,
	}
	for _, step := range steps {
		if err := step(w, &f); err != nil {
			return Facts{}, err
		}
	}
	return f, nil
}

func parsePlayers(ws []wirePlayer, seated []int64) ([]PlayerFacts, error) {
	if len(ws) != 3 && len(ws) != 4 {
		return nil, score.Refuse("facts.players", fmt.Sprintf("Schwarze Sau spielen 3 oder 4, eingetragen sind %d. Bitte die Spieler prüfen.", len(ws)), "Schwarze Sau is played by 3 or 4 players, got %d", len(ws))
	}
	out := make([]PlayerFacts, 0, len(ws))
	for i, w := range ws {
		p, err := parsePlayer(i, w, seated)
		if err != nil {
			return nil, err
		}
		if indexOf(out, p.Player) >= 0 {
			return nil, score.Refuse(fmt.Sprintf("facts.players[%d].player", i), score.PlayerRef(p.Player)+" ist zweimal eingetragen. Bitte jeden Spieler einmal eintragen.", "player %d is named twice", p.Player)
		}
		out = append(out, p)
	}
	return out, nil
}

func parsePlayer(i int, w wirePlayer, seated []int64) (PlayerFacts, error) {
	field := fmt.Sprintf("facts.players[%d]", i)
	if w.Player == nil {
		return PlayerFacts{}, score.Invalid(field+".player", "is required")
	}
	if !slices.Contains(seated, *w.Player) {
		return PlayerFacts{}, score.Refuse(field+".player", "Mitspielen kann nur, wer heute am Tisch sitzt. Bitte die Spieler prüfen.", "player %d is not seated in this session", *w.Player)
	}
	cp, tr, err := cardsAndTricks(field, w.CardPoints, w.Tricks, handTricks, w.PikDame)
	if err != nil {
		return PlayerFacts{}, err
	}
	return PlayerFacts{Player: *w.Player, CardPoints: cp, Tricks: tr, PikDame: w.PikDame}, nil
}

// cardsAndTricks checks one taker's card points and tricks: present, in
// range, no card points without a trick, and the Pik-Dame's 3 card points
// in a trick if he took it.
func cardsAndTricks(field string, cp, tr *int, maxTricks int, sau bool) (int, int, error) {
	if cp == nil {
		return 0, 0, score.Refuse(field+".card_points", "Trag die Kartenpunkte jedes Spielers ein.", "is required")
	}
	if tr == nil {
		return 0, 0, score.Refuse(field+".tricks", "Trag die Stiche jedes Spielers ein.", "is required")
	}
	if *cp < 0 || *cp > deckPoints {
		return 0, 0, score.Refuse(field+".card_points", "Ein Spieler hat 0 bis 120 Kartenpunkte. Bitte prüfen.", "must be between 0 and 120, got %d", *cp)
	}
	if *tr < 0 || *tr > maxTricks {
		return 0, 0, score.Invalid(field+".tricks", "must be between 0 and %d, got %d", maxTricks, *tr)
	}
	if *tr == 0 && *cp > 0 {
		return 0, 0, score.Refuse(field+".card_points", "Ohne Stich hat ein Spieler keine Kartenpunkte. Bitte Stiche und Punkte prüfen.", "%d card points without a trick; no trick means 0 card points", *cp)
	}
	if sau && *tr == 0 {
		return 0, 0, score.Refuse(field+".pik_dame", "Die Pik-Dame kommt nur mit einem Stich. Bitte Stiche und Pik-Dame prüfen.", "the Pik-Dame is taken in a trick, but no trick was taken")
	}
	if sau && *cp < sauPoints {
		return 0, 0, score.Refuse(field+".card_points", "Die Pik-Dame allein zählt schon 3 Kartenpunkte. Bitte die Punkte prüfen.", "the Pik-Dame alone counts 3 card points, got %d", *cp)
	}
	return *cp, *tr, nil
}

func parseVerstoss(w wireFacts, f *Facts) error {
	if w.VerstossBy == nil {
		return nil
	}
	if indexOf(f.Players, *w.VerstossBy) < 0 {
		return score.Refuse("facts.verstoss_by", score.PlayerRef(*w.VerstossBy)+" spielt dieses Spiel nicht mit. Bitte den Verstoß einem Mitspieler zuordnen.", "player %d does not play this hand", *w.VerstossBy)
	}
	id := *w.VerstossBy
	f.VerstossBy = &id
	return nil
}

func parseDealer(w wireFacts, f *Facts) error {
	if w.Dealer == nil {
		return score.Refuse("facts.dealer", "Wähle, wer gibt.", "is required")
	}
	i := indexOf(f.Players, *w.Dealer)
	if i < 0 {
		return score.Refuse("facts.dealer", score.PlayerRef(*w.Dealer)+" spielt dieses Spiel nicht mit. Wähle den Geber unter den Mitspielern.", "the dealer %d is not one of the hand's players", *w.Dealer)
	}
	f.Dealer = *w.Dealer
	if len(f.Players) == 4 && f.Players[i].Tricks > stockTricks {
		return score.Invalid(fmt.Sprintf("facts.players[%d].tricks", i),
			"the dealer of a four-player hand plays only the two Stock cards and takes at most 2 tricks, got %d", f.Players[i].Tricks)
	}
	return nil
}

func parseStock(w wireFacts, f *Facts) error {
	if len(f.Players) == 4 {
		if w.Stock != nil {
			return score.Invalid("facts.stock", "only a three-player hand has a blind Stock; with four players the dealer's tricks hold it")
		}
		return nil
	}
	if w.Stock == nil {
		return score.Invalid("facts.stock", "is required with three players (the blind Stock's card points and tricks)")
	}
	cp, tr, err := cardsAndTricks("facts.stock", w.Stock.CardPoints, w.Stock.Tricks, stockTricks, w.Stock.PikDame)
	if err != nil {
		return err
	}
	f.Stock = &StockFacts{CardPoints: cp, Tricks: tr, PikDame: w.Stock.PikDame}
	return nil
}

// checkSums wants 120 card points and 10 tricks; a hand ended early by a
// Verstoß may have less.
func checkSums(_ wireFacts, f *Facts) error {
	points, tricks := f.totals()
	complete := f.VerstossBy == nil
	if complete && points != deckPoints {
		return score.Refuse("facts.players[].card_points", fmt.Sprintf("Alle Kartenpunkte zusammen ergeben 120, eingetragen sind %d. Bitte prüfen.", points), "card points add up to %d, need 120", points)
	}
	if complete && tricks != handTricks {
		return score.Refuse("facts.players[].tricks", fmt.Sprintf("Ein Spiel hat 10 Stiche, eingetragen sind %d. Bitte prüfen.", tricks), "tricks add up to %d, need 10", tricks)
	}
	if points > deckPoints {
		return score.Refuse("facts.players[].card_points", fmt.Sprintf("Alle Kartenpunkte zusammen sind höchstens 120, eingetragen sind %d. Bitte prüfen.", points), "card points add up to %d, at most 120", points)
	}
	if tricks > handTricks {
		return score.Refuse("facts.players[].tricks", fmt.Sprintf("Ein Spiel hat 10 Stiche, eingetragen sind %d. Bitte prüfen.", tricks), "tricks add up to %d, at most 10", tricks)
	}
	return nil
}

// checkSau wants exactly one taker of the Pik-Dame (a player or the blind
// Stock); after a Verstoß it may not have been taken yet.
func checkSau(_ wireFacts, f *Facts) error {
	takers := 0
	for i, p := range f.Players {
		if !p.PikDame {
			continue
		}
		takers++
		if takers > 1 {
			return score.Refuse(fmt.Sprintf("facts.players[%d].pik_dame", i), "Die Pik-Dame hat nur einer bekommen. Bitte nur bei einem Spieler eintragen.", "the Pik-Dame was taken twice; exactly one player takes it")
		}
	}
	if f.Stock != nil && f.Stock.PikDame && takers > 0 {
		return score.Refuse("facts.stock.pik_dame", "Die Pik-Dame hat nur einer bekommen (oder sie lag im Stock). Bitte nur einmal eintragen.", "the Pik-Dame was taken twice; exactly one player or the Stock takes it")
	}
	if f.Stock != nil && f.Stock.PikDame {
		takers++
	}
	if takers == 0 && f.VerstossBy == nil {
		return score.Refuse("facts.players[].pik_dame", "Wer hat die Pik-Dame bekommen? Bitte bei einem Spieler (oder beim Stock) eintragen.", "nobody took the Pik-Dame; exactly one player (or the blind Stock) takes it")
	}
	return nil
}

func parseDoublings(w wireFacts, f *Facts) error {
	if len(w.Doublings) > len(calls) {
		return score.Invalid("facts.doublings", "at most 4 doublings (Kontra, Re, Sub, Hirsch), got %d", len(w.Doublings))
	}
	for i, d := range w.Doublings {
		field := fmt.Sprintf("facts.doublings[%d]", i)
		if d.Call != calls[i] {
			return score.Invalid(field+".call", "the doublings go Kontra, Re, Sub, Hirsch: doubling %d is %s, got %q", i+1, calls[i], d.Call)
		}
		if d.Player == nil {
			return score.Invalid(field+".player", "is required")
		}
		if indexOf(f.Players, *d.Player) < 0 {
			return score.Refuse(field+".player", score.PlayerRef(*d.Player)+" spielt dieses Spiel nicht mit. Bitte die Verdopplung einem Mitspieler zuordnen.", "player %d does not play this hand", *d.Player)
		}
		for _, prev := range f.Doublings {
			if prev.Player == *d.Player {
				return score.Refuse(field+".player", score.PlayerRef(*d.Player)+" hat schon verdoppelt; jeder verdoppelt höchstens einmal. Bitte prüfen.", "player %d already said %s; each player doubles at most once", *d.Player, prev.Call)
			}
		}
		f.Doublings = append(f.Doublings, Doubling{Call: d.Call, Player: *d.Player})
	}
	return nil
}

// totals adds the card points and tricks of the players and the Stock.
func (f Facts) totals() (points, tricks int) {
	for _, p := range f.Players {
		points += p.CardPoints
		tricks += p.Tricks
	}
	if f.Stock != nil {
		points += f.Stock.CardPoints
		tricks += f.Stock.Tricks
	}
	return points, tricks
}

// ids returns the hand's players in the order of the facts.
func (f Facts) ids() []int64 {
	ids := make([]int64, len(f.Players))
	for i, p := range f.Players {
		ids[i] = p.Player
	}
	return ids
}

func indexOf(players []PlayerFacts, id int64) int {
	for i, p := range players {
		if p.Player == id {
			return i
		}
	}
	return -1
}
