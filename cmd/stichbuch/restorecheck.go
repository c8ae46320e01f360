package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// restoreCheck proves that a backup restores: it imports the file into a
// scratch database beside the service's (created, then removed whatever
// happens), with every check of an import and this installation's chain
// key, and runs verify on it. The service's own database is not touched.
func restoreCheck(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	const usage = "usage: stichbuch restore-check FILE"
	fs := flag.NewFlagSet("restore-check", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return errors.New(usage)
	}
	f, err := os.Open(files[0])
	if err != nil {
		return err
	}
	defer f.Close()
	pool, closeDB, err := db.database(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	key, err := db.chainKey(getenv, log)
	if err != nil {
		return err
	}
	scratch, drop, err := postgres.ScratchDatabase(ctx, pool, "stichbuch_restore_check_")
	if err != nil {
		return err
	}
	defer func() {
		dropCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := drop(dropCtx); err != nil {
			log.Error("removing the scratch database", "err", err)
		}
	}()
	if _, err := postgres.Migrate(ctx, scratch); err != nil {
		return err
	}
	in, err := backup.ImportWith(ctx, postgres.New(scratch, key), f, backup.ImportOptions{})
	if err != nil {
		fmt.Fprintf(stdout, "FAIL  %s does not restore: %v\n", files[0], err)
		return fmt.Errorf("restore-check of %s: %w", files[0], err)
	}
	fmt.Fprintf(stdout, "ok    %s restores: club %d %q, %s\n", files[0], in.Club.ID, in.Club.Name, exportSummary(in.Summary))
	if err := verifyPrinting(ctx, scratch, key, stdout); err != nil {
		return fmt.Errorf("restore-check of %s: verify: %w", files[0], err)
	}
	fmt.Fprintf(stdout, "the backup restores and its ledger is whole (checked in a scratch database, now removed)\n")
	return nil
}
