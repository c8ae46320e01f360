package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
)

// Reap stops the server that a process which ended without stopping it
// (a test binary killed by its timeout, say) left running on the data
// directory, and reports whether no process holds the directory any more,
// so that it may be removed. A directory that a live process holds is left
// alone, and Reap reports false. It starts nothing.
func Reap(ctx context.Context, opts Options) (abandoned bool, err error) {
	c, err := newCluster(opts)
	if err != nil {
		return false, err
	}
	if !exists(filepath.Join(c.dataDir, LockFile)) {
		return false, nil // not a data directory, or one not yet locked by its maker
	}
	l, prev, err := acquireLock(c.dataDir)
	if errors.Is(err, errLocked) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer l.release()
	c.pgData = filepath.Join(c.dataDir, pgDirName)
	if exists(filepath.Join(c.dataDir, "PG_VERSION")) {
		c.pgData = c.dataDir
	}
	if _, err := os.Stat(c.pgData); err != nil {
		return true, nil // initdb never finished: nothing runs
	}
	if err := c.stopLeftover(ctx, prev); err != nil {
		return false, err
	}
	return true, nil
}
