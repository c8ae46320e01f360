// Package cmdtest holds what the tests of both commands (stichbuch and
// stichbuch-bench) share: a buffer a test reads while a command writes to
// it, and the environment a command runs with in a test. Only tests
// import it.
package cmdtest

import (
	"bytes"
	"sync"

	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// SyncBuffer is an io.Writer the test can read while a command writes to
// it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Env is a command's getenv over vars. With DATABASE_URL,
// STICHBUCH_CHAIN_KEY_FILE defaults to the tests' key file: every database
// of a test binary is one installation's. Serve serves no metrics unless a
// test says where (the default port is fixed, and tests run side by side).
func Env(vars map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		switch {
		case k == "STICHBUCH_METRICS_ADDR":
			return "off"
		case k == "STICHBUCH_CHAIN_KEY_FILE" && vars["DATABASE_URL"] != "":
			return pgtest.ChainKeyFile()
		}
		return ""
	}
}
