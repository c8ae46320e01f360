// Package klaberjass scores Klaberjass ("Klammern") kept with dice, as
// README.md in this package reads it: two, three or four players, a Skat deck
// of 152 card points, Terz (20), Halber (50) and Bella (20) melds, and a
// die per side that moves toward 6. Klaberjass produces no points: every
// player of a hand scores 0 and the hand moves dice; the table remembers the
// dice of the match in progress, and Engine.Preview shows them as a
// session's next hand finds them.
//
// Decisions where the rules are silent:
//   - The players of a hand are facts.players in the seating order of the
//     hand (the facts win over the session's order, so a seat change during
//     the evening is recorded as it happened). When facts.players is left
//     out, the session's seating order is used, which requires exactly 2 to
//     4 seated players. More seated players sit out and are not listed in
//     Result.Points.
//   - With four players, the first and third player of the hand play
//     against the second and fourth. With two or three players every player
//     is a side of his own.
//   - Card points are given once per side: with four players one entry per
//     team, naming either partner. They add up to 152, and no side can take
//     exactly 1 card point (no card is worth 1; every other split of the
//     deck is possible, see TestCardPointSplitsMatchTheDeck).
//   - Melds must fit in the deck and in a hand: each card belongs to at most
//     one meld of the whole table, a Terz ends at 9 or higher, a Halber at 10
//     or higher, a player declares at most 3 Terze and 2 Halbe (the seed's
//     "1-3 Terze und/oder 1-2 Halbe"), and a player's melds use at most the
//     cards of his hand: 8 with four players, 10 with three (32 cards, two
//     left on the stack), 12 with two (9 dealt plus the 3 face-down cards).
//   - Bella is a single field naming its declarer, so it is declared at
//     most once and always in trump. Only one player can hold Bella: if
//     another player declared a meld holding the trump Dame or König, the
//     Bella is refused. Bella's cards may also be part of its declarer's
//     own Terz or Halber.
//   - When several melds of a player tie, his best one is decided like
//     between players (Halber, top card, trump). Seating order from the
//     dealer's left breaks the last tie.
//   - Kontra, Re and Orgi multiply the whole move: x2, x4 with Re, and x2
//     again for an Orgi hand when the table plays orgi. A hand may only
//     carry orgi=true when the table plays orgi, so nobody records a
//     doubling that does not count.
//   - Winners of a hand (for statistics): the trump side when it was
//     strictly ahead, otherwise its opponents (with three players both of
//     them).
//   - Dealer (option dealer_rule): "auto" (the preset's value) rotates with
//     three or four players and lets the winner deal with two. "rotate"
//     always passes the deal to the next player of the hand; "winner_deals"
//     gives it to the first winner of the hand after the dealer in seating
//     order (with two players simply the winner). The state only proposes
//     the next dealer; the facts of the next hand name the actual one.
//   - A match belongs to its sides. If a hand is played by other sides
//     (another player, other partners) while a match is under way, that
//     match is abandoned without a winner (event "match_abandoned", nobody
//     is charged) and a new match starts with every die at 0.
//   - A die keeps 0..5 in the state (the seed's 6 at the start means 0). A
//     die reaching or passing 6 wins; the events "match_won" and
//     "match_lost" carry Amount 1 (one match) and list the winners and the
//     losers; every die restarts at 0. With three players two dice can reach
//     6 in one hand: both players win the match.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat and then by key; Count is 1 unless said. Only the keys that apply
// to the hand are given:
//   - trump_played for the trump player, trump_won when his side won the
//     hand (strictly ahead).
//   - kontra_said for every player against the trump side when Kontra was
//     said (the facts do not say which opponent said it; with three
//     players both opponents get it), kontra_won for each of them when
//     the trump side lost.
//   - re_said for every player of the trump side when Re was said,
//     re_won when the trump side won.
//   - match_won and match_lost for every player of the hand when the hand
//     ended a match (the players of the events "match_won" and
//     "match_lost"); an abandoned match gives neither.
//   - melds_counted for every player whose melds counted, Count the
//     number of his melds (Terze and Halbe) that counted.
//   - bella for the player who declared Bella.
//
// Result.Parties is the two teams of a four-player hand, the trump team
// first, each in seating order; with two or three players everyone is a
// side of his own and there are no parties.
//
// Result.Dealer is facts.dealer. Result.Players are the players of the
// hand in the session's seating order, like Result.Points and
// Result.Winners (facts.players may name them in another order).
package klaberjass

