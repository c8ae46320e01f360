// Package saukopf scores Saukopf, the Schafkopf cross-breed with bidding,
// as README.md in this package reads it: a Vierer (4 players, 8 tricks) or a
// Dreihaxer (3 players, 10 tricks, mit or ohne Trog, no Sauereien), 120
// Augen, and the Schlachtfest: every loser puts the same amount into the
// bowl (Spiel 5, Ohne, Glücksschwein, Schneider, Schwarz, Saukopf, Hauer),
// the bowl is doubled once per Bolzenschuss, and the winners share it in
// equal, exact parts. Stallgeruch is settled between Spieler and Mitspieler
// only. Every hand sums to zero. The table carries nothing from hand to
// hand; the state only holds a summary of the last hand, which is also
// what Engine.Preview shows before a session's next hand.
//
// Decisions where the rules are silent:
//   - A table may seat more players than the hand has; facts.players names
//     the hand's 3 or 4 players and Result.Points lists only them, in
//     seating order (a player sitting out gets no entry, not a 0). The
//     dealer must be seated but need not play (at a table of five the
//     dealer sits out).
//   - Winners (for statistics) are the players of the winning party; a
//     Wilde Sauerei tied for most or fewest Augen has no winners and
//     scores 0 for everyone.
//   - Parties in the facts are named by players, not by "Spieler" or
//     "Nichtspieler": laufende.holder is the player holding the top trump
//     (after a Spieß reversal), saukopf names who trumped whose Herz-Sau,
//     hauer names who won the last trick with the Eichel-Unter. This works
//     the same for a Wilde Sauerei, whose parties are known only after the
//     count. In a Dreihaxer ohne Trog a top trump among the open cards is
//     the Spieler's.
//   - A Wilde Sauerei is a hand without bid: it gives per_player (every
//     player's Augen and tricks) and no spieler, contract, augen, tricks or
//     am_spiess. Its trumps are those of a Sauerei (14).
//   - A Saukopf between partners is refused: it is the other party's
//     Herz-Sau that must be trumped (not checkable in a tied Wilde
//     Sauerei, where nothing is settled).
//   - A Dreihaxer always has a bid: when nobody bids the cards are dealt
//     again, there is no Wilde Sauerei for three.
//   - Mastschwein and Schwarte are won by tricks whatever the bid. A
//     Mastschwein mit Trog is always lost: the Trog is a trick of the
//     Spieler. Laufende may be recorded for a Mastschwein but never count.
//   - A Knorpel's single trump is the Laufende; laufende may be left out
//     (it is then the Knorpel holder's "1") or must say exactly that.
//   - Laufende are at most the contract's trumps and at most the cards of
//     the holder's party (8 per Vierer player; in a Dreihaxer 12 for the
//     Spieler, Trog or open cards included, and 10 per Nichtspieler).
//   - Against a schwarz bid in a Dreihaxer ohne Trog the Spieler party
//     "needs" all Augen in play (120 minus the open cards) for Schneider.
//     A schwarz bid counts as "75 or more" for Stallgeruch.
//   - Mit 1..3 Laufende is written as a line worth 0, so the paper shows
//     that it was counted. The breakdown opens with the game and its
//     outcome, shows the per-loser amount before and after the
//     Bolzenschüsse, the bowl and share, Stallgeruch per player, and ends
//     with each player's result.
//   - Option verlorenes_solo=jeder_einzeln applies whenever a Spieler who
//     played alone loses: every solo, the Mastschwein, the Unreine Sauerei
//     and every Dreihaxer; the Spieler pays each winner the full amount.
//   - At most 10 Huftritte are recorded (a table never says more, and it
//     keeps every amount far inside int64). Who bid is not recorded, so the
//     rule that only bidders may say Huftritt is not checked; neither are
//     the Rufsau rules of play (Suchkarte, Davonlaufen).
//   - Card-point physics that is checked beyond the rules' list: no party
//     or player can have exactly 1 Auge (or all but 1), a party without a
//     trick has no Augen, a party with every trick has every Auge in play,
//     and two cards (open cards, a Trog that is the Spieler's only trick)
//     add up to one of the sums two cards can make.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat and then by key; Count is 1 unless said. Only the keys that apply
// to the hand are given:
//   - contract_played_<contract> for the Spieler of a hand with a bid, and
//     contract_won_<contract> when his party won. <contract> is the
//     contract of the facts: mastschwein, sauerei (an Unreine Sauerei
//     included), keiler, eber, wutz, ferkelparade, knorpel or schwarte.
//     A Wilde Sauerei has no bid and no contract, so no contract keys.
//   - mastschwein_won and schwarte_won for the Spieler who won a
//     Mastschwein or a Schwarte.
//   - huftritt for every player of the hand when Huftritte were said,
//     Count the Huftritte: the facts do not say who said them, and every
//     player of the hand plays for the doubled bowl.
//
// Result.Parties is the Spieler party (the Spieler, with his Mitspieler in
// a Sauerei) and the Nichtspieler, each in seating order; in a Wilde
// Sauerei the parties the count made; none when a tied Wilde Sauerei
// settles nothing.
//
// Result.Dealer is facts.dealer (who may sit out); Result.Players are the
// players of facts.players in seating order.
package saukopf

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Name is the game's registry name.
const Name = "saukopf"

