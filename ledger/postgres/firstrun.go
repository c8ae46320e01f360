package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// HasClubs reports whether the database holds a club: serve offers the
// first-run setup only while it holds none.
func HasClubs(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	var found bool
	err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM clubs)").Scan(&found)
	return found, err
}