import (
	"encoding/json"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Name is the game's registry name.
const Name = "klaberjass"

const (
	cardPointsTotal = 152
	lastTrickBonus  = 10
	terzPoints      = 20
	halberPoints    = 50
	bellaPoints     = 20
	dieGoal         = 6
)

// Dealer rules a table may choose.
const (
	DealerAuto        = "auto"
	DealerRotate      = "rotate"
	DealerWinnerDeals = "winner_deals"
)

// Engine scores Klaberjass hands. It is stateless and safe for concurrent
// use.
type Engine struct{}

var _ score.Engine = Engine{}

// Name returns "klaberjass".
func (Engine) Name() string { return Name }

// DisplayName returns "Klaberjass".
func (Engine) DisplayName() string { return "Klaberjass" }

// ZeroSum is true: every player of a hand scores 0, which sums to 0.
func (Engine) ZeroSum() bool { return true }

// Rules is the rule set of a table.
type Rules struct {
	Preset string `json:"preset"`
	// Orgi counts a hand whose trump was taken from the turned card double.
	Orgi bool `json:"orgi"`
	// DealerRule is one of "auto", "rotate", "winner_deals".
	DealerRule string `json:"dealer_rule"`
}

// Presets are the named rule sets; "standard" (the seed's rules) is the
// default.
var Presets = map[string]Rules{
	"standard": {Preset: "standard", Orgi: false, DealerRule: DealerAuto},
}

// Options are the overrides a table may set on a preset; every field is
// optional. Its tags describe it for the catalogue (score.CatalogueOf).
type Options struct {
	Orgi       *bool   `json:"orgi" de:"Ein Spiel, dessen Trumpf von der aufgedeckten Karte genommen wurde, zählt doppelt." en:"A hand whose trump was taken from the turned card counts double."`
	DealerRule *string `json:"dealer_rule" enum:"auto,rotate,winner_deals" de:"Wer als Nächster gibt: auto (reihum zu dritt und viert, zu zweit der Gewinner), rotate (reihum) oder winner_deals (der Gewinner)." en:"Who deals next: auto (in turn with 3 or 4, the winner with 2), rotate (in turn) or winner_deals (the winner)."`
}

// presets describes the presets for the catalogue.
var presets = []score.PresetInfo{{Name: "standard",
	DescriptionDE: "Die Regeln des Vereins: zu zweit, dritt oder viert, mit Würfeln bis 6.",
	DescriptionEN: "The club's rules: 2, 3 or 4 players, dice toward 6."}}

// Catalogue lists the preset standard and the options.
func (e Engine) Catalogue() score.Catalogue {
	return score.MustCatalogue(e, Options{}, "standard", presets)
}

// Rules resolves a preset ("" is "standard") and option overrides into the
// complete rule set.
func (Engine) Rules(preset string, overrides json.RawMessage) (json.RawMessage, error) {
	if preset == "" {
		preset = "standard"
	}
	r, ok := Presets[preset]
	if !ok {
		return nil, score.Invalid("preset", "unknown preset %q for klaberjass (known: standard)", preset)
	}
	var o Options
	if len(overrides) > 0 && string(overrides) != "null" {
		if err := score.DecodeStrict("options", overrides, &o); err != nil {
			return nil, err
		}
	}
	if o.Orgi != nil {
		r.Orgi = *o.Orgi
	}
	if o.DealerRule != nil {
		if !validDealerRule(*o.DealerRule) {
			return nil, score.Invalid("options.dealer_rule", "must be auto, rotate or winner_deals, got %q", *o.DealerRule)
		}
		r.DealerRule = *o.DealerRule
	}
	return json.Marshal(r)
}

func validDealerRule(s string) bool {
	return s == DealerAuto || s == DealerRotate || s == DealerWinnerDeals
}

// Facts are the recorded facts of one hand.
type Facts struct {
	// Players are the players of the hand in seating order; optional when
	// 2 to 4 players are seated.
	Players     []int64 `json:"players,omitempty"`
	Dealer      int64   `json:"dealer"`
	TrumpPlayer int64   `json:"trump_player"`
	// TrumpSuit is "kreuz", "pik", "herz" or "karo".
	TrumpSuit string `json:"trump_suit"`
	// Orgi says the trump was taken from the turned card (only with the
	// orgi option).
	Orgi  bool   `json:"orgi,omitempty"`
	Melds []Meld `json:"melds,omitempty"`
	// Bella is the player who declared Bella, if anyone did.
	Bella      *int64       `json:"bella,omitempty"`
	CardPoints []SidePoints `json:"card_points"`
	// LastTrick is the player who won the last trick.
	LastTrick int64 `json:"last_trick"`
	Kontra    bool  `json:"kontra,omitempty"`
	Re        bool  `json:"re,omitempty"`
}

// Meld is one declared Terz or Halber.
type Meld struct {
	Player int64 `json:"player"`
	// Kind is "terz" (3 in sequence) or "halber" (4 in sequence).
	Kind string `json:"kind"`
	Suit string `json:"suit"`
	// Top is the highest card: "7", "8", "9", "10", "bube", "dame",
	// "koenig" or "ass".
	Top string `json:"top"`
}

// SidePoints are the card points a side took; with four players the entry
// names either partner of the team.
type SidePoints struct {
	Player int64 `json:"player"`
	Points int   `json:"points"`
}

// Score validates one hand, moves the dice and reports a won match.
func (Engine) Score(h score.Hand) (score.Result, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return score.Result{}, err
	}
	var f Facts
	if err := score.DecodeStrict("facts", h.Facts, &f); err != nil {
		return score.Result{}, err
	}
	g, err := validate(f, h.Seated, rules)
	if err != nil {
		return score.Result{}, err
	}
	st, err := decodeState(h.State)
	if err != nil {
		return score.Result{}, err
	}

	res := score.Result{Dealer: g.dealer}
	totals := g.sideTotals()
	res.Lines = append(res.Lines, g.meldLines()...)
	for _, s := range g.sideOrder() {
		res.Lines = append(res.Lines, g.totalLines(s, totals[s])...)
	}
	out := g.outcome(totals, rules)
	res.Title = g.title(out, rules)
	res.Lines = append(res.Lines, out.lines...)

	played := g.playMatch(&st, out, rules)
	res.Lines = append(res.Lines, played.lines...)
	res.Events = played.events

	for _, id := range h.Seated {
		if !slices.Contains(g.players, id) {
			continue
		}
		res.Points = append(res.Points, score.PlayerPoints{Player: id, Points: score.Int(0)})
		res.Players = append(res.Players, id)
		if out.winners[g.side(id)] {
			res.Winners = append(res.Winners, id)
		}
	}
	res.Stats, res.Parties = g.handStats(out, res.Events, h.Seated)
	res.State, err = json.Marshal(st)
	if err != nil {
		return score.Result{}, err
	}
	return res, nil
}

func decodeRules(raw json.RawMessage) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(raw, &r); err != nil || r.Preset == "" || !validDealerRule(r.DealerRule) {
		return Rules{}, score.Invalid("rules", "not a klaberjass rule set")
	}
	return r, nil
}
