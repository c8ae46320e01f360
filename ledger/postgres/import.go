package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/backup"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
)

var (
	_ backup.ImportStore = (*Store)(nil)
	_ backup.ExportStore = (*Store)(nil)
)

// ImportTx runs backup.Import's steps in one transaction: committed when fn
// returns nil, rolled back when it returns an error.
func (s *Store) ImportTx(ctx context.Context, fn func(backup.ImportTx) error) error {
	return s.tx(ctx, func(t pgx.Tx) error { return fn(&importTx{Tx: t, key: s.key}) })
}

// importTx is the transaction of an import: backup's ImportTx port. It
// keeps every original id (OVERRIDING SYSTEM VALUE) and sends each batch
// of inserts in one pipelined round trip.
type importTx struct {
	pgx.Tx
	club    int64 // the club, once inserted
	batches int   // written so far
	key     chain.Key
}

// LockClubs locks the clubs table against new clubs until the transaction
// ends and counts the clubs already stored.
func (t *importTx) LockClubs(ctx context.Context) (backup.Present, error) {
	var p backup.Present
	if _, err := t.Exec(ctx, `LOCK TABLE clubs IN EXCLUSIVE MODE`); err != nil {
		return p, err
	}
	err := t.QueryRow(ctx, `
		SELECT count(*), coalesce(min(club_id), 0), coalesce((SELECT name FROM clubs ORDER BY club_id LIMIT 1), '')
		FROM clubs`).Scan(&p.Clubs, &p.FirstID, &p.FirstName)
	return p, err
}

// ChainKey is the installation's chain key the store was made with.
func (s *Store) ChainKey() chain.Key { return s.key }

// Write inserts a batch in one round trip, in the order of its fields.
func (t *importTx) Write(ctx context.Context, b *backup.Batch) error {
	q := &pgx.Batch{}
	if c := b.Club; c != nil {
		t.club = c.ID
		q.Queue(`INSERT INTO clubs (club_id, name, time_zone, created_at, change_seq) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5)`,
			c.ID, c.Name, c.TimeZone, c.CreatedAt, c.ChangeSeq)
	}
	club := t.club
	queueMembers(q, club, b)
	queueTables(q, club, b)
	if err := queueHands(q, club, b.Hands); err != nil {
		return err
	}
	queueMoney(q, club, b)
	queueTournaments(q, club, b)
	queueSeasons(q, club, b)
	if err := send(ctx, t.Tx, q); err != nil {
		return where(err, "writing import batch %d (%d hands)", t.batches+1, len(b.Hands))
	}
	t.batches++
	if t.batches&(t.batches-1) == 0 {
		return analyzeImport(ctx, t.Tx)
	}
	return nil
}

// analyzeImport refreshes the planner's statistics of the tables an
// import's foreign keys and hash chain look rows up in. A fresh database
// has none, and the plans its connection caches for those lookups (the
// foreign-key checks, the chain triggers) are made for empty tables:
// sequential scans, which make every insert read the rows before it and
// a long import quadratic. ANALYZE counts the transaction's own rows and
// invalidates those plans; run after batches 1, 2, 4, 8 …, the tables
// never outgrow their statistics more than twice.
func analyzeImport(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `ANALYZE hands (club_id, hand_id, table_id, number), hand_revisions (club_id, hand_id, revision),
		sessions (club_id, session_id), settlements (club_id, settlement_id), transfers (club_id, transfer_id),
		players (club_id, player_id), api_keys (club_id, key_id), tables (club_id, table_id)`)
	return err
}

