package main

// The failover run's service instances: started on the stack, killed,
// stopped, and their replica reads read from their metrics.

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/runenv"
)

// instance is one stichbuch serve process.
type instance struct {
	name, base, metrics string
	cmd                 *exec.Cmd
	done                chan error
	logTail             runenv.TailBuffer
	client              *loadClient
	dead                atomic.Bool
}

func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func startInstance(ctx context.Context, name, bin, dbURL, keyFile, data string) (*instance, error) {
	metricsAddr, err := freePort()
	if err != nil {
		return nil, err
	}
	in := &instance{name: name, metrics: metricsAddr, done: make(chan error, 1)}
	in.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", metricsAddr, "--data", data)
	in.cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "STICHBUCH_READ_DATABASE_URL="+haReadURL,
		"STICHBUCH_CHAIN_KEY_FILE="+keyFile, "STICHBUCH_RATE_LIMIT=0", "LOG_LEVEL=warn")
	out, err := in.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in.cmd.Stderr = &in.logTail
	if err := in.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { in.done <- in.cmd.Wait() }()
	addr := listeningOn(out)
	select {
	case in.base = <-addr:
		return in, nil
	case err := <-in.done:
		return nil, fmt.Errorf("failover: instance %s ended before listening: %v\n%s", name, err, in.logTail.String())
	case <-time.After(2 * time.Minute):
		in.kill()
		return nil, fmt.Errorf("failover: instance %s did not listen:\n%s", name, in.logTail.String())
	case <-ctx.Done():
		in.kill()
		return nil, ctx.Err()
	}
}

func (in *instance) kill() {
	if in.dead.Swap(true) {
		return
	}
	in.cmd.Process.Kill()
	<-in.done
}

func (in *instance) stop() {
	if in.dead.Swap(true) {
		return
	}
	in.cmd.Process.Signal(os.Interrupt)
	select {
	case <-in.done:
	case <-time.After(20 * time.Second):
		in.cmd.Process.Kill()
		<-in.done
	}
}

// replicaReads reads stichbuch_replica_reads_total from the instance's metrics.
func (in *instance) replicaReads() float64 {
	res, err := http.Get("http://" + in.metrics + "/metrics")
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "stichbuch_replica_reads_total "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}
