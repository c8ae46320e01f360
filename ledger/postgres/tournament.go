package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// FindTournament returns a tournament of the club with its tables and
// rounds.
func (s *Store) FindTournament(ctx context.Context, clubID, id int64) (ledger.Tournament, error) {
	tr, err := findTournament(ctx, s.pool, clubID, id, false)
	return tr, mapError(err)
}

// ListTournaments returns a page of the club's tournaments, newest first:
// those older than p.After when it is not 0.
func (s *Store) ListTournaments(ctx context.Context, clubID int64, p ledger.Page) ([]ledger.Tournament, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT tournament_id FROM tournaments WHERE club_id = $1 AND ($2::bigint = 0 OR tournament_id < $2)
		ORDER BY tournament_id DESC LIMIT nullif($3, 0)`, clubID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]ledger.Tournament, 0, len(ids))
	for _, id := range ids {
		tr, err := findTournament(ctx, s.pool, clubID, id, false)
		if err != nil {
			return nil, mapError(err)
		}
		out = append(out, tr)
	}
	return out, nil
}

// InsertTournament stores a new tournament with its tables in order.
func (t *tx) InsertTournament(ctx context.Context, nt ledger.NewTournament) (ledger.Tournament, error) {
	var id int64
	if err := t.QueryRow(ctx, `
		INSERT INTO tournaments (club_id, name, date, hands_per_round) VALUES ($1, $2, $3, $4)
		RETURNING tournament_id`, t.club, nt.Name, nt.Date, nt.HandsPerRound).Scan(&id); err != nil {
		return ledger.Tournament{}, err
	}
	if _, err := t.Exec(ctx, `
		INSERT INTO tournament_tables (club_id, tournament_id, position, table_id)
		SELECT $1, $2, p.position, p.table_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(table_id, position)`,
		t.club, id, nt.Tables); err != nil {
		return ledger.Tournament{}, err
	}
	return findTournament(ctx, t, t.club, id, false)
}

// Tournament reads a tournament of the club.
func (t *tx) Tournament(ctx context.Context, id int64) (ledger.Tournament, error) {
	return findTournament(ctx, t, t.club, id, false)
}

// LockTournament reads a tournament and locks its row until the
// transaction ends.
func (t *tx) LockTournament(ctx context.Context, id int64) (ledger.Tournament, error) {
	return findTournament(ctx, t, t.club, id, true)
}

// InsertRound stores a round with its sessions.
func (t *tx) InsertRound(ctx context.Context, tournamentID int64, r ledger.Round) error {
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO tournament_rounds (club_id, tournament_id, round) VALUES ($1, $2, $3)`, t.club, tournamentID, r.Number)
	for _, rt := range r.Tables {
		b.Queue(`
			INSERT INTO tournament_sessions (club_id, tournament_id, round, table_id, session_id)
			VALUES ($1, $2, $3, $4, $5)`, t.club, tournamentID, r.Number, rt.Table, rt.Session)
	}
	return send(ctx, t, b)
}

// SetRoundTimeUp marks a round's playing time as over now.
func (t *tx) SetRoundTimeUp(ctx context.Context, tournamentID int64, round int) error {
	tag, err := t.Exec(ctx, `
		UPDATE tournament_rounds SET time_up_at = now()
		WHERE club_id = $1 AND tournament_id = $2 AND round = $3`, t.club, tournamentID, round)
	if err == nil && tag.RowsAffected() == 0 {
		return ledger.Errorf(ledger.ENOTFOUND, "round %d of tournament %d not found", round, tournamentID)
	}
	return err
}

// SessionRound returns the tournament round a session belongs to.
func (t *tx) SessionRound(ctx context.Context, sessionID int64) (ledger.SessionRound, bool, error) {
	return sessionRound(ctx, t, t.club, sessionID)
}

// SessionRound returns the tournament round of a session.
func (s *Store) SessionRound(ctx context.Context, clubID, sessionID int64) (ledger.SessionRound, bool, error) {
	r, found, err := sessionRound(ctx, s.pool, clubID, sessionID)
	return r, found, mapError(err)
}

func sessionRound(ctx context.Context, q queryer, clubID, sessionID int64) (ledger.SessionRound, bool, error) {
	var r ledger.SessionRound
	err := q.QueryRow(ctx, `
		SELECT tr.tournament_id, tr.name, tr.hands_per_round, r.round, r.time_up_at IS NOT NULL
		FROM tournament_sessions ts
		JOIN tournament_rounds r USING (club_id, tournament_id, round)
		JOIN tournaments tr USING (club_id, tournament_id)
		WHERE ts.club_id = $1 AND ts.session_id = $2`, clubID, sessionID).
		Scan(&r.Tournament, &r.Name, &r.HandsPerRound, &r.Round, &r.TimeUp)
	if err == pgx.ErrNoRows {
		return r, false, nil
	}
	return r, err == nil, err
}

// findTournament reads a tournament (locking its row when lock is set),
// its tables in order and its rounds with their sessions.
func findTournament(ctx context.Context, q queryer, clubID, id int64, lock bool) (ledger.Tournament, error) {
	query := `
		SELECT tournament_id, name, to_char(date, 'YYYY-MM-DD'), hands_per_round, created_at
		FROM tournaments WHERE club_id = $1 AND tournament_id = $2`
	if lock {
		query += ` FOR UPDATE`
	}
	tr := ledger.Tournament{Tables: []ledger.TournamentTable{}, Rounds: []ledger.Round{}}
	err := q.QueryRow(ctx, query, clubID, id).Scan(&tr.ID, &tr.Name, &tr.Date, &tr.HandsPerRound, &tr.CreatedAt)
	if err != nil {
		return tr, notFound(err, "tournament %d", id)
	}
	rows, err := q.Query(ctx, `
		SELECT tt.table_id, t.name FROM tournament_tables tt JOIN tables t USING (club_id, table_id)
		WHERE tt.club_id = $1 AND tt.tournament_id = $2 ORDER BY tt.position`, clubID, id)
	if err != nil {
		return tr, err
	}
	if tr.Tables, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.TournamentTable, error) {
		var t ledger.TournamentTable
		return t, r.Scan(&t.Table, &t.Name)
	}); err != nil {
		return tr, err
	}
	tr.Rounds, err = tournamentRounds(ctx, q, clubID, id)
	return tr, err
}

// tournamentRounds reads a tournament's rounds with their sessions, in
// the order of the tournament's tables.
func tournamentRounds(ctx context.Context, q queryer, clubID, id int64) ([]ledger.Round, error) {
	rows, err := q.Query(ctx, `
		SELECT r.round, r.opened_at, r.time_up_at, ts.table_id, ts.session_id
		FROM tournament_rounds r
		JOIN tournament_sessions ts USING (club_id, tournament_id, round)
		JOIN tournament_tables tt USING (club_id, tournament_id, table_id)
		WHERE r.club_id = $1 AND r.tournament_id = $2
		ORDER BY r.round, tt.position`, clubID, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rounds := []ledger.Round{}
	for rows.Next() {
		var r ledger.Round
		var opened time.Time
		var rt ledger.RoundTable
		if err := rows.Scan(&r.Number, &opened, &r.TimeUpAt, &rt.Table, &rt.Session); err != nil {
			return nil, err
		}
		if n := len(rounds); n == 0 || rounds[n-1].Number != r.Number {
			r.OpenedAt = opened
			rounds = append(rounds, r)
		}
		last := &rounds[len(rounds)-1]
		last.Tables = append(last.Tables, rt)
	}
	return rounds, rows.Err()
}
