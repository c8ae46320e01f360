// Package migrations holds the database schema as goose SQL migrations,
// embedded so the binary migrates its own database at start. Version 17
// is a Go migration (ledger/postgres/packed.go): its Down unpacks hands,
// which SQL cannot.
package migrations

import "embed"

// FS holds every migration, applied in file-name order.
//
//go:embed *.sql
var FS embed.FS
