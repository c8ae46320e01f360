package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestGenerateIsReproducible generates the same small history twice into
// two databases: the same hands, every session closed and settled, every
// hand in the statistics, and few hands regenerated after a refusal.
func TestGenerateIsReproducible(t *testing.T) {
	ctx := context.Background()
	generateInto := func() (string, string) {
		t.Helper()
		url := pgtest.URL(t)
		var out bytes.Buffer
		args := []string{"stichbuch-bench", "generate", "--hands", "600", "--tables", "6", "--seed", "3", "--workers", "3"}
		if err := run(ctx, args, envFunc(map[string]string{"DATABASE_URL": url, "LOG_LEVEL": "warn"}), &out, io.Discard); err != nil {
			t.Fatalf("generate: %v\n%s", err, out.String())
		}
		pool, err := postgres.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		var history string
		err = pool.QueryRow(ctx, `
			SELECT string_agg(t.name || ' ' || s.date || ' ' || h.number || ' ' || h.facts::text, E'\n' ORDER BY t.table_id, h.number)
			FROM hands h JOIN tables t USING (club_id, table_id) JOIN sessions s USING (club_id, session_id)`).Scan(&history)
		if err != nil {
			t.Fatal(err)
		}
		var hands, indexed, open, unsettled, games int
		err = pool.QueryRow(ctx, `
			SELECT (SELECT count(*) FROM hands), (SELECT count(DISTINCT hand_id) FROM stat_hands),
			       (SELECT count(DISTINCT game) FROM hands),
			       (SELECT count(*) FROM sessions WHERE closed_at IS NULL),
			       (SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM stat_money m WHERE m.session_id = s.session_id))`).
			Scan(&hands, &indexed, &games, &open, &unsettled)
		if err != nil {
			t.Fatal(err)
		}
		if hands != 600 || indexed != 600 || games != 5 || open != 0 || unsettled != 0 {
			t.Errorf("%d hands, %d in the statistics, %d games, %d sessions open, %d without money; want 600, 600, 5, 0, 0",
				hands, indexed, games, open, unsettled)
		}
		return history, out.String()
	}
	a, out := generateInto()
	b, _ := generateInto()
	if a != b {
		t.Error("the same seed generated two different histories")
	}
	m := regexp.MustCompile(`(\d+) hands \((\d+) regenerated`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary in the output:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[2]); n > 30 {
		t.Errorf("%d of 600 generated hands were refused by the engines", n)
	}
	if !strings.Contains(out, "admin API key:\nsb_") {
		t.Errorf("the output names no admin key:\n%s", out)
	}
}
