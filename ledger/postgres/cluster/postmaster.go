package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// The supervisor's restarts: it waits restartDelay before the first
// attempt after the server ended, doubles the wait after every attempt up
// to maxRestartDelay, and starts again from restartDelay once a server has
// run for healthyAfter. It keeps trying for as long as the Cluster runs.
const (
	restartDelay    = 500 * time.Millisecond
	maxRestartDelay = 15 * time.Second
	healthyAfter    = time.Minute
)

// How long a server may take to accept connections (crash recovery
// included), and to stop in fast mode before it is stopped in immediate
// mode.
const (
	readyTimeout = 2 * time.Minute
	stopTimeout  = time.Minute
)

// postmaster is a server process this Cluster started: a child process,
// in a session of its own so that a terminal's Ctrl-C reaches only the
// parent, which stops it in order.
type postmaster struct {
	cmd     *exec.Cmd
	started time.Time
	done    chan struct{} // closed once the process has ended
	err     error         // its exit, once done is closed
}

func (p *postmaster) pid() int { return p.cmd.Process.Pid }

func (p *postmaster) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// launch starts a server and returns once it accepts connections; on
// failure the server is gone and the error carries its log's tail.
func (c *Cluster) launch(ctx context.Context) (*postmaster, error) {
	logFile, err := os.OpenFile(filepath.Join(c.dataDir, serverLogName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the server has its own copy
	args := []string{"-D", c.pgData,
		"-c", "listen_addresses=", "-c", "port=" + fmt.Sprint(socketPort),
		"-c", "unix_socket_directories=" + c.socketDir, "-c", "unix_socket_permissions=0700"}
	if c.ephemeral {
		args = append(args, "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	}
	cmd := exec.Command(filepath.Join(c.bin, "postgres"), args...)
	cmd.Dir = "/"
	cmd.Env = c.env()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting PostgreSQL: %w", err)
	}
	p := &postmaster{cmd: cmd, started: time.Now(), done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	if err := c.waitReady(ctx, p); err != nil {
		p.kill()
		return nil, fmt.Errorf("starting PostgreSQL: %w\n%s", err, c.logTail())
	}
	return p, nil
}

// errHolderChanged means the process whose server a joining Cluster
// waited for no longer says it is ready: it stops, restarts its server,
// or is gone.
var errHolderChanged = errors.New("the process running the cluster is no longer ready")

// waitReady waits until the server accepts connections, ends (p, when
// this process started it), its holder stops being ready (p nil: another
// process's server), or the time is up.
func (c *Cluster) waitReady(ctx context.Context, p *postmaster) error {
	var ended <-chan struct{} // nil: never
	if p != nil {
		ended = p.done
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		conn, err := pgx.Connect(cctx, c.ConnString("postgres"))
		ccancel()
		if err == nil {
			return conn.Close(ctx)
		}
		if p == nil {
			if h, ok := readHolder(c.dataDir); !ok || h.PID != c.holder.PID || h.State != StateReady {
				return errHolderChanged
			}
		}
		select {
		case <-ended:
			return fmt.Errorf("the server ended: %v", p.err)
		case <-ctx.Done():
			return fmt.Errorf("the server did not accept connections: %w", err)
		case <-tick.C:
		}
	}
}

// shutdown stops the server in fast mode (open transactions roll back,
// committed ones are safe), and in immediate mode if that takes longer
// than stopTimeout.
func (p *postmaster) shutdown() error {
	if p.exited() {
		return nil
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
		return nil
	case <-time.After(stopTimeout):
	}
	p.kill()
	return fmt.Errorf("PostgreSQL did not stop within %v in fast mode; stopped it in immediate mode", stopTimeout)
}

// kill stops the server in immediate mode (as a crash would: crash
// recovery at the next start), and with SIGKILL if it does not end.
func (p *postmaster) kill() {
	if p.exited() {
		return
	}
	p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
		p.killOrphans()
	}
}

// killOrphans ends what is left of a server that ended without stopping its
// children (a SIGKILL): they are in its process group, as orphans, and
// hold its shared memory, so no new server could start until they noticed.
// SIGQUIT is what the server itself sends its children in a crash.
func (p *postmaster) killOrphans() {
	syscall.Kill(-p.pid(), syscall.SIGQUIT)
}

// supervisor restarts the server whenever it ends while the Cluster runs.
type supervisor struct {
	c      *Cluster
	cancel context.CancelFunc
	done   chan struct{} // closed when run has returned

	mu sync.Mutex
	pm *postmaster // the current server, running or ended
}

func (c *Cluster) supervise(p *postmaster) {
	ctx, cancel := context.WithCancel(context.Background())
	c.sup = &supervisor{c: c, cancel: cancel, done: make(chan struct{}), pm: p}
	go c.sup.run(ctx)
}

func (s *supervisor) current() *postmaster {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pm
}

// halt ends the supervision (a restart under way is abandoned and its
// server stopped) and returns the last server.
func (s *supervisor) halt() *postmaster {
	s.cancel()
	<-s.done
	return s.current()
}

func (s *supervisor) run(ctx context.Context) {
	defer close(s.done)
	delay := restartDelay
	for {
		p := s.current()
		select {
		case <-ctx.Done():
			return
		case <-p.done:
		}
		p.killOrphans()
		ran := time.Since(p.started)
		if ran >= healthyAfter {
			delay = restartDelay
		}
		s.c.log.Error("PostgreSQL ended unexpectedly; restarting it", "postmaster", p.pid(), "exit", p.err, "ran", ran.Round(time.Millisecond), "in", delay)
		s.c.restarts.Add(1) // before the restart: whoever sees the new server sees the count
		s.c.lock.update(func(h *Holder) { h.State, h.Postmaster = StateRestarting, 0 })
		down := time.Now()
		next, err := s.restart(ctx, &delay)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.pm = next
		s.mu.Unlock()
		s.c.lock.update(func(h *Holder) { h.State, h.Postmaster = StateReady, next.pid() })
		s.c.log.Warn("PostgreSQL restarted", "postmaster", next.pid(), "down", time.Since(down).Round(time.Millisecond))
	}
}

// Restarts is how many times the server ended unexpectedly and the
// supervisor set out to start it again (0 when joined): counted before the
// restart, so it is never behind a server seen running again.
func (c *Cluster) Restarts() int64 { return c.restarts.Load() }

// restart starts the server again, after *delay and then doubling it,
// until it runs or ctx ends.
func (s *supervisor) restart(ctx context.Context, delay *time.Duration) (*postmaster, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(*delay):
		}
		p, err := s.c.launch(ctx)
		*delay = min(*delay*2, maxRestartDelay)
		if err == nil {
			return p, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.c.log.Error("PostgreSQL did not start again; trying later", "in", *delay, "err", err)
	}
}

// logTail returns the end of the server's log.
func (c *Cluster) logTail() string {
	f, err := os.Open(filepath.Join(c.dataDir, serverLogName))
	if err != nil {
		return ""
	}
	defer f.Close()
	const n = 2000
	info, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(info.Size()-n, 0)
	b := make([]byte, info.Size()-off)
	f.ReadAt(b, off)
	return string(b)
}

var errNotOwner = errors.New("this Cluster does not run the server: another process does")
