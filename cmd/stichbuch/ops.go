package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// verify checks a database's invariants and fails naming the first breach.
// It migrates the database first, as serve would.
func verify(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return err
	}
	pool, closeDB, err := db.migrated(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	chainKey, err := db.chainKey(getenv, log)
	if err != nil {
		return err
	}
	if err := verifyPrinting(ctx, pool, chainKey, stdout); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Fprintln(stdout, "the ledger is whole")
	return nil
}

// verifyPrinting verifies the ledger in pool, printing each invariant
// that holds and the first breach.
func verifyPrinting(ctx context.Context, pool *pgxpool.Pool, key chain.Key, stdout io.Writer) error {
	err := postgres.Verify(ctx, pool, key, ledger.ZeroSumGames(), func(invariant string) {
		fmt.Fprintf(stdout, "ok    %s\n", invariant)
	})
	if err != nil {
		fmt.Fprintf(stdout, "FAIL  %v\n", err)
	}
	return err
}

// key lists, creates, revokes and rotates a club's API keys: the operator's
// way back in when a club has lost its admin key.
func key(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	const usage = "usage: stichbuch key list|create|revoke|rotate --club ID [--role admin|scorer|reader] [--label TEXT] [KEY_ID]"
	if len(args) == 0 {
		return errors.New(usage)
	}
	action := args[0]
	fs := flag.NewFlagSet("key "+action, flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	clubID := fs.Int64("club", 0, "the club's id")
	role := fs.String("role", "admin", "role of a new key")
	label := fs.String("label", "issued by the operator", "label of a new key")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *clubID <= 0 {
		return errors.New(usage)
	}
	var keyID int64
	if action == "revoke" || action == "rotate" {
		var err error
		if keyID, err = strconv.ParseInt(fs.Arg(0), 10, 64); err != nil || keyID <= 0 {
			return errors.New(usage)
		}
	}
	pool, closeDB, err := db.migrated(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	store := postgres.New(pool, chain.Key{}).Service() // writes no hands
	operator := ledger.Actor{ClubID: *clubID, Role: ledger.RoleAdmin}
	if _, err := store.FindClub(ctx, operator); err != nil {
		return fmt.Errorf("club %d: %w", *clubID, err)
	}
	switch action {
	case "list":
		keys, err := store.ListKeys(ctx, operator, ledger.Page{})
		if err != nil {
			return err
		}
		for _, k := range keys {
			state := "active"
			if k.RevokedAt != nil {
				state = "revoked " + k.RevokedAt.Format(time.RFC3339)
			}
			reach := "club"
			if k.TableID != nil {
				reach = fmt.Sprintf("table %d", *k.TableID)
			}
			fmt.Fprintf(stdout, "%d\t%s\t%s\t%s\t%s\n", k.ID, k.Role, reach, state, k.Label)
		}
		return nil
	case "create":
		k, secret, err := store.CreateKey(ctx, operator, ledger.Role(*role), *label)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %d (%s) created; its secret, shown once:\n%s\n", k.ID, k.Role, secret)
		return nil
	case "revoke":
		k, err := store.RevokeKey(ctx, operator, keyID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %d revoked\n", k.ID)
		return nil
	case "rotate":
		k, secret, err := store.RotateKey(ctx, operator, keyID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key %d revoked; its successor %d (%s), shown once:\n%s\n", keyID, k.ID, k.Role, secret)
		return nil
	}
	return errors.New(usage)
}
