package backup

import (
	"fmt"
	"strings"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
)

// Tournament is a tournament evening (ledger.Tournament): its tables in
// the organizer's order. Its rounds follow it, one line each. The hands
// are the rounds' sessions' own; where a table stands is derived from
// them.
type Tournament struct {
	ID            int64     `json:"id"`
	Name          string    `json:"name"`
	Date          string    `json:"date"`
	HandsPerRound int       `json:"hands_per_round"`
	Tables        []int64   `json:"tables"`
	CreatedAt     time.Time `json:"created_at"`
}

// TournamentRound is a round of a tournament, numbered from 1, with its
// session per table, in the tournament's table order.
type TournamentRound struct {
	TournamentID int64      `json:"tournament_id"`
	Number       int        `json:"number"`
	OpenedAt     time.Time  `json:"opened_at"`
	TimeUpAt     *time.Time `json:"time_up_at"`
	Sessions     []int64    `json:"sessions"`
}

// RoundRow is a round as stored: its sessions with their tables.
type RoundRow struct {
	TournamentRound
	Tables []int64 // the table of each session, the tournament's in order
}

// tournamentRun is a tournament of the document: what its rounds and the
// change feed are checked against.
type tournamentRun struct {
	t      Tournament
	rounds [][]int64 // each round's sessions
}

// takeTournament checks a tournament as creating it would: the API's own
// validation (name, date, games per round, one to 50 tables, none twice),
// every table in the document and one that plays by the TSR.
func (im *importer) takeTournament(t Tournament) error {
	if _, dup := im.tournaments[t.ID]; t.ID <= 0 || dup {
		return im.invalid("tournament.id", "tournament %d is not positive or listed twice", t.ID)
	}
	nt := ledger.NewTournament{Name: t.Name, Date: t.Date, HandsPerRound: t.HandsPerRound, Tables: t.Tables}
	if err := nt.Validate(); err != nil {
		return im.within("tournament", documentField(err, "table_ids", "tables"))
	}
	switch {
	case nt.Name != t.Name:
		return im.invalid("tournament.name", "must not begin or end with white space")
	case t.Date == "":
		return im.invalid("tournament.date", "must be given")
	case nt.HandsPerRound != t.HandsPerRound:
		return im.invalid("tournament.hands_per_round", "must be given")
	}
	for j, id := range t.Tables {
		field := fmt.Sprintf("tournament.tables[%d]", j)
		ref, ok := im.tables[id]
		if !ok {
			return im.invalid(field, "table %d is not in the document", id)
		}
		if err := ledger.CheckTournamentTable(field, ref.t); err != nil {
			return im.invalid(field, "%s", ledger.AsError(err).Rule)
		}
	}
	run := &tournamentRun{t: t}
	im.tournaments[t.ID], im.tournament = run, run
	im.batch.Tournaments = append(im.batch.Tournaments, t)
	im.add(1 + len(t.Tables))
	im.summary.Tournaments++
	return nil
}

// takeRound checks a round of the tournament before it: numbered in
// order, its time up no earlier than it opened, a session per table of the
// tournament, each at that table on the tournament's date and in no other
// round, seated as a round is (CheckSeatings), and every session of the
// round before it closed, as opening a round closes them.
func (im *importer) takeRound(r TournamentRound) error {
	run := im.tournament
	if run == nil || im.stage != stageTournaments {
		return im.invalid("tournament_round", "a round comes after its tournament")
	}
	t := run.t
	switch {
	case r.TournamentID != t.ID:
		return im.invalid("tournament_round.tournament_id", "is %d, the round is listed under tournament %d", r.TournamentID, t.ID)
	case r.Number != len(run.rounds)+1:
		return im.invalid("tournament_round.number", "is %d, want %d: rounds are numbered 1, 2, 3 …", r.Number, len(run.rounds)+1)
	case r.TimeUpAt != nil && r.TimeUpAt.Before(r.OpenedAt):
		return im.invalid("tournament_round.time_up_at", "is before the round was opened")
	case len(r.Sessions) != len(t.Tables):
		return im.invalid("tournament_round.sessions", "holds %d sessions for the tournament's %d tables", len(r.Sessions), len(t.Tables))
	}
	if err := im.previousRoundClosed(run); err != nil {
		return err
	}
	seatings := make([]ledger.RoundSeating, len(r.Sessions))
	for k, id := range r.Sessions {
		s, err := im.roundSession(fmt.Sprintf("tournament_round.sessions[%d]", k), t, k, id)
		if err != nil {
			return err
		}
		seatings[k] = ledger.RoundSeating{Table: s.table, Players: s.seating}
	}
	if err := im.roundSeatings(t, seatings); err != nil {
		return err
	}
	for _, id := range r.Sessions {
		s := im.sessions[id]
		s.tournament, s.round = t.ID, r.Number
		im.sessions[id] = s
	}
	run.rounds = append(run.rounds, r.Sessions)
	im.batch.Rounds = append(im.batch.Rounds, RoundRow{TournamentRound: r, Tables: t.Tables})
	im.add(1 + len(r.Sessions))
	return nil
}

