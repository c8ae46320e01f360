package postgres

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
)

// ReadDocument reads a club's whole ledger as one document (all but its
// format marker, which backup.Export sets) from one consistent snapshot: a
// read-only repeatable-read transaction, so hands recorded meanwhile are
// either wholly in it or not at all.
func (s *Store) ReadDocument(ctx context.Context, clubID int64) (*backup.Document, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, mapError(err)
	}
	defer tx.Rollback(ctx)
	d := &backup.Document{}
	err = tx.QueryRow(ctx, `SELECT club_id, name, time_zone, created_at, change_seq FROM clubs WHERE club_id = $1`, clubID).
		Scan(&d.Club.ID, &d.Club.Name, &d.Club.TimeZone, &d.Club.CreatedAt, &d.Club.ChangeSeq)
	if err != nil {
		return nil, notFound(err, "club %d", clubID)
	}
	d.Club.CreatedAt = d.Club.CreatedAt.UTC()
	for _, read := range []func(context.Context, pgx.Tx, *backup.Document) error{
		readMembers, readTables, readHands, readMoney, readTournaments,
	} {
		if err := read(ctx, tx, d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// readMembers reads the club's API keys and players.
func readMembers(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	clubID := d.Club.ID
	if err := exportRows(ctx, tx, &d.APIKeys, `
		SELECT key_id, role, label, secret_hash, created_at, revoked_at
		FROM api_keys WHERE club_id = $1 ORDER BY key_id`, clubID,
		func(r pgx.CollectableRow) (backup.Key, error) {
			var k backup.Key
			var role string
			var hash []byte
			err := r.Scan(&k.ID, &role, &k.Label, &hash, &k.CreatedAt, &k.RevokedAt)
			k.Role, k.SecretSHA256 = ledger.Role(role), hex.EncodeToString(hash)
			k.CreatedAt, k.RevokedAt = k.CreatedAt.UTC(), utcOrNil(k.RevokedAt)
			return k, err
		}); err != nil {
		return err
	}
	if err := exportRows(ctx, tx, &d.Players, selectPlayer+` WHERE club_id = $1 ORDER BY player_id`, clubID,
		func(r pgx.CollectableRow) (backup.Player, error) {
			var p ledger.Player
			err := scanPlayer(r, &p)
			return backup.Player{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt.UTC()}, err
		}); err != nil {
		return err
	}
	return nil
}

// readTables reads the club's tables and sessions.
func readTables(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	clubID := d.Club.ID
	if err := exportRows(ctx, tx, &d.Tables, selectTable+` WHERE club_id = $1 ORDER BY table_id`, clubID,
		func(r pgx.CollectableRow) (backup.Table, error) {
			var t ledger.Table
			err := scanTable(r, &t)
			return backup.Table{
				ID: t.ID, Name: t.Name, Game: t.Game, Preset: t.Preset, Options: t.Options, Rules: t.Rules,
				Stake: t.Stake, SettleMode: string(t.SettleMode), MatchLossCents: t.MatchLossCents,
				Hands: t.Hands, State: t.State, CreatedAt: t.CreatedAt.UTC(),
			}, err
		}); err != nil {
		return err
	}
	if err := exportRows(ctx, tx, &d.Sessions, selectSession+` WHERE s.club_id = $1 ORDER BY s.session_id`, clubID,
		func(r pgx.CollectableRow) (backup.Session, error) {
			var s ledger.Session
			err := scanSession(r, &s)
			return backup.Session{
				ID: s.ID, TableID: s.TableID, Date: s.Date, Seating: s.Seating,
				OpenedAt: s.OpenedAt.UTC(), ClosedAt: utcOrNil(s.ClosedAt),
			}, err
		}); err != nil {
		return err
	}
	return nil
}

// readHands reads the club's hands, each with its revisions.
func readHands(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	clubID := d.Club.ID
	if err := exportRows(ctx, tx, &d.Hands, `
		SELECT hand_id, table_id, session_id, number, game, rules, facts, result, state_after,
		       recorded_by, recorded_at, hash
		FROM hands WHERE club_id = $1 ORDER BY table_id, number`, clubID,
		func(r pgx.CollectableRow) (backup.Hand, error) {
			var h backup.Hand
			var hash []byte
			err := r.Scan(&h.ID, &h.TableID, &h.SessionID, &h.Number, &h.Game, &h.Rules, &h.Facts, &h.Result,
				&h.StateAfter, &h.RecordedBy, &h.RecordedAt, &hash)
			h.Hash, h.RecordedAt, h.Revisions = hex.EncodeToString(hash), h.RecordedAt.UTC(), []backup.Revision{}
			return h, err
		}); err != nil {
		return err
	}
	var revisions []exportedRevision
	if err := exportRows(ctx, tx, &revisions, `
		SELECT hand_id, revision_id, revision, facts, result, state_after, void, reason, caused_by,
		       recorded_by, recorded_at, hash
		FROM hand_revisions WHERE club_id = $1 ORDER BY hand_id, revision`, clubID,
		func(r pgx.CollectableRow) (exportedRevision, error) {
			var x exportedRevision
			var hash []byte
			rev := &x.Revision
			err := r.Scan(&x.handID, &rev.ID, &rev.Revision, &rev.Facts, &rev.Result, &rev.StateAfter, &rev.Void, &rev.Reason,
				&rev.CausedBy, &rev.RecordedBy, &rev.RecordedAt, &hash)
			rev.Hash, rev.RecordedAt = hex.EncodeToString(hash), rev.RecordedAt.UTC()
			return x, err
		}); err != nil {
		return err
	}
	byID := make(map[int64]*backup.Hand, len(d.Hands))
	for i := range d.Hands {
		byID[d.Hands[i].ID] = &d.Hands[i]
	}
	for _, r := range revisions {
		if h := byID[r.handID]; h != nil {
			h.Revisions = append(h.Revisions, r.Revision)
		}
	}
	return nil
}

// readMoney reads the club's settlements, transfers with their payments,
// kitty bookings and change feed.
func readMoney(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	clubID := d.Club.ID
	if err := exportRows(ctx, tx, &d.Settlements, `
		SELECT settlement_id, session_id, version, body, created_at
		FROM settlements WHERE club_id = $1 ORDER BY settlement_id`, clubID,
		func(r pgx.CollectableRow) (backup.Settlement, error) {
			var st backup.Settlement
			err := r.Scan(&st.ID, &st.SessionID, &st.Version, &st.Body, &st.CreatedAt)
			st.CreatedAt = st.CreatedAt.UTC()
			return st, err
		}); err != nil {
		return err
	}
	if err := exportRows(ctx, tx, &d.Transfers, `
		SELECT t.transfer_id, t.settlement_id, t.session_id, t.from_player, t.to_player, t.cents,
		       p.paid_at, p.recorded_by
		FROM transfers t LEFT JOIN transfer_payments p USING (club_id, transfer_id)
		WHERE t.club_id = $1 ORDER BY t.transfer_id`, clubID,
		func(r pgx.CollectableRow) (backup.Transfer, error) {
			var t backup.Transfer
			var paidAt *time.Time
			var paidBy *int64
			err := r.Scan(&t.ID, &t.SettlementID, &t.SessionID, &t.From, &t.To, &t.Cents, &paidAt, &paidBy)
			if paidAt != nil && paidBy != nil {
				t.Payment = &backup.Payment{PaidAt: paidAt.UTC(), RecordedBy: *paidBy}
			}
			return t, err
		}); err != nil {
		return err
	}
	if err := exportRows(ctx, tx, &d.KittyBookings, `
		SELECT booking_id, cents, kind, note, session_id, recorded_by, created_at
		FROM kitty_bookings WHERE club_id = $1 ORDER BY booking_id`, clubID,
		func(r pgx.CollectableRow) (backup.KittyBooking, error) {
			var b backup.KittyBooking
			err := r.Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.RecordedBy, &b.CreatedAt)
			b.CreatedAt = b.CreatedAt.UTC()
			return b, err
		}); err != nil {
		return err
	}
	if err := exportRows(ctx, tx, &d.Changes, `
		SELECT seq, kind, table_id, session_id, number, data, created_at
		FROM changes WHERE club_id = $1 ORDER BY seq`, clubID,
		func(r pgx.CollectableRow) (backup.Change, error) {
			var c backup.Change
			err := r.Scan(&c.Seq, &c.Kind, &c.TableID, &c.SessionID, &c.Number, &c.Data, &c.CreatedAt)
			c.CreatedAt = c.CreatedAt.UTC()
			return c, err
		}); err != nil {
		return err
	}
	return nil
}

// exportedRevision is a revision with the hand it belongs to.
type exportedRevision struct {
	backup.Revision
	handID int64
}

// exportRows collects the rows of query into *into, an empty list (never
// null) when there are none.
func exportRows[T any](ctx context.Context, tx pgx.Tx, into *[]T, query string, clubID int64, scan func(pgx.CollectableRow) (T, error)) error {
	rows, err := tx.Query(ctx, query, clubID)
	if err != nil {
		return mapError(err)
	}
	list, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return mapError(err)
	}
	if list == nil {
		list = []T{}
	}
	*into = list
	return nil
}

func utcOrNil(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
