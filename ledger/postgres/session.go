package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// OpenSession opens an evening at a table with its seating. A table has at
// most one open session; date defaults to today in the club's time zone.
func (s *Store) OpenSession(ctx context.Context, a ledger.Actor, tableID int64, date string, seating []int64, idem *ledger.Idempotency) (ledger.Session, bool, error) {
	if err := ledger.CheckSeating("seating", seating); err != nil {
		return ledger.Session{}, false, err
	}
	if date != "" {
		if _, err := ledger.ParseDate("date", date); err != nil {
			return ledger.Session{}, false, err
		}
	}
	var sess ledger.Session
	var replayed bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "session")
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			sess, err = findSession(ctx, tx, a.ClubID, ref)
			return err
		}
		var tz string
		var open *int64
		err = tx.QueryRow(ctx, `
			SELECT c.time_zone, (SELECT session_id FROM sessions s
			                     WHERE s.club_id = t.club_id AND s.table_id = t.table_id AND s.closed_at IS NULL)
			FROM tables t JOIN clubs c USING (club_id)
			WHERE t.club_id = $1 AND t.table_id = $2
			FOR UPDATE OF t`, a.ClubID, tableID).Scan(&tz, &open)
		if err != nil {
			return notFound(err, "table %d", tableID)
		}
		if open != nil {
			return &ledger.Error{Code: ledger.ECONFLICT, Message: fmt.Sprintf("table %d already has an open session %d; close it first", tableID, *open),
				Extra: map[string]any{"open_session": *open}}
		}
		if err := checkPlayers(ctx, tx, a.ClubID, seating); err != nil {
			return err
		}
		if date == "" {
			date = ledger.Today(s.now(), tz)
		}
		var id int64
		if err := tx.QueryRow(ctx, `
			INSERT INTO sessions (club_id, table_id, date) VALUES ($1, $2, $3)
			RETURNING session_id`, a.ClubID, tableID, date).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO session_players (club_id, session_id, seat, player_id)
			SELECT $1, $2, p.seat, p.player_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(player_id, seat)`,
			a.ClubID, id, seating); err != nil {
			return err
		}
		if sess, err = findSession(ctx, tx, a.ClubID, id); err != nil {
			return err
		}
		if err := recordChange(ctx, tx, a.ClubID, change{kind: ledger.ChangeSessionOpened, tableID: &tableID, sessionID: &id,
			data: map[string]any{"date": sess.Date, "seating": sess.Seating}}); err != nil {
			return err
		}
		return remember(ctx, tx, a.ClubID, idem, "session", id)
	})
	return sess, replayed, err
}

// CloseSession freezes a session, no more hands, and stores its
// settlement. Closing a closed session returns it unchanged, so a retried
// close is harmless. The table is locked first, as when recording a hand,
// so no hand can slip in while the evening is settled.
func (s *Store) CloseSession(ctx context.Context, a ledger.Actor, id int64) (ledger.Session, error) {
	var sess ledger.Session
	err := s.tx(ctx, func(tx pgx.Tx) error {
		var err error
		if sess, err = findSession(ctx, tx, a.ClubID, id); err != nil {
			return err
		}
		if _, err := lockTable(ctx, tx, a.ClubID, sess.TableID); err != nil {
			return err
		}
		if sess, err = findSession(ctx, tx, a.ClubID, id); err != nil || !sess.Open() {
			return err
		}
		if err := closeAndSettle(ctx, tx, a, sess); err != nil {
			return err
		}
		sess, err = findSession(ctx, tx, a.ClubID, id)
		return err
	})
	return sess, err
}

// FindSession returns a session of the actor's club.
func (s *Store) FindSession(ctx context.Context, a ledger.Actor, id int64) (ledger.Session, error) {
	sess, err := findSession(ctx, s.pool, a.ClubID, id)
	return sess, mapError(err)
}

// ListSessions returns a table's sessions, newest first.
func (s *Store) ListSessions(ctx context.Context, a ledger.Actor, tableID int64) ([]ledger.Session, error) {
	if _, err := s.FindTable(ctx, a, tableID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, selectSession+` WHERE s.club_id = $1 AND s.table_id = $2 ORDER BY s.session_id DESC`, a.ClubID, tableID)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Session, error) {
		var sess ledger.Session
		return sess, scanSession(r, &sess)
	})
	return list, mapError(err)
}

// SessionStandings returns every player's total of one evening, best first.
func (s *Store) SessionStandings(ctx context.Context, a ledger.Actor, id int64) ([]ledger.Standing, error) {
	if _, err := s.FindSession(ctx, a, id); err != nil {
		return nil, err
	}
	list, err := queryStandings(ctx, s.pool, a.ClubID, id)
	return sortStandings(list), mapError(err)
}

// querier is a pool or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

const selectSession = `
	SELECT s.session_id, s.table_id, to_char(s.date, 'YYYY-MM-DD'), s.opened_at, s.closed_at,
	       ARRAY(SELECT player_id FROM session_players sp
	             WHERE sp.club_id = s.club_id AND sp.session_id = s.session_id ORDER BY seat)
	FROM sessions s`

func findSession(ctx context.Context, q querier, clubID, id int64) (ledger.Session, error) {
	var sess ledger.Session
	err := scanSession(q.QueryRow(ctx, selectSession+` WHERE s.club_id = $1 AND s.session_id = $2`, clubID, id), &sess)
	return sess, notFound(err, "session %d", id)
}

func scanSession(row pgx.Row, s *ledger.Session) error {
	return row.Scan(&s.ID, &s.TableID, &s.Date, &s.OpenedAt, &s.ClosedAt, &s.Seating)
}

// checkPlayers refuses players that are not of the club.
func checkPlayers(ctx context.Context, tx pgx.Tx, clubID int64, ids []int64) error {
	var missing []int64
	err := tx.QueryRow(ctx, `
		SELECT coalesce(array_agg(id), '{}') FROM unnest($2::bigint[]) AS id
		WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.club_id = $1 AND p.player_id = id)`, clubID, ids).Scan(&missing)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return ledger.Invalid("seating", "no player %v in this club", missing)
	}
	return nil
}
