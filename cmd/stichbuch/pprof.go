package main

// The profiler: STICHBUCH_PPROF=127.0.0.1:6060 serves net/http/pprof on a
// listener of its own, never on the API's address, and only on loopback,
// so profiles can be taken under load without exposing them.

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/loopback"
)

// startPprof serves the profiler on addr (a loopback address) until ctx
// ends; an empty addr starts nothing. It returns the address it listens on.
func startPprof(ctx context.Context, addr string, log *slog.Logger) (string, error) {
	if addr == "" {
		return "", nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !loopback.Host(host) {
		return "", fmt.Errorf("STICHBUCH_PPROF: want a loopback address such as 127.0.0.1:6060, got %q", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("STICHBUCH_PPROF: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	log.Info("profiler", "addr", "http://"+ln.Addr().String()+"/debug/pprof/")
	return ln.Addr().String(), nil
}
