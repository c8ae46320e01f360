// Package schwarzedame scores Schwarze Dame, a Hearts relative, as README.md
// in this package reads it: four players, 13 tricks worth +10
// each, penalty cards worth 130 (Herz 2..10 face value, Bube 11, Dame 12,
// König 13, Ass 14, Pik-Dame 26), so every hand sums to zero. The table
// remembers the current match of `hands_per_match` hands (default 8), and
// Engine.Preview shows it as a session's next hand finds it.
//
// Decisions where the rules are silent:
//   - A table may seat more than four; the hand names its four players and
//     the others score nothing for it.
//   - Each player gives either the penalty cards taken (hearts by rank 2..14
//     and pik_dame) or the penalty points; when every player gives cards,
//     each heart and the Pik-Dame must be taken exactly once. Either way the
//     penalties add up to 130.
//   - A player with penalty cards must have taken a trick.
//   - A match is won by the best balance over its hands; a tie shares the
//     win. Changing hands_per_match mid-match applies from the next hand.
//   - Winners of a hand (for statistics) are the players with a positive
//     score.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat (match winners who are not seated after them, by id) and then by
// key; Count is 1 unless said. Only the keys that apply to the hand are
// given:
//   - tricks for every player who took a trick, Count the tricks.
//   - pik_dame for the player who took the Pik-Dame, when the facts give
//     his penalty cards; a hand given in penalty points does not say who
//     took it.
//   - match_won for every winner of the match the hand ended (a shared
//     win counts for each; the winners are whoever has the best balance
//     of the match, which may include a player not in this hand).
//
// Everyone plays for himself, so Result.Parties is empty.
//
// Result.Dealer is facts.dealer, one of the hand's four players;
// Result.Players are those four in seating order.
package schwarzedame

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Name is the game's registry name.
const Name = "schwarze_dame"

const (
	tricksPerHand  = 13
	penaltyPerHand = 130
	pikDame        = 26
)

// Engine scores Schwarze Dame hands.
type Engine struct{}

var _ score.Engine = Engine{}

// Name returns "schwarze_dame".
func (Engine) Name() string { return Name }

// DisplayName returns "Schwarze Dame".
func (Engine) DisplayName() string { return "Schwarze Dame" }

// ZeroSum is true: 130 trick points against 130 penalty points.
func (Engine) ZeroSum() bool { return true }

// Rules is the rule set of a table.
type Rules struct {
	Preset        string `json:"preset"`
	HandsPerMatch int    `json:"hands_per_match"`
}

// Presets are the named rule sets; "standard" is the default.
var Presets = map[string]Rules{
	"standard": {Preset: "standard", HandsPerMatch: 8},
}

// Options are the overrides a table may set on a preset; every field is
// optional. Its tags describe it for the catalogue (score.CatalogueOf).
type Options struct {
	HandsPerMatch *int `json:"hands_per_match" min:"1" max:"100" de:"Spiele einer Partie." en:"Hands in a match (Partie)."`
}

// presets describes the presets for the catalogue.
var presets = []score.PresetInfo{{Name: "standard",
	DescriptionDE: "10 Punkte je Stich gegen 130 Strafpunkte, Partien zu 8 Spielen.",
	DescriptionEN: "10 points per trick against 130 penalty points, matches of 8 hands."}}

// Catalogue lists the preset standard and the options.
func (e Engine) Catalogue() score.Catalogue {
	return score.MustCatalogue(e, Options{}, "standard", presets)
}

// Rules resolves a preset and option overrides.
func (Engine) Rules(preset string, overrides json.RawMessage) (json.RawMessage, error) {
	if preset == "" {
		preset = "standard"
	}
	r, ok := Presets[preset]
	if !ok {
		return nil, score.Invalid("preset", "unknown preset %q for schwarze_dame (known: standard)", preset)
	}
	var o Options
	if len(overrides) > 0 {
		if err := score.DecodeStrict("options", overrides, &o); err != nil {
			return nil, err
		}
	}
	if o.HandsPerMatch != nil {
		if *o.HandsPerMatch < 1 || *o.HandsPerMatch > 100 {
			return nil, score.Invalid("options.hands_per_match", "must be between 1 and 100, got %d", *o.HandsPerMatch)
		}
		r.HandsPerMatch = *o.HandsPerMatch
	}
	return json.Marshal(r)
}

// Facts are the recorded facts of one hand.
type Facts struct {
	Dealer  int64         `json:"dealer"`
	Players []PlayerFacts `json:"players"`
}

