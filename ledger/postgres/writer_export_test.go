package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// WriteTogether writes recs as one batch of the hand writer, as if they
// had all arrived while a commit was in flight, and returns each hand and
// its answer. A record of the same table as the one before it is decided
// after that one, as the table's lane would: its table is what that hand
// leaves.
func (s *Store) WriteTogether(ctx context.Context, clubID int64, recs []ledger.HandRecord) ([]ledger.Hand, []error) {
	batch := make([]*handWrite, len(recs))
	for i, r := range recs {
		if i > 0 && r.Table.ID == recs[i-1].Table.ID {
			r.Table = batch[i-1].rec.Table.AfterHand(batch[i-1].hand)
		}
		w, err := s.prepareHand(clubID, r)
		if err != nil {
			panic(err)
		}
		batch[i] = w
	}
	order := append([]*handWrite(nil), batch...) // commit sorts its slice
	s.commits.commitSafely(order)
	hands, errs := make([]ledger.Hand, len(batch)), make([]error, len(batch))
	for i, w := range batch {
		hands[i], errs[i] = w.hand, w.err
		if w.err == nil && w.queued {
			errs[i] = s.numberChanges(ctx, clubID)
		}
	}
	return hands, errs
}

// HoldCommit makes the hand writer send each batch's COMMIT on its own,
// after running fn with the batch's connection.
func (s *Store) HoldCommit(fn func(ctx context.Context, conn *pgx.Conn)) {
	s.commits.beforeCommit = fn
}
