package backup_test

import (
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
)

// TestCheckTournaments: a document's tournaments refer to its own tables
// and sessions, a round's session per table at that table, rounds
// numbered 1, 2, 3 ….
func TestCheckTournaments(t *testing.T) {
	at := time.Date(2026, 11, 19, 20, 0, 0, 0, time.UTC)
	valid := func() backup.Tournament {
		return backup.Tournament{ID: 1, Name: "Herbstturnier", Date: "2026-11-19", HandsPerRound: 24, Tables: []int64{1}, CreatedAt: at,
			Rounds: []backup.TournamentRound{{Number: 1, OpenedAt: at, Sessions: []int64{1}}}}
	}
	d := document(t)
	d.Tournaments = []backup.Tournament{valid()}
	if err := d.Check(); err != nil {
		t.Fatalf("a valid tournament: %v", err)
	}
	for _, c := range []struct {
		name  string
		edit  func(*backup.Document, *backup.Tournament)
		field string
	}{
		{"an unknown table", func(_ *backup.Document, tr *backup.Tournament) { tr.Tables = []int64{7} }, "tournaments[0].tables[0]"},
		{"a table twice", func(_ *backup.Document, tr *backup.Tournament) { tr.Tables = []int64{1, 1} }, "tournaments[0].tables[1]"},
		{"a session at another table", func(d *backup.Document, tr *backup.Tournament) {
			other := d.Tables[0]
			other.ID, other.Name, other.Hands = 2, "Freitag", 0
			d.Tables = append(d.Tables, other)
			tr.Tables = []int64{2}
		}, "tournaments[0].rounds[0].sessions[0]"},
		{"an unknown session", func(_ *backup.Document, tr *backup.Tournament) { tr.Rounds[0].Sessions = []int64{9} }, "tournaments[0].rounds[0].sessions[0]"},
		{"a round numbered 2 first", func(_ *backup.Document, tr *backup.Tournament) { tr.Rounds[0].Number = 2 }, "tournaments[0].rounds[0].number"},
		{"a round without its table's session", func(_ *backup.Document, tr *backup.Tournament) { tr.Rounds[0].Sessions = nil }, "tournaments[0].rounds[0].sessions"},
		{"a bad date", func(_ *backup.Document, tr *backup.Tournament) { tr.Date = "19.11.2026" }, "tournaments[0].date"},
		{"a second tournament with the same id", nil, "tournaments[1].id"},
	} {
		d := document(t)
		tr := valid()
		d.Tournaments = []backup.Tournament{tr}
		if c.edit != nil {
			c.edit(d, &d.Tournaments[0])
		} else {
			d.Tournaments = append(d.Tournaments, valid())
		}
		err := d.Check()
		if e := ledger.AsError(err); ledger.ErrorCode(err) != ledger.EINVALID || e.Field != c.field {
			t.Errorf("%s: %v, want invalid %s", c.name, err, c.field)
		}
	}
}
