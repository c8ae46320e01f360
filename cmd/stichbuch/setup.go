package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// setupToken is the one-time token of the first-run setup (POST
// /v1/setup, the app's "Club anlegen") while the database has no club,
// and "" once it has one.
func setupToken(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	has, err := postgres.HasClubs(ctx, pool)
	if err != nil {
		return "", fmt.Errorf("looking for a club: %w", err)
	}
	if has {
		return "", nil
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
