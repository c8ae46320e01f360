package doppelkopf

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// Name is the game's registry name.
const Name = "doppelkopf"

// Valuations: how a hand's value is built.
const (
	// ValuationHouse doubles for announcements (the seed's Abrechnung).
	ValuationHouse = "house"
	// ValuationDDV adds points for announcements (DDV Spielbewertung).
	ValuationDDV = "ddv"
)

// Bock trigger modes.
const (
	// TriggersEach queues one Bock round per trigger that happened.
	TriggersEach = "each"
	// TriggersOne queues at most one Bock round per hand.
	TriggersOne = "one"
)

const maxBockRoundLength = 100

// Engine scores Doppelkopf hands. It is stateless and safe for concurrent
// use.
type Engine struct{}

var _ score.Engine = Engine{}

// Name returns "doppelkopf".
func (Engine) Name() string { return Name }

// DisplayName returns "Doppelkopf".
func (Engine) DisplayName() string { return "Doppelkopf" }

// ZeroSum is true: what one party wins the other loses, also in a solo
// (3v against 3 times v) and when a revoker pays alone.
func (Engine) ZeroSum() bool { return true }

// Rules is the complete rule set of a table, stored with every hand.
type Rules struct {
	Preset string `json:"preset"`
	// Valuation is "house" (announcements double) or "ddv" (they add);
	// fixed by the preset.
	Valuation string `json:"valuation"`
	// GegenDieAltenInSolo gives the "gegen die Alten" point (ddv: "gegen
	// die Kreuz-Damen") also when a soloist loses.
	GegenDieAltenInSolo bool `json:"gegen_die_alten_in_solo"`
	// SonderpunkteInSolo counts Doppelkopf, Fuchs and Karlchen in solos.
	SonderpunkteInSolo bool `json:"sonderpunkte_in_solo"`
	// SoloVerloren adds 1 to the value of a lost solo.
	SoloVerloren bool `json:"solo_verloren"`
	// Bock switches Bock rounds on.
	Bock bool `json:"bock"`
	// BockRoundLength is the number of Bock games in a round; 0 means as
	// many as players are seated.
	BockRoundLength int `json:"bock_round_length"`
	// BockTriggers is "each" (one round per trigger) or "one" (one round
	// per hand at most).
	BockTriggers string `json:"bock_triggers"`
	// Schweinchen allows recording a Schweinchen.
	Schweinchen bool `json:"schweinchen"`
	// Armut allows the games armut and armut_nicht_genommen.
	Armut bool `json:"armut"`
	// Schmeissen allows throwing in with five or more Könige.
	Schmeissen bool `json:"schmeissen"`
	// RevokerPaysAlone makes a revoker carry his party's whole loss.
	RevokerPaysAlone bool `json:"revoker_pays_alone"`
	// Nines plays with 48 cards (nines included, 12 tricks) instead of 40
	// (10 tricks). A rule set stored without it plays with 40 cards.
	Nines bool `json:"nines"`
	// NoWinnerUnterGespielt: when neither party reached its goal, the party
	// whose opponents stayed under 90 (60, 30) also gets "unter 90 (60, 30)
	// gespielt" (TSR 7.1.3 with 7.2.2 (a)). Off, such a hand scores only the
	// special points and, under ddv, the points reached against an Absage.
	// A rule set stored without it scores as off.
	NoWinnerUnterGespielt bool `json:"no_winner_unter_gespielt"`
	// Koenigssolo allows the game koenigssolo: a solo with the Könige as
	// the only trumps (a house rule; off in both presets). A rule set
	// stored without it has none.
	Koenigssolo bool `json:"koenigssolo"`
	// Turnier is tournament play by the TSR (turnier.go): every session is
	// one Spielrunde at a table of four, each announced solo a Pflichtsolo
	// or a Lustsolo. A rule set stored without it is not tournament play.
	Turnier bool `json:"turnier"`
}

