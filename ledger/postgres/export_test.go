package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// MigrateDownTo rolls the schema back to version, for tests of migrations.
func MigrateDownTo(ctx context.Context, pool *pgxpool.Pool, version int64) error {
	p, err := provider(pool)
	if err != nil {
		return err
	}
	_, err = p.DownTo(ctx, version)
	return err
}
