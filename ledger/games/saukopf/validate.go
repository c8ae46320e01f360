package saukopf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/stichbuch/stichbuch/ledger/score"
)

const (
	augenTotal    = 120
	minBid        = 61
	wildNeed      = 61
	rauborstigBid = 75
	maxHuftritte  = 10
	maxOpenAugen  = 22
)

// Variants and Trog choices.
const (
	vierer    = "vierer"
	dreihaxer = "dreihaxer"
	mitTrog   = "mit"
	ohneTrog  = "ohne"
)

// Contracts.
const (
	cMastschwein  = "mastschwein"
	cSauerei      = "sauerei"
	cKeiler       = "keiler"
	cEber         = "eber"
	cWutz         = "wutz"
	cFerkelparade = "ferkelparade"
	cKnorpel      = "knorpel"
	cSchwarte     = "schwarte"
)

// trumpCount is the number of trumps of each contract, the most Laufende it
// can have.
var trumpCount = map[string]int{
	cMastschwein:  14,
	cSauerei:      14,
	cKeiler:       14,
	cEber:         4,
	cWutz:         4,
	cFerkelparade: 12,
	cKnorpel:      1,
	cSchwarte:     0,
}

const contractList = "mastschwein, sauerei, keiler, eber, wutz, ferkelparade, knorpel or schwarte"

var suits = []string{"eichel", "gras", "herz", "schellen"}

var ranks = []string{"sau", "10", "koenig", "ober", "unter", "9", "8", "7"}

// game is a validated hand, reduced to what the Schlachtfest needs.
type game struct {
	players   []int64 // the hand's players
	dealer    int64
	dreihaxer bool
	trog      string // mitTrog, ohneTrog, or "" in a Vierer
	wild      bool
	tie       string // a Wilde Sauerei without Schlachtfest: the reason
	bid       int    // 61..120; 0 for a schwarz bid
	schwarz   bool
	contract  string // cSauerei for a Wilde Sauerei
	unrein    bool
	amSpiess  bool

	calledSau   string
	trumpSuit   string
	knorpelCard string

	spieler      int64
	mitspieler   int64
	hasMit       bool
	spielerParty []int64

	total       int // Augen in play
	augen       int // Augen of the Spieler party
	tricks      int // tricks of the Spieler party
	otherTricks int // tricks of the Nichtspieler

	hasLauf    bool
	laufHolder int64
	laufCount  int

	huftritte   int
	hasSaukopf  bool
	saukopfBy   int64
	hasHauer    bool
	hauer       int64
	stallgeruch bool

	knorpelHolder int64
	takes         []PlayerTake // Wilde Sauerei only
}

// validate checks the facts against the rules and the deck and returns the
// hand to settle, or a *score.Violation naming the field.
func validate(f Facts, seated []int64) (game, error) {
	g := game{}
	if err := checkTable(f, seated, &g); err != nil {
		return game{}, err
	}
	if err := parseBid(f.Bid, &g); err != nil {
		return game{}, err
	}
	var err error
	if g.wild {
		err = checkWild(f, &g)
	} else {
		err = checkBidHand(f, &g)
	}
	if err != nil {
		return game{}, err
	}
	if err := checkLaufende(f, &g); err != nil {
		return game{}, err
	}
	if err := checkSauereiExtras(f, &g); err != nil {
		return game{}, err
	}
	return g, nil
}

func checkTable(f Facts, seated []int64, g *game) error {
	want := 0
	switch f.Variant {
	case vierer:
		want = 4
	case dreihaxer:
		want = 3
		g.dreihaxer = true
	case "":
		return score.Invalid("facts.variant", `is required: "vierer" or "dreihaxer"`)
	default:
		return score.Invalid("facts.variant", `must be "vierer" or "dreihaxer", got %q`, short(f.Variant))
	}
	if len(f.Players) != want {
		return score.Refuse("facts.players", fmt.Sprintf("Ein %s hat %d Spieler, gewählt sind %d. Bitte die Spieler prüfen.", variantName(g.dreihaxer), want, len(f.Players)), "a %s has %d players, got %d", variantName(g.dreihaxer), want, len(f.Players))
	}
	for i, id := range f.Players {
		field := fmt.Sprintf("facts.players[%d]", i)
		if !slices.Contains(seated, id) {
			return score.Refuse(field, "Mitspielen kann nur, wer heute am Tisch sitzt. Bitte die Spieler prüfen.", "player %d is not seated in this session", id)
		}
		if slices.Contains(f.Players[:i], id) {
			return score.Refuse(field, score.PlayerRef(id)+" ist zweimal gewählt. Bitte verschiedene Spieler wählen.", "player %d is named twice", id)
		}
	}
	if !slices.Contains(seated, f.Dealer) {
		return score.Refuse("facts.dealer", "Wer gibt, muss heute am Tisch sitzen. Bitte den Geber prüfen.", "the dealer %d is not seated in this session", f.Dealer)
	}
	if !g.dreihaxer && f.Trog != "" {
		return score.Invalid("facts.trog", "only a Dreihaxer is played mit or ohne Trog")
	}
	if !g.dreihaxer && f.OpenAugen != nil {
		return score.Invalid("facts.open_augen", "only a Dreihaxer ohne Trog has open cards")
	}
	g.players, g.dealer = f.Players, f.Dealer
	return nil
}

