// Package metrics is what `stichbuch serve` shows an operator in the
// Prometheus text format: the requests the API answered by route template,
// the hands it recorded, refused and corrected (as the ledger answered),
// the settlement versions stored, the open event streams, the database
// pool, the embedded PostgreSQL's restarts, the scheduled backups, the
// chain key's id and the schema's migration version, and the Go runtime
// and process collectors. It counts what it is told; it decides nothing.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/stichbuch/stichbuch/api"
)

// Metrics is one service's registry and the metrics it fills; it is the
// API's api.Observer.
type Metrics struct {
	reg *prometheus.Registry

	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	handsRecorded  *prometheus.CounterVec
	handsRefused   *prometheus.CounterVec
	handsCorrected *prometheus.CounterVec
	backups        *prometheus.CounterVec
	backupLast     prometheus.Gauge
	backupBytes    prometheus.Gauge

	fields fieldLabels
}

var _ api.Observer = (*Metrics)(nil)

// New makes a registry with the Go runtime's and the process's
// collectors and the service's own metrics.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stichbuch_http_requests_total",
			Help: "HTTP requests answered, by method, route template and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "stichbuch_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request (event streams: their whole life), by method and route template.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		handsRecorded: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stichbuch_hands_recorded_total",
			Help: "Hands stored (replays of a retried request not counted), by game.",
		}, []string{"game"}),
		handsRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stichbuch_hands_refused_total",
			Help: "Hands the ledger refused, by its error code and the field the refusal names (list indices dropped).",
		}, []string{"code", "field"}),
		handsCorrected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stichbuch_hands_corrected_total",
			Help: "New revisions of stored hands, by kind: facts (corrected), void (voided by a correction), undo (taken back).",
		}, []string{"kind"}),
		backups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "stichbuch_backups_total",
			Help: "Scheduled backups of every club, by result (ok, failed).",
		}, []string{"result"}),
		backupLast: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "stichbuch_backup_last_success_timestamp_seconds",
			Help: "When the last scheduled backup of every club was written (Unix time; 0: none yet).",
		}),
		backupBytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "stichbuch_backup_last_size_bytes",
			Help: "Size of the last scheduled backup, all clubs' files together.",
		}),
		fields: fieldLabels{seen: map[string]bool{}},
	}
	for _, result := range []string{"ok", "failed"} {
		m.backups.WithLabelValues(result)
	}
	for _, kind := range []api.Correction{api.CorrectionFacts, api.CorrectionVoid, api.CorrectionUndo} {
		m.handsCorrected.WithLabelValues(string(kind))
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector(),
		m.requests, m.latency, m.handsRecorded, m.handsRefused, m.handsCorrected,
		m.backups, m.backupLast, m.backupBytes,
	)
	return m
}

// Handler serves the registry in the Prometheus text format (or
// OpenMetrics when asked); a collector that fails is left out and logged.
func (m *Metrics) Handler(log *slog.Logger) http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError,
	})
}

// Request counts an answered request (api.Observer).
func (m *Metrics) Request(method, route string, status int, took time.Duration) {
	if route == "" {
		route = "unmatched" // a path no route knows: never the raw path
	}
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method, route).Observe(took.Seconds())
}

// HandRecorded counts a stored hand (api.Observer).
func (m *Metrics) HandRecorded(game string) { m.handsRecorded.WithLabelValues(game).Inc() }

// HandRefused counts a refused hand (api.Observer).
func (m *Metrics) HandRefused(code, field string) {
	m.handsRefused.WithLabelValues(code, m.fields.label(field)).Inc()
}

// HandCorrected counts a new revision (api.Observer).
func (m *Metrics) HandCorrected(kind api.Correction) {
	m.handsCorrected.WithLabelValues(string(kind)).Inc()
}

// Backup counts a scheduled backup: its outcome and, when it was
// written, its size and time.
func (m *Metrics) Backup(ok bool, bytes int64, at time.Time) {
	if !ok {
		m.backups.WithLabelValues("failed").Inc()
		return
	}
	m.backups.WithLabelValues("ok").Inc()
	m.backupBytes.Set(float64(bytes))
	m.backupLast.Set(float64(at.UnixNano()) / 1e9)
}

// OpenStreams shows how many event streams are open, as open says.
func (m *Metrics) OpenStreams(open func() int) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "stichbuch_event_streams_open",
		Help: "Event streams (Server-Sent Events) open on this instance.",
	}, func() float64 { return float64(open()) }))
}

// PostgresRestarts shows how often the embedded PostgreSQL was started
// again after it ended unexpectedly.
func (m *Metrics) PostgresRestarts(restarts func() int64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "stichbuch_embedded_postgres_restarts_total",
		Help: "Times the embedded PostgreSQL ended unexpectedly and serve started it again (counted as the restart begins).",
	}, func() float64 { return float64(restarts()) }))
}

