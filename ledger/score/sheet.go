package score

import "encoding/json"

// Sheeter is implemented by an engine whose table state says more on a
// score sheet than the hand's points: Klaberjass keeps no points (the dice
// and the matches are the game), Schwarze Sau's tallies start again at 0
// after a payout. It is optional; a report asks for it with a type
// assertion and shows only the points of an engine without it.
type Sheeter interface {
	// Sheet reads what the table's state after a hand (under the hand's
	// rules) means on a score sheet. An empty state is the state before
	// the table's first hand. A state it cannot read is an error.
	Sheet(rules, state json.RawMessage) (Sheet, error)
}

// Sheet is the meaning of a table's state on a score sheet, after a hand.
// Its texts are German and name players by reference (PlayerRef).
type Sheet struct {
	// Heading heads each player's figure on the sheet: "Würfel", "Stand".
	Heading string `json:"heading"`
	// Figures are the figures of the players the state knows, in no
	// particular order; a player without one shows none.
	Figures []Figure `json:"figures"`
	// Summary says what holds for the whole sheet ("Grenze 1521 (1500 +
	// 21.)"); a report shows the last hand's.
	Summary string `json:"summary,omitempty"`
	// Notes say what this state begins ("alle Stände wieder 0"), for the
	// row of the hand that led to it.
	Notes []string `json:"notes,omitempty"`
	// Scored says the game keeps no points of its own: the figures'
	// Progress is its score, and a sheet ranks and charts by it.
	Scored bool `json:"scored,omitempty"`
}

// Figure is one player's figure on a score sheet.
type Figure struct {
	Player int64 `json:"player_id"`
	// Value is the figure: a die, a tally.
	Value Points `json:"value"`
	// Text shows the figure where it says more than the bare value
	// ("6, Partie"); empty: the value.
	Text string `json:"text,omitempty"`
	// Progress is, where the sheet is Scored, how far the player has come
	// at the table in the game's own terms (Klaberjass: 6 for each match
	// won, plus his die); a report takes the evening's difference.
	Progress Points `json:"progress"`
}