// Presets are the named rule sets; "house" is the default.
var Presets = map[string]Rules{
	"house": {
		Preset:                "house",
		Valuation:             ValuationHouse,
		GegenDieAltenInSolo:   true,
		SonderpunkteInSolo:    false,
		SoloVerloren:          true,
		Bock:                  true,
		BockRoundLength:       0,
		BockTriggers:          TriggersEach,
		Schweinchen:           true,
		Armut:                 true,
		Schmeissen:            true,
		RevokerPaysAlone:      true,
		Nines:                 false,
		NoWinnerUnterGespielt: false,
	},
	"ddv": {
		Preset:                "ddv",
		Valuation:             ValuationDDV,
		GegenDieAltenInSolo:   false,
		SonderpunkteInSolo:    false,
		SoloVerloren:          false,
		Bock:                  false,
		BockRoundLength:       0,
		BockTriggers:          TriggersEach,
		Schweinchen:           false,
		Armut:                 false,
		Schmeissen:            false,
		RevokerPaysAlone:      false,
		Nines:                 true,
		NoWinnerUnterGespielt: true,
	},
}

// Options are the overrides a table may set on a preset; every field is
// optional.
// Its tags describe it for the catalogue (score.CatalogueOf).
type Options struct {
	GegenDieAltenInSolo   *bool   `json:"gegen_die_alten_in_solo" de:"Der Punkt „gegen die Alten“ zählt auch, wenn ein Solist verliert." en:"The \"gegen die Alten\" point also counts when a soloist loses."`
	SonderpunkteInSolo    *bool   `json:"sonderpunkte_in_solo" de:"Doppelkopf, Fuchs und Karlchen zählen auch im Solo." en:"Doppelkopf, Fuchs and Karlchen also count in solos."`
	SoloVerloren          *bool   `json:"solo_verloren" de:"Ein verlorenes Solo ist einen Punkt mehr wert." en:"A lost solo is worth one point more."`
	Bock                  *bool   `json:"bock" de:"Bockrunden werden gespielt." en:"Bock rounds are played."`
	BockRoundLength       *int    `json:"bock_round_length" min:"0" max:"100" de:"Bockspiele je Bockrunde; 0 heißt so viele, wie Spieler am Tisch sitzen." en:"Bock games per Bock round; 0 means as many as players are seated."`
	BockTriggers          *string `json:"bock_triggers" enum:"each,one" de:"Eine Bockrunde je Auslöser (each) oder höchstens eine je Spiel (one)." en:"One Bock round per trigger (each) or at most one per hand (one)."`
	Schweinchen           *bool   `json:"schweinchen" de:"Schweinchen dürfen angesagt werden." en:"A Schweinchen may be recorded."`
	Armut                 *bool   `json:"armut" de:"Armut wird gespielt." en:"Armut is played."`
	Schmeissen            *bool   `json:"schmeissen" de:"Mit fünf oder mehr Königen darf geschmissen werden." en:"A player with five or more Könige may throw in."`
	RevokerPaysAlone      *bool   `json:"revoker_pays_alone" de:"Wer verwirft, zahlt den Verlust seiner Partei allein." en:"A revoker pays his party's whole loss alone."`
	Nines                 *bool   `json:"nines" de:"Mit Neunen: 48 Karten, 12 Stiche (sonst 40 Karten, 10 Stiche)." en:"With nines: 48 cards, 12 tricks (else 40 cards, 10 tricks)."`
	NoWinnerUnterGespielt *bool   `json:"no_winner_unter_gespielt" de:"Erreicht keine Partei ihr Ziel, zählt „unter 90 gespielt“ trotzdem (TSR 7.1.3)." en:"When neither party reaches its goal, \"unter 90 gespielt\" still counts (TSR 7.1.3)."`
	Koenigssolo           *bool   `json:"koenigssolo" de:"Königssolo: ein Solo, in dem nur die Könige Trumpf sind (Hausregel)." en:"Königssolo: a solo with the Könige as the only trumps (a house rule)."`
	Turnier               *bool   `json:"turnier" de:"Turnierspiel nach TSR: Spielrunden zu viert mit Pflichtsoli." en:"Tournament play by the TSR: rounds of four with compulsory solos."`
}