// PlayerFacts is what one player took.
type PlayerFacts struct {
	Player int64 `json:"player"`
	Tricks int   `json:"tricks"`
	// Hearts are the ranks of the hearts taken: 2..10, Bube 11, Dame 12,
	// König 13, Ass 14.
	Hearts  []int `json:"hearts,omitempty"`
	PikDame bool  `json:"pik_dame,omitempty"`
	// Penalty gives the penalty points instead of the cards.
	Penalty *int `json:"penalty,omitempty"`
}

// State is what the table remembers: the match in progress.
type State struct {
	Match       int             `json:"match"`
	HandsPlayed int             `json:"hands_played"`
	HandsLeft   int             `json:"hands_left"`
	Balance     map[int64]int64 `json:"balance"`
	MatchesWon  map[int64]int   `json:"matches_won"`
	LastWinners []int64         `json:"last_match_winners,omitempty"`
	Summary     string          `json:"summary"`
}

// Score validates and scores one hand.
func (Engine) Score(h score.Hand) (score.Result, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return score.Result{}, err
	}
	var f Facts
	if err := score.DecodeStrict("facts", h.Facts, &f); err != nil {
		return score.Result{}, err
	}
	if err := validate(f, h.Seated); err != nil {
		return score.Result{}, err
	}
	st, err := decodeState(h.State)
	if err != nil {
		return score.Result{}, err
	}

	res := score.Result{Dealer: f.Dealer}
	byPlayer := make(map[int64]int64, len(f.Players))
	for _, p := range f.Players {
		pen := penalty(p)
		pts := int64(10*p.Tricks - pen)
		byPlayer[p.Player] = pts
		res.Lines = append(res.Lines,
			score.Line{Label: tricksLabel(p.Tricks), Op: score.OpAdd, Value: score.Int(int64(10 * p.Tricks)), Player: p.Player},
			score.Line{Label: penaltyLabel(p), Op: score.OpSub, Value: score.Int(int64(pen)), Player: p.Player},
			score.Line{Label: "Ergebnis", Op: score.OpEq, Value: score.Int(pts), Player: p.Player},
		)
		if pts > 0 {
			res.Winners = append(res.Winners, p.Player)
		}
	}
	res.Title = title(f, byPlayer)
	for _, id := range h.Seated {
		pts, ok := byPlayer[id]
		if !ok {
			continue
		}
		res.Points = append(res.Points, score.PlayerPoints{Player: id, Points: score.Int(pts)})
		res.Players = append(res.Players, id)
	}

	// The match: add the hand, close the match after its last hand.
	for id, pts := range byPlayer {
		st.Balance[id] += pts
	}
	st.HandsPlayed++
	var winners []int64
	if st.HandsPlayed >= rules.HandsPerMatch {
		winners = bestBalance(st.Balance)
		for _, id := range winners {
			st.MatchesWon[id]++
		}
		res.Events = append(res.Events, score.Event{
			Type:    score.EventMatchWon,
			Text:    fmt.Sprintf("Partie %d gewonnen von %s", st.Match, score.PlayerList(winners)),
			Players: winners,
		})
		st.LastWinners = winners
		st.Match++
		st.HandsPlayed = 0
		st.Balance = map[int64]int64{}
	}
	res.Stats = handStats(f, winners, h.Seated)
	st.finish(rules, h.Seated)
	res.State, err = json.Marshal(st)
	if err != nil {
		return score.Result{}, err
	}
	return res, nil
}

