package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// benchHands is an evening's Doppelkopf for the seated P1..P4, as the load
// tool records it: normal games, announcements, a solo, a Hochzeit.
var benchHands = []string{
	`{"game":"normal","re":{"players":[P1,P3],"augen":187,"announced":"keine90"}}`,
	`{"game":"normal","re":{"players":[P2,P4],"augen":100}}`,
	`{"game":"normal","re":{"players":[P1,P2],"augen":150}}`,
	`{"game":"damensolo","re":{"players":[P4],"augen":130}}`,
	`{"game":"normal","re":{"players":[P1,P4],"augen":100,"announced":"re"},"kontra":{"announced":"kontra"}}`,
	`{"game":"hochzeit","re":{"players":[P2,P4],"augen":170}}`,
	`{"game":"normal","re":{"players":[P3,P4],"augen":121,"fuchs_gefangen":1}}`,
	`{"game":"farbsolo","suit":"kreuz","re":{"players":[P3],"augen":100}}`,
}

// benchTable is a Doppelkopf table with its open session and its hands'
// facts for its players.
type benchTable struct {
	id, session int64
	facts       []json.RawMessage
}

// newBenchTables creates a club and n Doppelkopf tables of four players.
func newBenchTables(b *testing.B, n int) (*ledger.Service, ledger.Actor, []benchTable) {
	b.Helper()
	ctx := context.Background()
	store := postgres.New(pgtest.New(b), pgtest.ChainKey).Service()
	_, secret, err := store.CreateClub(ctx, ledger.NewClub{Name: "Bench", TimeZone: "Europe/Berlin"})
	if err != nil {
		b.Fatal(err)
	}
	a, err := store.Authenticate(ctx, secret)
	if err != nil {
		b.Fatal(err)
	}
	tables := make([]benchTable, n)
	for i := range tables {
		var seated []int64
		var pairs []string
		for k := range 4 {
			p, _, err := store.CreatePlayer(ctx, a, fmt.Sprintf("T%d P%d", i, k+1), nil)
			if err != nil {
				b.Fatal(err)
			}
			seated = append(seated, p.ID)
			pairs = append(pairs, fmt.Sprintf("P%d", k+1), fmt.Sprint(p.ID))
		}
		t, _, err := store.CreateTable(ctx, a, ledger.NewTable{Name: fmt.Sprintf("Doko %d", i), Game: "doppelkopf"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		s, _, err := store.OpenSession(ctx, a, t.ID, "2026-11-19", seated, nil)
		if err != nil {
			b.Fatal(err)
		}
		r := strings.NewReplacer(pairs...)
		bt := benchTable{id: t.ID, session: s.ID}
		for _, h := range benchHands {
			bt.facts = append(bt.facts, json.RawMessage(r.Replace(h)))
		}
		tables[i] = bt
	}
	return store, a, tables
}

// record records hand number n of the table with an Idempotency-Key, as
// the API does.
func (bt benchTable) record(b *testing.B, store *ledger.Service, a ledger.Actor, n int) {
	_, _, err := store.RecordHand(context.Background(), a, ledger.NewHand{
		TableID: bt.id, SessionID: bt.session, Number: n, Facts: bt.facts[(n-1)%len(bt.facts)],
	}, &ledger.Idempotency{Key: fmt.Sprintf("bench-%d-%d", bt.id, n), Hash: make([]byte, 32)})
	if err != nil {
		b.Fatalf("table %d hand %d: %v", bt.id, n, err)
	}
}

// BenchmarkRecordHand is the write path below HTTP: scoring, the
// transaction and its statements, against the test PostgreSQL (pgtest's
// throwaway cluster runs with fsync off; set DATABASE_URL to measure a
// durable server).
//
//	go test ./ledger/postgres -run '^$' -bench RecordHand -benchtime 5s
func BenchmarkRecordHand(b *testing.B) {
	b.Run("sequential", func(b *testing.B) {
		store, a, tables := newBenchTables(b, 1)
		n := 0
		for b.Loop() {
			n++
			tables[0].record(b, store, a, n)
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "hands/s")
	})
	// Eight tables (more when GOMAXPROCS does not divide 8), one goroutine
	// each, every goroutine recording its own table's hands.
	b.Run("parallel-8-tables", func(b *testing.B) {
		procs := runtime.GOMAXPROCS(0)
		per := (8 + procs - 1) / procs
		store, a, tables := newBenchTables(b, per*procs)
		var next atomic.Int64
		b.SetParallelism(per)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			t := tables[next.Add(1)-1]
			n := 0
			for pb.Next() {
				n++
				t.record(b, store, a, n)
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	})
}