// parseBid reads an integer 61..120, "schwarz", or no bid (Wilde Sauerei).
func parseBid(raw json.RawMessage, g *game) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		g.wild = true
		return nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s != "schwarz" {
			return score.Refuse("facts.bid", "Gereizt wird von 61 bis 120 oder schwarz. Bitte das Gebot prüfen.", `must be an integer 61..120 or "schwarz", got %s`, short(string(raw)))
		}
		g.schwarz = true
		return nil
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil || n < minBid || n > augenTotal {
		return score.Refuse("facts.bid", "Gereizt wird von 61 bis 120 oder schwarz. Bitte das Gebot prüfen.", `must be an integer 61..120 or "schwarz", got %s`, short(string(raw)))
	}
	g.bid = n
	return nil
}

// checkBidHand validates a hand with a bid: the Spieler, the contract and
// its parameters, the Trog, the Spieler party's Augen and tricks,
// Huftritte and Stallgeruch.
func checkBidHand(f Facts, g *game) error {
	if f.PerPlayer != nil {
		return score.Invalid("facts.per_player", "only a Wilde Sauerei (no bid) records each player's Augen; give the Spieler party's augen and tricks")
	}
	if f.Spieler == nil {
		return score.Refuse("facts.spieler", "Wähle den Spieler, der das Spiel gewonnen (gereizt) hat.", "is required: the player who won the bid")
	}
	if !slices.Contains(g.players, *f.Spieler) {
		return score.Refuse("facts.spieler", score.PlayerRef(*f.Spieler)+" spielt dieses Spiel nicht mit. Wähle den Spieler unter "+score.PlayerList(g.players)+".", "player %d does not play this hand", *f.Spieler)
	}
	g.spieler = *f.Spieler
	g.spielerParty = []int64{g.spieler}
	g.amSpiess = f.AmSpiess
	if err := checkContract(f, g); err != nil {
		return err
	}
	if err := checkTrog(f, g); err != nil {
		return err
	}
	if err := checkAugenTricks(f, g); err != nil {
		return err
	}
	if f.Huftritte < 0 || f.Huftritte > maxHuftritte {
		return score.Invalid("facts.huftritte", "must be between 0 and %d, got %d", maxHuftritte, f.Huftritte)
	}
	g.huftritte = f.Huftritte
	return checkStallgeruch(f, g)
}

func checkContract(f Facts, g *game) error {
	if f.Contract == "" {
		return score.Refuse("facts.contract", "Wähle das Spiel (Sauerei, Keiler, Eber, …).", "is required: %s", contractList)
	}
	if _, ok := trumpCount[f.Contract]; !ok {
		return score.Invalid("facts.contract", "must be %s, got %q", contractList, short(f.Contract))
	}
	if err := checkForeignParams(f); err != nil {
		return err
	}
	g.contract = f.Contract
	switch f.Contract {
	case cSauerei:
		return checkSauerei(f, g)
	case cKeiler:
		if !slices.Contains(suits, f.TrumpSuit) {
			return score.Invalid("facts.trump_suit", "a Keiler names its trump suit: eichel, gras, herz or schellen, got %q", short(f.TrumpSuit))
		}
		g.trumpSuit = f.TrumpSuit
	case cKnorpel:
		return checkKnorpel(f, g)
	}
	return nil
}

