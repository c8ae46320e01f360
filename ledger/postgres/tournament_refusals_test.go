package postgres_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
)

// TestImportRefusesATamperedTournament edits the tournament of an export
// and checks that the import refuses each edit, naming the line and the
// field, and stores nothing.
func TestImportRefusesATamperedTournament(t *testing.T) {
	l := newTournamentLedger(t)
	original := exportBytes(t, l.db, l.club.ID)
	edit := func(fn func([]backup.Record)) []byte {
		return tampered(t, original, func(recs []backup.Record) []backup.Record { fn(recs); return recs })
	}
	tournament := func(recs []backup.Record) *backup.Tournament {
		return first(t, recs, func(r backup.Record) bool { return r.Tournament != nil }).Tournament
	}
	rounds := func(recs []backup.Record) (out []*backup.TournamentRound) {
		for _, r := range recs {
			if r.Round != nil {
				out = append(out, r.Round)
			}
		}
		return out
	}
	change := func(recs []backup.Record, kind ledger.ChangeKind, n int) *backup.Change {
		for _, r := range recs {
			if r.Change != nil && r.Change.Kind == string(kind) {
				if n--; n < 0 {
					return r.Change
				}
			}
		}
		t.Fatalf("the document holds no %s change", kind)
		return nil
	}
	for _, c := range []struct {
		name string
		edit func([]backup.Record)
		want []string
	}{
		{"a name with white space around it", func(recs []backup.Record) { tournament(recs).Name += " " },
			[]string{": tournament.name: must not begin or end with white space"}},
		{"a hundred games a round", func(recs []backup.Record) { tournament(recs).HandsPerRound = 100 },
			[]string{": tournament.hands_per_round: "}},
		{"a table that is not the tournament's", func(recs []backup.Record) { tournament(recs).Tables = []int64{l.table.ID + 1} },
			[]string{": tournament.tables[0]: table", "is not in the document"}},
		{"the time up before the round opened", func(recs []backup.Record) {
			r := rounds(recs)[1]
			early := r.OpenedAt.Add(-time.Minute)
			r.TimeUpAt = &early
		}, []string{": tournament_round.time_up_at: is before the round was opened"}},
		{"the rounds' sessions swapped", func(recs []backup.Record) {
			rs := rounds(recs)
			rs[0].Sessions, rs[1].Sessions = rs[1].Sessions, rs[0].Sessions
		}, []string{": tournament_round: round 2 was opened while session", "of round 1 is open"}},
		{"the tournament renamed in the change feed", func(recs []backup.Record) {
			ch := change(recs, ledger.ChangeTournamentCreated, 0)
			ch.Data = json.RawMessage(strings.Replace(string(ch.Data), "Blitzturnier", "Herbstturnier", 1))
		}, []string{": change.data: names tournament", `as "Herbstturnier"`}},
		{"the tournament's name null in the change feed", func(recs []backup.Record) {
			ch := change(recs, ledger.ChangeTournamentCreated, 0)
			ch.Data = json.RawMessage(strings.Replace(string(ch.Data), `"Blitzturnier"`, `null`, 1))
		}, []string{": change.data.name: must not be null"}},
		{"a session opened for another round", func(recs []backup.Record) {
			ch := change(recs, ledger.ChangeSessionOpened, 0)
			ch.Data = json.RawMessage(strings.Replace(string(ch.Data), `"round":1`, `"round":2`, 1))
		}, []string{": change.data.round: session", "is not round 2 of tournament"}},
		{"a round opened at another session", func(recs []backup.Record) {
			ch := change(recs, ledger.ChangeRoundOpened, 1)
			var d map[string]any
			must(t, json.Unmarshal(ch.Data, &d))
			d["tables"].([]any)[0].(map[string]any)["session"] = float64(rounds(recs)[0].Sessions[0])
			ch.Data, _ = json.Marshal(d)
		}, []string{": change.data.tables: are not the tables and sessions of round 2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			refused(t, edit(c.edit), ledger.EINVALID, c.want...)
		})
	}
}
