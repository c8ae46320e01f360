package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
)

// exportPage is how many rows an export cursor fetches at a time.
const exportPage = 500

// ExportTx runs fn on one consistent snapshot of a club: a read-only
// repeatable-read transaction, so hands recorded meanwhile are either
// wholly in it or not at all. A missing club is ENOTFOUND.
func (s *Store) ExportTx(ctx context.Context, clubID int64, fn func(backup.ExportTx) error) error {
	if err := s.numberChanges(ctx, clubID); err != nil {
		return err
	}
	return s.exportSnapshot(ctx, clubID, fn)
}

// exportSnapshot is ExportTx without numbering the queue first.
func (s *Store) exportSnapshot(ctx context.Context, clubID int64, fn func(backup.ExportTx) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return mapError(err)
	}
	defer tx.Rollback(ctx)
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM clubs WHERE club_id = $1)`, clubID).Scan(&exists); err != nil {
		return mapError(err)
	}
	if !exists {
		return notFound(pgx.ErrNoRows, "club %d", clubID)
	}
	return mapError(fn(exportTx{tx: tx, club: clubID}))
}

// exportTx reads one club from the snapshot: each list through a cursor
// of its own (DECLARE … CURSOR), fetched a page at a time, so the cursors
// can be read in turns on one connection.
type exportTx struct {
	tx   pgx.Tx
	club int64
}

// Club reads the club.
func (e exportTx) Club(ctx context.Context) (backup.Club, error) {
	var c backup.Club
	err := e.tx.QueryRow(ctx, `
		SELECT club_id, name, time_zone, created_at,
		       change_seq + (SELECT count(*) FROM change_queue q WHERE q.club_id = c.club_id)
		FROM clubs c WHERE club_id = $1`, e.club).
		Scan(&c.ID, &c.Name, &c.TimeZone, &c.CreatedAt, &c.ChangeSeq)
	c.CreatedAt = c.CreatedAt.UTC()
	return c, notFound(err, "club %d", e.club)
}

// Keys reads every API key of the club, by id.
func (e exportTx) Keys(ctx context.Context) ([]backup.Key, error) {
	rows, err := e.tx.Query(ctx, `SELECT key_id, label, created_at FROM api_keys WHERE club_id = $1 ORDER BY key_id`, e.club)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (backup.Key, error) {
		var k backup.Key
		err := r.Scan(&k.ID, &k.Label, &k.CreatedAt)
		k.CreatedAt = k.CreatedAt.UTC()
		return k, err
	})
}

// Players reads the players by id.
func (e exportTx) Players(ctx context.Context) (backup.Cursor[backup.Player], error) {
	return openCursor(ctx, e, "export_players", selectPlayer+` WHERE club_id = $1 ORDER BY player_id`,
		func(r pgx.CollectableRow) (backup.Player, error) {
			var p ledger.Player
			err := scanPlayer(r, &p)
			return backup.Player{ID: p.ID, Name: p.Name, Retired: p.Retired, Guest: p.Guest, CreatedAt: p.CreatedAt.UTC()}, err
		})
}

// Tables reads the tables by id.
func (e exportTx) Tables(ctx context.Context) (backup.Cursor[backup.Table], error) {
	return openCursor(ctx, e, "export_tables", selectTable+` WHERE club_id = $1 ORDER BY table_id`,
		func(r pgx.CollectableRow) (backup.Table, error) {
			var t ledger.Table
			err := scanTable(r, &t)
			return backup.Table{
				ID: t.ID, Name: t.Name, Game: t.Game, Preset: t.Preset, Options: t.Options, Rules: t.Rules,
				Stake: t.Stake, SettleMode: string(t.SettleMode), MatchLossCents: t.MatchLossCents,
				Hands: t.Hands, State: t.State, CreatedAt: t.CreatedAt.UTC(),
			}, err
		})
}

// Sessions reads the sessions by table and id.
func (e exportTx) Sessions(ctx context.Context) (backup.Cursor[backup.Session], error) {
	return openCursor(ctx, e, "export_sessions", selectSession+` WHERE s.club_id = $1 ORDER BY s.table_id, s.session_id`,
		func(r pgx.CollectableRow) (backup.Session, error) {
			var s ledger.Session
			err := scanSession(r, &s)
			return backup.Session{ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating,
				OpenedAt: s.OpenedAt.UTC(), ClosedAt: utcOrNil(s.ClosedAt), Terms: backup.Terms{Rules: s.Terms.Rules,
					Stake: s.Terms.Stake, SettleMode: string(s.Terms.SettleMode), MatchLossCents: s.Terms.MatchLossCents}}, err
		})
}

// Hands reads the hands as recorded, by table and number.
func (e exportTx) Hands(ctx context.Context) (backup.Cursor[backup.Hand], error) {
	return openCursor(ctx, e, "export_hands", `
		SELECT hand_id, table_id, session_id, number, facts, result, state_after, body, recorded_by, recorded_at, hash, chain_key
		FROM hands WHERE club_id = $1 ORDER BY table_id, number`,
		func(r pgx.CollectableRow) (backup.Hand, error) {
			var h backup.Hand
			var t handTexts
			var hash, key []byte
			err := r.Scan(&h.ID, &h.TableID, &h.SessionID, &h.Number, &t.facts, &t.result, &t.state, &t.body,
				&h.RecordedBy, &h.RecordedAt, &hash, &key)
			if err == nil {
				err = t.unpack()
			}
			h.Facts, h.Result, h.StateAfter = t.facts, t.result, t.state
			h.Hash, h.ChainKey, h.RecordedAt = hex.EncodeToString(hash), hex.EncodeToString(key), h.RecordedAt.UTC()
			return h, err
		})
}

// Revisions reads the revisions by their hand's table and number, then by
// revision.
func (e exportTx) Revisions(ctx context.Context) (backup.Cursor[backup.Revision], error) {
	return openCursor(ctx, e, "export_revisions", `
		SELECT revision_id, hand_id, revision, facts, result, state_after, void, reason, caused_by,
		       recorded_by, recorded_at, hash, chain_key
		FROM hand_revisions WHERE club_id = $1 ORDER BY table_id, number, revision`,
		func(r pgx.CollectableRow) (backup.Revision, error) {
			var rev backup.Revision
			var hash, key []byte
			err := r.Scan(&rev.ID, &rev.HandID, &rev.Revision, &rev.Facts, &rev.Result, &rev.StateAfter, &rev.Void, &rev.Reason,
				&rev.CausedBy, &rev.RecordedBy, &rev.RecordedAt, &hash, &key)
			rev.Hash, rev.ChainKey, rev.RecordedAt = hex.EncodeToString(hash), hex.EncodeToString(key), rev.RecordedAt.UTC()
			return rev, err
		})
}

// Settlements reads the settlement versions by their session's table,
// session and version.
func (e exportTx) Settlements(ctx context.Context) (backup.Cursor[backup.Settlement], error) {
	return openCursor(ctx, e, "export_settlements", `
		SELECT v.settlement_id, v.session_id, v.version, v.body, v.created_at
		FROM settlements v JOIN sessions s USING (club_id, session_id)
		WHERE v.club_id = $1 ORDER BY s.table_id, v.session_id, v.version`,
		func(r pgx.CollectableRow) (backup.Settlement, error) {
			var st backup.Settlement
			err := r.Scan(&st.ID, &st.SessionID, &st.Version, &st.Body, &st.CreatedAt)
			st.CreatedAt = st.CreatedAt.UTC()
			return st, err
		})
}

// Transfers reads the transfers with their payments, ordered as their
// settlement versions, then by id.
func (e exportTx) Transfers(ctx context.Context) (backup.Cursor[backup.Transfer], error) {
	return openCursor(ctx, e, "export_transfers", `
		SELECT t.transfer_id, t.settlement_id, t.from_player, t.to_player, t.cents, p.paid_at, p.recorded_by
		FROM transfers t
		JOIN settlements v ON v.club_id = t.club_id AND v.settlement_id = t.settlement_id
		JOIN sessions s ON s.club_id = t.club_id AND s.session_id = v.session_id
		LEFT JOIN standing_payments p ON p.club_id = t.club_id AND p.transfer_id = t.transfer_id
		WHERE t.club_id = $1 ORDER BY s.table_id, v.session_id, v.version, t.transfer_id`,
		func(r pgx.CollectableRow) (backup.Transfer, error) {
			var t backup.Transfer
			var paidAt *time.Time
			var paidBy *int64
			err := r.Scan(&t.ID, &t.SettlementID, &t.From, &t.To, &t.Cents, &paidAt, &paidBy)
			if paidAt != nil && paidBy != nil {
				t.Payment = &backup.Payment{PaidAt: paidAt.UTC(), RecordedBy: *paidBy}
			}
			return t, err
		})
}

// KittyBookings reads the kitty's bookings by id.
func (e exportTx) KittyBookings(ctx context.Context) (backup.Cursor[backup.KittyBooking], error) {
	return openCursor(ctx, e, "export_kitty", `
		SELECT booking_id, cents, kind, note, session_id, recorded_by, created_at
		FROM kitty_bookings WHERE club_id = $1 ORDER BY booking_id`,
		func(r pgx.CollectableRow) (backup.KittyBooking, error) {
			var b backup.KittyBooking
			err := r.Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.RecordedBy, &b.CreatedAt)
			b.CreatedAt = b.CreatedAt.UTC()
			return b, err
		})
}

// Changes reads the change feed by seq, and after it the changes still
// queued in the snapshot (committed, not yet numbered), numbered as the
// numberer would number them now: every hand of the document has its
// change. ExportTx numbers the queue first, so these are few.
func (e exportTx) Changes(ctx context.Context) (backup.Cursor[backup.Change], error) {
	return openCursor(ctx, e, "export_changes", `
		SELECT seq, kind, table_id, session_id, number, data, created_at
		FROM changes WHERE club_id = $1
		UNION ALL
		SELECT c.change_seq + row_number() OVER (ORDER BY q.queue_id), q.kind, q.table_id, q.session_id, q.number, q.data, q.created_at
		FROM change_queue q JOIN clubs c USING (club_id) WHERE q.club_id = $1
		ORDER BY 1`,
		func(r pgx.CollectableRow) (backup.Change, error) {
			var c backup.Change
			err := r.Scan(&c.Seq, &c.Kind, &c.TableID, &c.SessionID, &c.Number, &c.Data, &c.CreatedAt)
			c.CreatedAt = c.CreatedAt.UTC()
			return c, err
		})
}

// cursor is a query's rows read through a server-side cursor, a page at a
// time.
type cursor[T any] struct {
	tx   pgx.Tx
	name string
	scan func(pgx.CollectableRow) (T, error)
	page []T
	at   int
	done bool
}

// openCursor declares a cursor called name over query, whose $1 is the
// club.
func openCursor[T any](ctx context.Context, e exportTx, name, query string, scan func(pgx.CollectableRow) (T, error)) (backup.Cursor[T], error) {
	if _, err := e.tx.Exec(ctx, `DECLARE `+name+` NO SCROLL CURSOR FOR `+query, e.club); err != nil {
		return nil, mapError(err)
	}
	return &cursor[T]{tx: e.tx, name: name, scan: scan}, nil
}

// Next returns the next row, fetching the next page when the last one is
// used up.
func (c *cursor[T]) Next(ctx context.Context) (T, bool, error) {
	var zero T
	if c.at == len(c.page) {
		if c.done {
			return zero, false, nil
		}
		rows, err := c.tx.Query(ctx, fmt.Sprintf(`FETCH FORWARD %d FROM %s`, exportPage, c.name))
		if err != nil {
			return zero, false, mapError(err)
		}
		if c.page, err = pgx.CollectRows(rows, c.scan); err != nil {
			return zero, false, mapError(err)
		}
		c.at, c.done = 0, len(c.page) < exportPage
		if len(c.page) == 0 {
			return zero, false, nil
		}
	}
	c.at++
	return c.page[c.at-1], true, nil
}

func utcOrNil(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
