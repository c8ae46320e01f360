package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger/backup"
)

// Tournaments reads the tournaments by id, each with its tables in the
// organizer's order.
func (e exportTx) Tournaments(ctx context.Context) (backup.Cursor[backup.Tournament], error) {
	return openCursor(ctx, e, "export_tournaments", `
		SELECT tournament_id, name, to_char(date, 'YYYY-MM-DD'), hands_per_round, created_at,
		       ARRAY(SELECT table_id FROM tournament_tables tt
		             WHERE tt.club_id = t.club_id AND tt.tournament_id = t.tournament_id ORDER BY position)
		FROM tournaments t WHERE club_id = $1 ORDER BY tournament_id`,
		func(r pgx.CollectableRow) (backup.Tournament, error) {
			var t backup.Tournament
			err := r.Scan(&t.ID, &t.Name, &t.Date, &t.HandsPerRound, &t.CreatedAt, &t.Tables)
			t.CreatedAt = t.CreatedAt.UTC()
			return t, err
		})
}

// TournamentRounds reads the rounds by tournament and number, each with
// its sessions in the tournament's table order.
func (e exportTx) TournamentRounds(ctx context.Context) (backup.Cursor[backup.TournamentRound], error) {
	return openCursor(ctx, e, "export_rounds", `
		SELECT r.tournament_id, r.round, r.opened_at, r.time_up_at,
		       ARRAY(SELECT ts.session_id FROM tournament_sessions ts
		             JOIN tournament_tables tt USING (club_id, tournament_id, table_id)
		             WHERE ts.club_id = r.club_id AND ts.tournament_id = r.tournament_id AND ts.round = r.round
		             ORDER BY tt.position)
		FROM tournament_rounds r WHERE r.club_id = $1 ORDER BY r.tournament_id, r.round`,
		func(r pgx.CollectableRow) (backup.TournamentRound, error) {
			var rd backup.TournamentRound
			err := r.Scan(&rd.TournamentID, &rd.Number, &rd.OpenedAt, &rd.TimeUpAt, &rd.Sessions)
			rd.OpenedAt, rd.TimeUpAt = rd.OpenedAt.UTC(), utcOrNil(rd.TimeUpAt)
			return rd, err
		})
}

// queueTournaments queues the inserts of a batch's tournaments with their
// tables, then its rounds with their sessions.
func queueTournaments(q *pgx.Batch, club int64, b *backup.Batch) {
	for _, t := range b.Tournaments {
		q.Queue(`
			INSERT INTO tournaments (club_id, tournament_id, name, date, hands_per_round, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, t.ID, t.Name, t.Date, t.HandsPerRound, t.CreatedAt)
		q.Queue(`
			INSERT INTO tournament_tables (club_id, tournament_id, position, table_id)
			SELECT $1, $2, p.position, p.table_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(table_id, position)`,
			club, t.ID, t.Tables)
	}
	for _, r := range b.Rounds {
		q.Queue(`
			INSERT INTO tournament_rounds (club_id, tournament_id, round, opened_at, time_up_at)
			VALUES ($1, $2, $3, $4, $5)`, club, r.TournamentID, r.Number, r.OpenedAt, r.TimeUpAt)
		q.Queue(`
			INSERT INTO tournament_sessions (club_id, tournament_id, round, table_id, session_id)
			SELECT $1, $2, $3, s.table_id, s.session_id FROM unnest($4::bigint[], $5::bigint[]) AS s(table_id, session_id)`,
			club, r.TournamentID, r.Number, r.Tables, r.Sessions)
	}
}
