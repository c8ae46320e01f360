package doppelkopf

import (
	"slices"
)

// Game types a hand may record.
const (
	GameNormal             = "normal"
	GameHochzeit           = "hochzeit"
	GameArmut              = "armut"
	GameFarbsolo           = "farbsolo"
	GameKoehler            = "koehler"
	GameDamensolo          = "damensolo"
	GameBubensolo          = "bubensolo"
	GameFleischloser       = "fleischloser"
	GameKoenigssolo        = "koenigssolo"
	GameStilleHochzeit     = "stille_hochzeit"
	GameSchmeissen         = "schmeissen"
	GameArmutNichtGenommen = "armut_nicht_genommen"
)

var gameNames = []string{
	GameNormal, GameHochzeit, GameArmut, GameFarbsolo, GameKoehler, GameDamensolo,
	GameBubensolo, GameFleischloser, GameStilleHochzeit, GameSchmeissen, GameArmutNichtGenommen,
	GameKoenigssolo,
}

// Suits of a Farbsolo; karo is the Trumpfsolo.
var suitNames = []string{"kreuz", "pik", "herz", "karo"}

// Announcement levels; a level implies all lower ones.
const (
	levelNone = iota
	levelAnnounced
	levelKeine90
	levelKeine60
	levelKeine30
	levelSchwarz
)

var levelWords = []string{"none", "", "keine90", "keine60", "keine30", "schwarz"}

// levelLabels name the Absagen in breakdown lines.
var levelLabels = []string{"", "", "keine 90", "keine 60", "keine 30", "schwarz"}

const (
	totalAugen        = 240
	doppelkopfAugen   = 40 // a trick of Asse and Zehnen only
	maxDoppelkoepfe   = 4  // 8 Asse + 8 Zehnen make at most 4 such tricks
	maxFuechse        = 2
	maxPlayersOfTable = 7
	playersPerHand    = 4
)

// Facts are the recorded facts of one hand.
type Facts struct {
	// Players are the four active players; default: the four seats after
	// the dealer.
	Players []int64 `json:"players,omitempty"`
	// Dealer deals this hand; default: the state's next dealer.
	Dealer *int64 `json:"dealer,omitempty"`
	// Game is the game type (normal, hochzeit, armut, farbsolo, koehler,
	// damensolo, bubensolo, fleischloser, stille_hochzeit, schmeissen,
	// armut_nicht_genommen).
	Game string `json:"game"`
	// Suit is a Farbsolo's suit: kreuz, pik, herz or karo (Trumpfsolo).
	Suit string `json:"suit,omitempty"`
	// Re is the Re party: one player in a solo, two otherwise.
	Re *PartyFacts `json:"re,omitempty"`
	// Kontra is the Kontra party; its players and Augen are derived.
	Kontra *PartyFacts `json:"kontra,omitempty"`
	// Herzstich says a trick of four non-trump hearts was played.
	Herzstich bool `json:"herzstich,omitempty"`
	// VerworfenBy is the player who revoked (falsch bedient), if any.
	VerworfenBy *int64 `json:"verworfen_by,omitempty"`
	// Schweinchen is the player who announced Schweinchen (statistics).
	Schweinchen *int64 `json:"schweinchen,omitempty"`
	// SoloKind is an announced solo's kind in tournament play (option
	// turnier): pflicht (Pflichtsolo) or lust (Lustsolo), TSR 4.1.4.
	SoloKind string `json:"solo_kind,omitempty"`
	// Vorgefuehrt says a Pflichtsolo was vorgeführt (TSR 4.2.3, 8.6).
	Vorgefuehrt bool `json:"vorgefuehrt,omitempty"`
}

// PartyFacts is what one party did.
type PartyFacts struct {
	// Players of the party; required for Re.
	Players []int64 `json:"players,omitempty"`
	// Augen the party took (0..240); required for Re.
	Augen *int `json:"augen,omitempty"`
	// TookTrick says the party took at least one trick; derived from the
	// Augen or the tricks when omitted. With 48 cards a party with 0 Augen
	// may have taken a trick of four nines, so then it (or tricks) must be
	// given.
	TookTrick *bool `json:"took_trick,omitempty"`
	// Tricks counts the tricks the party took (0..10 with 40 cards, 0..12
	// with 48); optional. Given for one party, the other's are the rest.
	Tricks *int `json:"tricks,omitempty"`
	// Announced is the highest level said: none, re (kontra), keine90,
	// keine60, keine30, schwarz.
	Announced string `json:"announced,omitempty"`
	// Doppelkopf counts tricks of 40 Augen or more.
	Doppelkopf int `json:"doppelkopf,omitempty"`
	// FuchsGefangen counts Füchse caught (0..2).
	FuchsGefangen int `json:"fuchs_gefangen,omitempty"`
	// Karlchen says the Kreuz-Bube won or was caught in the last trick.
	Karlchen bool `json:"karlchen,omitempty"`
}

type party int

const (
	noParty party = iota
	reParty
	kontraParty
)

func (p party) other() party {
	switch p {
	case reParty:
		return kontraParty
	case kontraParty:
		return reParty
	}
	return noParty
}

func (p party) String() string {
	if p == kontraParty {
		return "Kontra"
	}
	return "Re"
}

// side is one party as the scoring sees it.
type side struct {
	players    []int64
	augen      int
	tookTrick  bool
	tricks     trickRange
	level      int
	doppelkopf int
	fuchs      int
	karlchen   bool
}

// hand is a validated hand.
type hand struct {
	game    string
	suit    string
	dealer  int64
	active  []int64
	redeal  bool
	solo    bool
	re      side
	kontra  side
	revoker *int64
	herz    bool
	// declaredSolo is an announced solo, counted per player.
	declaredSolo bool
	// lead is the first player named in facts.re.players: the soloist, or
	// in a Hochzeit and an Armut the Hochzeit player and the poor player.
	lead int64
	// schwein is the player who announced Schweinchen, if hasSchwein.
	schwein    int64
	hasSchwein bool
	// soloKind is SoloPflicht or SoloLust in tournament play, else "";
	// vorgefuehrt marks a Pflichtsolo that was vorgeführt.
	soloKind    string
	vorgefuehrt bool
}

func (hd hand) side(p party) side {
	if p == kontraParty {
		return hd.kontra
	}
	return hd.re
}

func (hd hand) partyOf(id int64) party {
	if slices.Contains(hd.re.players, id) {
		return reParty
	}
	return kontraParty
}

func isRedeal(game string) bool {
	return game == GameSchmeissen || game == GameArmutNichtGenommen
}

// isDeclaredSolo reports the solos a player announces.
func isDeclaredSolo(game string) bool {
	switch game {
	case GameFarbsolo, GameKoehler, GameDamensolo, GameBubensolo, GameFleischloser, GameKoenigssolo:
		return true
	}
	return false
}

// karoAssTrump reports whether the Karo-Ass is trump (a Fuchs, a Schwein).
func karoAssTrump(game, suit string) bool {
	switch game {
	case GameNormal, GameHochzeit, GameArmut, GameStilleHochzeit:
		return true
	case GameFarbsolo:
		return suit == "karo"
	}
	return false
}

// kreuzBubeTrump reports whether the Kreuz-Bube is trump (a Karlchen).
func kreuzBubeTrump(game string) bool {
	return game != GameDamensolo && game != GameFleischloser && game != GameKoenigssolo
}
