// Package runenv is what both commands, stichbuch and stichbuch-bench, take
// from the environment they run in, in one place: the logger (LOG_LEVEL,
// LOG_FORMAT), settings with their defaults, the database (DATABASE_URL,
// or the embedded PostgreSQL in the data directory, under its lock), and
// the tail of a child process's log.
package runenv

import (
	"io"
	"log/slog"
	"sync"
)

// DefaultDataDir is the embedded PostgreSQL's data directory unless
// STICHBUCH_DATA or --data says otherwise.
const DefaultDataDir = "./stichbuch-data"

// NewLogger logs text or, with LOG_FORMAT=json, JSON, at LOG_LEVEL
// (debug, info, warn, error; default info).
func NewLogger(getenv func(string) string, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	if err := level.UnmarshalText([]byte(getenv("LOG_LEVEL"))); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if getenv("LOG_FORMAT") == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// EnvOr returns the environment's value of key, or fallback when it is
// empty.
func EnvOr(getenv func(string) string, key, fallback string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return fallback
}

// DataDir is the data directory the --data flags default to:
// STICHBUCH_DATA, else DefaultDataDir.
func DataDir(getenv func(string) string) string {
	return EnvOr(getenv, "STICHBUCH_DATA", DefaultDataDir)
}

// TailBuffer keeps the last few KiB written to it: a child process's log,
// for the message of its failure.
type TailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *TailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 8<<10 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-4<<10:]...)
	}
	return len(p), nil
}

func (t *TailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
