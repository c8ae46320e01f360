package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// tournamentColumns are the tournament tables' columns, all carried by the
// export document (backup.Tournament).
var tournamentColumns = map[string]string{
	"tournaments":         "club_id tournament_id name date hands_per_round created_at",
	"tournament_tables":   "club_id tournament_id position table_id",
	"tournament_rounds":   "club_id tournament_id round opened_at time_up_at",
	"tournament_sessions": "club_id tournament_id round table_id session_id",
}

// tournamentLedger is a club on PostgreSQL with a tournament of four
// games per round at one table, where every game is a vorgeführt
// Pflichtsolo (four owed, four left: TSR 4.2.3), then a second round whose
// time is ended before its first game.
type tournamentLedger struct {
	db    *postgres.Store
	pool  *pgxpool.Pool
	club  ledger.Club
	admin ledger.Actor
	table ledger.Table
	tr    ledger.Tournament
}

func newTournamentLedger(t *testing.T) tournamentLedger {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.New(t)
	srcDB := postgres.New(pool, pgtest.ChainKey)
	src := srcDB.Service()
	club, secret, err := src.CreateClub(ctx, ledger.NewClub{Name: "Doko-Club Eichel", TimeZone: "Europe/Berlin"})
	must(t, err)
	admin, err := src.Authenticate(ctx, secret)
	must(t, err)
	var seats []int64
	for _, name := range []string{"Anna", "Bernd", "Clara", "Dieter"} {
		p, _, err := src.CreatePlayer(ctx, admin, name, nil)
		must(t, err)
		seats = append(seats, p.ID)
	}
	tb, _, err := src.CreateTable(ctx, admin, ledger.NewTable{Name: "Tisch 1", Game: "doppelkopf", Preset: "ddv",
		Options: json.RawMessage(`{"turnier": true}`)}, nil)
	must(t, err)
	tr, _, err := src.CreateTournament(ctx, admin, ledger.NewTournament{Name: "Blitzturnier", Date: "2026-11-19", HandsPerRound: 4, Tables: []int64{tb.ID}}, nil)
	must(t, err)
	seating := []ledger.RoundSeating{{Table: tb.ID, Players: seats}}
	tr, _, err = src.OpenRound(ctx, admin, tr.ID, seating, nil)
	must(t, err)
	// Dealer Anna: Bernd is vorgeführt, then (the deal moving on) Clara,
	// Dieter and Anna, each winning his Damensolo with 130 (+3, -1 each).
	for i, soloist := range []int64{seats[1], seats[2], seats[3], seats[0]} {
		facts := fmt.Sprintf(`{"game": "damensolo", "solo_kind": "pflicht", "vorgefuehrt": true, "re": {"players": [%d], "augen": 130}}`, soloist)
		_, _, err := src.RecordHand(ctx, admin, ledger.NewHand{TableID: tb.ID, SessionID: tr.Rounds[0].Tables[0].Session, Number: i + 1,
			Facts: json.RawMessage(facts)}, nil)
		must(t, err)
	}
	tr, _, err = src.OpenRound(ctx, admin, tr.ID, seating, nil)
	must(t, err)
	_, err = src.RoundTimeUp(ctx, admin, tr.ID, 2)
	must(t, err)
	return tournamentLedger{db: srcDB, pool: pool, club: club, admin: admin, table: tb, tr: tr}
}

// TestTournamentExportImport: the export carries the tournament and its
// rounds, the import restores them, byte for byte and row for row, and
// both sides show the same tournament and ranking.
func TestTournamentExportImport(t *testing.T) {
	ctx := context.Background()
	l := newTournamentLedger(t)
	srcDB, club, admin, tb, tr := l.db, l.club, l.admin, l.table, l.tr
	src := srcDB.Service()

	first := exportBytes(t, srcDB, club.ID)
	var tournaments []backup.Tournament
	var rounds []backup.TournamentRound
	for _, r := range records(t, first) {
		if r.Tournament != nil {
			tournaments = append(tournaments, *r.Tournament)
		}
		if r.Round != nil {
			rounds = append(rounds, *r.Round)
		}
	}
	if len(tournaments) != 1 || len(rounds) != 2 || rounds[1].TimeUpAt == nil {
		t.Fatalf("the document's tournaments: %+v, rounds %+v", tournaments, rounds)
	}
	dstPool := pgtest.New(t)
	dstDB := postgres.New(dstPool, pgtest.ChainKey)
	_, err := importInto(dstDB, first)
	must(t, err)
	if second := exportBytes(t, dstDB, club.ID); !bytes.Equal(first, second) {
		t.Fatalf("the export of the imported ledger differs at %s", firstDifference(first, second))
	}
	assertVersionsRestarted(t, dstPool)
	for table := range tournamentColumns {
		sameRows(t, table, tableRows(t, l.pool, table, ""), tableRows(t, dstPool, table, ""))
	}
	dst := dstDB.Service()
	a, err := src.FindTournament(ctx, admin, tr.ID)
	must(t, err)
	b, err := dst.FindTournament(ctx, admin, tr.ID)
	must(t, err)
	sameAsJSON(t, "the tournament", a, b)
	ra, err := src.Ranking(ctx, admin, tr.ID)
	must(t, err)
	rb, err := dst.Ranking(ctx, admin, tr.ID)
	must(t, err)
	sameAsJSON(t, "the ranking", ra, rb)
	// Each won his own Damensolo (+3) and lost the three others' (-1 each):
	// everyone 0, all sharing place 1.
	for _, e := range rb.Entries {
		if e.Place != 1 || !e.Points.IsZero() || e.Pflichtsoli != 1 || e.Vorgefuehrt != 1 {
			t.Errorf("the imported ranking: %+v; want place 1, 0 points, one Pflichtsolo vorgeführt", e)
		}
	}
	// Round 2's time is up before a game: its four Pflichtsoli are still
	// owed and played, vorgeführt (TSR 8.6), Bernd first (left of Anna).
	st := b.Rounds[1].Tables[0].Status
	if rb.Complete || len(rb.Entries) != 4 || st.Complete || st.Vorfuehrung == nil || st.Vorfuehrung.Name != "Bernd" || len(st.Owed) != 4 {
		t.Errorf("the imported ranking: complete %v, %d players; round 2: %+v; want incomplete, 4, Bernd vorgeführt", rb.Complete, len(rb.Entries), st)
	}
	// The restored tournament lives on: a new one gets a fresh id.
	again, _, err := dst.CreateTournament(ctx, admin, ledger.NewTournament{Name: "Nachschlag", Date: "2026-11-20", Tables: []int64{tb.ID}}, nil)
	must(t, err)
	if again.ID <= tr.ID {
		t.Errorf("a new tournament got id %d, not past the imported %d", again.ID, tr.ID)
	}
}
