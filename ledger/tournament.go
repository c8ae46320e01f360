package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/ledger/games/doppelkopf"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// Tournament evenings: Doppelkopf as the DDV plays it, by its
// Turnier-Spielregeln (TSR, Stand 21.02.2026; sections 4.2, 4.3, 7.3 and 8
// read the same in the text valid from 1 July 2000). A tournament is a set
// of sessions, one per table and Spielrunde (round), at Doppelkopf tables
// under the ddv preset with the 48-card deck and option turnier. The
// engine judges each hand of a round (Pflichtsolo, Lustsolo, dealer, lead);
// this file holds the rules of the tournament: how many games a round
// has, when a Vorführung is due, when a round is over, the Spielliste and
// the ranking. Flows are in tournament_flow.go, reads in
// tournament_read.go.

// DefaultHandsPerRound is the games of a round at a table of four, TSR
// 8.5.1: "Eine Spielrunde besteht aus 24 Spielen."
const DefaultHandsPerRound = 24

// Bounds of a tournament: a round has room for the four Pflichtsoli.
const (
	MinHandsPerRound     = 4
	MaxHandsPerRound     = 99
	MaxTournamentTables  = 50
	TournamentTableSeats = 4 // TSR 8.3.1: "ausschließlich an Vierer-Tischen"
)

// The kinds of change a tournament writes to the feed.
const (
	ChangeTournamentCreated ChangeKind = "tournament_created"
	ChangeRoundOpened       ChangeKind = "tournament_round_opened"
	ChangeRoundTimeUp       ChangeKind = "tournament_round_time_up"
)

// The kinds of thing a keyed tournament request creates.
const (
	KindTournament Kind = "tournament"
	KindRound      Kind = "tournament_round"
)

// Tournament is a tournament evening: its tables and its rounds. Its rules
// and their TSR paragraphs are stated in the doppelkopf package
// documentation ("Tournament play").
type Tournament struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Date string `json:"date"`
	// HandsPerRound is the games each table plays in a round (redeals do
	// not count), TSR 8.5.1.
	HandsPerRound int               `json:"hands_per_round"`
	Tables        []TournamentTable `json:"tables"`
	Rounds        []Round           `json:"rounds"`
	CreatedAt     time.Time         `json:"created_at"`
}

// TournamentTable is one table of a tournament, in the organizer's order.
type TournamentTable struct {
	Table int64  `json:"table_id"`
	Name  string `json:"name"`
}

// Round is one Spielrunde: a session at every table of the tournament.
type Round struct {
	Number   int       `json:"number"`
	OpenedAt time.Time `json:"opened_at"`
	// TimeUpAt is when the organizer ended the round's playing time (TSR
	// 8.5.1): the games still outstanding are struck, the Pflichtsoli still
	// owed are played, vorgeführt (TSR 8.6).
	TimeUpAt *time.Time   `json:"time_up_at,omitempty"`
	Tables   []RoundTable `json:"tables"`
}

// RoundTable is one table's session of a round and, in reads, where the
// table stands.
type RoundTable struct {
	Table   int64              `json:"table_id"`
	Session int64              `json:"session_id"`
	Seating []TournamentPlayer `json:"seating,omitempty"`
	Status  *TableStatus       `json:"status,omitempty"`
}

// TournamentPlayer is a player named for people.
type TournamentPlayer struct {
	Player int64  `json:"player_id"`
	Name   string `json:"name"`
}

// TableStatus is where a table stands in its round.
type TableStatus struct {
	// Games are the games played (redeals and void hands do not count).
	Games int `json:"games"`
	// GamesLeft are the games still to play of the round's number; 0 once
	// the playing time is up.
	GamesLeft int `json:"games_left"`
	// Owed are the players who have not played their Pflichtsolo yet.
	Owed []TournamentPlayer `json:"pflichtsolo_owed"`
	// Vorfuehrung names the player who must play his Pflichtsolo next,
	// vorgeführt (TSR 4.2.3, 8.6), when one is due.
	Vorfuehrung *TournamentPlayer `json:"vorfuehrung,omitempty"`
	Complete    bool              `json:"complete"`
	Closed      bool              `json:"closed"`
}

// NewTournament is a tournament to create.
type NewTournament struct {
	Name          string
	Date          string // default today in the club's time zone
	HandsPerRound int    // default DefaultHandsPerRound
	Tables        []int64
}

// RoundSeating is one table's seating in a new round, position 1 first:
// position 1 deals first, position 4 keeps the Spielliste (TSR 8.4.1).
type RoundSeating struct {
	Table   int64
	Players []int64
}

// SessionRound is the tournament round a session belongs to, as a hand
// recorded in it needs it.
type SessionRound struct {
	Tournament    int64
	Name          string
	HandsPerRound int
	Round         int
	TimeUp        bool
}