// Values of the verlorenes_solo option.
const (
	// Schuessel: a losing lone Spieler fills the bowl like any loser and
	// the winners share it (thirds in a Vierer, halves in a Dreihaxer).
	Schuessel = "schuessel"
	// JederEinzeln: a losing lone Spieler pays every winner the full
	// amount, as in Schafkopf.
	JederEinzeln = "jeder_einzeln"
)

// Engine scores Saukopf hands.
type Engine struct{}

var _ score.Engine = Engine{}

// Name returns "saukopf".
func (Engine) Name() string { return Name }

// DisplayName returns "Saukopf".
func (Engine) DisplayName() string { return "Saukopf" }

// ZeroSum is true: the winners share exactly what the losers put into the
// bowl, and Stallgeruch moves points between Spieler and Mitspieler.
func (Engine) ZeroSum() bool { return true }

// Rules is the rule set of a table.
type Rules struct {
	Preset string `json:"preset"`
	// VerlorenesSolo is Schuessel or JederEinzeln.
	VerlorenesSolo string `json:"verlorenes_solo"`
}

// Presets are the named rule sets; "standard" (the seed's rules) is the
// default.
var Presets = map[string]Rules{
	"standard": {Preset: "standard", VerlorenesSolo: Schuessel},
}

// Options are the overrides a table may set on a preset; every field is
// optional. Its tags describe it for the catalogue (score.CatalogueOf).
type Options struct {
	VerlorenesSolo *string `json:"verlorenes_solo" enum:"schuessel,jeder_einzeln" de:"Verliert ein Spieler allein: er füllt die Schüssel wie jeder Verlierer (schuessel) oder zahlt jedem Gewinner den vollen Betrag (jeder_einzeln)." en:"A lone Spieler who loses fills the bowl like any loser (schuessel) or pays every winner the full amount (jeder_einzeln)."`
}

// presets describes the presets for the catalogue.
var presets = []score.PresetInfo{{Name: "standard",
	DescriptionDE: "Die Regeln des Vereins: Vierer und Dreihaxer, die Schüssel in Dritteln und Hälften geteilt.",
	DescriptionEN: "The club's rules: Vierer and Dreihaxer, the bowl shared in thirds and halves."}}

// Catalogue lists the preset standard and the options.
func (e Engine) Catalogue() score.Catalogue {
	return score.MustCatalogue(e, Options{}, "standard", presets)
}

// Rules resolves a preset and option overrides into the stored rule set.
func (Engine) Rules(preset string, overrides json.RawMessage) (json.RawMessage, error) {
	if preset == "" {
		preset = "standard"
	}
	r, ok := Presets[preset]
	if !ok {
		return nil, score.Invalid("preset", "unknown preset %q for saukopf (known: standard)", preset)
	}
	var o Options
	if len(overrides) > 0 {
		if err := score.DecodeStrict("options", overrides, &o); err != nil {
			return nil, err
		}
	}
	if o.VerlorenesSolo != nil {
		if !validSoloOption(*o.VerlorenesSolo) {
			return nil, score.Invalid("options.verlorenes_solo", "must be %q or %q, got %q", Schuessel, JederEinzeln, *o.VerlorenesSolo)
		}
		r.VerlorenesSolo = *o.VerlorenesSolo
	}
	return json.Marshal(r)
}

func validSoloOption(s string) bool { return s == Schuessel || s == JederEinzeln }

