package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger/backup"
)

// readTournaments reads the club's tournaments, by id, each with its
// tables in order and its rounds with their sessions in table order.
func readTournaments(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	clubID := d.Club.ID
	if err := exportRows(ctx, tx, &d.Tournaments, `
		SELECT tournament_id, name, to_char(date, 'YYYY-MM-DD'), hands_per_round, created_at,
		       ARRAY(SELECT table_id FROM tournament_tables tt
		             WHERE tt.club_id = t.club_id AND tt.tournament_id = t.tournament_id ORDER BY position)
		FROM tournaments t WHERE club_id = $1 ORDER BY tournament_id`, clubID,
		func(r pgx.CollectableRow) (backup.Tournament, error) {
			tr := backup.Tournament{Rounds: []backup.TournamentRound{}}
			err := r.Scan(&tr.ID, &tr.Name, &tr.Date, &tr.HandsPerRound, &tr.CreatedAt, &tr.Tables)
			tr.CreatedAt = tr.CreatedAt.UTC()
			return tr, err
		}); err != nil {
		return err
	}
	for i := range d.Tournaments {
		tr := &d.Tournaments[i]
		rows, err := tx.Query(ctx, `
			SELECT r.round, r.opened_at, r.time_up_at,
			       ARRAY(SELECT ts.session_id FROM tournament_sessions ts
			             JOIN tournament_tables tt USING (club_id, tournament_id, table_id)
			             WHERE ts.club_id = r.club_id AND ts.tournament_id = r.tournament_id AND ts.round = r.round
			             ORDER BY tt.position)
			FROM tournament_rounds r WHERE r.club_id = $1 AND r.tournament_id = $2 ORDER BY r.round`, clubID, tr.ID)
		if err != nil {
			return mapError(err)
		}
		rounds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (backup.TournamentRound, error) {
			var rd backup.TournamentRound
			err := r.Scan(&rd.Number, &rd.OpenedAt, &rd.TimeUpAt, &rd.Sessions)
			rd.OpenedAt, rd.TimeUpAt = rd.OpenedAt.UTC(), utcOrNil(rd.TimeUpAt)
			return rd, err
		})
		if err != nil {
			return mapError(err)
		}
		if rounds != nil {
			tr.Rounds = rounds
		}
	}
	return nil
}

// importTournaments inserts the tournaments as they were.
func importTournaments(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	club := d.Club.ID
	b := &pgx.Batch{}
	for _, tr := range d.Tournaments {
		b.Queue(`
			INSERT INTO tournaments (club_id, tournament_id, name, date, hands_per_round, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, tr.ID, tr.Name, tr.Date, tr.HandsPerRound, tr.CreatedAt)
		b.Queue(`
			INSERT INTO tournament_tables (club_id, tournament_id, position, table_id)
			SELECT $1, $2, p.position, p.table_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(table_id, position)`,
			club, tr.ID, tr.Tables)
		for _, r := range tr.Rounds {
			b.Queue(`
				INSERT INTO tournament_rounds (club_id, tournament_id, round, opened_at, time_up_at)
				VALUES ($1, $2, $3, $4, $5)`, club, tr.ID, r.Number, r.OpenedAt, r.TimeUpAt)
			for k, s := range r.Sessions {
				b.Queue(`
					INSERT INTO tournament_sessions (club_id, tournament_id, round, table_id, session_id)
					VALUES ($1, $2, $3, $4, $5)`, club, tr.ID, r.Number, tr.Tables[k], s)
			}
		}
	}
	return send(ctx, tx, b)
}