// SettlementVersions shows how many settlement versions the database
// holds, as count reads it at each scrape.
func (m *Metrics) SettlementVersions(count func(context.Context) (int64, error)) {
	m.reg.MustRegister(&storeCount{desc: prometheus.NewDesc("stichbuch_settlement_versions",
		"Settlement versions stored in every club: one per closed evening, one more per correction that changed its money.", nil, nil),
		count: count})
}

// Info shows the installation's chain key id and the schema's migration
// version as info metrics (value 1, the facts in labels).
func (m *Metrics) Info(chainKeyID string, migration int64) {
	key := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "stichbuch_chain_key_info",
		Help:        "The id of the chain key this installation signs hands with (the first 8 bytes of its SHA-256, hex).",
		ConstLabels: prometheus.Labels{"key_id": chainKeyID},
	})
	schema := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "stichbuch_schema_migration_info",
		Help:        "The latest migration applied to the database.",
		ConstLabels: prometheus.Labels{"version": strconv.FormatInt(migration, 10)},
	})
	key.Set(1)
	schema.Set(1)
	m.reg.MustRegister(key, schema)
}

// Pool shows the database pool: connections acquired, idle and in all,
// its size, and the acquires that had to wait for a connection.
func (m *Metrics) Pool(pool *pgxpool.Pool) { m.reg.MustRegister(poolCollector{pool}) }

var (
	poolAcquired = prometheus.NewDesc("stichbuch_db_pool_acquired_connections", "Database connections in use.", nil, nil)
	poolIdle     = prometheus.NewDesc("stichbuch_db_pool_idle_connections", "Database connections open and idle.", nil, nil)
	poolTotal    = prometheus.NewDesc("stichbuch_db_pool_connections", "Database connections open, in use or idle.", nil, nil)
	poolMax      = prometheus.NewDesc("stichbuch_db_pool_max_connections", "The most database connections the pool opens.", nil, nil)
	poolAcquires = prometheus.NewDesc("stichbuch_db_pool_acquires_total", "Connections taken from the pool.", nil, nil)
	poolWaits    = prometheus.NewDesc("stichbuch_db_pool_waits_total", "Acquires that had to wait for a connection: none was idle.", nil, nil)
	poolWaited   = prometheus.NewDesc("stichbuch_db_pool_wait_seconds_total", "Time acquires spent waiting for a connection.", nil, nil)
	poolCanceled = prometheus.NewDesc("stichbuch_db_pool_canceled_acquires_total", "Acquires given up before a connection was free.", nil, nil)
)

type poolCollector struct{ pool *pgxpool.Pool }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolAcquired, poolIdle, poolTotal, poolMax, poolAcquires, poolWaits, poolWaited, poolCanceled} {
		ch <- d
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolAcquired, prometheus.GaugeValue, float64(s.AcquiredConns()))
	ch <- prometheus.MustNewConstMetric(poolIdle, prometheus.GaugeValue, float64(s.IdleConns()))
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(s.TotalConns()))
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(s.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, s.EmptyAcquireWaitTime().Seconds())
	ch <- prometheus.MustNewConstMetric(poolCanceled, prometheus.CounterValue, float64(s.CanceledAcquireCount()))
}

// HandCommits shows the hand writer's group commits: the transactions it
// wrote and the hands they held (hands / commits is the mean batch), as
// read reports them.
func (m *Metrics) HandCommits(read func() (commits, hands int64)) {
	m.reg.MustRegister(handCommitsCollector(read))
}

var (
	handCommits   = prometheus.NewDesc("stichbuch_hand_commits_total", "Transactions the hand writer wrote, each holding one hand or a batch of them.", nil, nil)
	handsCommited = prometheus.NewDesc("stichbuch_hand_commit_hands_total", "Hands the hand writer's transactions held, refused ones included.", nil, nil)
)

type handCommitsCollector func() (commits, hands int64)

func (c handCommitsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- handCommits
	ch <- handsCommited
}

func (c handCommitsCollector) Collect(ch chan<- prometheus.Metric) {
	commits, hands := c()
	ch <- prometheus.MustNewConstMetric(handCommits, prometheus.CounterValue, float64(commits))
	ch <- prometheus.MustNewConstMetric(handsCommited, prometheus.CounterValue, float64(hands))
}

// storeCount is a gauge read from the database at each scrape, within a
// few seconds; a failure leaves it out of that scrape.
type storeCount struct {
	desc  *prometheus.Desc
	count func(context.Context) (int64, error)
}

func (c *storeCount) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *storeCount) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	n, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
}

// fieldLabels keeps the refusals' field label bounded: list indices are
// dropped ("facts.players[2].tricks" is "facts.players[].tricks") and
// after maxFields distinct fields any new one is "other", so no client
// can grow the metrics by naming fields of its own.
type fieldLabels struct {
	mu   sync.Mutex
	seen map[string]bool
}

const maxFields = 200

var listIndex = regexp.MustCompile(`\[[0-9]+\]`)

func (f *fieldLabels) label(field string) string {
	field = listIndex.ReplaceAllString(field, "[]")
	if len(field) > 100 {
		return "other"
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.seen[field] && len(f.seen) >= maxFields {
		return "other"
	}
	f.seen[field] = true
	return field
}
