// Package migrations holds the database schema as goose SQL migrations,
// embedded so the binary migrates its own database at start.
package migrations

import "embed"

// FS holds every migration, applied in file-name order.
//
//go:embed *.sql
var FS embed.FS