// presets describes the presets for the catalogue.
var presets = []score.PresetInfo{
	{Name: "house", DescriptionDE: "Hausregeln: Ansagen verdoppeln, Bockrunden, Armut, Schweinchen, 40 Karten.",
		DescriptionEN: "House rules: announcements double, Bock rounds, Armut, Schweinchen, 40 cards."},
	{Name: "ddv", DescriptionDE: "Turnierspielregeln des DDV: Ansagen zählen dazu, ohne Bock, 48 Karten.",
		DescriptionEN: "The DDV tournament rules: announcements add, no Bock, 48 cards."},
}

// Catalogue lists the presets house (the default) and ddv, and the
// options.
func (e Engine) Catalogue() score.Catalogue {
	return score.MustCatalogue(e, Options{}, "house", presets)
}

// Rules resolves a preset ("" is "house") and option overrides into the
// complete rule set.
func (Engine) Rules(preset string, overrides json.RawMessage) (json.RawMessage, error) {
	if preset == "" {
		preset = "house"
	}
	r, ok := Presets[preset]
	if !ok {
		return nil, score.Invalid("preset", "unknown preset %q for doppelkopf (known: house, ddv)", preset)
	}
	var o Options
	if len(overrides) > 0 {
		if err := score.DecodeStrict("options", overrides, &o); err != nil {
			return nil, err
		}
	}
	if err := applyOptions(&r, o); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

func applyOptions(r *Rules, o Options) error {
	setBool(&r.GegenDieAltenInSolo, o.GegenDieAltenInSolo)
	setBool(&r.SonderpunkteInSolo, o.SonderpunkteInSolo)
	setBool(&r.SoloVerloren, o.SoloVerloren)
	setBool(&r.Bock, o.Bock)
	setBool(&r.Schweinchen, o.Schweinchen)
	setBool(&r.Armut, o.Armut)
	setBool(&r.Schmeissen, o.Schmeissen)
	setBool(&r.RevokerPaysAlone, o.RevokerPaysAlone)
	setBool(&r.Nines, o.Nines)
	setBool(&r.NoWinnerUnterGespielt, o.NoWinnerUnterGespielt)
	setBool(&r.Turnier, o.Turnier)
	setBool(&r.Koenigssolo, o.Koenigssolo)
	if o.BockRoundLength != nil {
		n := *o.BockRoundLength
		if n < 0 || n > maxBockRoundLength {
			return score.Invalid("options.bock_round_length", "must be between 0 (players seated) and %d, got %d", maxBockRoundLength, n)
		}
		r.BockRoundLength = n
	}
	if o.BockTriggers != nil {
		t := *o.BockTriggers
		if t != TriggersEach && t != TriggersOne {
			return score.Invalid("options.bock_triggers", "must be %q or %q, got %q", TriggersEach, TriggersOne, t)
		}
		r.BockTriggers = t
	}
	return nil
}

func setBool(dst *bool, src *bool) {
	if src != nil {
		*dst = *src
	}
}

// decodeRules reads a stored rule set and checks that it is one of ours.
func decodeRules(raw json.RawMessage) (Rules, error) {
	var r Rules
	if err := json.Unmarshal(raw, &r); err != nil {
		return Rules{}, score.Invalid("rules", "not a doppelkopf rule set")
	}
	if r.Valuation != ValuationHouse && r.Valuation != ValuationDDV {
		return Rules{}, score.Invalid("rules.valuation", "must be %q or %q, got %q", ValuationHouse, ValuationDDV, r.Valuation)
	}
	if r.BockTriggers != TriggersEach && r.BockTriggers != TriggersOne {
		return Rules{}, score.Invalid("rules.bock_triggers", "must be %q or %q, got %q", TriggersEach, TriggersOne, r.BockTriggers)
	}
	if r.BockRoundLength < 0 || r.BockRoundLength > maxBockRoundLength {
		return Rules{}, score.Invalid("rules.bock_round_length", "must be between 0 and %d, got %d", maxBockRoundLength, r.BockRoundLength)
	}
	return r, nil
}

// Score validates and scores one hand.
func (Engine) Score(h score.Hand) (score.Result, error) {
	rules, err := decodeRules(h.Rules)
	if err != nil {
		return score.Result{}, err
	}
	if err := checkSeated(h.Seated); err != nil {
		return score.Result{}, err
	}
	st, err := decodeState(h.State)
	if err != nil {
		return score.Result{}, err
	}
	var f Facts
	if err := score.DecodeStrict("facts", h.Facts, &f); err != nil {
		return score.Result{}, err
	}
	hd, err := validate(f, rules, h.Seated, firstDealer(&st, rules, h.Session, h.Seated))
	if err != nil {
		return score.Result{}, err
	}
	if err := checkTurnier(&hd, f, rules, &st, h.Session, h.Seated); err != nil {
		return score.Result{}, err
	}

	st.startSession(h.Session)
	res := score.Result{Lines: []score.Line{}, Events: []score.Event{}, Winners: []int64{}, Dealer: hd.dealer, Players: hd.active}
	var pts map[int64]score.Points
	if hd.redeal {
		scoreRedeal(&res, hd)
	} else {
		pts = scorePlayed(&res, &st, hd, rules, len(h.Seated))
		addTurnierStats(&res, hd, rules)
	}
	res.Points = seatedPoints(h.Seated, pts)
	res.Title = title(hd)
	st.finish(hd, h.Seated)
	res.State, err = json.Marshal(st)
	if err != nil {
		return score.Result{}, err
	}
	return res, nil
}

// scoreRedeal records a Schmeißen or an Armut nobody took: 0 for everyone.
func scoreRedeal(res *score.Result, hd hand) {
	label := "Schmeißen: neu geben"
	if hd.game == GameArmutNichtGenommen {
		label = "Armut nicht genommen: neu geben"
	}
	res.Lines = append(res.Lines, score.Line{Label: label, Op: score.OpEq, Value: score.Int(0)})
	res.Events = append(res.Events, score.Event{
		Type:    score.EventRedeal,
		Text:    fmt.Sprintf("%s; %s gibt noch einmal", label, score.PlayerRef(hd.dealer)),
		Players: []int64{hd.dealer},
	})
	res.Stats = []score.Stat{{Player: hd.dealer, Key: keyRedeal, Count: 1}}
}

// scorePlayed values a played hand, settles it among the active players
// and moves the Bock state on. It returns the active players' points.
func scorePlayed(res *score.Result, st *State, hd hand, rules Rules, seated int) map[int64]score.Points {
	roundLen := rules.BockRoundLength
	if roundLen == 0 {
		roundLen = seated
	}
	bock := useBockGame(st, hd, rules, roundLen)
	w := hd.winner()
	var c calc
	if rules.Valuation == ValuationDDV {
		ddvValue(&c, hd, rules, w)
	} else {
		houseValue(&c, hd, rules, w)
	}
	if bock {
		c.mul("Bock", 2)
	}
	if rules.Bock && hd.solo && st.BockGamesLeft > 0 {
		c.mul("Solo in der Bockrunde: zählt nicht doppelt", 1)
	}
	if hd.solo && w == kontraParty && rules.SoloVerloren {
		c.add("Solo verloren", 1)
	}
	res.Lines = append(res.Lines, c.lines...)
	res.Lines = append(res.Lines, score.Line{Label: valueLabel(w), Op: score.OpEq, Value: c.v})

	pts, lines := settle(hd, rules, w, c.v)
	res.Lines = append(res.Lines, lines...)
	if w != noParty {
		res.Winners = append(res.Winners, hd.side(w).players...)
	}
	res.Stats = playedStats(hd, w, bock)
	res.Parties = [][]int64{hd.re.players, hd.kontra.players}
	if hd.revoker != nil {
		res.Events = append(res.Events, score.Event{
			Type:    score.EventVerworfen,
			Text:    score.PlayerRef(*hd.revoker) + " hat falsch bedient; seine Partei verliert",
			Players: []int64{*hd.revoker},
		})
	}
	if bock {
		res.Events = append(res.Events, score.Event{
			Type: score.EventBockGame,
			Text: fmt.Sprintf("Bockspiel (x2); %s in dieser Runde übrig", plural(st.BockGamesLeft, "Bockspiel", "Bockspiele")),
		})
	}
	if rules.Bock {
		queueBock(res, st, hd, rules, w, roundLen)
	}
	return pts
}

// useBockGame reports whether the hand is a Bock game and uses one up. A
// solo is never a Bock game and leaves the round as it is.
func useBockGame(st *State, hd hand, rules Rules, roundLen int) bool {
	if !rules.Bock {
		return false
	}
	st.startQueuedRound(roundLen)
	if hd.solo || st.BockGamesLeft == 0 {
		return false
	}
	st.BockGamesLeft--
	return true
}

// queueBock queues the Bock rounds the hand triggered and starts the next
// round when none is running.
func queueBock(res *score.Result, st *State, hd hand, rules Rules, w party, roundLen int) {
	reasons := bockTriggers(hd, w)
	rounds := len(reasons)
	if rules.BockTriggers == TriggersOne && rounds > 1 {
		rounds = 1
	}
	if rounds > 0 {
		st.BockRoundsQueued += rounds
		res.Events = append(res.Events, score.Event{
			Type:   score.EventBockQueued,
			Text:   fmt.Sprintf("%s ausgelöst: %s", plural(rounds, "Bockrunde", "Bockrunden"), strings.Join(reasons, ", ")),
			Amount: int64(rounds),
		})
	}
	st.startQueuedRound(roundLen)
}

func valueLabel(w party) string {
	if w == noParty {
		return "Spielwert für Re"
	}
	return "Spielwert"
}

// seatedPoints lists every seated player in seating order, 0 for those who
// sat out.
func seatedPoints(seated []int64, pts map[int64]score.Points) []score.PlayerPoints {
	out := make([]score.PlayerPoints, 0, len(seated))
	for _, id := range seated {
		out = append(out, score.PlayerPoints{Player: id, Points: pts[id]})
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// title names the hand for a score sheet: "Normalspiel, Re gewinnt
// 187:53", "Kreuz-Solo von {{player:3}} verloren", "Schmeißen – neu
// gegeben". A two-against-two game gives the winner's Augen first; a solo
// names its soloist; a revoke names the revoker instead of the Augen,
// which did not decide the hand.
func title(hd hand) string {
	if hd.redeal {
		if hd.game == GameArmutNichtGenommen {
			return "Armut nicht genommen – neu gegeben"
		}
		return "Schmeißen – neu gegeben"
	}
	w := hd.winner()
	var t string
	if hd.solo {
		t = gameTitle(hd) + " von " + score.PlayerRef(hd.re.players[0])
		switch w {
		case reParty:
			t += " gewonnen"
		case kontraParty:
			t += " verloren"
		default:
			t += ", kein Sieger"
		}
	} else {
		t = gameTitle(hd) + ", "
		switch {
		case w == noParty:
			t += fmt.Sprintf("kein Sieger, Re %d:%d", hd.re.augen, hd.kontra.augen)
		case hd.revoker != nil:
			t += fmt.Sprintf("%s gewinnt", w)
		default:
			t += fmt.Sprintf("%s gewinnt %d:%d", w, hd.side(w).augen, hd.side(w.other()).augen)
		}
	}
	if hd.revoker != nil {
		t += ", " + score.PlayerRef(*hd.revoker) + " verworfen"
	}
	return t
}

// gameTitle names the game type as players say it.
func gameTitle(hd hand) string {
	switch hd.game {
	case GameNormal:
		return "Normalspiel"
	case GameHochzeit:
		if hd.solo {
			return "Hochzeit-Solo"
		}
		return "Hochzeit"
	case GameArmut:
		return "Armut"
	case GameFarbsolo:
		return strings.ToUpper(hd.suit[:1]) + hd.suit[1:] + "-Solo"
	case GameKoehler:
		return "Köhler"
	case GameDamensolo:
		return "Damensolo"
	case GameBubensolo:
		return "Bubensolo"
	case GameFleischloser:
		return "Fleischloser"
	case GameKoenigssolo:
		return "Königssolo"
	case GameStilleHochzeit:
		return "Stille Hochzeit"
	}
	return hd.game
}
