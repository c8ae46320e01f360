package doppelkopf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stichbuch/stichbuch/ledger/score"
)

// validate checks the facts against the rules, the seating and the deck and
// returns the hand to score.
func validate(f Facts, r Rules, seated []int64, nextDealer int64) (hand, error) {
	hd := hand{game: f.Game, suit: f.Suit}
	d := deckOf(r)
	if err := checkGame(f, r); err != nil {
		return hand{}, err
	}
	dealer, active, err := resolveSeats(f, seated, nextDealer)
	if err != nil {
		return hand{}, err
	}
	hd.dealer, hd.active = dealer, active
	if isRedeal(f.Game) {
		hd.redeal = true
		return hd, checkRedeal(f)
	}
	if f.Re == nil {
		return hand{}, score.Refuse("facts.re", "Wähle die Re-Spieler und trag ihre Augen ein.", "is required: the Re party's players and Augen")
	}
	kontraFacts := PartyFacts{}
	if f.Kontra != nil {
		kontraFacts = *f.Kontra
	}
	if err := checkParties(&hd, *f.Re, kontraFacts); err != nil {
		return hand{}, err
	}
	if err := checkAugen(&hd, d, *f.Re, kontraFacts); err != nil {
		return hand{}, err
	}
	if err := checkAnnouncements(&hd, *f.Re, kontraFacts); err != nil {
		return hand{}, err
	}
	if err := checkExtras(&hd, r, f); err != nil {
		return hand{}, err
	}
	if err := checkSpecials(&hd, d, r, f, *f.Re, kontraFacts); err != nil {
		return hand{}, err
	}
	return hd, nil
}

func checkGame(f Facts, r Rules) error {
	if !slices.Contains(gameNames, f.Game) {
		return score.Invalid("facts.game", "must be one of %s, got %q", strings.Join(gameNames, ", "), f.Game)
	}
	if (f.Game == GameArmut || f.Game == GameArmutNichtGenommen) && !r.Armut {
		return score.Refuse("facts.game", "Armut wird an diesem Tisch nicht gespielt (Tischregeln). Wähle ein anderes Spiel.", "Armut is not played under this rule set (option armut is off)")
	}
	if f.Game == GameKoenigssolo && !r.Koenigssolo {
		return score.Refuse("facts.game", "Ein Königssolo wird an diesem Tisch nicht gespielt (Tischregeln). Wähle ein anderes Spiel.", "a Königssolo is not played under this rule set (option koenigssolo is off)")
	}
	if f.Game == GameSchmeissen && !r.Schmeissen {
		return score.Refuse("facts.game", "Schmeißen ist an diesem Tisch nicht erlaubt (Tischregeln). Wähle ein anderes Spiel.", "Schmeißen is not allowed under this rule set (option schmeissen is off)")
	}
	if f.Game == GameFarbsolo && !slices.Contains(suitNames, f.Suit) {
		return score.Refuse("facts.suit", "Wähle die Trumpffarbe des Farbsolos: Kreuz, Pik, Herz oder Karo.", "a Farbsolo names its suit: kreuz, pik, herz or karo (Trumpfsolo), got %q", f.Suit)
	}
	if f.Game != GameFarbsolo && f.Suit != "" {
		return score.Invalid("facts.suit", "only a Farbsolo names a suit")
	}
	return nil
}

// checkSeated checks the session's seating: 4 to 7 distinct players.
func checkSeated(seated []int64) error {
	if len(seated) < playersPerHand || len(seated) > maxPlayersOfTable {
		return score.Refuse("seated", fmt.Sprintf("An einem Doppelkopf-Tisch sitzen 4 bis 7 Spieler, gewählt sind %d. Bitte die Sitzordnung ändern.", len(seated)), "a Doppelkopf table seats 4 to 7 players, got %d", len(seated))
	}
	for i, id := range seated {
		if slices.Contains(seated[:i], id) {
			return score.Refuse(fmt.Sprintf("seated[%d]", i), score.PlayerRef(id)+" sitzt zweimal am Tisch. Bitte die Sitzordnung prüfen.", "player %d is seated twice", id)
		}
	}
	return nil
}