// Validate trims the name, fills in the defaults and refuses what a
// tournament may not be; the tables' rules are checked in the flow.
func (nt *NewTournament) Validate() error {
	nt.Name = strings.TrimSpace(nt.Name)
	if err := CheckName("name", nt.Name, MaxTableNameLen); err != nil {
		return err
	}
	if nt.Date != "" {
		if _, err := ParseDate("date", nt.Date); err != nil {
			return err
		}
	}
	if nt.HandsPerRound == 0 {
		nt.HandsPerRound = DefaultHandsPerRound
	}
	if nt.HandsPerRound < MinHandsPerRound || nt.HandsPerRound > MaxHandsPerRound {
		return Invalid("hands_per_round", "eine Runde hat %d bis %d Spiele, Platz für die vier Pflichtsoli (TSR 8.5.1: 24), nicht %d",
			MinHandsPerRound, MaxHandsPerRound, nt.HandsPerRound)
	}
	if len(nt.Tables) < 1 || len(nt.Tables) > MaxTournamentTables {
		return Invalid("table_ids", "ein Turnier hat 1 bis %d Tische, nicht %d", MaxTournamentTables, len(nt.Tables))
	}
	for i, id := range nt.Tables {
		if slices.Contains(nt.Tables[:i], id) {
			return Invalid(fmt.Sprintf("table_ids[%d]", i), "Tisch %d ist zweimal genannt", id)
		}
	}
	return nil
}

// CheckTournamentTable refuses a table that does not play by the TSR:
// Doppelkopf under the ddv valuation, with 48 cards (TSR 2.2) and option
// turnier.
func CheckTournamentTable(field string, t Table) error {
	if t.Game != doppelkopf.Name {
		return Invalid(field, "Tisch „%s“ spielt %s, ein Turnier wird Doppelkopf gespielt", t.Name, t.Game)
	}
	var r doppelkopf.Rules
	if err := json.Unmarshal(t.Rules, &r); err != nil || r.Valuation != doppelkopf.ValuationDDV || !r.Nines || !r.Turnier {
		return Invalid(field, "Tisch „%s“ spielt nicht nach den TSR: ein Turniertisch hat preset ddv mit 48 Karten (nines) und option turnier", t.Name)
	}
	return nil
}

// tournamentPlay reports whether a table plays by option turnier (for a
// session, the table under the session's terms): only its hands can
// belong to a tournament round.
func tournamentPlay(t Table) bool {
	if t.Game != doppelkopf.Name {
		return false
	}
	var r struct {
		Turnier bool `json:"turnier"`
	}
	return json.Unmarshal(t.Rules, &r) == nil && r.Turnier
}

// CheckSeatings refuses a round's seatings that do not seat every table of
// the tournament once with four players, each player at one table.
func CheckSeatings(tr Tournament, seatings []RoundSeating) error {
	if len(seatings) != len(tr.Tables) {
		return Invalid("seatings", "jeder der %d Tische des Turniers bekommt eine Sitzordnung, nicht %d", len(tr.Tables), len(seatings))
	}
	var seen []int64
	for i, st := range seatings {
		field := fmt.Sprintf("seatings[%d]", i)
		if !slices.ContainsFunc(tr.Tables, func(t TournamentTable) bool { return t.Table == st.Table }) {
			return Invalid(field+".table_id", "Tisch %d gehört nicht zum Turnier „%s“", st.Table, tr.Name)
		}
		if slices.ContainsFunc(seatings[:i], func(o RoundSeating) bool { return o.Table == st.Table }) {
			return Invalid(field+".table_id", "%s hat zwei Sitzordnungen", tableName(tr, st.Table))
		}
		if len(st.Players) != TournamentTableSeats {
			return Invalid(field+".player_ids", "an einem Turniertisch sitzen vier Spieler (TSR 8.3.1), nicht %d", len(st.Players))
		}
		for j, id := range st.Players {
			if slices.Contains(seen, id) {
				return Invalid(fmt.Sprintf("%s.player_ids[%d]", field, j), "Spieler %d sitzt zweimal in dieser Runde", id)
			}
			seen = append(seen, id)
		}
	}
	return nil
}

// tableName is the name of a table of the tournament.
func tableName(tr Tournament, id int64) string {
	for _, t := range tr.Tables {
		if t.Table == id && t.Name != "" {
			return t.Name
		}
	}
	return fmt.Sprintf("Tisch %d", id)
}

// roundAt is one table in a round: what the tournament fixes and where
// the table stands. The rules of the round are its methods.
type roundAt struct {
	round         int
	table         string
	handsPerRound int
	timeUp        bool
	seating       []int64
	// games are the games played; played the players who played their
	// Pflichtsolo, in order; nextDealer deals the next hand.
	games      int
	played     []int64
	nextDealer int64
}

// progress reads where a session stands from the table's state after its
// last hand (the engine counts the games and the Pflichtsoli of the
// session): a state of another session means no hand yet, and then
// position 1 deals (TSR 3.3.1).
func (r *roundAt) progress(state json.RawMessage, sessionID int64) {
	r.games, r.played, r.nextDealer = 0, nil, r.seating[0]
	var st doppelkopf.State
	if len(state) == 0 || json.Unmarshal(state, &st) != nil || st.Session != sessionID {
		return
	}
	r.games, r.played = st.Games, st.Pflichtsoli
	if st.NextDealer != nil && slices.Contains(r.seating, *st.NextDealer) {
		r.nextDealer = *st.NextDealer
	}
}