// Complete sums the running totals from the entries, sets each table's
// chain head to its last hand's hash, and moves the identity sequences
// past the imported ids.
func (t *importTx) Complete(ctx context.Context, clubID int64) error {
	b := &pgx.Batch{}
	b.Queue(`
		UPDATE tables t SET last_hash = h.hash FROM hands h
		WHERE t.club_id = $1 AND h.club_id = t.club_id AND h.table_id = t.table_id AND h.number = t.hands`, clubID)
	b.Queue(`
		INSERT INTO table_totals (club_id, table_id, player_id, num, den, hands)
		SELECT club_id, table_id, player_id, s.total[1], s.total[2], s.n
		FROM (SELECT club_id, table_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
		      FROM entries WHERE club_id = $1 GROUP BY club_id, table_id, player_id) s`, clubID)
	b.Queue(`
		INSERT INTO session_totals (club_id, session_id, player_id, num, den, hands)
		SELECT club_id, session_id, player_id, s.total[1], s.total[2], s.n
		FROM (SELECT club_id, session_id, player_id, rat_sum(num, den) AS total, count(DISTINCT hand_id) AS n
		      FROM entries WHERE club_id = $1 GROUP BY club_id, session_id, player_id) s`, clubID)
	if err := send(ctx, t.Tx, b); err != nil {
		return where(err, "summing club %d's running totals", clubID)
	}
	if err := rebuildAttendance(ctx, t.Tx, clubID); err != nil {
		return where(err, "counting club %d's attendance", clubID)
	}
	for _, c := range identityColumns {
		if _, err := t.Exec(ctx, fmt.Sprintf(`
			SELECT setval(pg_get_serial_sequence('%[1]s', '%[2]s'), max(%[2]s)) FROM %[1]s HAVING max(%[2]s) IS NOT NULL`,
			c.table, c.column)); err != nil {
			return fmt.Errorf("moving the sequence of %s.%s: %w", c.table, c.column, err)
		}
	}
	return nil
}

// Stats is the club's statistics in the import's transaction.
func (t *importTx) Stats(clubID int64) ledger.StatsTx { return &tx{Tx: t.Tx, club: clubID} }

// AddKey stores a new key of the club under the next free id.
func (t *importTx) AddKey(ctx context.Context, clubID int64, k ledger.NewKey) (int64, error) {
	var id int64
	err := t.QueryRow(ctx, `INSERT INTO api_keys (club_id, role, label, secret_hash) VALUES ($1, $2, $3, $4) RETURNING key_id`,
		clubID, string(k.Role), k.Label, k.Hash).Scan(&id)
	return id, err
}

// FirstBreach runs Verify's checks inside the import's transaction, so an
// import that would leave a breach can be rolled back.
func (t *importTx) FirstBreach(ctx context.Context, zeroSumGames []string) (*backup.Breach, error) {
	b, err := firstBreach(ctx, t.Tx, t.key, zeroSumGames, nil)
	if err != nil || b == nil {
		return nil, err
	}
	return &backup.Breach{Invariant: b.Invariant, Detail: b.Detail}, nil
}

// identityColumns are the identity columns whose values an import keeps;
// their sequences are moved past the imported ids. Entries are numbered
// afresh.
var identityColumns = []struct{ table, column string }{
	{"imports", "import_id"}, {"imported_evenings", "evening_id"},
	{"clubs", "club_id"}, {"api_keys", "key_id"}, {"players", "player_id"}, {"tables", "table_id"},
	{"sessions", "session_id"}, {"hands", "hand_id"}, {"hand_revisions", "revision_id"}, {"settlements", "settlement_id"},
	{"transfers", "transfer_id"}, {"kitty_bookings", "booking_id"}, {"tournaments", "tournament_id"},
}