// resolveSeats finds the dealer and the four active players (in seating
// order), from the facts or by default.
func resolveSeats(f Facts, seated []int64, nextDealer int64) (int64, []int64, error) {
	dealer := nextDealer
	if f.Dealer != nil {
		dealer = *f.Dealer
		if !slices.Contains(seated, dealer) {
			return 0, nil, score.Refuse("facts.dealer", "Wer gibt, muss heute am Tisch sitzen. Wähle den Geber unter "+score.PlayerList(seated)+".", "player %d is not seated in this session", dealer)
		}
	}
	if f.Players == nil {
		return dealer, defaultPlayers(seated, dealer), nil
	}
	if len(f.Players) != playersPerHand {
		return 0, nil, score.Refuse("facts.players", fmt.Sprintf("Doppelkopf spielen genau vier, gewählt sind %d. Bitte wähle vier Spieler.", len(f.Players)), "Doppelkopf is played by exactly 4 players, got %d", len(f.Players))
	}
	for i, id := range f.Players {
		field := fmt.Sprintf("facts.players[%d]", i)
		if !slices.Contains(seated, id) {
			return 0, nil, score.Refuse(field, "Mitspielen kann nur, wer heute am Tisch sitzt. Wähle vier Spieler unter "+score.PlayerList(seated)+".", "player %d is not seated in this session", id)
		}
		if slices.Contains(f.Players[:i], id) {
			return 0, nil, score.Refuse(field, score.PlayerRef(id)+" ist zweimal gewählt. Bitte wähle vier verschiedene Spieler.", "player %d is named twice", id)
		}
	}
	active := make([]int64, 0, playersPerHand)
	for _, id := range seated {
		if slices.Contains(f.Players, id) {
			active = append(active, id)
		}
	}
	return dealer, active, nil
}

// defaultPlayers are the four seats after the dealer, in seating order.
func defaultPlayers(seated []int64, dealer int64) []int64 {
	d := max(slices.Index(seated, dealer), 0)
	n := len(seated)
	active := make([]int64, 0, playersPerHand)
	for pos, id := range seated {
		if (pos-d-1+n)%n < playersPerHand {
			active = append(active, id)
		}
	}
	return active
}

func checkRedeal(f Facts) error {
	what := fmt.Sprintf("a redeal (%s) is scored 0", f.Game)
	switch {
	case f.Re != nil:
		return score.Invalid("facts.re", "%s and has no parties", what)
	case f.Kontra != nil:
		return score.Invalid("facts.kontra", "%s and has no parties", what)
	case f.Herzstich:
		return score.Invalid("facts.herzstich", "%s; no trick was played", what)
	case f.VerworfenBy != nil:
		return score.Invalid("facts.verworfen_by", "%s; no card was played", what)
	case f.Schweinchen != nil:
		return score.Invalid("facts.schweinchen", "%s; no card was played", what)
	}
	return nil
}

// reSize is the number of Re players the game allows (0: one or two).
func reSize(game string) int {
	switch game {
	case GameNormal, GameArmut:
		return 2
	case GameHochzeit:
		return 0
	}
	return 1
}

func checkParties(hd *hand, re, kontra PartyFacts) error {
	want := reSize(hd.game)
	n := len(re.Players)
	name := gameTitle(*hd)
	switch {
	case want == 0 && (n < 1 || n > 2):
		return score.Refuse("facts.re.players", "Bei einer Hochzeit spielen zwei Re (mit Partner) oder einer allein (kein Partner gefunden). Wähle einen oder zwei Re-Spieler.", "a Hochzeit has a Re party of two players (partner found) or one (no partner found: a solo), got %d", n)
	case want == 1 && n != 1:
		return score.Refuse("facts.re.players", "Beim "+name+" spielt der Solist allein Re. Wähle genau einen Spieler als Solisten.", "a solo has a Re party of one player, the soloist, got %d", n)
	case want == 2 && n != 2:
		return score.Refuse("facts.re.players", fmt.Sprintf("Bei %s spielen zwei Re gegen zwei Kontra, gewählt sind %d. Wähle die beiden Re-Spieler.", withArticle(name), n), "a %s game has a Re party of two players, got %d", hd.game, n)
	}
	for i, id := range re.Players {
		field := fmt.Sprintf("facts.re.players[%d]", i)
		if !slices.Contains(hd.active, id) {
			return score.Refuse(field, notInHand(id, hd.active, "Re"), "player %d is not one of the hand's four players", id)
		}
		if slices.Contains(re.Players[:i], id) {
			return score.Refuse(field, score.PlayerRef(id)+" ist zweimal bei Re gewählt. Bitte wähle verschiedene Spieler.", "player %d is named twice", id)
		}
	}
	for _, id := range hd.active {
		if slices.Contains(re.Players, id) {
			hd.re.players = append(hd.re.players, id)
		} else {
			hd.kontra.players = append(hd.kontra.players, id)
		}
	}
	hd.solo = n == 1
	hd.lead = re.Players[0]
	hd.declaredSolo = isDeclaredSolo(hd.game)
	return checkKontraPlayers(hd, kontra.Players)
}

