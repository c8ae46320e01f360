package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stichbuch/stichbuch/ledger"
)

// ReplicaStats is the statistics port served by a replica (the read
// pool, STICHBUCH_READ_DATABASE_URL) with the primary behind it: a read
// the replica cannot answer (no replica reachable, a conflict with
// recovery) is read again from the primary. Statistics read from a
// replica may lag the primary by its replication delay (with synchronous
// replication: the replay of the standby, usually well under a second).
type ReplicaStats struct {
	Replica, Primary ledger.StatsStore
	// Served, when set, hears every read the replica answered.
	Served func()
}

var _ ledger.StatsStore = ReplicaStats{}

// read runs fn on the replica and, if the replica is not available, on
// the primary.
func read[T any](r ReplicaStats, fn func(ledger.StatsStore) (T, error)) (T, error) {
	v, err := fn(r.Replica)
	if err == nil {
		if r.Served != nil {
			r.Served()
		}
		return v, nil
	}
	if ledger.ErrorCode(err) != ledger.EUNAVAILABLE && !isRecoveryConflict(err) {
		return v, err
	}
	return fn(r.Primary)
}

// isRecoveryConflict reports a query a standby cancelled because it
// conflicted with the replay of the primary's WAL (40001 from recovery).
func isRecoveryConflict(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "40001"
}

func (r ReplicaStats) PlayerRecords(ctx context.Context, clubID, playerID int64, f ledger.StatsFilter) (ledger.PlayerRecords, error) {
	return read(r, func(s ledger.StatsStore) (ledger.PlayerRecords, error) {
		return s.PlayerRecords(ctx, clubID, playerID, f)
	})
}

func (r ReplicaStats) PairRecords(ctx context.Context, clubID, playerID, otherID int64, f ledger.StatsFilter) (ledger.PairRecords, error) {
	return read(r, func(s ledger.StatsStore) (ledger.PairRecords, error) {
		return s.PairRecords(ctx, clubID, playerID, otherID, f)
	})
}

func (r ReplicaStats) LeaderboardRecords(ctx context.Context, clubID int64, f ledger.StatsFilter) (ledger.LeaderboardRecords, error) {
	return read(r, func(s ledger.StatsStore) (ledger.LeaderboardRecords, error) {
		return s.LeaderboardRecords(ctx, clubID, f)
	})
}

func (r ReplicaStats) SeriesRecords(ctx context.Context, clubID int64, players []int64, f ledger.StatsFilter) (ledger.SeriesRecords, error) {
	return read(r, func(s ledger.StatsStore) (ledger.SeriesRecords, error) {
		return s.SeriesRecords(ctx, clubID, players, f)
	})
}