// Facts are the recorded facts of one hand. Which fields a hand carries
// depends on the bid and the contract; the validator refuses fields that do
// not belong to the hand.
type Facts struct {
	// Variant is "vierer" (4 players) or "dreihaxer" (3 players).
	Variant string `json:"variant"`
	// Players are the hand's players in seating order.
	Players []int64 `json:"players"`
	Dealer  int64   `json:"dealer"`
	// Bid is the winning bid: an integer 61..120 or "schwarz"; absent or
	// null when nobody bid (Wilde Sauerei, Vierer only).
	Bid json.RawMessage `json:"bid,omitempty"`

	Spieler *int64 `json:"spieler,omitempty"`
	// Contract is mastschwein, sauerei, keiler, eber, wutz, ferkelparade,
	// knorpel or schwarte.
	Contract string `json:"contract,omitempty"`
	// CalledSau is the Sau called in a Sauerei: eichel, gras or schellen.
	CalledSau string `json:"called_sau,omitempty"`
	// Unrein: the Spieler holds the called Sau himself and plays alone.
	Unrein bool `json:"unrein,omitempty"`
	// Mitspieler holds the called Sau of a (not unreine) Sauerei.
	Mitspieler *int64 `json:"mitspieler,omitempty"`
	// TrumpSuit is the Keiler's suit: eichel, gras, herz or schellen.
	TrumpSuit string `json:"trump_suit,omitempty"`
	// KnorpelCard is the Knorpel's trump card, "<suit>_<rank>" with rank
	// sau, 10, koenig, ober, unter, 9, 8 or 7 (e.g. "gras_ober").
	KnorpelCard string `json:"knorpel_card,omitempty"`
	// KnorpelHolder is the Nichtspieler holding the Knorpel card.
	KnorpelHolder *int64 `json:"knorpel_holder,omitempty"`
	// AmSpiess reverses the ranking.
	AmSpiess bool `json:"am_spiess,omitempty"`

	// Trog is "mit" or "ohne" in a Dreihaxer.
	Trog string `json:"trog,omitempty"`
	// OpenAugen are the Augen of the two open cards of a Dreihaxer ohne
	// Trog; they count for nobody.
	OpenAugen *int `json:"open_augen,omitempty"`

	// Augen of the Spieler party (not in a Wilde Sauerei).
	Augen *int `json:"augen,omitempty"`
	// Tricks of the Spieler party; a Trog counts as one (not in a Wilde
	// Sauerei).
	Tricks *int `json:"tricks,omitempty"`
	// PerPlayer gives every player's Augen and tricks in a Wilde Sauerei.
	PerPlayer []PlayerTake `json:"per_player,omitempty"`

	Laufende    *Laufende `json:"laufende,omitempty"`
	Huftritte   int       `json:"huftritte,omitempty"`
	Saukopf     *Saukopf  `json:"saukopf,omitempty"`
	Hauer       *int64    `json:"hauer,omitempty"`
	Stallgeruch bool      `json:"stallgeruch,omitempty"`
}

// PlayerTake is what one player took in a Wilde Sauerei.
type PlayerTake struct {
	Player int64 `json:"player"`
	Augen  *int  `json:"augen"`
	Tricks *int  `json:"tricks"`
}

// Laufende says whose party holds the top trump of the contract (after a
// Spieß reversal) and how long its unbroken run from the top is.
type Laufende struct {
	Holder *int64 `json:"holder"`
	Count  int    `json:"count"`
}

// Saukopf records that TrumpedBy trumped the Herz-Sau of HerzSauOf, a
// player of the other party.
type Saukopf struct {
	TrumpedBy *int64 `json:"trumped_by"`
	HerzSauOf *int64 `json:"herz_sau_of"`
}

// State is what the table keeps after a hand: Saukopf carries nothing from
// hand to hand, so only a summary of the last hand.
type State struct {
	Summary string `json:"summary"`
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
	if err := checkState(h.State); err != nil {
		return score.Result{}, err
	}
	g, err := validate(f, h.Seated)
	if err != nil {
		return score.Result{}, err
	}
	res, summary := settle(g, rules, h.Seated)
	res.Dealer = g.dealer
	for _, id := range h.Seated {
		if slices.Contains(g.players, id) {
			res.Players = append(res.Players, id)
		}
	}
	res.Stats, res.Parties = handStats(&g, h.Seated)
	res.State, err = json.Marshal(State{Summary: summary})
	if err != nil {
		return score.Result{}, err
	}
	return res, nil
}

func decodeRules(raw json.RawMessage) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(raw, &r); err != nil || !validSoloOption(r.VerlorenesSolo) {
		return Rules{}, score.Invalid("rules", "not a saukopf rule set")
	}
	return r, nil
}

// checkState accepts an empty state or any stored Saukopf state; there is
// nothing in it the next hand depends on.
func checkState(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var st State
	if err := json.Unmarshal(raw, &st); err != nil {
		return fmt.Errorf("saukopf: stored state unreadable: %w", err)
	}
	return nil
}
