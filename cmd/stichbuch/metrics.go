package main

// The metrics' listener: GET /metrics in the Prometheus text format on an
// address of its own (--metrics-addr, loopback by default), never on the
// API's public listener.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/stichbuch/stichbuch/cmd/internal/metrics"
)

// defaultMetricsAddr is where Prometheus scrapes unless --metrics-addr or
// STICHBUCH_METRICS_ADDR say otherwise: this machine only, on the port
// registered for such exporters. "off" serves no metrics.
const defaultMetricsAddr = "localhost:9464"

// startMetrics serves m at addr until ctx ends. When the default address
// is taken (another stichbuch on this machine) it logs so and goes on
// without; an address given and not free is an error.
func startMetrics(ctx context.Context, addr string, given bool, m *metrics.Metrics, log *slog.Logger, stdout io.Writer) error {
	if addr == "off" || addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil && !given {
		log.Warn("no metrics: the default address is taken; give another with --metrics-addr, or off", "addr", addr, "err", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler(log))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go srv.Serve(ln)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Fprintf(stdout, "metrics on http://%s/metrics\n", ln.Addr())
	return nil
}