func validate(f Facts, seated []int64) error {
	if len(f.Players) != 4 {
		return score.Refuse("facts.players", fmt.Sprintf("Schwarze Dame spielen genau vier, eingetragen sind %d. Bitte die Spieler prüfen.", len(f.Players)), "Schwarze Dame is played by exactly 4 players, got %d", len(f.Players))
	}
	seen := map[int64]bool{}
	tricks, pen := 0, 0
	var cards [15]int
	pik := 0
	allCards := true
	for i, p := range f.Players {
		field := fmt.Sprintf("facts.players[%d]", i)
		if !slices.Contains(seated, p.Player) {
			return score.Refuse(field+".player", "Mitspielen kann nur, wer heute am Tisch sitzt. Bitte die Spieler prüfen.", "player %d is not seated in this session", p.Player)
		}
		if seen[p.Player] {
			return score.Refuse(field+".player", score.PlayerRef(p.Player)+" ist zweimal eingetragen. Bitte jeden Spieler einmal eintragen.", "player %d is named twice", p.Player)
		}
		seen[p.Player] = true
		if p.Tricks < 0 || p.Tricks > tricksPerHand {
			return score.Refuse(field+".tricks", "Ein Spieler hat 0 bis 13 Stiche. Bitte prüfen.", "must be between 0 and 13, got %d", p.Tricks)
		}
		tricks += p.Tricks
		if p.Penalty != nil {
			if len(p.Hearts) > 0 || p.PikDame {
				return score.Invalid(field+".penalty", "give either the penalty cards or the penalty points, not both")
			}
			if *p.Penalty < 0 || *p.Penalty > penaltyPerHand {
				return score.Refuse(field+".penalty", "Strafpunkte sind 0 bis 130 je Spieler. Bitte prüfen.", "must be between 0 and 130, got %d", *p.Penalty)
			}
			allCards = false
		}
		for j, r := range p.Hearts {
			if r < 2 || r > 14 {
				return score.Invalid(fmt.Sprintf("%s.hearts[%d]", field, j), "a heart's rank is 2..14 (Bube 11, Dame 12, König 13, Ass 14), got %d", r)
			}
			cards[r]++
			if cards[r] > 1 {
				return score.Invalid(fmt.Sprintf("%s.hearts[%d]", field, j), "%s was taken twice; each heart is taken exactly once", heartName(r))
			}
		}
		if p.PikDame {
			pik++
			if pik > 1 {
				return score.Refuse(field+".pik_dame", "Die Pik-Dame hat nur einer bekommen. Bitte nur bei einem Spieler eintragen.", "the Pik-Dame was taken twice; it is taken exactly once")
			}
		}
		pen += penalty(p)
		if penalty(p) > 0 && p.Tricks == 0 {
			return score.Refuse(field+".tricks", score.PlayerRef(p.Player)+" hat Strafkarten, also mindestens einen Stich. Bitte die Stiche prüfen.", "a player with penalty cards took at least one trick")
		}
	}
	if !seen[f.Dealer] {
		return score.Refuse("facts.dealer", score.PlayerRef(f.Dealer)+" spielt dieses Spiel nicht mit. Wähle den Geber unter den vier.", "the dealer %d is not one of the hand's players", f.Dealer)
	}
	if tricks != tricksPerHand {
		return score.Refuse("facts.players[].tricks", fmt.Sprintf("Ein Spiel hat 13 Stiche, eingetragen sind %d. Bitte prüfen.", tricks), "tricks add up to %d, need 13", tricks)
	}
	if allCards {
		for r := 2; r <= 14; r++ {
			if cards[r] == 0 {
				return score.Invalid("facts.players[].hearts", "%s was taken by nobody; each heart is taken exactly once", heartName(r))
			}
		}
		if pik == 0 {
			return score.Refuse("facts.players[].pik_dame", "Wer hat die Pik-Dame bekommen? Bitte bei einem Spieler eintragen.", "the Pik-Dame was taken by nobody; it is taken exactly once")
		}
	}
	if pen != penaltyPerHand {
		return score.Refuse("facts.players[].penalty", fmt.Sprintf("Alle Strafpunkte zusammen ergeben 130, eingetragen sind %d. Bitte prüfen.", pen), "penalty points add up to %d, need 130", pen)
	}
	return nil
}

// title names the hand for a score sheet: the best of the hand and who
// took the Pik-Dame ("Spieler 1 gewinnt mit +20, Spieler 2 hat die
// Pik-Dame"). When the hand gives penalty points, so that nobody is
// known to hold the Pik-Dame, it names the worst of the hand instead. A
// player who took every trick took every penalty card too: everyone
// scores 0.
func title(f Facts, pts map[int64]int64) string {
	for _, p := range f.Players {
		if p.Tricks == tricksPerHand {
			return score.PlayerRef(p.Player) + " macht alle Stiche, alle 0"
		}
	}
	best, worst := extremes(pts)
	var t string
	if pts[best[0]] > 0 {
		t = fmt.Sprintf("%s mit %+d", ranked(best, "gewinnt", "gewinnen"), pts[best[0]])
	} else {
		t = "Alle 0"
	}
	for _, p := range f.Players {
		if p.PikDame {
			return t + ", " + score.PlayerRef(p.Player) + " hat die Pik-Dame"
		}
	}
	if pts[worst[0]] < 0 {
		t += fmt.Sprintf(", %s mit %d", ranked(worst, "verliert", "verlieren"), pts[worst[0]])
	}
	return t
}

// extremes lists the players with the highest and with the lowest score,
// each in ascending order.
func extremes(pts map[int64]int64) (best, worst []int64) {
	for id, v := range pts {
		switch {
		case len(best) == 0 || v > pts[best[0]]:
			best = []int64{id}
		case v == pts[best[0]]:
			best = append(best, id)
		}
		switch {
		case len(worst) == 0 || v < pts[worst[0]]:
			worst = []int64{id}
		case v == pts[worst[0]]:
			worst = append(worst, id)
		}
	}
	slices.Sort(best)
	slices.Sort(worst)
	return best, worst
}