// roundSession refuses the k-th session of a round that is not in the
// document, not at the tournament's k-th table, of another date than the
// tournament's, or in a round already.
func (im *importer) roundSession(field string, t Tournament, k int, id int64) (sessionRef, error) {
	s, ok := im.sessions[id]
	switch {
	case !ok || s.table != t.Tables[k]:
		return s, im.invalid(field, "session %d is not in the document or not at table %d", id, t.Tables[k])
	case s.date != t.Date:
		return s, im.invalid(field, "session %d is of %s, the tournament of %s: a round's sessions are opened at the tournament's date", id, s.date, t.Date)
	case s.tournament != 0:
		return s, im.invalid(field, "session %d is round %d of tournament %d already", id, s.round, s.tournament)
	}
	return s, nil
}

// previousRoundClosed refuses a round while a session of the round before
// it is open: opening a round closes the sessions of the last one.
func (im *importer) previousRoundClosed(run *tournamentRun) error {
	if len(run.rounds) == 0 {
		return nil
	}
	for _, id := range run.rounds[len(run.rounds)-1] {
		if !im.sessions[id].closed {
			return im.invalid("tournament_round", "round %d was opened while session %d of round %d is open", len(run.rounds)+1, id, len(run.rounds))
		}
	}
	return nil
}

// roundSeatings refuses a round whose sessions are not seated as a round
// is (ledger.CheckSeatings), naming the session.
func (im *importer) roundSeatings(t Tournament, seatings []ledger.RoundSeating) error {
	tr := ledger.Tournament{ID: t.ID, Name: t.Name}
	for _, id := range t.Tables {
		tr.Tables = append(tr.Tables, ledger.TournamentTable{Table: id, Name: im.tables[id].t.Name})
	}
	err := ledger.CheckSeatings(tr, seatings)
	if err == nil {
		return nil
	}
	e := ledger.AsError(err)
	field := strings.Replace(e.Field, "seatings", "sessions", 1)
	field, _, _ = strings.Cut(field, ".")
	return im.invalid("tournament_round."+field, "%s", e.Rule)
}

// changeTournament refuses a change whose data names a tournament or a
// round the document does not hold: a tournament's creation must name it
// as it is, a round's opening its tables and sessions, a session opened
// for a round must be that round's.
func (im *importer) changeTournament(c Change, d changeData) error {
	if d.Tournament == nil {
		return nil
	}
	run, ok := im.tournaments[*d.Tournament]
	if !ok {
		return im.invalid("change.data.tournament", "tournament %d is not in the document", *d.Tournament)
	}
	t := run.t
	if d.Round != nil && (*d.Round < 1 || *d.Round > len(run.rounds)) {
		return im.invalid("change.data.round", "tournament %d has no round %d", t.ID, *d.Round)
	}
	switch ledger.ChangeKind(c.Kind) {
	case ledger.ChangeTournamentCreated:
		if *d.Name != t.Name || *d.Date != t.Date || *d.HandsPerRound != t.HandsPerRound {
			return im.invalid("change.data", "names tournament %d as %q of %s with %d games a round, the document holds %q of %s with %d",
				t.ID, *d.Name, *d.Date, *d.HandsPerRound, t.Name, t.Date, t.HandsPerRound)
		}
	case ledger.ChangeRoundOpened:
		if !sameRoundTables(d.Tables, t.Tables, run.rounds[*d.Round-1]) {
			return im.invalid("change.data.tables", "are not the tables and sessions of round %d of tournament %d", *d.Round, t.ID)
		}
	case ledger.ChangeSessionOpened:
		if s := im.sessions[*c.SessionID]; s.tournament != t.ID || s.round != *d.Round {
			return im.invalid("change.data.round", "session %d is not round %d of tournament %d", *c.SessionID, *d.Round, t.ID)
		}
	}
	return nil
}

// sameRoundTables reports whether a change names the tables of a round
// with their sessions, in order.
func sameRoundTables(named []changeRoundSeat, tables, sessions []int64) bool {
	if len(named) != len(tables) || len(named) != len(sessions) {
		return false
	}
	for k, rt := range named {
		if rt.Table != tables[k] || rt.Session != sessions[k] {
			return false
		}
	}
	return true
}

// documentField names a field of the document where the ledger's
// validation names the API's: the document keeps its own member names
// (a tournament's "tables"), whatever the API calls them ("table_ids").
func documentField(err error, api, doc string) error {
	e := ledger.AsError(err)
	if e.Field != api && !strings.HasPrefix(e.Field, api+"[") {
		return err
	}
	renamed := *e
	renamed.Field = doc + strings.TrimPrefix(e.Field, api)
	return &renamed
}
