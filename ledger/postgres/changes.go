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

// change is one change to record.
type change struct {
	kind      string
	tableID   *int64
	sessionID *int64
	number    *int
	data      any
}

func (c change) args(clubID int64) []any {
	data, _ := json.Marshal(c.data)
	if c.data == nil {
		data = []byte(`{}`)
	}
	return []any{clubID, c.kind, c.tableID, c.sessionID, c.number, data}
}

// recordChange numbers and stores a change in tx; call it last in the
// transaction, so the club's counter stays locked as briefly as possible.
func recordChange(ctx context.Context, tx pgx.Tx, clubID int64, c change) error {
	_, err := tx.Exec(ctx, changeSQL, c.args(clubID)...)
	return err
}

// queueChange adds recordChange's statement to a batch.
func queueChange(b *pgx.Batch, clubID int64, c change) {
	b.Queue(changeSQL, c.args(clubID)...)
}

func ptr[T any](v T) *T { return &v }

// Changes returns a club's changes after seq, in order; tableID > 0 keeps
// only that table's.
func (s *Store) Changes(ctx context.Context, a ledger.Actor, after int64, limit int, tableID int64) ([]ledger.Change, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT seq, kind, table_id, session_id, number, data, created_at
		FROM changes
		WHERE club_id = $1 AND seq > $2 AND ($3 = 0 OR table_id = $3)
		ORDER BY seq LIMIT $4`, a.ClubID, after, tableID, limit)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Change, error) {
		var c ledger.Change
		return c, r.Scan(&c.Seq, &c.Kind, &c.TableID, &c.SessionID, &c.Number, &c.Data, &c.CreatedAt)
	})
	if list == nil {
		list = []ledger.Change{}
	}
	return list, mapError(err)
}