// queueMembers queues the inserts of a batch's keys and players.
func queueMembers(q *pgx.Batch, club int64, b *backup.Batch) {
	for _, k := range b.Keys {
		q.Queue(`
			INSERT INTO api_keys (club_id, key_id, role, label, secret_hash, created_at, revoked_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, club, k.ID, string(k.Role), k.Label, k.SecretHash, k.CreatedAt, k.RevokedAt)
	}
	for _, p := range b.Players {
		q.Queue(`INSERT INTO players (club_id, player_id, name, retired, guest, created_at) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6)`,
			club, p.ID, p.Name, p.Retired, p.Guest, p.CreatedAt)
	}
}

// queueTables queues the inserts of a batch's tables (with their final
// hand count and state) and sessions with their seating.
func queueTables(q *pgx.Batch, club int64, b *backup.Batch) {
	for _, t := range b.Tables {
		q.Queue(`
			INSERT INTO tables (club_id, table_id, name, game, preset, options, rules, stake_num, stake_den,
			                    settle_mode, match_loss_cents, hands, state, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
			club, t.ID, t.Name, t.Game, t.Preset, t.Options, t.Rules, t.Stake.Num(), t.Stake.Den(),
			t.SettleMode, t.MatchLossCents, t.Hands, t.State, t.CreatedAt)
	}
	for _, s := range b.Sessions {
		tm := s.Terms
		q.Queue(`
			INSERT INTO sessions (club_id, session_id, table_id, date, opened_at, closed_at,
			                      rules, stake_num, stake_den, settle_mode, match_loss_cents) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, club, s.ID, s.TableID, s.Date, s.OpenedAt, s.ClosedAt,
			tm.Rules, tm.Stake.Num(), tm.Stake.Den(), tm.SettleMode, tm.MatchLossCents)
		q.Queue(`
			INSERT INTO session_players (club_id, session_id, seat, player_id)
			SELECT $1, $2, p.seat, p.player_id FROM unnest($3::bigint[]) WITH ORDINALITY AS p(player_id, seat)`,
			club, s.ID, s.Seating)
	}
}

// queueHands queues the inserts of the hands, in table and number order,
// each packed, with its entries and its link in the chain as the import
// checked it, then each hand's revisions in order with theirs.
func queueHands(q *pgx.Batch, club int64, hands []backup.HandRow) error {
	for _, h := range hands {
		body, err := handpack.Pack(h.Game, h.Facts, h.Result, h.StateAfter)
		if err != nil {
			return fmt.Errorf("hand %d: %w", h.ID, err)
		}
		e := entriesOf(h, 1)
		q.Queue(`
			INSERT INTO hands (club_id, hand_id, table_id, session_id, number, game, rules, body,
			                   recorded_by, recorded_at, prev_hash, hash, chain_key, entry_players, entry_nums, entry_dens)
			OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			club, h.ID, h.TableID, h.SessionID, h.Number, h.Game, h.Rules, body,
			h.RecordedBy, h.RecordedAt, h.Link.Prev, h.Link.Hash, h.Link.Key, e.players, e.nums, e.dens)
	}
	for _, h := range hands {
		for i, r := range h.Revisions {
			l := h.RevisionLinks[i]
			e := entriesOf(h, r.Revision)
			q.Queue(`
				INSERT INTO hand_revisions (club_id, revision_id, hand_id, table_id, number, revision, facts, result,
				                            state_after, void, reason, caused_by, recorded_by, recorded_at,
				                            prev_hash, hash, chain_key, entry_players, entry_nums, entry_dens) OVERRIDING SYSTEM VALUE
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
				club, r.ID, h.ID, h.TableID, h.Number, r.Revision, r.Facts, r.Result,
				r.StateAfter, r.Void, r.Reason, r.CausedBy, r.RecordedBy, r.RecordedAt, l.Prev, l.Hash, l.Key, e.players, e.nums, e.dens)
		}
	}
	return nil
}

// rowEntries are a row's entries as its columns.
type rowEntries struct{ players, nums, dens []int64 }

// entriesOf returns hand h's entries of revision rev, in their order.
func entriesOf(h backup.HandRow, rev int) rowEntries {
	e := rowEntries{players: []int64{}, nums: []int64{}, dens: []int64{}}
	for _, x := range h.Entries {
		if x.Revision == rev {
			e.players, e.nums, e.dens = append(e.players, x.Player), append(e.nums, x.Points.Num()), append(e.dens, x.Points.Den())
		}
	}
	return e
}

// queueMoney queues the inserts of the settlement versions with their
// transfers and payments, the kitty bookings and the change feed.
func queueMoney(q *pgx.Batch, club int64, b *backup.Batch) {
	for _, st := range b.Settlements {
		q.Queue(`
			INSERT INTO settlements (club_id, settlement_id, session_id, version, body, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6)`, club, st.ID, st.SessionID, st.Version, st.Body, st.CreatedAt)
		for _, t := range st.Transfers {
			q.Queue(`
				INSERT INTO transfers (club_id, transfer_id, settlement_id, session_id, from_player, to_player, cents) OVERRIDING SYSTEM VALUE
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, club, t.ID, st.ID, st.SessionID, t.From, t.To, t.Cents)
			if t.Payment != nil {
				q.Queue(`
					INSERT INTO transfer_payments (club_id, transfer_id, paid_at, recorded_by)
					VALUES ($1, $2, $3, $4)`, club, t.ID, t.Payment.PaidAt, t.Payment.RecordedBy)
			}
		}
	}
	for _, k := range b.KittyBookings {
		q.Queue(`
			INSERT INTO kitty_bookings (club_id, booking_id, cents, kind, note, session_id, recorded_by, created_at) OVERRIDING SYSTEM VALUE
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, club, k.ID, k.Cents, k.Kind, k.Note, k.SessionID, k.RecordedBy, k.CreatedAt)
	}
	for _, c := range b.Changes {
		q.Queue(`
			INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, club, c.Seq, c.Kind, c.TableID, c.SessionID, c.Number, c.Data, c.CreatedAt)
	}
}