func checkKontraPlayers(hd *hand, named []int64) error {
	if named == nil {
		return nil
	}
	if len(named) != len(hd.kontra.players) {
		return score.Refuse("facts.kontra.players", "Kontra sind die übrigen Spieler: "+score.PlayerList(hd.kontra.players)+". Bitte die Parteien prüfen.", "the Kontra party is the other %d players, got %d", len(hd.kontra.players), len(named))
	}
	for i, id := range named {
		field := fmt.Sprintf("facts.kontra.players[%d]", i)
		if slices.Contains(hd.re.players, id) {
			return score.Refuse(field, score.PlayerRef(id)+" spielt schon Re und kann nicht zugleich Kontra sein. Bitte die Parteien prüfen.", "player %d is in the Re party", id)
		}
		if !slices.Contains(hd.kontra.players, id) {
			return score.Refuse(field, notInHand(id, hd.active, "Kontra"), "player %d is not one of the hand's four players", id)
		}
		if slices.Contains(named[:i], id) {
			return score.Refuse(field, score.PlayerRef(id)+" ist zweimal bei Kontra gewählt. Bitte wähle verschiedene Spieler.", "player %d is named twice", id)
		}
	}
	return nil
}

func checkAugen(hd *hand, d deck, re, kontra PartyFacts) error {
	if re.Augen == nil {
		return score.Refuse("facts.re.augen", "Trag die Augen von Re ein (0 bis 240).", "is required: the Re party's Augen, 0..240")
	}
	a := *re.Augen
	if a < 0 || a > totalAugen {
		return score.Refuse("facts.re.augen", "Alle Karten zusammen zählen 240 Augen, also hat Re 0 bis 240. Bitte die Augen prüfen.", "%s a hand holds 240 Augen, so Re has 0 to 240, got %d", d.name(), a)
	}
	reTricks, kontraTricks, err := checkTricks(d, re.Tricks, kontra.Tricks)
	if err != nil {
		return score.WithHint(err, fmt.Sprintf("Ein Spiel hat %d Stiche; Re und Kontra haben zusammen genau so viele. Bitte die Stiche prüfen.", d.tricks()))
	}
	// First the Augen against the tricks as far as the Augen tell them.
	reRange := trickRangeOf(d, reTricks, a > 0, !d.nines)
	kontraRange := trickRangeOf(d, kontraTricks, a < totalAugen, !d.nines)
	if err := checkAugenFit(d, a, reRange, kontraRange, re, kontra, reTricks); err != nil {
		return err
	}
	if kontra.Augen != nil && (*kontra.Augen < 0 || *kontra.Augen > totalAugen) {
		return score.Refuse("facts.kontra.augen", "Alle Karten zusammen zählen 240 Augen, also hat Kontra 0 bis 240. Bitte die Augen prüfen.", "%s a hand holds 240 Augen, so Kontra has 0 to 240, got %d", d.name(), *kontra.Augen)
	}
	if kontra.Augen != nil && *kontra.Augen+a != totalAugen {
		return score.Refuse("facts.kontra.augen", fmt.Sprintf("Re und Kontra haben zusammen %d Augen, es müssen 240 sein. Bitte die Augen prüfen.", *kontra.Augen+a), "%s the Augen add up to %d, need 240", d.name(), *kontra.Augen+a)
	}
	hd.re.augen, hd.kontra.augen = a, totalAugen-a
	if hd.re.tookTrick, err = tookTrick(d, "re", "Re", re.TookTrick, reTricks, hd.re.augen); err != nil {
		return err
	}
	if hd.kontra.tookTrick, err = tookTrick(d, "kontra", "Kontra", kontra.TookTrick, kontraTricks, hd.kontra.augen); err != nil {
		return err
	}
	// Then against the tricks as the facts tell them.
	hd.re.tricks = trickRangeOf(d, reTricks, hd.re.tookTrick, true)
	hd.kontra.tricks = trickRangeOf(d, kontraTricks, hd.kontra.tookTrick, true)
	return checkAugenFit(d, a, hd.re.tricks, hd.kontra.tricks, re, kontra, reTricks)
}

