package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// FindTable returns a table of the club.
func (s *Store) FindTable(ctx context.Context, clubID, id int64) (ledger.Table, error) {
	return findTable(ctx, s.pool, clubID, id)
}

// Table reads a table of the club without locking it.
func (t *tx) Table(ctx context.Context, id int64) (ledger.Table, error) {
	return findTable(ctx, t, t.club, id)
}

func findTable(ctx context.Context, q queryer, clubID, id int64) (ledger.Table, error) {
	var t ledger.Table
	err := scanTable(q.QueryRow(ctx, selectTable+` WHERE club_id = $1 AND table_id = $2`, clubID, id), &t)
	return t, notFound(err, "table %d", id)
}

// ListTables returns a page of the club's tables by name, then id: those
// after the table p.After (none when that is no table of the club).
func (s *Store) ListTables(ctx context.Context, clubID int64, p ledger.Page) ([]ledger.Table, error) {
	rows, err := s.pool.Query(ctx, selectTable+`
		WHERE club_id = $1 AND ($2::bigint = 0 OR (name, table_id) > (
			SELECT name, table_id FROM tables WHERE club_id = $1 AND table_id = $2))
		ORDER BY name, table_id LIMIT nullif($3, 0)`, clubID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	tables, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Table, error) {
		var t ledger.Table
		return t, scanTable(r, &t)
	})
	return tables, mapError(err)
}

// TableByName returns the club's table called name, if there is one.
func (t *tx) TableByName(ctx context.Context, name string) (ledger.Table, bool, error) {
	var tb ledger.Table
	err := scanTable(t.QueryRow(ctx, selectTable+` WHERE club_id = $1 AND name = $2`, t.club, name), &tb)
	if err == pgx.ErrNoRows {
		return tb, false, nil
	}
	return tb, err == nil, err
}

// InsertTable stores a new table with its resolved rule set.
func (t *tx) InsertTable(ctx context.Context, nt ledger.NewTable, rules json.RawMessage, preset string) (ledger.Table, error) {
	var tb ledger.Table
	err := scanTable(t.QueryRow(ctx, `
		INSERT INTO tables (club_id, name, game, preset, options, rules, stake_num, stake_den, settle_mode, match_loss_cents)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		RETURNING `+tableColumns, t.club, nt.Name, nt.Game, preset, nt.Options, rules, nt.Stake.Num(), nt.Stake.Den(),
		string(nt.SettleMode), nt.MatchLossCents), &tb)
	return tb, err
}

// UpdateTable stores a table's name and settings.
func (t *tx) UpdateTable(ctx context.Context, tb ledger.Table) error {
	_, err := t.Exec(ctx, `
		UPDATE tables SET name = $3, options = $4, rules = $5, stake_num = $6, stake_den = $7, settle_mode = $8, match_loss_cents = $9
		WHERE club_id = $1 AND table_id = $2`,
		t.club, tb.ID, tb.Name, tb.Options, tb.Rules, tb.Stake.Num(), tb.Stake.Den(), string(tb.SettleMode), tb.MatchLossCents)
	return err
}

// LockTable reads a table, locks its row until the transaction ends and
// bumps its version (so a hand decided from an older read fails its
// compare-and-set).
func (t *tx) LockTable(ctx context.Context, id int64) (ledger.Table, error) {
	var tb ledger.Table
	err := scanTable(t.QueryRow(ctx, `
		UPDATE tables SET version = version + 1 WHERE club_id = $1 AND table_id = $2
		RETURNING `+tableColumns, t.club, id), &tb)
	return tb, notFound(err, "table %d", id)
}

// SetTableState stores a table's state after its last hand.
func (t *tx) SetTableState(ctx context.Context, tableID int64, state json.RawMessage) error {
	_, err := t.Exec(ctx, `UPDATE tables SET state = $3 WHERE club_id = $1 AND table_id = $2`, t.club, tableID, state)
	return err
}

// TableStandings returns every player's total at a table, unordered.
func (s *Store) TableStandings(ctx context.Context, clubID, tableID int64) ([]ledger.Standing, error) {
	list, err := collectStandings(ctx, s.pool, `
		SELECT t.player_id, p.name, t.num, t.den, t.played, t.sat_out, t.hands
		FROM table_totals t JOIN players p USING (club_id, player_id)
		WHERE t.club_id = $1 AND t.table_id = $2`, clubID, tableID)
	return list, mapError(err)
}

// queryStandings returns a session's totals per player, unordered.
func queryStandings(ctx context.Context, q queryer, clubID, sessionID int64) ([]ledger.Standing, error) {
	return collectStandings(ctx, q, `
		SELECT t.player_id, p.name, t.num, t.den, t.played, t.sat_out, t.hands
		FROM session_totals t JOIN players p USING (club_id, player_id)
		WHERE t.club_id = $1 AND t.session_id = $2`, clubID, sessionID)
}

func collectStandings(ctx context.Context, q queryer, query string, args ...any) ([]ledger.Standing, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Standing, error) {
		var st ledger.Standing
		var num, den int64
		err := r.Scan(&st.Player, &st.Name, &num, &den, &st.Hands, &st.SatOut, &st.Entries)
		st.Points = score.Frac(num, den)
		return st, err
	})
	if list == nil {
		list = []ledger.Standing{}
	}
	return list, err
}

const tableColumns = `table_id, name, game, preset, options, rules, stake_num, stake_den, settle_mode, match_loss_cents, hands, state, created_at, version, last_hash`

const selectTable = `SELECT ` + tableColumns + ` FROM tables`

func scanTable(row pgx.Row, t *ledger.Table) error {
	var num, den int64
	var mode string
	err := row.Scan(&t.ID, &t.Name, &t.Game, &t.Preset, &t.Options, &t.Rules, &num, &den, &mode, &t.MatchLossCents, &t.Hands, &t.State, &t.CreatedAt, &t.Version, &t.ChainHead)
	t.Stake, t.SettleMode = score.Frac(num, max(den, 1)), ledger.SettleMode(mode)
	return err
}

// notFound gives a missing row a message naming what was looked for.
func notFound(err error, format string, args ...any) error {
	if err == pgx.ErrNoRows {
		return ledger.Errorf(ledger.ENOTFOUND, format+" not found", args...)
	}
	return mapError(err)
}
