// Package schwarzesau scores Schwarze Sau, a Skat relative, as README.md in
// this package reads it: a Skat deck of 120 card points, three or
// four players each playing for himself, and the Pik-Dame (the "Schwarze
// Sau") losing the hand for whoever takes it. Only losers are written down,
// as minus points: the highest card-point total of the hand times 2 to the
// power of the doublings (Kontra, Re, Sub, Hirsch), halved exactly when every
// player took a trick; a Durchmarsch gives every other player 120 times the
// factor. The table remembers each player's tally of minus points across
// hands and sessions; a tally above threshold_base + the day of the month
// pays the table's payout and every tally restarts at 0. Engine.Preview
// shows the tallies against the limit of a session's date before its next
// hand.
//
// Decisions where the rules are silent:
//   - A session may seat more players than play a hand; the facts name the
//     hand's three or four players and only they appear in Result.Points
//     (losers negative, the others 0). Players not in the hand score nothing
//     for it and are left out.
//   - Winners of a hand (for statistics) are all players of the hand who are
//     not losers; in a Durchmarsch that is the one who took every trick.
//   - Card points and tricks of a player (and of the Stock) are required. A
//     player without a trick has 0 card points, and whoever took the
//     Pik-Dame took at least one trick and at least its 3 card points. The
//     blind Stock of a three-player hand wins at most the first two tricks.
//   - The blind Stock of a three-player hand may win the Pik-Dame
//     (`stock.pik_dame`). The trick belongs to nobody, so the hand has no
//     loser and every player scores 0 for it (unless someone broke a rule).
//   - The Stock's card points do not count for "the highest card-point
//     total": the Stock is not a player. Its tricks do not prevent halving.
//   - The doublings must be said in the order Kontra, Re, Sub, Hirsch, each
//     by a different player of the hand (the dealer of a four-player hand
//     included, so Hirsch is possible). The seating order of the calls is not
//     checked: h.Seated is the evening's seating and need not say who sat
//     left of the dealer in this hand.
//   - With `verstoss_by` the rule breaker loses instead of the Sau holder,
//     also when someone took every trick (a Verstoß overrides the
//     Durchmarsch). Card points and tricks may then add up to less than 120
//     and 10, nobody need have taken the Pik-Dame yet, and halving still
//     applies when every player of the hand took a trick as recorded.
//   - The threshold is checked after every hand against the limit of that
//     hand's date (threshold_base + day). Every tally above it pays, also a
//     tally carried over from an evening with a later day that now lies above
//     an earlier day's limit, even if its player lost nothing in this hand.
//   - payout_cents (default 500, i.e. 5,00 €) is the amount each paying
//     player pays. With payout_target "players" it is shared by the players
//     of the hand who do not pay; if there are none it goes to the kitty.
//     The payout event names the payers (Players) and, when the others share
//     it, the recipients (Recipients); its text names both.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat (players of a payout who are not seated after them, by id) and
// then by key; Count is always 1. Only the keys that apply to the hand
// are given:
//   - sau_taken for the player who took the Pik-Dame (none when the blind
//     Stock took it, or nobody had before a Verstoß), also when a Verstoß
//     or a Durchmarsch made someone else lose.
//   - lost for every loser: the Sau holder, the rule breaker of a Verstoß,
//     or every other player of a Durchmarsch. They are exactly the players
//     of the hand who are not among Result.Winners.
//   - durchmarsch for the player who took every trick (not when a Verstoß
//     decided the hand).
//   - kontra_said, re_said, sub_said and hirsch_said for the player who
//     said that doubling.
//   - payout for every player who pays the payout this hand triggered (a
//     payer need not play the hand: every tally above the limit pays).
//
// Everyone plays for himself, so Result.Parties is empty.
//
// Result.Dealer is facts.dealer, one of the hand's players; Result.Players
// are the hand's three or four players in seating order (the dealer of a
// four-player hand included: he plays the Stock).
package schwarzesau

