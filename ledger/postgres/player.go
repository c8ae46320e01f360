package postgres

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// CreatePlayer adds a player to the actor's club; names are unique per club.
func (s *Store) CreatePlayer(ctx context.Context, a ledger.Actor, name string, idem *ledger.Idempotency) (ledger.Player, bool, error) {
	name = strings.TrimSpace(name)
	if err := ledger.CheckName("name", name, 100); err != nil {
		return ledger.Player{}, false, err
	}
	var p ledger.Player
	var replayed bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "player")
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			return scanPlayer(tx.QueryRow(ctx, selectPlayer+` WHERE club_id = $1 AND player_id = $2`, a.ClubID, ref), &p)
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM players WHERE club_id = $1 AND name = $2)`, a.ClubID, name).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return &ledger.Error{Code: ledger.ECONFLICT, Message: "a player of this club is already called " + name, Field: "name", Rule: "names are unique within a club"}
		}
		err = scanPlayer(tx.QueryRow(ctx, `
			INSERT INTO players (club_id, name) VALUES ($1, $2)
			RETURNING player_id, name, created_at`, a.ClubID, name), &p)
		if err != nil {
			return err
		}
		return remember(ctx, tx, a.ClubID, idem, "player", p.ID)
	})
	return p, replayed, err
}

// ListPlayers returns the club's players by name.
func (s *Store) ListPlayers(ctx context.Context, a ledger.Actor) ([]ledger.Player, error) {
	rows, err := s.pool.Query(ctx, selectPlayer+` WHERE club_id = $1 ORDER BY name`, a.ClubID)
	if err != nil {
		return nil, mapError(err)
	}
	players, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Player, error) {
		var p ledger.Player
		return p, scanPlayer(r, &p)
	})
	return players, mapError(err)
}

const selectPlayer = `SELECT player_id, name, created_at FROM players`

func scanPlayer(row pgx.Row, p *ledger.Player) error {
	return row.Scan(&p.ID, &p.Name, &p.CreatedAt)
}
