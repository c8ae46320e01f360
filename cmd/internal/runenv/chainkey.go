package runenv

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/stichbuch/stichbuch/ledger/chain"
)

// ChainKeyFileName is the chain key's file in a data directory (beside
// pg/, PostgreSQL's own directory, so a copy of the cluster holds no key).
const ChainKeyFileName = "chain.key"

// ChainKey loads the installation's chain key (see ledger/chain), creating
// it on the first start: from STICHBUCH_CHAIN_KEY_FILE when set, else,
// for the embedded cluster, from chain.key in the data directory. A new
// key is 32 random bytes in a file of mode 0600, and its creation is
// logged. With DATABASE_URL and no STICHBUCH_CHAIN_KEY_FILE it refuses:
// nothing says where a key would survive the next deployment. It also
// refuses a data directory that is the cluster itself (the layout of
// earlier releases), where the key would sit among PostgreSQL's files.
func ChainKey(getenv func(string) string, dataDir string, log *slog.Logger) (chain.Key, error) {
	path, err := ChainKeyPath(getenv, dataDir)
	if err != nil {
		return chain.Key{}, err
	}
	secret, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		secret, err = createChainKey(path)
		if err == nil {
			log.Warn("created this installation's chain key: back it up, apart from the exports (without it, verify cannot check the ledger's hashes)", "file", path)
		}
	}
	if err != nil {
		return chain.Key{}, fmt.Errorf("the chain key: %w", err)
	}
	key, err := chain.NewKey(secret)
	if err != nil {
		return chain.Key{}, fmt.Errorf("the chain key in %s: %w", path, err)
	}
	return key, nil
}

// ChainKeyPath is the file ChainKey reads, or why there is none.
func ChainKeyPath(getenv func(string) string, dataDir string) (string, error) {
	path := getenv("STICHBUCH_CHAIN_KEY_FILE")
	switch {
	case path != "":
		return path, nil
	case getenv("DATABASE_URL") != "":
		return "", errors.New("with DATABASE_URL, set STICHBUCH_CHAIN_KEY_FILE to the file of this installation's chain key " +
			"(32 random bytes, created on the first start if absent), outside the database's backups; back it up on its own: " +
			"without it, verify cannot check the ledger's hashes and this installation's exports import only as foreign")
	}
	if _, err := os.Stat(filepath.Join(dataDir, "PG_VERSION")); err == nil {
		return "", fmt.Errorf("the data directory %s is PostgreSQL's own (the layout of an earlier release): "+
			"set STICHBUCH_CHAIN_KEY_FILE to a file outside it for this installation's chain key", dataDir)
	}
	return filepath.Join(dataDir, ChainKeyFileName), nil
}

// createChainKey writes a new key to path, which must not exist; when
// another process created it first, it reads that one.
func createChainKey(path string) ([]byte, error) {
	secret, err := chain.GenerateSecret()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(secret); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return secret, f.Close()
}