// checkForeignParams refuses parameters of another contract.
func checkForeignParams(f Facts) error {
	sauerei := f.Contract == cSauerei
	switch {
	case !sauerei && f.CalledSau != "":
		return score.Invalid("facts.called_sau", "only a Sauerei calls a Sau")
	case !sauerei && f.Unrein:
		return score.Invalid("facts.unrein", "only a Sauerei can be unrein")
	case !sauerei && f.Mitspieler != nil:
		return score.Invalid("facts.mitspieler", "only a Sauerei has a Mitspieler; a %s is played alone", f.Contract)
	case f.Contract != cKeiler && f.TrumpSuit != "":
		return score.Invalid("facts.trump_suit", "only a Keiler names a trump suit")
	case f.Contract != cKnorpel && f.KnorpelCard != "":
		return score.Invalid("facts.knorpel_card", "only a Knorpel names a trump card")
	case f.Contract != cKnorpel && f.KnorpelHolder != nil:
		return score.Invalid("facts.knorpel_holder", "only a Knorpel names a trump card and its holder")
	}
	return nil
}

// checkTrog validates the Dreihaxer's Trog and sets the Augen in play.
func checkTrog(f Facts, g *game) error {
	g.total = augenTotal
	if !g.dreihaxer {
		return nil
	}
	switch f.Trog {
	case mitTrog:
		if f.OpenAugen != nil {
			return score.Invalid("facts.open_augen", "a Dreihaxer mit Trog has no open cards: the Trog's Augen are the Spieler's")
		}
	case ohneTrog:
		if f.OpenAugen == nil {
			return score.Invalid("facts.open_augen", "is required in a Dreihaxer ohne Trog: the Augen of the two open cards")
		}
		open := *f.OpenAugen
		if open < 0 || open > maxOpenAugen || !twoCardSum(open) {
			return score.Invalid("facts.open_augen", "two cards cannot make %d Augen (possible: 0, 2..8, 10..15, 20..22)", open)
		}
		g.total = augenTotal - open
	case "":
		return score.Invalid("facts.trog", `is required in a Dreihaxer: "mit" or "ohne"`)
	default:
		return score.Invalid("facts.trog", `must be "mit" or "ohne", got %q`, short(f.Trog))
	}
	g.trog = f.Trog
	return nil
}

// twoCardSum reports whether two cards can be worth a Augen together
// (Sau 11, 10 10, König 4, Ober 3, Unter 2, 9/8/7 0).
func twoCardSum(a int) bool {
	values := []int{0, 2, 3, 4, 10, 11}
	for _, x := range values {
		if slices.Contains(values, a-x) {
			return true
		}
	}
	return false
}

// tricksInHand is the number of tricks of the hand, a Trog counted as one.
func (g *game) tricksInHand() int {
	switch {
	case !g.dreihaxer:
		return 8
	case g.trog == mitTrog:
		return 11
	}
	return 10
}

func checkAugenTricks(f Facts, g *game) error {
	if f.Augen == nil {
		return score.Refuse("facts.augen", "Trag die Augen der Spieler-Partei ein.", "is required: the Augen of the Spieler party")
	}
	if f.Tricks == nil {
		return score.Refuse("facts.tricks", "Trag die Stiche der Spieler-Partei ein.", "is required: the tricks of the Spieler party")
	}
	a, t := *f.Augen, *f.Tricks
	if a < 0 || a > g.total {
		return score.Refuse("facts.augen", fmt.Sprintf("Im Spiel sind %d Augen, also hat die Spieler-Partei 0 bis %d. Bitte die Augen prüfen.", g.total, g.total), "must be between 0 and %d (the Augen in play), got %d", g.total, a)
	}
	all, least := g.tricksInHand(), 0
	if g.trog == mitTrog {
		least = 1
	}
	if t < least || t > all {
		return score.Refuse("facts.tricks", fmt.Sprintf("Die Spieler-Partei hat %d bis %d Stiche. Bitte die Stiche prüfen.", least, all), "must be between %d and %d, got %d", least, all, t)
	}
	switch {
	case t == 0 && a > 0:
		return score.Refuse("facts.augen", "Ohne Stich hat die Spieler-Partei keine Augen. Bitte Augen und Stiche prüfen.", "the Spieler party took no trick, so it has no Augen, got %d", a)
	case t == all && a != g.total:
		return score.Refuse("facts.augen", "Die Gegenspieler haben keinen Stich, also hat die Spieler-Partei alle Augen. Bitte Augen und Stiche prüfen.", "the Nichtspieler took no trick, so the Spieler party has all %d Augen, got %d", g.total, a)
	case a == 1 || g.total-a == 1:
		return score.Refuse("facts.augen", "Keine Karte zählt 1 Auge, also hat keine Partei genau 1 Auge. Bitte die Augen prüfen.", "no card is worth 1 Auge, so neither party can have exactly 1 (got %d of %d)", a, g.total)
	case g.trog == mitTrog && t == 1 && !twoCardSum(a):
		return score.Invalid("facts.augen", "the Spieler's only trick is the Trog, and its two cards cannot make %d Augen", a)
	}
	g.augen, g.tricks, g.otherTricks = a, t, all-t
	return nil
}

