package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger/backup"
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

// ExportSnapshot is ExportTx without numbering the change queue first: the
// snapshot a writer's queued change can slip into.
func (s *Store) ExportSnapshot(ctx context.Context, clubID int64, fn func(backup.ExportTx) error) error {
	return s.exportSnapshot(ctx, clubID, fn)
}
