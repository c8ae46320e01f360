package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/api"
)

// TestServedByInTheContract: openapi.yaml says which operations a replica
// may answer (x-served-by), and it says what serve wires: the statistics
// operations, whose records come from the ledger's StatsStore, which
// STICHBUCH_READ_DATABASE_URL puts on a replica; every other operation,
// the app's reads after its writes among them, on the primary.
func TestServedByInTheContract(t *testing.T) {
	spec, _, err := api.LoadSpec()
	if err != nil {
		t.Fatal(err)
	}
	var def struct {
		Default string `json:"default"`
	}
	raw, _ := json.Marshal(spec.Extensions["x-served-by"])
	if json.Unmarshal(raw, &def) != nil || def.Default != "primary" {
		t.Fatalf("openapi.yaml has no x-served-by default primary: %s", raw)
	}
	replicas := 0
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			var served struct {
				Database  string `json:"database"`
				Staleness string `json:"staleness"`
			}
			if x, ok := op.Extensions["x-served-by"]; ok {
				raw, _ := json.Marshal(x)
				if err := json.Unmarshal(raw, &served); err != nil || served.Database != "replica" || served.Staleness == "" {
					t.Errorf("%s %s: x-served-by %s, want {database: replica, staleness: …}", method, path, raw)
				}
			}
			stats := method == "GET" && strings.HasPrefix(path, "/v1/stats/")
			if stats != (served.Database == "replica") {
				t.Errorf("%s %s: x-served-by %q, but serve reads it from the %s", method, path, served.Database, map[bool]string{true: "replica", false: "primary"}[stats])
			}
			if stats {
				replicas++
			}
		}
	}
	if replicas == 0 {
		t.Error("no statistics operations found")
	}
}
