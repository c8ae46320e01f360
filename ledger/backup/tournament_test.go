package backup_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// tournamentClub returns the records of a club of eight players at two
// Doppelkopf tables of the TSR (ddv, option turnier), each with an open
// session of four and no hand yet, and a tournament over both tables
// whose round 1 is those sessions. The tournament and its round come last,
// so a test can edit them.
func tournamentClub(t *testing.T) []backup.Record {
	t.Helper()
	options := json.RawMessage(`{"turnier": true}`)
	rules, err := ledger.ResolveRules("doppelkopf", "ddv", options)
	if err != nil {
		t.Fatal(err)
	}
	recs := []backup.Record{{Club: &backup.Club{ID: 1, Name: "Doko-Club Eichel", TimeZone: "Europe/Berlin", CreatedAt: at}}}
	for id := int64(1); id <= 8; id++ {
		recs = append(recs, backup.Record{Player: &backup.Player{ID: id, Name: fmt.Sprintf("Spieler %d", id), CreatedAt: at}})
	}
	for tbl := int64(1); tbl <= 2; tbl++ {
		recs = append(recs,
			backup.Record{Table: &backup.Table{ID: tbl, Name: fmt.Sprintf("Tisch %d", tbl), Game: "doppelkopf", Preset: "ddv", Options: options,
				Rules: rules, Stake: score.Int(0), SettleMode: "transfers", State: json.RawMessage(`{}`), CreatedAt: at}},
			backup.Record{Session: &backup.Session{ID: tbl, TableID: tbl, Date: "2026-11-19",
				Seating: []int64{4*tbl - 3, 4*tbl - 2, 4*tbl - 1, 4 * tbl}, OpenedAt: at,
				Terms: backup.Terms{Rules: rules, Stake: score.Int(0), SettleMode: "transfers"}}})
	}
	return append(recs,
		backup.Record{Tournament: &backup.Tournament{ID: 1, Name: "Herbstturnier", Date: "2026-11-19", HandsPerRound: 24, Tables: []int64{1, 2}, CreatedAt: at}},
		backup.Record{Round: &backup.TournamentRound{TournamentID: 1, Number: 1, OpenedAt: at, Sessions: []int64{1, 2}}})
}

// tournamentRefusals are edits of tournamentClub's records, each with the
// field its refusal names.
var tournamentRefusals = []struct {
	name  string
	edit  func(t *testing.T, recs []backup.Record, tr *backup.Tournament, r *backup.TournamentRound) []backup.Record
	field string
}{
	{"an unknown table", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Tables = []int64{7, 2}
		return recs
	}, "tournament.tables[0]"},
	{"a table twice", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Tables = []int64{1, 1}
		return recs
	}, "tournament.tables[1]"},
	{"a table not of the TSR", func(t *testing.T, recs []backup.Record, _ *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		house, err := ledger.ResolveRules("doppelkopf", "house", nil)
		if err != nil {
			t.Fatal(err)
		}
		table := recs[11].Table
		table.Preset, table.Options, table.Rules = "house", json.RawMessage(`{}`), house
		return recs
	}, "tournament.tables[1]"},
	{"a session at another table", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		r.Sessions = []int64{2, 1}
		return recs
	}, "tournament_round.sessions[0]"},
	{"an unknown session", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		r.Sessions = []int64{9, 2}
		return recs
	}, "tournament_round.sessions[0]"},
	{"a round numbered 2 first", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		r.Number = 2
		return recs
	}, "tournament_round.number"},
	{"a round without its tables' sessions", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		r.Sessions = nil
		return recs
	}, "tournament_round.sessions"},
	{"a round of another tournament", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		r.TournamentID = 2
		return recs
	}, "tournament_round.tournament_id"},
	{"a bad date", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Date = "19.11.2026"
		return recs
	}, "tournament.date"},
	{"no date", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Date = ""
		return recs
	}, "tournament.date"},
	{"sessions of another date", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Date = "2026-11-20"
		return recs
	}, "tournament_round.sessions[0]"},
	{"a name with white space around it", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Name = " Herbstturnier"
		return recs
	}, "tournament.name"},
	{"a name too long", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.Name = strings.Repeat("x", ledger.MaxTableNameLen+1)
		return recs
	}, "tournament.name"},
	{"three games a round", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.HandsPerRound = 3
		return recs
	}, "tournament.hands_per_round"},
	{"no games a round", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		tr.HandsPerRound = 0
		return recs
	}, "tournament.hands_per_round"},
	{"the time up before the round opened", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		early := r.OpenedAt.Add(-time.Hour)
		r.TimeUpAt = &early
		return recs
	}, "tournament_round.time_up_at"},
	{"a player at both tables", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		recs[12].Session.Seating = []int64{5, 6, 7, 1}
		return recs
	}, "tournament_round.sessions[1]"},
	{"three at a table", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		recs[10].Session.Seating = []int64{1, 2, 3}
		return recs
	}, "tournament_round.sessions[0]"},
	{"a second tournament with the same id", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		again := *tr
		return append(recs, backup.Record{Tournament: &again})
	}, "tournament.id"},
	{"a session in two rounds", func(_ *testing.T, recs []backup.Record, tr *backup.Tournament, r *backup.TournamentRound) []backup.Record {
		again, round := *tr, *r
		again.ID, round.TournamentID = 2, 2
		return append(recs, backup.Record{Tournament: &again}, backup.Record{Round: &round})
	}, "tournament_round.sessions[0]"},
	{"a round before its tournament", func(_ *testing.T, recs []backup.Record, _ *backup.Tournament, _ *backup.TournamentRound) []backup.Record {
		n := len(recs)
		recs[n-2], recs[n-1] = recs[n-1], recs[n-2]
		return recs
	}, "tournament_round"},
}

// TestImportTournaments: a document's tournaments pass the API's own
// validation, name its own tables, which play by the TSR, and each round a
// session per table at that table, on the tournament's date, in no other
// round, seated as a round is, numbered 1, 2, 3 …; each refusal names the
// line and the field.
func TestImportTournaments(t *testing.T) {
	f := &fakeStore{}
	in, err := importDoc(f, encode(t, tournamentClub(t)))
	if err != nil || in.Tournaments != 1 {
		t.Fatalf("a valid tournament: %v (imported %+v)", err, in.Summary)
	}
	for _, c := range tournamentRefusals {
		recs := tournamentClub(t)
		n := len(recs)
		recs = c.edit(t, recs, recs[n-2].Tournament, recs[n-1].Round)
		f := &fakeStore{}
		_, err := importDoc(f, encode(t, recs))
		if e := ledger.AsError(err); ledger.ErrorCode(err) != ledger.EINVALID || !strings.HasPrefix(e.Field, "line ") || !strings.HasSuffix(e.Field, ": "+c.field) {
			t.Errorf("%s: %v, want invalid %s", c.name, err, c.field)
		}
		if f.committed {
			t.Errorf("%s: the refused import was committed", c.name)
		}
	}
}
