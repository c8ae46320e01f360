package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// LockFile is the name of the lock file in the data directory. The process
// that runs the cluster holds an exclusive flock(2) on it for as long as it
// runs: the kernel releases the lock when the process ends, however it ends
// (SIGKILL too), so a free lock means that no process runs the cluster. The
// file itself is never removed or replaced (a lock on a replaced file would
// exclude nobody); its content is the holder's Holder record as JSON, for
// the other processes and for the operator (`cat stichbuch-data/stichbuch.lock`).
const LockFile = "stichbuch.lock"

// The states a Holder record names.
const (
	StateStarting   = "starting"   // the holder is creating or starting the cluster
	StateReady      = "ready"      // the server accepts connections on SocketDir
	StateRestarting = "restarting" // the server ended unexpectedly; the holder restarts it
	StateDown       = "down"       // the server was stopped on purpose (Crash) and is not restarted
)

// Holder is what the lock file records about the process running the
// cluster.
type Holder struct {
	PID     int    `json:"pid"`     // the process holding the lock
	Command string `json:"command"` // what it is, e.g. "stichbuch serve"
	// Shared says that other processes may use the cluster through its
	// socket while the holder runs it (Options.Shared).
	Shared bool   `json:"shared"`
	State  string `json:"state"`
	// SocketDir is the directory of the server's Unix socket.
	SocketDir string `json:"socket_dir,omitempty"`
	// Postmaster is the server's process id while it runs.
	Postmaster int       `json:"postmaster,omitempty"`
	Since      time.Time `json:"since"` // when the holder took the lock
}

// InUseError is the answer of Start when another process holds the data
// directory's lock.
type InUseError struct {
	DataDir string
	// Holder is the holder's record; its PID is 0 when the holder wrote
	// none (yet).
	Holder Holder
}

func (e *InUseError) Error() string {
	if e.Holder.PID == 0 {
		return fmt.Sprintf("the data directory %s is in use by another process (it has not recorded which yet; see %s)", e.DataDir, filepath.Join(e.DataDir, LockFile))
	}
	return fmt.Sprintf("the data directory %s is in use by %q (pid %d, since %s)", e.DataDir, e.Holder.Command, e.Holder.PID, e.Holder.Since.Local().Format(time.DateTime))
}

// errLocked means another open file description holds the lock.
var errLocked = errors.New("locked")

// lock is a held lock on the data directory.
type lock struct {
	f   *os.File
	mu  sync.Mutex
	rec Holder
}

// acquireLock takes the data directory's lock without waiting, or returns
// errLocked. It returns the record the previous holder left, if any (a
// holder that stopped cleanly leaves none; one that was killed leaves its
// socket directory there).
func acquireLock(dataDir string) (*lock, Holder, error) {
	f, err := os.OpenFile(filepath.Join(dataDir, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, Holder{}, fmt.Errorf("opening the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, Holder{}, errLocked
		}
		return nil, Holder{}, fmt.Errorf("locking %s: %w", f.Name(), err)
	}
	var prev Holder
	if b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<20)); err == nil {
		json.Unmarshal(b, &prev)
	}
	return &lock{f: f}, prev, nil
}

// update changes the record and writes it: over the old one, then cut to
// its length, so the file is never replaced. A reader may see a mix of
// both for a moment, which does not parse; readHolder then tries again.
func (l *lock) update(change func(*Holder)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	change(&l.rec)
	b, err := json.MarshalIndent(l.rec, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := l.f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("writing the lock file: %w", err)
	}
	return l.f.Truncate(int64(len(b)))
}

// release empties the record and releases the lock.
func (l *lock) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.f.Truncate(0)
	l.f.Close() // releases the flock
}

// readHolder reads the record of the process that holds the lock. ok is
// false while the record is missing, torn, or names a process that is gone
// (the previous holder's, before the new one has written its own).
func readHolder(dataDir string) (h Holder, ok bool) {
	b, err := os.ReadFile(filepath.Join(dataDir, LockFile))
	if err != nil || json.Unmarshal(b, &h) != nil || h.PID <= 0 {
		return Holder{}, false
	}
	return h, processAlive(h.PID)
}

// processAlive reports whether a process with this id exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