// checkAugenFit checks that Re's Augen a fit the tricks the parties took:
// that some cards of the pack make exactly that split (deck.splits). The
// refusal lists every Augen Re could hold with the tricks given.
func checkAugenFit(d deck, a int, reRange, kontraRange trickRange, re, kontra PartyFacts, reTricks *int) error {
	if d.splits(a, reRange, kontraRange) {
		return nil
	}
	all := trickRange{0, d.tricks()}
	if reTricks != nil {
		all = trickRange{*reTricks, *reTricks}
	}
	spans := d.reAugen(all, trickRange{0, d.tricks()})
	if re.Tricks != nil || kontra.Tricks != nil {
		field := "facts.re.tricks"
		if re.Tricks == nil {
			field = "facts.kontra.tricks"
		}
		return score.Refuse(field, fmt.Sprintf("Mit %d von %d Stichen hat Re %s Augen, nicht %d. Bitte Augen und Stiche prüfen.", *reTricks, d.tricks(), spansGerman(spans), a),
			"%s Re taking %d of the %d tricks holds %s Augen, got %d",
			d.name(), *reTricks, d.tricks(), spansText(spans), a)
	}
	return score.Refuse("facts.re.augen", fmt.Sprintf("%s Re kann %s Augen haben, nicht %d. Bitte die Augen prüfen.", d.floorGerman(), spansGerman(spans), a),
		"%s %s, so Re has %s Augen, got %d",
		d.name(), d.trickFloor(), spansText(spans), a)
}

// checkTricks checks the tricks given for the parties and derives the one
// not given from the other.
func checkTricks(d deck, re, kontra *int) (*int, *int, error) {
	n := d.tricks()
	for _, p := range []struct {
		field, name string
		tricks      *int
	}{{"facts.re.tricks", "Re", re}, {"facts.kontra.tricks", "Kontra", kontra}} {
		if p.tricks != nil && (*p.tricks < 0 || *p.tricks > n) {
			return nil, nil, score.Invalid(p.field, "%s a hand has %d tricks, so %s took 0 to %d, got %d", d.name(), n, p.name, n, *p.tricks)
		}
	}
	switch {
	case re != nil && kontra != nil && *re+*kontra != n:
		return nil, nil, score.Invalid("facts.kontra.tricks", "%s a hand has %d tricks, got %d for Re and %d for Kontra", d.name(), n, *re, *kontra)
	case re != nil && kontra == nil:
		k := n - *re
		kontra = &k
	case re == nil && kontra != nil:
		r := n - *kontra
		re = &r
	}
	return re, kontra, nil
}

