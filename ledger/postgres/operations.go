package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// What the operator's side of serve reads across every club: the clubs
// the scheduled backups export, and the figures the metrics show.

// ClubIDs lists every club's id in order.
func ClubIDs(ctx context.Context, pool *pgxpool.Pool) ([]int64, error) {
	rows, _ := pool.Query(ctx, "SELECT club_id FROM clubs ORDER BY club_id")
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// SettlementVersions counts the settlement versions stored in every club:
// one per closed evening, and one more for each correction that changed
// a closed evening's money.
func SettlementVersions(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	var n int64
	err := pool.QueryRow(ctx, "SELECT count(*) FROM settlements").Scan(&n)
	return n, err
}

// ScratchDatabase creates an empty database beside the one pool is
// connected to, named prefix and a random suffix, and returns a pool on
// it and drop, which closes that pool and removes the database (its
// sessions ended first). Creating it needs a role that may CREATE
// DATABASE.
func ScratchDatabase(ctx context.Context, pool *pgxpool.Pool, prefix string) (scratch *pgxpool.Pool, drop func(context.Context) error, err error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return nil, nil, err
	}
	name := prefix + hex.EncodeToString(b)
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := pool.Exec(ctx, "CREATE DATABASE "+ident+" TEMPLATE template0"); err != nil {
		return nil, nil, fmt.Errorf("creating the scratch database %s (the database role needs CREATEDB): %w", name, err)
	}
	drop = func(ctx context.Context) error {
		if scratch != nil {
			scratch.Close()
		}
		_, err := pool.Exec(ctx, "DROP DATABASE IF EXISTS "+ident+" WITH (FORCE)")
		return err
	}
	cfg := pool.Config()
	cfg.ConnConfig.Database = name
	if scratch, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, nil, errors.Join(err, drop(ctx))
	}
	return scratch, drop, nil
}
