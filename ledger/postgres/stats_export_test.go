package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// IndexHandForTest, UnindexHandForTest and IndexSettlementForTest run the
// statistics hooks in a transaction of their own, for the tests.
func (s *Store) IndexHandForTest(ctx context.Context, clubID int64, h ledger.Hand, date string) error {
	return s.tx(ctx, func(t pgx.Tx) error { return indexHand(ctx, &tx{Tx: t, club: clubID}, h, date) })
}

func (s *Store) UnindexHandForTest(ctx context.Context, clubID int64, h ledger.Hand) error {
	return s.tx(ctx, func(t pgx.Tx) error { return unindexHand(ctx, &tx{Tx: t, club: clubID}, h) })
}

func (s *Store) IndexSettlementForTest(ctx context.Context, clubID int64, st ledger.Settlement) error {
	return s.tx(ctx, func(t pgx.Tx) error { return indexSettlement(ctx, &tx{Tx: t, club: clubID}, st) })
}