// owed are the seated players without their Pflichtsolo, in seating order.
func (r roundAt) owed() []int64 {
	var out []int64
	for _, id := range r.seating {
		if !slices.Contains(r.played, id) {
			out = append(out, id)
		}
	}
	return out
}

// left are the games still to play; none once the time is up.
func (r roundAt) left() int {
	if r.timeUp {
		return 0
	}
	return max(r.handsPerRound-r.games, 0)
}

// vorfuehrungDue: TSR 4.2.3, "Ist die Anzahl der nicht gespielten
// Pflichtsoli gleich der Anzahl der noch zu absolvierenden Spiele", and
// TSR 8.6, the time is up and Pflichtsoli are still owed.
func (r roundAt) vorfuehrungDue() bool {
	owed := len(r.owed())
	return owed > 0 && owed >= r.left()
}

// complete: the round's games are played (or its time is up) and every
// player has played his Pflichtsolo (TSR 8.5.1, 8.6).
func (r roundAt) complete() bool {
	return len(r.owed()) == 0 && r.left() == 0
}

// handKind is what the engine's statistics keys say about a hand.
type handKind struct {
	redeal, pflicht, vorgefuehrt, lust bool
	soloist, aufspiel                  int64
}

func kindOf(res score.Result) handKind {
	var k handKind
	for _, s := range res.Stats {
		switch s.Key {
		case string(score.EventRedeal):
			k.redeal = true
		case doppelkopf.StatPflichtsolo:
			k.pflicht, k.soloist = true, s.Player
		case doppelkopf.StatVorgefuehrt:
			k.vorgefuehrt = true
		case doppelkopf.StatLustsolo:
			k.lust, k.soloist = true, s.Player
		case doppelkopf.StatAufspiel:
			k.aufspiel = s.Player
		}
	}
	return k
}

// checkHand refuses a hand the round does not allow: any hand once the
// round is complete; when a Vorführung is due, anything but the
// Pflichtsolo of the player TSR 4.2.3 names, vorgeführt; a Vorführung when
// none is due. name gives the players' names for the refusal.
func (r roundAt) checkHand(res score.Result, name func(int64) string) error {
	if r.complete() {
		return &Error{Code: ECONFLICT, Message: fmt.Sprintf(
			"Runde %d an %s ist vollständig: %d Spiele, jedes Pflichtsolo gespielt (TSR 8.5.1, 8.6); die nächste Runde beginnt mit ihrer Sitzordnung",
			r.round, r.table, r.games)}
	}
	k := kindOf(res)
	if !r.vorfuehrungDue() {
		if k.vorgefuehrt {
			return Invalid("facts.vorgefuehrt", "keine Vorführung fällig: %d Spiele bleiben für %d offene Pflichtsoli (TSR 4.2.3)",
				r.left(), len(r.owed()))
		}
		return nil
	}
	want, _ := doppelkopf.Vorgefuehrt(r.seating, res.Dealer, r.played)
	if k.vorgefuehrt && k.soloist == want {
		return nil
	}
	why := fmt.Sprintf("%d Spiele bleiben, %d Pflichtsoli sind offen (TSR 4.2.3)", r.left(), len(r.owed()))
	if r.timeUp {
		why = "die Spielzeit der Runde ist abgelaufen, offene Pflichtsoli werden noch gespielt (TSR 8.5.1, 8.6)"
	}
	return Invalid("facts.vorgefuehrt", "Vorführung: %s; %s schuldet sein Pflichtsolo und sitzt als Nächster links vom Geber %s, er wird vorgeführt (solo_kind pflicht, vorgefuehrt)",
		why, name(want), name(res.Dealer))
}

// status is where the table stands, for people.
func (r roundAt) status(names map[int64]string, closed bool) *TableStatus {
	st := &TableStatus{Games: r.games, GamesLeft: r.left(), Owed: named(r.owed(), names), Complete: r.complete(), Closed: closed}
	if r.vorfuehrungDue() {
		if id, ok := doppelkopf.Vorgefuehrt(r.seating, r.nextDealer, r.played); ok {
			st.Vorfuehrung = &TournamentPlayer{Player: id, Name: nameOf(id, names)}
		}
	}
	return st
}

// named lists players with their names.
func named(ids []int64, names map[int64]string) []TournamentPlayer {
	out := make([]TournamentPlayer, 0, len(ids))
	for _, id := range ids {
		out = append(out, TournamentPlayer{Player: id, Name: nameOf(id, names)})
	}
	return out
}

// nameOf is a player's name, or "Spieler 12" without one.
func nameOf(id int64, names map[int64]string) string {
	if n := names[id]; n != "" {
		return n
	}
	return fmt.Sprintf("Spieler %d", id)
}
