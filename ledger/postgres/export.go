package postgres

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
)

// Export reads a club's whole ledger as one document (backup.Document), from
// one consistent snapshot: a read-only repeatable-read transaction, so hands
// recorded meanwhile are either wholly in it or not at all.
func (s *Store) Export(ctx context.Context, clubID int64) (*backup.Document, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, mapError(err)
	}
	defer tx.Rollback(ctx)
	d := &backup.Document{Format: backup.Format}
	err = tx.QueryRow(ctx, `SELECT club_id, name, time_zone, created_at, change_seq FROM clubs WHERE club_id = $1`, clubID).
		Scan(&d.Club.ID, &d.Club.Name, &d.Club.TimeZone, &d.Club.CreatedAt, &d.Club.ChangeSeq)
	if err != nil {
		return nil, notFound(err, "club %d", clubID)
	}
	d.Club.CreatedAt = d.Club.CreatedAt.UTC()
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
		return nil, err
	}
	if err := exportRows(ctx, tx, &d.Players, selectPlayer+` WHERE club_id = $1 ORDER BY player_id`, clubID,
		func(r pgx.CollectableRow) (backup.Player, error) {
			var p ledger.Player
			err := scanPlayer(r, &p)
			return backup.Player{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt.UTC()}, err
		}); err != nil {
		return nil, err
	}
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
		return nil, err
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
		return nil, err
	}
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
		return nil, err
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
		return nil, err
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
	if err := exportRows(ctx, tx, &d.Settlements, `
		SELECT settlement_id, session_id, version, body, created_at
		FROM settlements WHERE club_id = $1 ORDER BY settlement_id`, clubID,
		func(r pgx.CollectableRow) (backup.Settlement, error) {
			var st backup.Settlement
			err := r.Scan(&st.ID, &st.SessionID, &st.Version, &st.Body, &st.CreatedAt)
			st.CreatedAt = st.CreatedAt.UTC()
			return st, err
		}); err != nil {
		return nil, err
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
		return nil, err
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
		return nil, err
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
		return nil, err
	}
	return d, nil
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

// identityColumns are the identity columns whose values an import keeps;
// their sequences are moved past the imported ids. Entries are numbered
// afresh.
var identityColumns = []struct{ table, column string }{
	{"clubs", "club_id"}, {"api_keys", "key_id"}, {"players", "player_id"}, {"tables", "table_id"},
	{"sessions", "session_id"}, {"hands", "hand_id"}, {"hand_revisions", "revision_id"}, {"settlements", "settlement_id"},
	{"transfers", "transfer_id"}, {"kitty_bookings", "booking_id"},
}