// ranked is "Anna gewinnt" or "Anna und Clara gewinnen", with player
// references for the names.
func ranked(ids []int64, one, many string) string {
	if len(ids) == 1 {
		return score.PlayerRef(ids[0]) + " " + one
	}
	return score.PlayerList(ids) + " " + many
}

func tricksLabel(n int) string {
	if n == 1 {
		return "1 Stich x 10"
	}
	return fmt.Sprintf("%d Stiche x 10", n)
}

func penalty(p PlayerFacts) int {
	if p.Penalty != nil {
		return *p.Penalty
	}
	sum := 0
	for _, r := range p.Hearts {
		sum += r
	}
	if p.PikDame {
		sum += pikDame
	}
	return sum
}

func penaltyLabel(p PlayerFacts) string {
	if p.Penalty != nil {
		return "Strafpunkte"
	}
	var parts []string
	for _, r := range p.Hearts {
		parts = append(parts, heartName(r))
	}
	if p.PikDame {
		parts = append(parts, "Pik-Dame")
	}
	if len(parts) == 0 {
		return "keine Strafkarten"
	}
	return strings.Join(parts, ", ")
}

func heartName(r int) string {
	switch r {
	case 11:
		return "Herz-Bube"
	case 12:
		return "Herz-Dame"
	case 13:
		return "Herz-König"
	case 14:
		return "Herz-Ass"
	}
	return fmt.Sprintf("Herz %d", r)
}

func decodeRules(raw json.RawMessage) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(raw, &r); err != nil || r.HandsPerMatch < 1 {
		return Rules{}, score.Invalid("rules", "not a schwarze_dame rule set")
	}
	return r, nil
}

// finish counts the hands left in the match and writes the summary,
// naming the players in the order of seated. At least the next hand is
// left: a match already past a lowered hands_per_match ends with it.
func (st *State) finish(r Rules, seated []int64) {
	st.HandsLeft = max(r.HandsPerMatch-st.HandsPlayed, 1)
	st.Summary = st.summary(r, seated)
}

// summary is the state in one German line for people: "Partie 1: 2 von 3
// Spielen gespielt; Stand: {{player:1}} +40, {{player:2}} -20, …", or after
// a match "Partie 1 gewonnen von {{player:3}}; Partie 2: 0 von 3 Spielen
// gespielt". The balance lists the players in seating order (those not
// seated after them, by id).
func (st *State) summary(r Rules, seated []int64) string {
	text := fmt.Sprintf("Partie %d: %d von %d Spielen gespielt", st.Match, st.HandsPlayed, r.HandsPerMatch)
	if st.HandsPlayed == 0 && len(st.LastWinners) > 0 {
		text = fmt.Sprintf("Partie %d gewonnen von %s; %s", st.Match-1, score.PlayerList(st.LastWinners), text)
	}
	if len(st.Balance) == 0 {
		return text
	}
	ids := make([]int64, 0, len(st.Balance))
	for id := range st.Balance {
		ids = append(ids, id)
	}
	parts := make([]string, 0, len(ids))
	for _, id := range score.InSeatingOrder(ids, seated) {
		b := st.Balance[id]
		parts = append(parts, fmt.Sprintf("%s %s", score.PlayerRef(id), signed(b)))
	}
	return text + "; Stand: " + strings.Join(parts, ", ")
}

// signed writes a balance with its sign: "+20", "-13", "0".
func signed(n int64) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("%+d", n)
}

func decodeState(raw json.RawMessage) (State, error) {
	st := State{Match: 1}
	if len(raw) > 0 && string(raw) != "null" && string(raw) != "{}" {
		if err := json.Unmarshal(raw, &st); err != nil {
			return State{}, fmt.Errorf("schwarze_dame: stored state unreadable: %w", err)
		}
	}
	if st.Balance == nil {
		st.Balance = map[int64]int64{}
	}
	if st.MatchesWon == nil {
		st.MatchesWon = map[int64]int{}
	}
	if st.Match < 1 {
		st.Match = 1
	}
	return st, nil
}

func bestBalance(balance map[int64]int64) []int64 {
	var best []int64
	var top int64
	for id, b := range balance {
		switch {
		case len(best) == 0 || b > top:
			best, top = []int64{id}, b
		case b == top:
			best = append(best, id)
		}
	}
	slices.Sort(best)
	return best
}
