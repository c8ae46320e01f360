package runenv

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestChainKeyIsMadeOnceInTheDataDirectory: the first start writes 32
// random bytes, mode 0600, beside pg/ and logs it; later starts read the
// same key.
func TestChainKeyIsMadeOnceInTheDataDirectory(t *testing.T) {
	data := t.TempDir()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	k1, err := ChainKey(env(nil), data, log)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(data, ChainKeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Size() != 32 {
		t.Errorf("the key file has mode %v and %d bytes, want 0600 and 32", fi.Mode().Perm(), fi.Size())
	}
	if !strings.Contains(logs.String(), "created this installation's chain key") || !strings.Contains(logs.String(), "back it up") {
		t.Errorf("the creation was not logged: %s", logs.String())
	}
	logs.Reset()
	k2, err := ChainKey(env(nil), data, log)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k1.ID(), k2.ID()) || logs.Len() > 0 {
		t.Errorf("the second start made another key (%x, %x) or logged %q", k1.ID(), k2.ID(), logs.String())
	}
}

// TestChainKeyFileAndItsRefusals: STICHBUCH_CHAIN_KEY_FILE wins (and is
// created when absent); DATABASE_URL without it, a data directory that is
// the cluster itself and a short key are refused.
func TestChainKeyFileAndItsRefusals(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	file := filepath.Join(t.TempDir(), "keys", "chain.key")
	if _, err := ChainKey(env(map[string]string{"STICHBUCH_CHAIN_KEY_FILE": file, "DATABASE_URL": "postgres://x"}), "", log); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("STICHBUCH_CHAIN_KEY_FILE was not created: %v", err)
	}
	_, err := ChainKey(env(map[string]string{"DATABASE_URL": "postgres://x"}), t.TempDir(), log)
	if err == nil || !strings.Contains(err.Error(), "set STICHBUCH_CHAIN_KEY_FILE") {
		t.Errorf("DATABASE_URL without a key file: %v", err)
	}
	legacy := t.TempDir()
	if err := os.WriteFile(filepath.Join(legacy, "PG_VERSION"), []byte("17\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ChainKey(env(nil), legacy, log); err == nil || !strings.Contains(err.Error(), "STICHBUCH_CHAIN_KEY_FILE") {
		t.Errorf("a data directory that is the cluster: %v", err)
	}
	short := filepath.Join(t.TempDir(), "short.key")
	if err := os.WriteFile(short, []byte("too short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ChainKey(env(map[string]string{"STICHBUCH_CHAIN_KEY_FILE": short}), "", log); err == nil || !strings.Contains(err.Error(), "at least 32 bytes") {
		t.Errorf("a short key: %v", err)
	}
}
