package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPprofOnlyOnLoopback: the profiler refuses an address other machines
// could reach, and on loopback serves the profile index until ctx ends.
func TestPprofOnlyOnLoopback(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.org:6060", "nonsense"} {
		if _, err := startPprof(context.Background(), addr, log); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("STICHBUCH_PPROF=%s: %v, want a refusal naming loopback", addr, err)
		}
	}
	if addr, err := startPprof(context.Background(), "", log); addr != "" || err != nil {
		t.Errorf("no STICHBUCH_PPROF started %q, %v", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr, err := startPprof(ctx, "127.0.0.1:0", log)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "goroutine") {
		t.Errorf("profile index: %d %.200s", res.StatusCode, body)
	}
	cancel()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err = http.Get("http://" + addr + "/debug/pprof/"); err != nil {
			break
		}
	}
	if err == nil {
		t.Error("the profiler still answers after its context ended")
	}
}
