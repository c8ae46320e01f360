package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// ListPlayers returns a page of the club's players by name, then id: those
// after the player p.After (none when that is no player of the club).
func (s *Store) ListPlayers(ctx context.Context, clubID int64, p ledger.Page) ([]ledger.Player, error) {
	rows, err := s.pool.Query(ctx, selectPlayer+`
		WHERE club_id = $1 AND ($2::bigint = 0 OR (name, player_id) > (
			SELECT name, player_id FROM players WHERE club_id = $1 AND player_id = $2))
		ORDER BY name, player_id LIMIT nullif($3, 0)`, clubID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	players, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Player, error) {
		var p ledger.Player
		return p, scanPlayer(r, &p)
	})
	return players, mapError(err)
}

// FindPlayer returns a player of the club.
func (s *Store) FindPlayer(ctx context.Context, clubID, id int64) (ledger.Player, error) {
	return findPlayer(ctx, s.pool, clubID, id)
}

// FindPlayer returns a player of the club.
func (t *tx) FindPlayer(ctx context.Context, id int64) (ledger.Player, error) {
	return findPlayer(ctx, t, t.club, id)
}

func findPlayer(ctx context.Context, q queryer, clubID, id int64) (ledger.Player, error) {
	var p ledger.Player
	err := scanPlayer(q.QueryRow(ctx, selectPlayer+` WHERE club_id = $1 AND player_id = $2`, clubID, id), &p)
	return p, notFound(err, "player %d", id)
}

// PlayerByName returns the player called name, if there is one.
func (t *tx) PlayerByName(ctx context.Context, name string) (ledger.Player, bool, error) {
	var p ledger.Player
	err := scanPlayer(t.QueryRow(ctx, selectPlayer+` WHERE club_id = $1 AND name = $2`, t.club, name), &p)
	if err == pgx.ErrNoRows {
		return p, false, nil
	}
	return p, err == nil, err
}

// InsertPlayer stores a new player of the club.
func (t *tx) InsertPlayer(ctx context.Context, name string, guest bool) (ledger.Player, error) {
	var p ledger.Player
	err := scanPlayer(t.QueryRow(ctx, `
		INSERT INTO players (club_id, name, guest) VALUES ($1, $2, $3)
		RETURNING player_id, name, retired, guest, created_at`, t.club, name, guest), &p)
	return p, err
}

// UpdatePlayer stores a player's name, whether he retired and whether he is a guest.
func (t *tx) UpdatePlayer(ctx context.Context, p ledger.Player) (ledger.Player, error) {
	var out ledger.Player
	err := scanPlayer(t.QueryRow(ctx, `
		UPDATE players SET name = $3, retired = $4, guest = $5 WHERE club_id = $1 AND player_id = $2
		RETURNING player_id, name, retired, guest, created_at`, t.club, p.ID, p.Name, p.Retired, p.Guest), &out)
	return out, notFound(err, "player %d", p.ID)
}

// RetiredPlayers returns those of ids that are retired players of the club.
func (t *tx) RetiredPlayers(ctx context.Context, ids []int64) ([]int64, error) {
	var retired []int64
	err := t.QueryRow(ctx, `
		SELECT coalesce(array_agg(player_id ORDER BY player_id), '{}') FROM players
		WHERE club_id = $1 AND player_id = ANY($2::bigint[]) AND retired`, t.club, ids).Scan(&retired)
	return retired, err
}

// MissingPlayers returns those of ids that are not players of the club.
func (t *tx) MissingPlayers(ctx context.Context, ids []int64) ([]int64, error) {
	var missing []int64
	err := t.QueryRow(ctx, `
		SELECT coalesce(array_agg(id), '{}') FROM unnest($2::bigint[]) AS id
		WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.club_id = $1 AND p.player_id = id)`, t.club, ids).Scan(&missing)
	return missing, err
}

const selectPlayer = `SELECT player_id, name, retired, guest, created_at FROM players`

func scanPlayer(row pgx.Row, p *ledger.Player) error {
	return row.Scan(&p.ID, &p.Name, &p.Retired, &p.Guest, &p.CreatedAt)
}