// tookTrick says whether a party took a trick: from its tricks, from
// took_trick, or from its Augen. With 40 cards a party took a trick exactly
// when it has Augen; with 48 a party with 0 Augen may have taken tricks of
// four nines, so the facts must say.
func tookTrick(d deck, key, name string, given *bool, tricks *int, augen int) (bool, error) {
	field := "facts." + key + ".took_trick"
	switch {
	case tricks != nil:
		took := *tricks > 0
		if given != nil && *given != took {
			return false, score.Invalid(field, "%s %s took %s, so took_trick is %t", d.name(), name, plural(*tricks, "trick", "tricks"), took)
		}
		return took, nil
	case given != nil && !*given && augen > 0:
		return false, score.Invalid(field, "%s %s has %d Augen, so it took a trick", d.name(), name, augen)
	case given != nil && *given && augen == 0 && !d.nines:
		return false, score.Invalid(field, "%s %s has no Augen, so it took no trick (%s)", d.name(), name, d.trickFloor())
	case given != nil:
		return *given, nil
	case augen > 0:
		return true, nil
	case !d.nines:
		return false, nil
	}
	return false, score.Refuse(field, name+" hat 0 Augen, kann aber mit 48 Karten einen Stich aus vier Neunen gemacht haben. Bitte angeben, ob "+name+" einen Stich hatte.", "%s %s may have 0 Augen and still have taken a trick of four nines: say whether it took one (took_trick or tricks)", d.name(), name)
}

// trickRangeOf is the tricks a party may have taken: its tricks when
// known, else at least one when it took a trick, else none when sure is set
// (with 48 cards a party with 0 Augen may still have taken a trick of four
// nines, so its took_trick is not sure until the facts say).
func trickRangeOf(d deck, tricks *int, took, sure bool) trickRange {
	switch {
	case tricks != nil:
		return trickRange{*tricks, *tricks}
	case took:
		return trickRange{1, d.tricks()}
	case sure:
		return trickRange{0, 0}
	}
	return trickRange{0, d.tricks()}
}

func checkAnnouncements(hd *hand, re, kontra PartyFacts) error {
	var err error
	if hd.re.level, err = parseLevel("facts.re.announced", "re", re.Announced); err != nil {
		return err
	}
	hd.kontra.level, err = parseLevel("facts.kontra.announced", "kontra", kontra.Announced)
	return err
}

// parseLevel reads an announcement; word is "re" or "kontra".
func parseLevel(field, word, s string) (int, error) {
	if s == "" || s == "none" {
		return levelNone, nil
	}
	if s == word {
		return levelAnnounced, nil
	}
	for lvl := levelKeine90; lvl <= levelSchwarz; lvl++ {
		if s == levelWords[lvl] {
			return lvl, nil
		}
	}
	return 0, score.Refuse(field, "Angesagt werden kann "+strings.ToUpper(word[:1])+word[1:]+", keine 90, keine 60, keine 30 oder schwarz. Bitte die Ansage neu wählen.", "must be one of none, %s, keine90, keine60, keine30, schwarz, got %q", word, s)
}

func checkSpecials(hd *hand, d deck, r Rules, f Facts, re, kontra PartyFacts) error {
	allowed := !hd.solo || r.SonderpunkteInSolo
	for _, p := range []struct {
		name  string
		facts PartyFacts
		side  *side
	}{{"re", re, &hd.re}, {"kontra", kontra, &hd.kontra}} {
		if err := checkPartySpecials(d, p.name, p.facts, *p.side, allowed, hd.game, hd.suit); err != nil {
			return score.WithHint(err, "Diese Sonderpunkte passen nicht zu dem Spiel oder den Augen. Bitte Doppelkopf, Fuchs und Karlchen prüfen.")
		}
		p.side.doppelkopf, p.side.fuchs, p.side.karlchen = p.facts.Doppelkopf, p.facts.FuchsGefangen, p.facts.Karlchen
	}
	if n := re.Doppelkopf + kontra.Doppelkopf; n > maxDoppelkoepfe {
		return score.Refuse("facts.kontra.doppelkopf", "In einem Spiel gibt es höchstens vier Doppelköpfe. Bitte die Doppelköpfe prüfen.", "%s at most 4 Doppelköpfe fit in one hand (only Asse and Zehnen make 40 Augen), got %d in total", d.name(), n)
	}
	fuchsMax, why := maxFuechse, "there are 2 Karo-Asse"
	if f.Schweinchen != nil {
		fuchsMax, why = 1, "Schweinchen: the Schwein is not a Fuchs"
	}
	if n := re.FuchsGefangen + kontra.FuchsGefangen; n > fuchsMax {
		field := "facts.kontra.fuchs_gefangen"
		if re.FuchsGefangen > fuchsMax {
			field = "facts.re.fuchs_gefangen"
		}
		hint := "Es gibt nur zwei Füchse (die Karo-Asse). Bitte die gefangenen Füchse prüfen."
		if f.Schweinchen != nil {
			hint = "Mit Schweinchen ist nur noch ein Karo-Ass ein Fuchs. Bitte die gefangenen Füchse prüfen."
		}
		return score.Refuse(field, hint, "%s at most %d Füchse can be caught in this hand (%s), got %d in total", d.name(), fuchsMax, why, n)
	}
	if re.Karlchen && kontra.Karlchen {
		return score.Refuse("facts.kontra.karlchen", "Es gibt nur ein Karlchen (den letzten Stich), und Re hat es schon. Bitte bei Re oder Kontra abwählen.", "%s there is one Karlchen (the last trick) per hand, and Re already has it", d.name())
	}
	return checkContent(hd, d, re, kontra)
}

