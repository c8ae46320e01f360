package postgres

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// changeSQL numbers a change with the club's counter and stores it. The
// counter is a row of clubs, locked until the transaction commits, so
// changes are numbered in commit order with no gap; the NOTIFY goes out at
// commit, to every instance of the service.
const changeSQL = `
	WITH c AS (UPDATE clubs SET change_seq = change_seq + 1 WHERE club_id = $1 RETURNING change_seq)
	INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data)
	SELECT $1, c.change_seq, $2, $3, $4, $5, $6 FROM c
	RETURNING seq, pg_notify('stichbuch_changes', $1::text || ':' || seq)`

func changeArgs(clubID int64, c ledger.NewChange) []any {
	data := []byte(`{}`)
	if c.Data != nil {
		data, _ = json.Marshal(c.Data)
	}
	return []any{clubID, string(c.Kind), c.TableID, c.SessionID, c.Number, data}
}

// RecordChange numbers and stores a change in the transaction.
func (t *tx) RecordChange(ctx context.Context, c ledger.NewChange) error {
	_, err := t.Exec(ctx, changeSQL, changeArgs(t.club, c)...)
	return err
}

// queueChange adds RecordChange's statement to a batch.
func queueChange(b *pgx.Batch, clubID int64, c ledger.NewChange) {
	b.Queue(changeSQL, changeArgs(clubID, c)...)
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
	err := s.pool.QueryRow(ctx, `SELECT change_seq FROM clubs WHERE club_id = $1`, clubID).Scan(&seq)
	return seq, notFound(err, "club %d", clubID)
}