import (
	"encoding/json"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Name is the game's registry name.
const Name = "schwarze_sau"

const (
	deckPoints  = 120 // card points of the Skat deck
	handTricks  = 10  // tricks of a hand
	stockTricks = 2   // the two Stock cards are played in the first two tricks
	sauPoints   = 3   // the Pik-Dame counts 3 card points

	maxThresholdBase = 100_000
	maxPayoutCents   = 100_000
	maxTally         = 1_000_000_000 // a stored tally beyond this is corrupt
)

// Payout targets.
const (
	TargetKitty   = "kitty"
	TargetPlayers = "players"
)

// calls are the doublings in the order they must be said.
var calls = [...]string{"Kontra", "Re", "Sub", "Hirsch"}

// Engine scores Schwarze Sau hands. It is stateless and safe for concurrent
// use.
type Engine struct{}

var _ score.Engine = Engine{}

// Name returns "schwarze_sau".
func (Engine) Name() string { return Name }

// DisplayName returns "Schwarze Sau".
func (Engine) DisplayName() string { return "Schwarze Sau" }

// ZeroSum is false: only losers are written down.
func (Engine) ZeroSum() bool { return false }

// Rules is the complete rule set of a table.
type Rules struct {
	Preset string `json:"preset"`
	// ThresholdBase plus the day of the month is the limit a tally must
	// exceed to pay.
	ThresholdBase int64 `json:"threshold_base"`
	// PayoutTarget is TargetKitty or TargetPlayers.
	PayoutTarget string `json:"payout_target"`
	// PayoutCents is what each paying player pays, in cents.
	PayoutCents int64 `json:"payout_cents"`
}

// Presets are the named rule sets; "standard" is the default.
var Presets = map[string]Rules{
	"standard": {Preset: "standard", ThresholdBase: 1500, PayoutTarget: TargetKitty, PayoutCents: 500},
}

// Options are the overrides a table may set on a preset; every field is
// optional. Its tags describe it for the catalogue (score.CatalogueOf).
type Options struct {
	ThresholdBase *int64  `json:"threshold_base" min:"1" max:"100000" de:"Die Grenze ist dieser Wert plus der Tag des Monats; wer darüber kommt, zahlt." en:"The limit is this plus the day of the month; a tally above it pays."`
	PayoutTarget  *string `json:"payout_target" enum:"kitty,players" de:"Die Zahlung geht in die Kasse (kitty) oder an die anderen Spieler der Runde (players)." en:"A payout goes to the kitty (kitty) or to the other players of the hand (players)."`
	PayoutCents   *int64  `json:"payout_cents" min:"1" max:"100000" de:"Was jeder Zahlende zahlt, in Cent." en:"What each paying player pays, in cents."`
}

// presets describes the presets for the catalogue.
var presets = []score.PresetInfo{{Name: "standard",
	DescriptionDE: "Minuspunkte bis 1500 plus Tag des Monats, dann 5 € in die Kasse.",
	DescriptionEN: "Minus points up to 1500 plus the day of the month, then 5 € into the kitty."}}

// Catalogue lists the preset standard and the options.
func (e Engine) Catalogue() score.Catalogue {
	return score.MustCatalogue(e, Options{}, "standard", presets)
}

// Rules resolves a preset ("" is "standard") and option overrides into the
// rule set stored with every hand.
func (Engine) Rules(preset string, overrides json.RawMessage) (json.RawMessage, error) {
	if preset == "" {
		preset = "standard"
	}
	r, ok := Presets[preset]
	if !ok {
		return nil, score.Invalid("preset", "unknown preset %q for schwarze_sau (known: standard)", preset)
	}
	var o Options
	if len(overrides) > 0 {
		if err := score.DecodeStrict("options", overrides, &o); err != nil {
			return nil, err
		}
	}
	if o.ThresholdBase != nil {
		r.ThresholdBase = *o.ThresholdBase
	}
	if o.PayoutTarget != nil {
		r.PayoutTarget = *o.PayoutTarget
	}
	if o.PayoutCents != nil {
		r.PayoutCents = *o.PayoutCents
	}
	if err := r.check("options"); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// check reports the first value out of range as a violation under prefix.
func (r Rules) check(prefix string) error {
	if r.ThresholdBase < 1 || r.ThresholdBase > maxThresholdBase {
		return score.Invalid(prefix+".threshold_base", "must be between 1 and %d, got %d", maxThresholdBase, r.ThresholdBase)
	}
	if r.PayoutTarget != TargetKitty && r.PayoutTarget != TargetPlayers {
		return score.Invalid(prefix+".payout_target", "must be %q or %q, got %q", TargetKitty, TargetPlayers, r.PayoutTarget)
	}
	if r.PayoutCents < 1 || r.PayoutCents > maxPayoutCents {
		return score.Invalid(prefix+".payout_cents", "must be between 1 and %d cents, got %d", maxPayoutCents, r.PayoutCents)
	}
	return nil
}

func decodeRules(raw json.RawMessage) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(raw, &r); err != nil {
		return Rules{}, score.Invalid("rules", "not a schwarze_sau rule set")
	}
	if err := r.check("rules"); err != nil {
		return Rules{}, err
	}
	return r, nil
}

// Score validates and scores one hand and carries the tallies forward.
func (Engine) Score(h score.Hand) (score.Result, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return score.Result{}, err
	}
	f, err := ParseFacts(h.Facts, h.Seated)
	if err != nil {
		return score.Result{}, err
	}
	if h.Date.Day < 1 || h.Date.Day > 31 {
		return score.Result{}, score.Invalid("date.day", "the session's day of the month is 1..31, got %d", h.Date.Day)
	}
	st, err := decodeState(h.State)
	if err != nil {
		return score.Result{}, err
	}

	o := f.outcome()
	seatOrder := score.InSeatingOrder(f.ids(), h.Seated)
	res := score.Result{Title: f.title(), Lines: o.lines, Events: []score.Event{}, Winners: []int64{}, Dealer: f.Dealer, Players: seatOrder}
	for _, id := range seatOrder {
		minus, lost := o.minus[id]
		res.Points = append(res.Points, score.PlayerPoints{Player: id, Points: minus.Neg()})
		if !lost {
			res.Winners = append(res.Winners, id)
		}
	}

	st.addHand(o.minus, seatOrder)
	var payers []int64
	if ev, paid := st.settle(rules, h, seatOrder); paid {
		res.Events = append(res.Events, ev)
		payers = ev.Players
	}
	res.Stats = handStats(f, o, payers, h.Seated)
	st.finish(rules, h)
	res.State, err = json.Marshal(st)
	if err != nil {
		return score.Result{}, err
	}
	return res, nil
}
