package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// FindSession returns a session of the club.
func (s *Store) FindSession(ctx context.Context, clubID, id int64) (ledger.Session, error) {
	sess, err := findSession(ctx, s.pool, clubID, id)
	return sess, mapError(err)
}

// Session returns a session of the club.
func (t *tx) Session(ctx context.Context, id int64) (ledger.Session, error) {
	return findSession(ctx, t, t.club, id)
}

// ListSessions returns the club's sessions in the filter, oldest first.
func (s *Store) ListSessions(ctx context.Context, clubID int64, f ledger.SessionFilter) ([]ledger.Session, error) {
	return collectSessions(ctx, s.pool, selectSession+`
		WHERE s.club_id = $1 AND s.session_id > $2
		  AND ($3 = 0 OR s.table_id = $3)
		  AND ($4 = '' OR s.date >= $4::date) AND ($5 = '' OR s.date <= $5::date)
		  AND ($6::boolean IS NULL OR (s.closed_at IS NULL) = $6)
		  AND (NOT $8 OR s.closed_at IS NULL
		       OR EXISTS (SELECT 1 FROM hands h WHERE h.club_id = s.club_id AND h.session_id = s.session_id))
		ORDER BY s.session_id
		LIMIT nullif($7, 0)`, clubID, f.Page.After, f.TableID, f.From, f.To, f.Open, f.Page.Limit, f.Played)
}

// SessionsOn returns the club's sessions of a date, oldest first.
func (s *Store) SessionsOn(ctx context.Context, clubID int64, date string) ([]ledger.Session, error) {
	return collectSessions(ctx, s.pool, selectSession+` WHERE s.club_id = $1 AND s.date = $2 ORDER BY s.session_id`, clubID, date)
}

func collectSessions(ctx context.Context, q queryer, query string, args ...any) ([]ledger.Session, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Session, error) {
		var sess ledger.Session
		return sess, scanSession(r, &sess)
	})
	return list, mapError(err)
}

// SessionStandings returns every player's total of one evening, unordered.
func (s *Store) SessionStandings(ctx context.Context, clubID, id int64) ([]ledger.Standing, error) {
	list, err := queryStandings(ctx, s.pool, clubID, id)
	return list, mapError(err)
}

// OpenSessionOf returns the id of the table's open session, 0 if none.
func (t *tx) OpenSessionOf(ctx context.Context, tableID int64) (int64, error) {
	var open int64
	err := t.QueryRow(ctx, `
		SELECT coalesce((SELECT session_id FROM sessions
		                 WHERE club_id = $1 AND table_id = $2 AND closed_at IS NULL), 0)`, t.club, tableID).Scan(&open)
	return open, err
}

// InsertSession stores a new open session with its seating and terms.
func (t *tx) InsertSession(ctx context.Context, tableID int64, date string, seating []int64, terms ledger.Terms) (ledger.Session, error) {
	var id int64
	if err := t.QueryRow(ctx, `
		INSERT INTO sessions (club_id, table_id, date, rules, stake_num, stake_den, settle_mode, match_loss_cents)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		RETURNING session_id`, t.club, tableID, date, terms.Rules, terms.Stake.Num(), terms.Stake.Den(),
		string(terms.SettleMode), terms.MatchLossCents).Scan(&id); err != nil {
		return ledger.Session{}, err
	}
	if _, err := t.Exec(ctx, `
		INSERT INTO session_players (club_id, session_id, seat, player_id)
		SELECT $1, $2, p.seat, p.player_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(player_id, seat)`,
		t.club, id, seating); err != nil {
		return ledger.Session{}, err
	}
	return findSession(ctx, t, t.club, id)
}

// CloseSession marks a session closed now.
func (t *tx) CloseSession(ctx context.Context, id int64) (ledger.Session, error) {
	if _, err := t.Exec(ctx, `UPDATE sessions SET closed_at = now() WHERE club_id = $1 AND session_id = $2`, t.club, id); err != nil {
		return ledger.Session{}, err
	}
	return findSession(ctx, t, t.club, id)
}

const selectSession = `
	SELECT s.session_id, s.table_id, to_char(s.date, 'YYYY-MM-DD'), s.opened_at, s.closed_at,
	       ARRAY(SELECT player_id FROM session_players sp
	             WHERE sp.club_id = s.club_id AND sp.session_id = s.session_id ORDER BY seat),
	       s.rules, s.stake_num, s.stake_den, s.settle_mode, s.match_loss_cents
	FROM sessions s`

func findSession(ctx context.Context, q queryer, clubID, id int64) (ledger.Session, error) {
	var sess ledger.Session
	err := scanSession(q.QueryRow(ctx, selectSession+` WHERE s.club_id = $1 AND s.session_id = $2`, clubID, id), &sess)
	return sess, notFound(err, "session %d", id)
}

func scanSession(row pgx.Row, s *ledger.Session) error {
	var num, den int64
	var mode string
	err := row.Scan(&s.ID, &s.TableID, &s.Date, &s.OpenedAt, &s.ClosedAt, &s.Seating,
		&s.Terms.Rules, &num, &den, &mode, &s.Terms.MatchLossCents)
	s.Terms.Stake, s.Terms.SettleMode = score.Frac(num, max(den, 1)), ledger.SettleMode(mode)
	return err
}