// Import loads an export document into an empty database in one
// transaction, or refuses it and stores nothing.
//
// Before touching the database it checks the document (Check) and re-scores
// every hand (Rescore). It refuses a database that holds any club. It keeps
// every original id (OVERRIDING SYSTEM VALUE) and moves the identity
// sequences past them, inserts the history rows as they were (hands table by
// table in number order, then their revisions, so the database recomputes
// every chained hash, which must equal the exported one), rebuilds the
// entries, the running totals and the statistics from the results,
// restores the change feed and its counter, and checks every invariant
// Verify checks before it commits.
func (s *Store) Import(ctx context.Context, d *backup.Document) error {
	if err := d.Check(); err != nil {
		return err
	}
	if err := d.Rescore(); err != nil {
		return err
	}
	return s.tx(ctx, func(tx pgx.Tx) error {
		// No club may be created while the database is filled.
		if _, err := tx.Exec(ctx, `LOCK TABLE clubs IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		var clubs int
		var first string
		err := tx.QueryRow(ctx, `SELECT count(*), coalesce(min(format('%s %L', club_id, name)), '') FROM clubs`).Scan(&clubs, &first)
		if err != nil {
			return err
		}
		if clubs > 0 {
			return ledger.Errorf(ledger.ECONFLICT,
				"the database is not empty: it holds %d club(s), among them %s; import loads a club only into an empty database", clubs, first)
		}
		for _, step := range []func(context.Context, pgx.Tx, *backup.Document) error{
			importClub, importTables, importHands, importMoney, importStats,
		} {
			if err := step(ctx, tx, d); err != nil {
				return err
			}
		}
		for _, c := range identityColumns {
			if _, err := tx.Exec(ctx, fmt.Sprintf(`
				SELECT setval(pg_get_serial_sequence('%[1]s', '%[2]s'), max(%[2]s)) FROM %[1]s HAVING max(%[2]s) IS NOT NULL`,
				c.table, c.column)); err != nil {
				return fmt.Errorf("moving the sequence of %s.%s: %w", c.table, c.column, err)
			}
		}
		return verifyImport(ctx, tx)
	})
}

// sendImportBatch runs b and returns its first error.
func sendImportBatch(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// importClub inserts the club, its keys and its players.
func importClub(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	c := d.Club
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO clubs (club_id, name, time_zone, created_at, change_seq) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5)`,
		c.ID, c.Name, c.TimeZone, c.CreatedAt, c.ChangeSeq)
	for _, k := range d.APIKeys {
		hash, err := hex.DecodeString(k.SecretSHA256)
		if err != nil {
			return ledger.Invalid("api_keys", "key %d: secret_sha256 is not hex", k.ID)
		}
		b.Queue(`
			INSERT INTO api_keys (club_id, key_id, role, label, secret_hash, created_at, revoked_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, c.ID, k.ID, string(k.Role), k.Label, hash, k.CreatedAt, k.RevokedAt)
	}
	for _, p := range d.Players {
		b.Queue(`INSERT INTO players (club_id, player_id, name, created_at) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4)`,
			c.ID, p.ID, p.Name, p.CreatedAt)
	}
	return sendImportBatch(ctx, tx, b)
}

// importTables inserts the tables (with their final hand count and state,
// which Rescore checked) and the sessions with their seating.
func importTables(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	club := d.Club.ID
	b := &pgx.Batch{}
	for _, t := range d.Tables {
		b.Queue(`
			INSERT INTO tables (club_id, table_id, name, game, preset, options, rules, stake_num, stake_den,
			                    settle_mode, match_loss_cents, hands, state, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			club, t.ID, t.Name, t.Game, t.Preset, t.Options, t.Rules, t.Stake.Num(), t.Stake.Den(),
			t.SettleMode, t.MatchLossCents, t.Hands, t.State, t.CreatedAt)
	}
	for _, s := range d.Sessions {
		b.Queue(`
			INSERT INTO sessions (club_id, session_id, table_id, date, opened_at, closed_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, s.ID, s.TableID, s.Date, s.OpenedAt, s.ClosedAt)
		b.Queue(`
			INSERT INTO session_players (club_id, session_id, seat, player_id)
			SELECT $1, $2, p.seat, p.player_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(player_id, seat)`,
			club, s.ID, s.Seating)
	}
	return sendImportBatch(ctx, tx, b)
}

// importHands inserts the hands one statement each, in table and number
// order, so the chain trigger finds each previous hand, and then each
// hand's revisions in order; the hash the database computes for each must
// equal the exported one. The entries follow from the results (revision
// 1's points, then each revision's differences); the running totals are
// summed from the entries.
func importHands(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	club := d.Club.ID
	var mismatch error
	checkHash := func(what string, want string) func(pgx.Row) error {
		return func(row pgx.Row) error {
			var got string
			if err := row.Scan(&got); err != nil {
				return err
			}
			if got != want && mismatch == nil {
				mismatch = ledger.Errorf(ledger.EINVALID,
					"%s: the database computes the hash %s, the document says %s; its content, its recording time or an earlier hand or revision was changed",
					what, got, want)
			}
			return nil
		}
	}
	b := &pgx.Batch{}
	for _, h := range d.Hands {
		b.Queue(`
			INSERT INTO hands (club_id, hand_id, table_id, session_id, number, game, rules, facts, result,
			                   state_after, recorded_by, recorded_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			RETURNING encode(hash, 'hex')`,
			club, h.ID, h.TableID, h.SessionID, h.Number, h.Game, h.Rules, h.Facts, h.Result,
			h.StateAfter, h.RecordedBy, h.RecordedAt).
			QueryRow(checkHash(fmt.Sprintf("table %d, hand %d", h.TableID, h.Number), h.Hash))
	}
	for _, h := range d.Hands {
		for _, r := range h.Revisions {
			b.Queue(`
				INSERT INTO hand_revisions (club_id, revision_id, hand_id, table_id, number, revision, facts, result,
				                            state_after, void, reason, caused_by, recorded_by, recorded_at) OVERRIDING SYSTEM VALUE
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
				RETURNING encode(hash, 'hex')`,
				club, r.ID, h.ID, h.TableID, h.Number, r.Revision, r.Facts, r.Result,
				r.StateAfter, r.Void, r.Reason, r.CausedBy, r.RecordedBy, r.RecordedAt).
				QueryRow(checkHash(fmt.Sprintf("table %d, hand %d, revision %d", h.TableID, h.Number, r.Revision), r.Hash))
		}
		entries, err := h.Entries()
		if err != nil {
			return ledger.Errorf(ledger.EINVALID, "%v", err)
		}
		revs := make([]int, len(entries))
		players := make([]int64, len(entries))
		nums := make([]int64, len(entries))
		dens := make([]int64, len(entries))
		for i, e := range entries {
			revs[i], players[i], nums[i], dens[i] = e.Revision, e.Player, e.Points.Num(), e.Points.Den()
		}
		b.Queue(`
			INSERT INTO entries (club_id, hand_id, table_id, session_id, revision, player_id, num, den)
			SELECT $1, $2, $3, $4, e.revision, e.player, e.num, e.den
			FROM unnest($5::integer[], $6::bigint[], $7::bigint[], $8::bigint[]) WITH ORDINALITY AS e(revision, player, num, den, ord)
			ORDER BY e.ord`,
			club, h.ID, h.TableID, h.SessionID, revs, players, nums, dens)
	}
	if err := sendImportBatch(ctx, tx, b); err != nil {
		return err
	}
	if mismatch != nil {
		return mismatch
	}
	b = &pgx.Batch{}
	b.Queue(`
		INSERT INTO table_totals (club_id, table_id, player_id, num, den, hands)
		SELECT club_id, table_id, player_id, s.total[1], s.total[2], s.n
		FROM (SELECT club_id, table_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
		      FROM entries WHERE club_id = $1 GROUP BY club_id, table_id, player_id) s`, club)
	b.Queue(`
		INSERT INTO session_totals (club_id, session_id, player_id, num, den, hands)
		SELECT club_id, session_id, player_id, s.total[1], s.total[2], s.n
		FROM (SELECT club_id, session_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
		      FROM entries WHERE club_id = $1 GROUP BY club_id, session_id, player_id) s`, club)
	return sendImportBatch(ctx, tx, b)
}

// importMoney inserts the settlements, transfers, payments, kitty bookings
// and the change feed as they were.
func importMoney(ctx context.Context, tx pgx.Tx, d *backup.Document) error {
	club := d.Club.ID
	b := &pgx.Batch{}
	for _, st := range d.Settlements {
		b.Queue(`
			INSERT INTO settlements (club_id, settlement_id, session_id, version, body, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, st.ID, st.SessionID, st.Version, st.Body, st.CreatedAt)
	}
	for _, t := range d.Transfers {
		b.Queue(`
			INSERT INTO transfers (club_id, transfer_id, settlement_id, session_id, from_player, to_player, cents) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, club, t.ID, t.SettlementID, t.SessionID, t.From, t.To, t.Cents)
		if t.Payment != nil {
			b.Queue(`
				INSERT INTO transfer_payments (club_id, transfer_id, paid_at, recorded_by)
				VALUES ($1, $2, $3, $4)`, club, t.ID, t.Payment.PaidAt, t.Payment.RecordedBy)
		}
	}
	for _, k := range d.KittyBookings {
		b.Queue(`
			INSERT INTO kitty_bookings (club_id, booking_id, cents, kind, note, session_id, recorded_by, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, club, k.ID, k.Cents, k.Kind, k.Note, k.SessionID, k.RecordedBy, k.CreatedAt)
	}
	for _, c := range d.Changes {
		b.Queue(`
			INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, club, c.Seq, c.Kind, c.TableID, c.SessionID, c.Number, c.Data, c.CreatedAt)
	}
	return sendImportBatch(ctx, tx, b)
}

// importStats rebuilds the statistics side tables as RebuildStats does.
func importStats(ctx context.Context, t pgx.Tx, d *backup.Document) error {
	return rebuildStats(ctx, &tx{Tx: t, club: d.Club.ID})
}

// verifyImport runs Verify's checks inside the import's transaction, so an
// import that would leave a breach is rolled back.
func verifyImport(ctx context.Context, tx pgx.Tx) error {
	for _, c := range checks {
		var args []any
		if c.zeroSum {
			args = append(args, ledger.ZeroSumGames())
		}
		var detail string
		err := tx.QueryRow(ctx, c.query, args...).Scan(&detail)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("checking %q: %w", c.name, err)
		}
		return ledger.Errorf(ledger.EINVALID, "the imported ledger breaks %q: %s", c.name, detail)
	}
	return nil
}
