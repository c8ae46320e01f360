package postgres

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// CreateTable creates a table with its resolved rule set.
func (s *Store) CreateTable(ctx context.Context, a ledger.Actor, nt ledger.NewTable, idem *ledger.Idempotency) (ledger.Table, bool, error) {
	nt.Name = strings.TrimSpace(nt.Name)
	if err := ledger.CheckName("name", nt.Name, 100); err != nil {
		return ledger.Table{}, false, err
	}
	if err := ledger.CheckStake(nt.Stake); err != nil {
		return ledger.Table{}, false, err
	}
	if nt.SettleMode == "" {
		nt.SettleMode = ledger.SettleTransfers
	}
	if !ledger.ValidSettleMode(nt.SettleMode) {
		return ledger.Table{}, false, ledger.Invalid("settle_mode", "must be transfers, kitty or losers_to_kitty, got %q", nt.SettleMode)
	}
	if nt.MatchLossCents < 0 || nt.MatchLossCents > 1_000_000 {
		return ledger.Table{}, false, ledger.Invalid("match_loss_cents", "must be between 0 and 1000000")
	}
	rules, err := ledger.ResolveRules(nt.Game, nt.Preset, nt.Options)
	if err != nil {
		return ledger.Table{}, false, err
	}
	var preset struct {
		Preset string `json:"preset"`
	}
	_ = json.Unmarshal(rules, &preset)
	if len(nt.Options) == 0 {
		nt.Options = json.RawMessage(`{}`)
	}
	var t ledger.Table
	var replayed bool
	err = s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "table")
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			return scanTable(tx.QueryRow(ctx, selectTable+` WHERE club_id = $1 AND table_id = $2`, a.ClubID, ref), &t)
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM tables WHERE club_id = $1 AND name = $2)`, a.ClubID, nt.Name).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return &ledger.Error{Code: ledger.ECONFLICT, Message: "a table of this club is already called " + nt.Name, Field: "name", Rule: "table names are unique within a club"}
		}
		err = scanTable(tx.QueryRow(ctx, `
			INSERT INTO tables (club_id, name, game, preset, options, rules, stake_num, stake_den, settle_mode, match_loss_cents)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			RETURNING `+tableColumns, a.ClubID, nt.Name, nt.Game, preset.Preset, nt.Options, rules, nt.Stake.Num(), nt.Stake.Den(),
			nt.SettleMode, nt.MatchLossCents), &t)
		if err != nil {
			return err
		}
		return remember(ctx, tx, a.ClubID, idem, "table", t.ID)
	})
	return t, replayed, err
}

// FindTable returns a table of the actor's club.
func (s *Store) FindTable(ctx context.Context, a ledger.Actor, id int64) (ledger.Table, error) {
	var t ledger.Table
	err := scanTable(s.pool.QueryRow(ctx, selectTable+` WHERE club_id = $1 AND table_id = $2`, a.ClubID, id), &t)
	return t, notFound(err, "table %d", id)
}

// ListTables returns the club's tables by name.
func (s *Store) ListTables(ctx context.Context, a ledger.Actor) ([]ledger.Table, error) {
	rows, err := s.pool.Query(ctx, selectTable+` WHERE club_id = $1 ORDER BY name`, a.ClubID)
	if err != nil {
		return nil, mapError(err)
	}
	tables, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Table, error) {
		var t ledger.Table
		return t, scanTable(r, &t)
	})
	return tables, mapError(err)
}

// TableStandings returns every player's total at a table, best first.
func (s *Store) TableStandings(ctx context.Context, a ledger.Actor, tableID int64) ([]ledger.Standing, error) {
	if _, err := s.FindTable(ctx, a, tableID); err != nil {
		return nil, err
	}
	list, err := collectStandings(ctx, s.pool, `
		SELECT t.player_id, p.name, t.num, t.den, t.hands
		FROM table_totals t JOIN players p USING (club_id, player_id)
		WHERE t.club_id = $1 AND t.table_id = $2`, a.ClubID, tableID)
	return sortStandings(list), mapError(err)
}

// queryStandings returns a session's totals per player, unordered.
func queryStandings(ctx context.Context, q queryer, clubID, sessionID int64) ([]ledger.Standing, error) {
	return collectStandings(ctx, q, `
		SELECT t.player_id, p.name, t.num, t.den, t.hands
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
		err := r.Scan(&st.Player, &st.Name, &num, &den, &st.Hands)
		st.Points = score.Frac(num, den)
		return st, err
	})
	if list == nil {
		list = []ledger.Standing{}
	}
	return list, err
}

// sortStandings orders standings exactly: most points first, then by name.
func sortStandings(list []ledger.Standing) []ledger.Standing {
	slices.SortFunc(list, func(x, y ledger.Standing) int {
		if c := y.Points.Cmp(x.Points); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
	return list
}

const tableColumns = `table_id, name, game, preset, options, rules, stake_num, stake_den, settle_mode, match_loss_cents, hands, state, created_at`

const selectTable = `SELECT ` + tableColumns + ` FROM tables`

func scanTable(row pgx.Row, t *ledger.Table) error {
	var num, den int64
	err := row.Scan(&t.ID, &t.Name, &t.Game, &t.Preset, &t.Options, &t.Rules, &num, &den, &t.SettleMode, &t.MatchLossCents, &t.Hands, &t.State, &t.CreatedAt)
	t.Stake = score.Frac(num, max(den, 1))
	return err
}

// notFound gives a missing row a message naming what was looked for.
func notFound(err error, format string, args ...any) error {
	if err == pgx.ErrNoRows {
		return ledger.Errorf(ledger.ENOTFOUND, format+" not found", args...)
	}
	return mapError(err)
}
