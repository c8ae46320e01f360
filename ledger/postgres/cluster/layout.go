package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The data directory holds:
//
//	stichbuch.lock   the lock and its holder's record (LockFile)
//	pg/              the PostgreSQL cluster (PGDATA)
//	server.log       the server's log
//
// A data directory created before the lock existed is the cluster itself
// (PG_VERSION at its top); it keeps that layout, with the lock file and
// the log among PostgreSQL's files, which PostgreSQL ignores.
const (
	pgDirName      = "pg"
	initdbPrefix   = "pg.initdb-" // initdb's work directory, renamed to pg when complete
	socketPrefix   = "stichbuch-pg-"
	serverLogName  = "server.log"
	socketFileName = ".s.PGSQL.5432"
	// maxSocketBase is the longest base of a socket directory: a socket's
	// path has at most 107 bytes, and MkdirTemp adds up to 10 digits.
	maxSocketBase = 107 - len("/"+socketPrefix+"4294967295") - len("/"+socketFileName)
)

// layout decides where the cluster lives in the data directory and creates
// it when there is none. It runs under the lock.
func (c *Cluster) layout(ctx context.Context, ephemeral bool) error {
	if exists(filepath.Join(c.dataDir, "PG_VERSION")) {
		c.pgData = c.dataDir
		return nil
	}
	c.pgData = filepath.Join(c.dataDir, pgDirName)
	if exists(filepath.Join(c.pgData, "PG_VERSION")) {
		return nil
	}
	entries, err := os.ReadDir(c.dataDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == LockFile || name == serverLogName || name == "lost+found":
		case strings.HasPrefix(name, initdbPrefix):
			// An initdb that was interrupted (its process killed): only a
			// holder of the lock creates these, and the lock is ours now.
			c.log.Warn("removing an interrupted initdb's directory", "dir", filepath.Join(c.dataDir, name))
			if err := os.RemoveAll(filepath.Join(c.dataDir, name)); err != nil {
				return err
			}
		default:
			return fmt.Errorf("the data directory %s holds %q but no PostgreSQL cluster; give a new or empty directory (or the one stichbuch created)", c.dataDir, name)
		}
	}
	return c.initdb(ctx, ephemeral)
}

// initdb creates the cluster in a work directory beside pg and renames it
// to pg once complete, so pg either holds a whole cluster or does not exist.
func (c *Cluster) initdb(ctx context.Context, ephemeral bool) error {
	start := time.Now()
	work, err := os.MkdirTemp(c.dataDir, initdbPrefix)
	if err != nil {
		return err
	}
	defer os.RemoveAll(work) // a no-op once renamed
	if err := c.chown(work); err != nil {
		return err
	}
	args := []string{"-D", work, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
	if ephemeral {
		args = append(args, "--no-sync")
	}
	if out, err := c.run(ctx, "initdb", args...); err != nil {
		return fmt.Errorf("initdb failed: %v\n%s%s", err, out, c.accessHint())
	}
	if err := os.Rename(work, c.pgData); err != nil {
		return fmt.Errorf("moving the new cluster into place: %w", err)
	}
	if !ephemeral {
		syncDir(c.dataDir)
	}
	c.Initialized = true
	c.log.Info("created PostgreSQL cluster", "data", c.dataDir, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// stopLeftover stops a server that still runs on the cluster although no
// process holds the lock: the server of a process that was killed (SIGKILL)
// or crashed, or of a stichbuch from before the lock. Nothing else can
// start one, so it is safe to stop; prev is the dead holder's record.
func (c *Cluster) stopLeftover(ctx context.Context, prev Holder) error {
	if !c.running(ctx) {
		removeSocketDir(prev.SocketDir)
		return nil
	}
	pid := postmasterPID(c.pgData)
	out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.pgData, "-m", "fast", "-w", "-t", "60")
	if err != nil {
		c.log.Warn("the left-over PostgreSQL server did not stop in fast mode; stopping it in immediate mode", "postmaster", pid, "err", err, "output", strings.TrimSpace(string(out)))
		if out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.pgData, "-m", "immediate", "-w", "-t", "60"); err != nil {
			return fmt.Errorf("stopping the PostgreSQL server (pid %d) left running on %s: %v: %s", pid, c.pgData, err, out)
		}
	}
	left := "a process that did not record itself (a stichbuch from before the lock file?)"
	if prev.PID != 0 {
		left = fmt.Sprintf("%q (pid %d), which ended without stopping it", prev.Command, prev.PID)
	}
	c.log.Warn("stopped the PostgreSQL server left running on the data directory by "+left+"; starting a new one", "postmaster", pid, "data", c.dataDir)
	removeSocketDir(prev.SocketDir)
	return nil
}

// running reports whether a server runs on the cluster.
func (c *Cluster) running(ctx context.Context) bool {
	if !exists(filepath.Join(c.pgData, "postmaster.pid")) {
		return false
	}
	_, err := c.run(ctx, "pg_ctl", "status", "-D", c.pgData)
	return err == nil
}

// makeSocketDir creates the server's socket directory: a new directory
// (mode 0700) under a short base, since a Unix socket's path is limited to
// about 107 bytes, whatever the data directory's length. The base is
// $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp: the first that is short and
// that the server's user can reach.
func (c *Cluster) makeSocketDir(getenv func(string) string) error {
	base := "/tmp"
	for _, dir := range []string{getenv("XDG_RUNTIME_DIR"), getenv("TMPDIR")} {
		if c.socketBaseUsable(dir) {
			base = dir
			break
		}
	}
	dir, err := os.MkdirTemp(base, socketPrefix)
	if err != nil {
		return fmt.Errorf("creating the socket directory: %w", err)
	}
	c.socketDir = dir
	return c.chown(dir)
}

func (c *Cluster) socketBaseUsable(dir string) bool {
	if dir == "" || !filepath.IsAbs(dir) || len(dir) > maxSocketBase || strings.ContainsAny(dir, ` ,"'\`) {
		return false
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return false
	}
	return c.cred == nil || searchable(dir, c.cred)
}

// searchable reports whether the user of cred may pass through every
// directory of path (by the mode bits; supplementary groups ignored).
func searchable(path string, cred *syscall.Credential) bool {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return false
		}
		bit := uint32(0o001)
		if st.Uid == cred.Uid {
			bit = 0o100
		} else if st.Gid == cred.Gid {
			bit = 0o010
		}
		if st.Mode&bit == 0 {
			return false
		}
		if p == "/" {
			return true
		}
	}
}

// removeSocketDir removes a socket directory a server has left, with
// nothing else in it: the one a killed holder recorded, or this
// Cluster's own. It removes only directories named like the ones
// makeSocketDir creates, and only the server's own files in them.
func removeSocketDir(dir string) {
	if dir == "" || !strings.HasPrefix(filepath.Base(dir), socketPrefix) {
		return
	}
	os.Remove(filepath.Join(dir, socketFileName))
	os.Remove(filepath.Join(dir, socketFileName+".lock"))
	os.Remove(dir)
}

// postmasterPID reads the server's process id from postmaster.pid.
func postmasterPID(pgData string) int {
	b, err := os.ReadFile(filepath.Join(pgData, "postmaster.pid"))
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	return pid
}

// chown hands a directory to the server's user when running as root.
func (c *Cluster) chown(dir string) error {
	if c.cred == nil {
		return nil
	}
	if err := os.Chown(dir, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
		return fmt.Errorf("handing %s to the postgres user: %w", dir, err)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}
