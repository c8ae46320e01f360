package main

// The failover run's HA stack: ha/'s files, stack.sh, and Patroni's
// members, health, kills and switchovers through its REST API.

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// haFiles are the stack's configuration and its script, written to the
// run's directory so the command works from any working directory.
//
//go:embed ha
var haFiles embed.FS

// The stack's fixed loopback addresses (ha/haproxy.cfg, ha/patroni-*.yml).
const (
	haWriteURL = "postgres://postgres:stichbuch@127.0.0.1:15000/postgres?sslmode=disable"
	haReadURL  = "postgres://postgres:stichbuch@127.0.0.1:15001/postgres?sslmode=disable"
)

var haREST = []string{"127.0.0.1:18008", "127.0.0.1:18009", "127.0.0.1:18010"}

// haMissing names the first binary of the stack this machine lacks.
func haMissing() string {
	for _, bin := range []string{"etcd", "etcdctl", "patroni", "patronictl", "haproxy", "setpriv", "curl"} {
		if _, err := exec.LookPath(bin); err != nil {
			return bin
		}
	}
	if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil {
		return "PostgreSQL 15 (/usr/lib/postgresql/15/bin)"
	}
	return ""
}

// haStack is the running stack: its directory and stack.sh.
type haStack struct {
	dir, script string
}

func startStack(ctx context.Context, dir string, log *slog.Logger) (*haStack, error) {
	for _, addr := range append([]string{"127.0.0.1:15000", "127.0.0.1:12379"}, haREST...) {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return nil, fmt.Errorf("failover: %s is taken: another stack is running (stack.sh stop DIR)", addr)
		}
	}
	ha := filepath.Join(dir, "ha")
	if err := os.MkdirAll(ha, 0o755); err != nil {
		return nil, err
	}
	err := fs.WalkDir(haFiles, "ha", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := haFiles.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), b, 0o755)
	})
	if err != nil {
		return nil, err
	}
	s := &haStack{dir: filepath.Join(dir, "stack"), script: filepath.Join(ha, "stack.sh")}
	log.Info("starting the HA stack", "dir", s.dir)
	cmd := exec.CommandContext(ctx, "bash", s.script, "start", s.dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		s.stop()
		return nil, fmt.Errorf("failover: stack.sh start: %v\n%s\n%s", err, out, s.logTails())
	}
	return s, nil
}

func (s *haStack) stop() {
	exec.Command("bash", s.script, "stop", s.dir).Run()
}

// logTails is the end of each daemon's log, for an error.
func (s *haStack) logTails() string {
	var b strings.Builder
	for _, name := range []string{"etcd", "patroni1", "patroni2", "patroni3", "haproxy"} {
		raw, _ := os.ReadFile(filepath.Join(s.dir, name+".log"))
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		fmt.Fprintf(&b, "--- %s.log\n%s\n", name, strings.Join(lines[max(0, len(lines)-8):], "\n"))
	}
	return b.String()
}

// patroniMember is a node as Patroni's GET /cluster lists it.
type patroniMember struct {
	Name  string `json:"name"`
	Role  string `json:"role"`  // leader, sync_standby, replica
	State string `json:"state"` // running, streaming, ...
	Port  int    `json:"port"`
}

// members asks the nodes' REST APIs for the cluster until one answers.
func (s *haStack) members(ctx context.Context) ([]patroniMember, error) {
	var last error
	for _, addr := range haREST {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/cluster", nil)
		c := &http.Client{Timeout: time.Second}
		res, err := c.Do(req)
		if err != nil {
			last = err
			continue
		}
		var cl struct {
			Members []patroniMember `json:"members"`
		}
		err = json.NewDecoder(res.Body).Decode(&cl)
		res.Body.Close()
		if err == nil {
			return cl.Members, nil
		}
		last = err
	}
	return nil, last
}

// healthy waits until the cluster has a leader, a synchronous standby and
// three running nodes again.
func (s *haStack) healthy(ctx context.Context, within time.Duration) (leader, sync patroniMember, err error) {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		ms, err := s.members(ctx)
		if err == nil {
			running := 0
			leader, sync = patroniMember{}, patroniMember{}
			for _, m := range ms {
				switch m.Role {
				case "leader":
					leader = m
				case "sync_standby":
					sync = m
				}
				if m.State == "running" || m.State == "streaming" {
					running++
				}
			}
			if leader.Name != "" && sync.Name != "" && running == 3 {
				return leader, sync, nil
			}
		}
		select {
		case <-ctx.Done():
			return leader, sync, ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
	return leader, sync, fmt.Errorf("failover: the cluster has no leader with a synchronous standby and three running nodes after %v\n%s", within, s.logTails())
}

// killPostmaster kills -9 the postmaster of node name (pg1, pg2, pg3).
func (s *haStack) killPostmaster(name string) error {
	raw, err := os.ReadFile(filepath.Join(s.dir, name, "data", "postmaster.pid"))
	if err != nil {
		return err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(raw), "\n", 2)[0]))
	if err != nil {
		return err
	}
	return syscall.Kill(pid, syscall.SIGKILL)
}

func (s *haStack) switchover(ctx context.Context, leader, candidate string) error {
	out, err := exec.CommandContext(ctx, "patronictl", "-c", filepath.Join(filepath.Dir(s.script), "patroni-1.yml"),
		"switchover", "--leader", leader, "--candidate", candidate, "--force").CombinedOutput()
	if err != nil {
		return fmt.Errorf("patronictl switchover: %v\n%s", err, out)
	}
	return nil
}
