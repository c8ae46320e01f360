package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres"
)

// exportCmd writes a club's whole ledger as an export document (NDJSON,
// streamed), to a file (written to a temporary name and renamed, so a
// crash leaves no half document) or to standard output.
func exportCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	const usage = "usage: stichbuch export --club ID [--out FILE]"
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	clubID := fs.Int64("club", 0, "the club's id")
	out := fs.String("out", "", "the file to write (default: standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *clubID <= 0 || fs.NArg() > 0 {
		return errors.New(usage)
	}
	pool, closeDB, err := db.migrated(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	store := postgres.New(pool, chain.Key{}) // reads the hashes, computes none
	if *out == "" {
		sum, err := backup.Export(ctx, store, *clubID, stdout)
		if err != nil {
			return err
		}
		log.Info("exported", "club", sum.Club.ID, "hands", sum.Hands)
		return nil
	}
	var sum backup.Summary
	err = writeFileAtomically(*out, func(w io.Writer) error {
		sum, err = backup.Export(ctx, store, *clubID, w)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "club %d %q exported to %s: %s\n", sum.Club.ID, sum.Club.Name, *out, exportSummary(sum))
	return nil
}

// importCmd loads an export document into an empty database, streaming
// it, re-scoring every hand and re-computing every settlement, verifies
// the ledger afterwards and prints the club's new admin key.
func importCmd(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer, log *slog.Logger) error {
	const usage = "usage: stichbuch import [--foreign] FILE"
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	var db dbFlags
	db.register(fs, getenv)
	foreign := fs.Bool("foreign", false, "accept a document of another installation (or one without keyed hashes) and chain its hands anew with this installation's key")
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
	pool, closeDB, err := db.migrated(ctx, getenv, log)
	if err != nil {
		return err
	}
	defer closeDB()
	key, err := db.chainKey(getenv, log)
	if err != nil {
		return err
	}
	in, err := backup.ImportWith(ctx, postgres.New(pool, key), f, backup.ImportOptions{Foreign: *foreign})
	if err != nil {
		return fmt.Errorf("import of %s refused, nothing stored: %w", files[0], err)
	}
	if in.Rekeyed > 0 {
		fmt.Fprintf(stdout, "--foreign: %d hands and revisions were chained anew with this installation's key; "+
			"their earlier hashes were not checked\n", in.Rekeyed)
	}
	fmt.Fprintf(stdout, "club %d %q imported from %s: %s; every hand re-scored to its stored points, every settlement re-computed\n",
		in.Club.ID, in.Club.Name, files[0], exportSummary(in.Summary))
	// The key first: the import is committed, and the key is shown only now.
	fmt.Fprintf(stdout, "the document's API keys are not restored (they are kept revoked, as history); the club's new admin API key (shown once, keep it safe):\n%s\n", in.AdminKey)
	if err := postgres.Verify(ctx, pool, key, ledger.ZeroSumGames(), nil); err != nil {
		return fmt.Errorf("verify after import: %w", err)
	}
	fmt.Fprintln(stdout, "the ledger is whole")
	return nil
}

func exportSummary(s backup.Summary) string {
	return fmt.Sprintf("%d players, %d tables, %d sessions, %d hands (%d revisions), %d settlements, %d tournaments, %d kitty bookings",
		s.Players, s.Tables, s.Sessions, s.Hands, s.Revisions, s.Settlements, s.Tournaments, s.KittyBookings)
}

// writeFileAtomically writes name through write: into a temporary file in
// the same directory (mode 0600: the document holds the keys' hashes),
// synced, then renamed over name, and the directory synced, so the name
// survives a crash too.
func writeFileAtomically(name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	return syncDir(filepath.Dir(name))
}

// syncDir makes the directory's entries (a rename, a removal) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