func checkStallgeruch(f Facts, g *game) error {
	if !f.Stallgeruch {
		return nil
	}
	switch {
	case g.contract != cSauerei:
		return score.Invalid("facts.stallgeruch", "Stallgeruch is announced only by the Mitspieler of a Sauerei")
	case g.unrein:
		return score.Invalid("facts.stallgeruch", "an Unreine Sauerei has no Mitspieler to announce Stallgeruch")
	case !g.schwarz && g.bid < rauborstigBid:
		return score.Invalid("facts.stallgeruch", "Stallgeruch needs a Sauerei bid at 75 or more (a Rauborstige Sauerei), the bid was %d", g.bid)
	}
	g.stallgeruch = true
	return nil
}

// checkLaufende validates who holds the top trump and the run's length.
func checkLaufende(f Facts, g *game) error {
	l := f.Laufende
	switch g.contract {
	case cSchwarte:
		if l != nil {
			return score.Invalid("facts.laufende", "a Schwarte has no trumps, so no Laufende")
		}
		return nil
	case cKnorpel:
		if l == nil {
			g.hasLauf, g.laufHolder, g.laufCount = true, g.knorpelHolder, 1
			return nil
		}
	case cMastschwein:
		if l == nil {
			return nil
		}
	default:
		if l == nil {
			return score.Invalid("facts.laufende", "is required: the player holding the top trump and the length of his party's run")
		}
	}
	if l.Holder == nil {
		return score.Invalid("facts.laufende.holder", "is required: the player holding the top trump")
	}
	holder := *l.Holder
	if !slices.Contains(g.players, holder) {
		return score.Invalid("facts.laufende.holder", "player %d does not play this hand", holder)
	}
	trumps := trumpCount[g.contract]
	if l.Count < 1 || l.Count > trumps {
		return score.Invalid("facts.laufende.count", "a %s has %d trumps, so 1..%d Laufende, got %d", contractName(g.contract), trumps, trumps, l.Count)
	}
	if cards := g.partyCards(holder); l.Count > cards {
		return score.Invalid("facts.laufende.count", "the party of player %d holds %d cards, so at most %d Laufende, got %d", holder, cards, cards, l.Count)
	}
	if g.contract == cKnorpel && holder != g.knorpelHolder {
		return score.Invalid("facts.laufende.holder", "the Knorpel's only trump is held by player %d", g.knorpelHolder)
	}
	g.hasLauf, g.laufHolder, g.laufCount = true, holder, l.Count
	return nil
}

// partyCards is the number of cards the party of player id holds; in a
// Dreihaxer the Spieler holds 12 (the Trog or the open cards included).
func (g *game) partyCards(id int64) int {
	if g.tie != "" {
		return 16
	}
	n := 0
	for _, p := range g.players {
		if g.sameParty(p, id) {
			n += g.cardsOf(p)
		}
	}
	return n
}

func (g *game) cardsOf(id int64) int {
	switch {
	case !g.dreihaxer:
		return 8
	case id == g.spieler:
		return 12
	}
	return 10
}

func (g *game) inSpielerParty(id int64) bool { return slices.Contains(g.spielerParty, id) }

func (g *game) sameParty(a, b int64) bool { return g.inSpielerParty(a) == g.inSpielerParty(b) }

// short cuts a refused value for an error message.
func short(s string) string {
	const maxLen = 24
	r := []rune(s)
	if len(r) <= maxLen {
		return s
	}
	return string(r[:maxLen]) + "..."
}

func variantName(dreihaxer bool) string {
	if dreihaxer {
		return "Dreihaxer"
	}
	return "Vierer"
}
