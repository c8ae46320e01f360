package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// changeSQL appends a change to the club's feed in the writer's
// transaction and answers its number (record_change,
// migrations/00021_feed_numbered_in_the_writers_commit.sql). It waits for
// the club's numbering lock and holds it until the transaction ends, so it
// is always a transaction's last statement: the lock is then held only
// through the commit, and the feed stays gap-free in the order changes
// become visible.
const changeSQL = `SELECT record_change($1, $2, $3, $4, $5, $6)`

func changeArgs(clubID int64, c ledger.NewChange) []any {
	data := []byte(`{}`)
	if c.Data != nil {
		data, _ = json.Marshal(c.Data)
	}
	return []any{clubID, string(c.Kind), c.TableID, c.SessionID, c.Number, data}
}

// RecordChange keeps the change for the end of the transaction: InTx
// records a flow's changes as its last statements (see changeSQL).
func (t *tx) RecordChange(_ context.Context, c ledger.NewChange) error {
	t.changes = append(t.changes, c)
	return nil
}

// queueChange adds a change's statement to a batch, the batch's last;
// *head becomes the change's number once the batch has run.
func queueChange(b *pgx.Batch, clubID int64, c ledger.NewChange, head *int64) {
	b.Queue(changeSQL, changeArgs(clubID, c)...).QueryRow(func(row pgx.Row) error {
		var seq int64
		err := row.Scan(&seq)
		*head = max(*head, seq)
		return err
	})
}

// recordChanges records the changes a flow kept, in one round trip, as
// its transaction's last statements, and returns the club's new head (0
// when there were none).
func (t *tx) recordChanges(ctx context.Context) (int64, error) {
	var head int64
	b := &pgx.Batch{}
	for _, c := range t.changes {
		queueChange(b, t.club, c, &head)
	}
	return head, send(ctx, t, b)
}

// Changes returns a club's changes after seq, in order; tableID > 0 keeps
// only that table's.
func (s *Store) Changes(ctx context.Context, clubID, after int64, limit int, tableID int64) ([]ledger.Change, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT seq, kind, table_id, session_id, number, data, created_at
		FROM changes
		WHERE club_id = $1 AND seq > $2 AND ($3 = 0 OR table_id = $3)
		ORDER BY seq LIMIT $4`, clubID, after, tableID, limit)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Change, error) {
		var c ledger.Change
		var kind string
		err := r.Scan(&c.Seq, &kind, &c.TableID, &c.SessionID, &c.Number, &c.Data, &c.CreatedAt)
		c.Kind = ledger.ChangeKind(kind)
		return c, err
	})
	return list, mapError(err)
}

// ChangeHead returns the number of the club's latest change.
func (s *Store) ChangeHead(ctx context.Context, clubID int64) (int64, error) {
	var seq int64
	err := s.pool.QueryRow(ctx, `
		SELECT (SELECT coalesce(max(seq), 0) FROM changes x WHERE x.club_id = c.club_id)
		FROM clubs c WHERE c.club_id = $1`, clubID).Scan(&seq)
	return seq, notFound(err, "club %d", clubID)
}
