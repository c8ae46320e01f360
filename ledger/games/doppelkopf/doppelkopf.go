// Package doppelkopf scores Doppelkopf as README.md in this package reads
// it: four active players out of 4 to 7 seated, 240 Augen. Two presets:
// `house` (the seed's house rules, where announcements double) and `ddv`
// (the DDV tournament valuation, where announcements add). The winner is
// found by TSR 7.1 under both. The table remembers the next dealer, the
// Bock rounds and the solos played per player in the current session.
//
// TSR is the Turnier-Spielregeln of the Deutscher Doppelkopf-Verband, here
// the newest version found: "TSR, Stand 21.02.2026"
// (https://doko-verband.de/wp-content/uploads/2026/04/Turnierspielregeln-Stand-2026-02-21.pdf,
// read in the text copy Dokumente/Turnierspielregeln-Stand-2026-02-21.txt of
// github.com/mannewolff/doppelkopf). By its section 11 it has been in force
// since 1 July 2000 with changes to 2.1.3, 4.4.3, 5, 6, 8.2 and 9 only; its
// section 7 (Spielbewertung) is that of 2000.
//
// # Deck
//
// Option `nines` chooses the pack. Off (`house`): the seed's 40 cards
// without nines, 10 tricks. On (`ddv`): the DDV's 48 cards with nines (TSR
// 2.2), 12 tricks. A rule set stored before the option existed plays with 40
// cards. Both packs hold 240 Augen; every refusal that depends on the pack
// names it ("with 48 cards (nines) ...", "with 40 cards (no nines) ...").
//   - With 40 cards every trick holds at least 8 Augen (four Buben), so a
//     party has 0 Augen exactly when it took no trick: Augen 1..7 and
//     233..239 are refused, and `took_trick` may be omitted (it is derived
//     from the Augen); when given it must agree.
//   - With 48 cards a trick of four nines holds 0 Augen, so any split of the
//     240 Augen may be recorded. A party with Augen took a trick; a party
//     with 0 Augen may still have taken one or two tricks of nines, so for
//     it the facts must say so (`took_trick`, or `tricks`), else the hand is
//     refused.
//   - `tricks` (optional, each party) counts a party's tricks; given for one
//     party, the other's are the rest. The Augen must fit them: t tricks
//     hold at least the lowest 4t cards of the pack and leave the other
//     party at least the lowest cards of its tricks (with 48 cards: 0 Augen
//     in at most 2 tricks, at most 44 Augen in 1).
//   - Schwarz is judged by tricks, not Augen: a party that took no trick is
//     schwarz (for the "schwarz" point and the Absage "schwarz"); with 48
//     cards a party with 0 Augen and a trick of nines is not.
//   - Only Asse and Zehnen make a trick of 40 Augen (a Doppelkopf), so a
//     hand holds at most 4 Doppelköpfe. A Fuchs can be caught only where the
//     Karo-Ass is trump (normal, Hochzeit, Armut, stille Hochzeit,
//     Karo-Solo), a Karlchen only where the Kreuz-Bube is trump (not in a
//     Damensolo or Fleischloser). Special points need a trick of the party
//     that scores them.
//   - With 48 cards a party's Augen and tricks must hold its Doppelköpfe,
//     Füchse and Karlchen, counted by the cards: each Doppelkopf is a trick
//     of four Asse or Zehnen (1 or 2 need 40 Augen each, 3 need 124, 4 need
//     168); a Fuchs caught is a Karo-Ass (11) in a Doppelkopf or in a trick
//     won by at least a Bube (13 Augen, 24 for both Füchse); the Karlchen is
//     the Kreuz-Bube (2) in the party's last trick, which may also be the
//     trick of its Füchse; and the other party keeps what its own need.
//   - With 40 cards the house rules' bounds stay as they were, so that
//     stored hands stay valid: 40 Augen for each Doppelkopf, a trick for a
//     Fuchs or the Karlchen (the exact bounds for 3 and 4 Doppelköpfe, 124
//     and 168, are not applied there); given tricks must hold the
//     Doppelköpfe and leave a trick for a Fuchs or Karlchen outside them.
//
// # No winner
//
// When both parties made Absagen and neither reached its goal, nobody won
// (TSR 7.1.3). Option `no_winner_unter_gespielt` chooses how such a hand is
// valued; each point goes to the party that earned it and they are netted
// into "Spielwert für Re":
//   - On (`ddv`): TSR 7.1.3, Stand 21.02.2026: "Erreichen beide Parteien
//     ihr abgesagtes Ziel nicht, hat keine Partei gewonnen, und es werden
//     nur die unter 7.2.2 (a) und 7.2.2 (e und f) genannten Punkte sowie
//     Sonderpunkte vergeben." So 7.2.2 (a) without "gewonnen": "unter 90
//     (60, 30) gespielt" to the party whose opponents stayed under 90 (60,
//     30) ("schwarz gespielt" cannot happen: a party that took every trick
//     reached its goal); under ddv 7.2.2 (e) and (f), "120 gegen keine 90"
//     and its kin; and the special points (not "gegen die Kreuz-Damen",
//     which needs a win). No Re, Kontra or Absage points (7.1.3 "nur";
//     6.3.3).
//   - Off (`house`, and every rule set stored before the option): 7.2.2 (a)
//     is left out; under ddv the points reached against an Absage and the
//     special points count, under house the special points only. This was
//     the engine's reading of the TSR text valid from 1 July 2000 as
//     transcribed in github.com/svenihoney/freedoko
//     (doc/de/DDV_Turnierregeln.tex), which has no 7.1.3, only the sentence
//     now numbered 6.3.3 that Absagen then do not raise the value. By the
//     2026 text's section 11, section 7 has not changed since 2000, so the
//     transcription most likely left 7.1.3 out.
//
// The readings differ only where a party stayed under 90 (60, 30), which
// takes Absagen of different heights or, with 48 cards, a trick of nines:
// when both parties said keine 90, both hold 90 to 150 Augen.
//
// # Other decisions
//
// Decisions where the rules are silent:
//   - Facts name the Re party (players and Augen); the Kontra party is the
//     other active players with 240 minus Re's Augen. Kontra's players and
//     Augen may be given as well and must then agree.
//   - Schweinchen may be recorded only with option `schweinchen` and only in
//     a game where the Karo-Ass is trump; then at most one Fuchs is caught.
//   - A Hochzeit whose Re party is one player found no partner and is the
//     Hochzeit player's solo. A stille Hochzeit and such a Hochzeit solo are
//     scored as solos (x3, no Bock, Solo verloren) but do not count in the
//     solos per player, which count announced solos only (the lead right of
//     a player's first solo comes with an announced solo).
//   - Absagen count per party: when both parties said keine 90, that is two
//     points.
//   - `herzstich` says whether a Herzstich happened; two Herzstiche (possible
//     in a Damensolo, Bubensolo or Fleischloser) trigger one Bock round.
//   - When neither party reached its goal, "an announced Kontra was lost"
//     does not trigger Bock (nobody won); both parties announced, so the
//     "Re and Kontra announced" trigger fires anyway.
//   - Seating: the four players to the dealer's left (the next four seats
//     after the dealer, in seating order) play; the others sit out. With
//     five seated the dealer sits out; with six the dealer and the player
//     to his right; with seven the dealer and the two players to his right.
//     With four seated the dealer plays. The deal passes to the next seat
//     after every counted hand; a redeal is dealt by the same dealer. When
//     the next dealer is not seated (another session, other players), the
//     first seated player deals.
//   - Bock rounds are table state and carry over into the next session. A
//     queued round starts as soon as the running one is over, so the state
//     after a trigger already shows its Bock games; its length is fixed
//     then (`bock_round_length`, 0 = the players seated at that moment).
//     With option `bock` off nothing is doubled or queued and the Bock
//     state is left as it was.
//   - The options apply under both valuations: under `ddv`
//     `gegen_die_alten_in_solo` gives the "gegen die Kreuz-Damen" point in a
//     solo, and `solo_verloren` adds the house point. `revoker_pays_alone`
//     (house true, ddv false) says whether a revoker carries his party's
//     whole loss; under ddv by default the revoker's party loses as a
//     party.
//   - The value of a hand may turn negative through special points; it is
//     settled as it stands (the losers then gain). When nobody won a solo,
//     the netted points d (see "No winner") settle like a solo (TSR 7.2.4):
//     the soloist 3d, each opponent -d.
//   - A revoke decides the winner under both presets (the revoker's party
//     loses); the Augen, announcements and special points count as
//     recorded.
//   - Lines: the value items in the order the preset applies them, Absagen
//     and special points naming their party ("keine 90 angesagt (Re)",
//     "Fuchs gefangen (Kontra)"), then "Spielwert" (or "Spielwert für Re"
//     when nobody won), then one "=" line per active player with his points
//     ("Re", "Kontra", "Solist", "Gegenspieler", marked "(verworfen)" for a
//     revoker).
//
// Winners of a hand (for statistics) are the players of the party that won;
// none when neither party reached its goal, none for a redeal.
//
// # Statistics keys
//
// Result.Stats lists the hand's countable facts per player, ordered by
// seat and then by key; Count is 1 unless said. Only the keys that apply
// to the hand are given, and a "won" key needs a winning party:
//   - solo_played and solo_played_<type> for the soloist of every solo,
//     solo_won and solo_won_<type> when he won it. <type> is
//     farbsolo_kreuz, farbsolo_pik, farbsolo_herz, farbsolo_karo (the
//     Trumpfsolo), koehler, damensolo, bubensolo, fleischloser,
//     stille_hochzeit, or hochzeit (a Hochzeit without partner). A stille
//     Hochzeit and a Hochzeit without partner are solos here, as in
//     scoring (the per-session solo count of the state leaves them out).
//   - re_said for each player of the Re party when Re announced (any
//     level), re_said_won when Re won; kontra_said and kontra_said_won
//     likewise for the Kontra party.
//   - absage_said for each player of a party that made an Absage, Count
//     the levels said (keine 90 is 1, keine 60 is 2, keine 30 is 3,
//     schwarz is 4); absage_won when that party won.
//   - bock_game for each of the four players of a Bock game.
//   - hochzeit for the Hochzeit player (also when no partner was found),
//     armut for the poor player. The facts have no field of their own for
//     them: they are the first player named in facts.re.players.
//   - schweinchen for the player who announced Schweinchen.
//   - redeal for the dealer of a redeal (schmeissen, armut_nicht_genommen);
//     a redeal gives no other key.
//
// Result.Parties is the Re party and the Kontra party, each in seating
// order, for every played hand (a solo: the soloist alone, then his three
// opponents); a redeal has none.
//
// Result.Dealer is the hand's dealer: facts.dealer, or the state's next
// dealer when the facts leave him out. Result.Players are the hand's four
// active players in seating order (the dealer is not among them when five
// or more are seated); a redeal names the four it was dealt to.
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
type Options struct {
	GegenDieAltenInSolo   *bool   `json:"gegen_die_alten_in_solo"`
	SonderpunkteInSolo    *bool   `json:"sonderpunkte_in_solo"`
	SoloVerloren          *bool   `json:"solo_verloren"`
	Bock                  *bool   `json:"bock"`
	BockRoundLength       *int    `json:"bock_round_length"`
	BockTriggers          *string `json:"bock_triggers"`
	Schweinchen           *bool   `json:"schweinchen"`
	Armut                 *bool   `json:"armut"`
	Schmeissen            *bool   `json:"schmeissen"`
	RevokerPaysAlone      *bool   `json:"revoker_pays_alone"`
	Nines                 *bool   `json:"nines"`
	NoWinnerUnterGespielt *bool   `json:"no_winner_unter_gespielt"`
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
	hd, err := validate(f, rules, h.Seated, st.nextDealer(h.Seated))
	if err != nil {
		return score.Result{}, err
	}

	st.startSession(h.Session)
	res := score.Result{Lines: []score.Line{}, Events: []score.Event{}, Winners: []int64{}, Dealer: hd.dealer, Players: hd.active}
	var pts map[int64]score.Points
	if hd.redeal {
		scoreRedeal(&res, hd)
	} else {
		pts = scorePlayed(&res, &st, hd, rules, len(h.Seated))
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
		Text:    fmt.Sprintf("%s; Spieler %d gibt noch einmal", label, hd.dealer),
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
			Text:    fmt.Sprintf("Spieler %d hat falsch bedient; seine Partei verliert", *hd.revoker),
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
// 187:53", "Kreuz-Solo von Spieler 3 verloren", "Schmeißen – neu
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
		t = fmt.Sprintf("%s von Spieler %d", gameTitle(hd), hd.re.players[0])
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
		t += fmt.Sprintf(", Spieler %d verworfen", *hd.revoker)
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
	case GameStilleHochzeit:
		return "Stille Hochzeit"
	}
	return hd.game
}
