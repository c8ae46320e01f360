// Package stichbuch holds the API contract, openapi.yaml, for the packages
// that serve it and check requests against it: go:embed reaches no parent
// folder, so the one contract file is embedded here, beside it.
package stichbuch

import _ "embed"

//go:embed openapi.yaml
var openapi []byte

// OpenAPI returns openapi.yaml, the API contract, as this build embeds it.
func OpenAPI() []byte { return openapi }
