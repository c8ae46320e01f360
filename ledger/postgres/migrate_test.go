package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stichbuch/stichbuch/ledger/postgres"
	"github.com/stichbuch/stichbuch/ledger/postgres/pgtest"
)

// TestMigrationsOnceWhenInstancesStartTogether: several serve instances
// started at once against one database (the HA set-up) each migrate
// before they listen; goose's session lock lets one apply each pending
// migration and the others find it applied: every instance succeeds and
// each version is applied exactly once.
func TestMigrationsOnceWhenInstancesStartTogether(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	first, err := postgres.Connect(ctx, url)
	must(t, err)
	statuses, err := postgres.Migrations(ctx, first)
	must(t, err)
	var pending []int64
	for _, st := range statuses[len(statuses)-3:] {
		pending = append(pending, st.Version)
	}
	must(t, postgres.MigrateDownTo(ctx, first, statuses[len(statuses)-4].Version))
	first.Close()

	const instances = 4
	applied := make([][]int64, instances)
	errs := make([]error, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() {
			pool, err := postgres.Connect(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer pool.Close()
			applied[i], errs[i] = postgres.Migrate(ctx, pool)
		})
	}
	wg.Wait()
	var all []int64
	for i := range instances {
		if errs[i] != nil {
			t.Errorf("instance %d: %v", i, errs[i])
		}
		all = append(all, applied[i]...)
	}
	slices.Sort(all)
	if !slices.Equal(all, pending) {
		t.Errorf("applied %v over all instances, want each of %v once", all, pending)
	}
}