// checkContent checks that each party's Augen and tricks can hold its
// Doppelköpfe, Füchse and Karlchen, and leave the other party enough for
// its own. With 48 cards the cards are counted (see deck.minAugen); with
// 40 only the tricks they need.
func checkContent(hd *hand, d deck, re, kontra PartyFacts) error {
	reC, kontraC := contentOf(re), contentOf(kontra)
	a := hd.re.augen
	if inSpans(a, d.reSpans(hd.re.tricks, hd.kontra.tricks, reC, kontraC)) {
		return nil
	}
	// Blame Kontra's content when Re's alone fits, else Re's.
	key, name, c, s := "re", "Re", reC, hd.re
	if inSpans(a, d.reSpans(hd.re.tricks, hd.kontra.tricks, reC, content{})) {
		key, name, c, s = "kontra", "Kontra", kontraC, hd.kontra
	}
	need := max(c.tricksNeeded(), s.tricks.lo)
	msg := fmt.Sprintf("%s for %s %s needs at least %s", d.name(), c, name, plural(need, "trick", "tricks"))
	if least, ok := d.minAugen(need, c); ok && d.nines {
		msg += fmt.Sprintf(" holding %d Augen", least)
	}
	msg += fmt.Sprintf(", got %d Augen", s.augen)
	if s.tricks.known() {
		msg += " in " + plural(s.tricks.lo, "trick", "tricks")
	}
	return score.Refuse("facts."+key+"."+firstSpecial(PartyFacts{Doppelkopf: c.doppelkopf, FuchsGefangen: c.fuchs, Karlchen: c.karlchen}),
		fmt.Sprintf("Mit %d Augen kann %s nicht alle diese Sonderpunkte haben. Bitte Augen, Doppelkopf, Fuchs und Karlchen prüfen.", s.augen, name), "%s", msg)
}

func checkPartySpecials(d deck, name string, p PartyFacts, s side, allowed bool, game, suit string) error {
	field := "facts." + name + "."
	title := strings.ToUpper(name[:1]) + name[1:]
	if p.Doppelkopf < 0 || p.FuchsGefangen < 0 {
		f := "doppelkopf"
		if p.FuchsGefangen < 0 {
			f = "fuchs_gefangen"
		}
		return score.Invalid(field+f, "must be 0 or more")
	}
	if p.Doppelkopf == 0 && p.FuchsGefangen == 0 && !p.Karlchen {
		return nil
	}
	if !allowed {
		return score.Refuse(field+firstSpecial(p), "Im Solo zählen an diesem Tisch keine Sonderpunkte. Bitte Doppelkopf, Fuchs und Karlchen abwählen.", "special points do not count in a solo (option sonderpunkte_in_solo is off)")
	}
	if p.Doppelkopf > maxDoppelkoepfe {
		return score.Invalid(field+"doppelkopf", "%s at most 4 Doppelköpfe fit in one hand (only Asse and Zehnen make 40 Augen), got %d", d.name(), p.Doppelkopf)
	}
	// With 40 cards the bound stays the house rules' 40 Augen a Doppelkopf;
	// with 48 checkContent counts the cards.
	if !d.nines && p.Doppelkopf*doppelkopfAugen > s.augen {
		return score.Invalid(field+"doppelkopf", "%s %s has %d Augen, too few for %d Doppelköpfe of 40 Augen each", d.name(), title, s.augen, p.Doppelkopf)
	}
	if p.FuchsGefangen > maxFuechse {
		return score.Invalid(field+"fuchs_gefangen", "%s there are only 2 Füchse, got %d", d.name(), p.FuchsGefangen)
	}
	if p.FuchsGefangen > 0 && !karoAssTrump(game, suit) {
		return score.Invalid(field+"fuchs_gefangen", "the Karo-Ass is not trump in this game, so there is no Fuchs")
	}
	if p.FuchsGefangen > 0 && !s.tookTrick {
		return score.Invalid(field+"fuchs_gefangen", "%s %s took no trick, so it caught no Fuchs", d.name(), title)
	}
	if p.Karlchen && !kreuzBubeTrump(game) {
		return score.Invalid(field+"karlchen", "the Kreuz-Bube is not trump in this game, so there is no Karlchen")
	}
	if p.Karlchen && !s.tookTrick {
		return score.Invalid(field+"karlchen", "%s %s took no trick, so it did not win the last trick", d.name(), title)
	}
	return nil
}

