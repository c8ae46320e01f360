package postgres_test

import (
	"context"
	"testing"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestStatisticsFromTheReader: with a reader (STICHBUCH_READ_DATABASE_URL)
// the statistics come from it and are counted; with the reader gone they
// come from the primary, the same answer, and are not counted.
func TestStatisticsFromTheReader(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for n := 1; n <= 3; n++ {
		_, _, err := f.record(t, n, nil)
		must(t, err)
	}
	_, err := f.store.CloseSession(ctx, f.actor, f.session.ID)
	must(t, err)
	primary := postgres.New(f.pool, pgtest.ChainKey)
	reader, err := postgres.Connect(ctx, pgtest.WithDatabase(f.pool.Config().ConnString(), f.pool.Config().ConnConfig.Database))
	must(t, err)
	defer reader.Close()
	gone, err := postgres.Connect(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	must(t, err)
	defer gone.Close()

	want, err := primary.LeaderboardRecords(ctx, f.actor.ClubID, ledger.StatsFilter{})
	must(t, err)
	if len(want.Sums) != 4 {
		t.Fatalf("the primary's leaderboard has %d players, want 4", len(want.Sums))
	}
	for _, c := range []struct {
		name   string
		reader *postgres.Store
		served int
	}{
		{"a reader that answers", postgres.New(reader, pgtest.ChainKey), 1},
		{"no reader reachable", postgres.New(gone, pgtest.ChainKey), 0},
	} {
		served := 0
		stats := postgres.ReplicaStats{Replica: c.reader, Primary: primary, Served: func() { served++ }}
		got, err := stats.LeaderboardRecords(ctx, f.actor.ClubID, ledger.StatsFilter{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(got.Sums) != len(want.Sums) {
			t.Errorf("%s: %d players, want %d", c.name, len(got.Sums), len(want.Sums))
		}
		if served != c.served {
			t.Errorf("%s: %d reads counted as the replica's, want %d", c.name, served, c.served)
		}
	}
}