func firstSpecial(p PartyFacts) string {
	switch {
	case p.Doppelkopf > 0:
		return "doppelkopf"
	case p.FuchsGefangen > 0:
		return "fuchs_gefangen"
	}
	return "karlchen"
}

func checkExtras(hd *hand, r Rules, f Facts) error {
	if f.Herzstich && f.Game == GameFarbsolo && f.Suit == "herz" {
		return score.Refuse("facts.herzstich", "Im Herz-Solo ist Herz Trumpf, also gibt es keinen Herzstich. Bitte abwählen.", "in a Herz-Solo hearts are trump, so there is no Herzstich")
	}
	hd.herz = f.Herzstich
	if f.VerworfenBy != nil {
		if !slices.Contains(hd.active, *f.VerworfenBy) {
			return score.Refuse("facts.verworfen_by", notInHand(*f.VerworfenBy, hd.active, "verworfen"), "player %d is not one of the hand's four players", *f.VerworfenBy)
		}
		id := *f.VerworfenBy
		hd.revoker = &id
	}
	if f.Schweinchen == nil {
		return nil
	}
	switch {
	case !r.Schweinchen:
		return score.Refuse("facts.schweinchen", "Schweinchen wird an diesem Tisch nicht gespielt (Tischregeln). Bitte abwählen.", "Schweinchen is not played under this rule set (option schweinchen is off)")
	case !slices.Contains(hd.active, *f.Schweinchen):
		return score.Refuse("facts.schweinchen", notInHand(*f.Schweinchen, hd.active, "Schweinchen"), "player %d is not one of the hand's four players", *f.Schweinchen)
	case !karoAssTrump(f.Game, f.Suit):
		return score.Refuse("facts.schweinchen", "In diesem Spiel ist das Karo-Ass kein Trumpf, also gibt es kein Schweinchen. Bitte abwählen.", "the Karo-Ass is not trump in this game, so there is no Schweinchen")
	}
	hd.schwein, hd.hasSchwein = *f.Schweinchen, true
	return nil
}

// notInHand is the hint for a player named where only the hand's four
// may be (what: "Re", "Kontra", …): who he is not, and whom to choose.
func notInHand(id int64, active []int64, what string) string {
	return score.PlayerRef(id) + " spielt dieses Spiel nicht mit (" + what + "). Wähle unter den vier, die spielen: " + score.PlayerList(active) + "."
}

// withArticle is a game's German name with its dative article, as in
// "bei einem Normalspiel".
func withArticle(name string) string {
	switch name {
	case "Hochzeit", "Armut", "Stille Hochzeit":
		return "einer " + name
	}
	return "einem " + name
}

// spansGerman lists Augen spans as German writes them: "0 bis 8 oder 12".
func spansGerman(spans []span) string {
	if len(spans) == 0 {
		return "keine Zahl von"
	}
	parts := make([]string, len(spans))
	for i, s := range spans {
		if s.lo == s.hi {
			parts[i] = fmt.Sprint(s.lo)
		} else {
			parts[i] = fmt.Sprintf("%d bis %d", s.lo, s.hi)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " oder " + parts[len(parts)-1]
}
