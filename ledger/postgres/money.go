package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// SettleInput loads what a session's settlement is computed from.
func (s *Store) SettleInput(ctx context.Context, clubID int64, sess ledger.Session) (ledger.SettleInput, error) {
	in, err := settleInput(ctx, s.pool, clubID, sess)
	return in, mapError(err)
}

// SettleInput loads what a session's settlement is computed from.
func (t *tx) SettleInput(ctx context.Context, sess ledger.Session) (ledger.SettleInput, error) {
	return settleInput(ctx, t, t.club, sess)
}

func settleInput(ctx context.Context, q queryer, clubID int64, sess ledger.Session) (ledger.SettleInput, error) {
	in := ledger.SettleInput{Session: sess}
	var err error
	if in.Table, err = findTable(ctx, q, clubID, sess.TableID); err != nil {
		return in, err
	}
	if in.Players, err = seatedPlayers(ctx, q, clubID, sess); err != nil {
		return in, err
	}
	if in.Standings, err = queryStandings(ctx, q, clubID, sess.ID); err != nil {
		return in, err
	}
	if in.Hands, err = sessionHands(ctx, q, clubID, sess.ID); err != nil {
		return in, err
	}
	in.Payments, err = sessionPayments(ctx, q, clubID, sess.ID)
	return in, err
}

// sessionPayments returns the payments made for a session, in any
// settlement version.
func sessionPayments(ctx context.Context, q queryer, clubID, sessionID int64) ([]ledger.Payment, error) {
	rows, err := q.Query(ctx, `
		SELECT t.from_player, t.to_player, t.cents
		FROM transfers t JOIN standing_payments p USING (club_id, transfer_id)
		WHERE t.club_id = $1 AND t.session_id = $2 ORDER BY t.transfer_id`, clubID, sessionID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Payment, error) {
		var p ledger.Payment
		return p, r.Scan(&p.From, &p.To, &p.Cents)
	})
}

// seatedPlayers returns the session's players in seating order.
func seatedPlayers(ctx context.Context, q queryer, clubID int64, sess ledger.Session) ([]ledger.Player, error) {
	rows, err := q.Query(ctx, `
		SELECT p.player_id, p.name, p.retired, p.guest, p.created_at
		FROM session_players sp JOIN players p USING (club_id, player_id)
		WHERE sp.club_id = $1 AND sp.session_id = $2
		ORDER BY sp.seat`, clubID, sess.ID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Player, error) {
		var p ledger.Player
		return p, scanPlayer(r, &p)
	})
}

func sessionHands(ctx context.Context, q queryer, clubID, sessionID int64) ([]ledger.Hand, error) {
	rows, err := q.Query(ctx, selectHand+` WHERE h.club_id = $1 AND h.session_id = $2 ORDER BY h.number`, clubID, sessionID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
}

// SettlementVersion is a session's latest settlement version (0: none).
func (t *tx) SettlementVersion(ctx context.Context, sessionID int64) (int, error) {
	var version int
	err := t.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM settlements WHERE club_id = $1 AND session_id = $2`,
		t.club, sessionID).Scan(&version)
	return version, err
}

// StoreSettlement stores a settlement version with its transfers and its
// change.
func (t *tx) StoreSettlement(ctx context.Context, r ledger.SettlementRecord) error {
	st := r.Settlement
	body, err := ledger.SettlementBody(st)
	if err != nil {
		return err
	}
	var id int64
	if err := t.QueryRow(ctx, `
		INSERT INTO settlements (club_id, session_id, version, body) VALUES ($1, $2, $3, $4)
		RETURNING settlement_id`, t.club, st.SessionID, st.Version, body).Scan(&id); err != nil {
		return where(err, "inserting session %d's settlement %d", st.SessionID, st.Version)
	}
	b := &pgx.Batch{}
	for _, tr := range st.Transfers {
		b.Queue(`
			INSERT INTO transfers (club_id, settlement_id, session_id, from_player, to_player, cents)
			VALUES ($1, $2, $3, $4, $5, $6)`, t.club, id, st.SessionID, tr.From, tr.To, tr.Cents)
	}
	queueChange(b, t.club, r.Change, &t.queued)
	return where(send(ctx, t, b), "storing the transfers of session %d's settlement %d", st.SessionID, st.Version)
}

// StoredSettlement reads a closed session's latest settlement version.
func (s *Store) StoredSettlement(ctx context.Context, clubID int64, sess ledger.Session) (ledger.Settlement, error) {
	st, err := storedSettlement(ctx, s.pool, clubID, sess)
	return st, mapError(err)
}

func storedSettlement(ctx context.Context, q queryer, clubID int64, sess ledger.Session) (ledger.Settlement, error) {
	var st ledger.Settlement
	var id int64
	var body []byte
	var created time.Time
	err := q.QueryRow(ctx, `
		SELECT settlement_id, body, created_at FROM settlements
		WHERE club_id = $1 AND session_id = $2 ORDER BY version DESC LIMIT 1`, clubID, sess.ID).Scan(&id, &body, &created)
	if err != nil {
		return st, notFound(err, "settlement of session %d", sess.ID)
	}
	if st, err = ledger.ParseSettlementBody(body); err != nil {
		return st, fmt.Errorf("settlement %d unreadable: %w", id, err)
	}
	st.CreatedAt = &created
	st.Transfers, err = queryTransfers(ctx, q, `t.club_id = $1 AND t.settlement_id = $2`, clubID, id)
	return st, err
}

// selectTransfer reads transfers (alias t) with their payment (p), their
// settlement version (v) and whether it is the session's current one.
const selectTransfer = `
	SELECT t.transfer_id, t.session_id, t.from_player, t.to_player, t.cents, p.paid_at, p.recorded_by,
	       v.version, v.version = (SELECT max(version) FROM settlements c WHERE c.club_id = t.club_id AND c.session_id = t.session_id),
	       to_char(s.date, 'YYYY-MM-DD')
	FROM transfers t
	JOIN settlements v ON v.club_id = t.club_id AND v.settlement_id = t.settlement_id
	JOIN sessions s ON s.club_id = t.club_id AND s.session_id = t.session_id
	LEFT JOIN standing_payments p ON p.club_id = t.club_id AND p.transfer_id = t.transfer_id`

// currentVersion is the condition that t is of its session's latest
// settlement version.
const currentVersion = `t.settlement_id = (SELECT max(c.settlement_id) FROM settlements c
	WHERE c.club_id = t.club_id AND c.session_id = t.session_id)`

func queryTransfers(ctx context.Context, q queryer, where string, args ...any) ([]ledger.Transfer, error) {
	rows, err := q.Query(ctx, selectTransfer+` WHERE `+where+` ORDER BY t.transfer_id`, args...)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, scanTransfer)
	if list == nil {
		list = []ledger.Transfer{}
	}
	return list, err
}

func scanTransfer(r pgx.CollectableRow) (ledger.Transfer, error) {
	var t ledger.Transfer
	err := r.Scan(&t.ID, &t.SessionID, &t.From, &t.To, &t.Cents, &t.PaidAt, &t.PaidBy, &t.Version, &t.Current, &t.Date)
	t.Paid = t.PaidAt != nil
	return t, err
}

// Transfer reads a transfer of the club.
func (t *tx) Transfer(ctx context.Context, id int64) (ledger.Transfer, error) {
	list, err := queryTransfers(ctx, t, `t.club_id = $1 AND t.transfer_id = $2`, t.club, id)
	if err != nil {
		return ledger.Transfer{}, err
	}
	if len(list) == 0 {
		return ledger.Transfer{}, notFound(pgx.ErrNoRows, "transfer %d", id)
	}
	return list[0], nil
}

// RecordPayment records that a transfer was paid.
func (t *tx) RecordPayment(ctx context.Context, transferID, recordedBy int64) (ledger.Transfer, error) {
	if _, err := t.Exec(ctx, `
		INSERT INTO transfer_payments (club_id, transfer_id, recorded_by, seq)
		SELECT $1, $2, $3, coalesce(max(seq), 0) + 1 FROM transfer_payments WHERE club_id = $1 AND transfer_id = $2`,
		t.club, transferID, recordedBy); err != nil {
		return ledger.Transfer{}, err
	}
	return t.Transfer(ctx, transferID)
}

// UndoPayment records that the transfer's standing payment is undone.
func (t *tx) UndoPayment(ctx context.Context, transferID, recordedBy int64) (ledger.Transfer, error) {
	if _, err := t.Exec(ctx, `
		INSERT INTO payment_undos (club_id, transfer_id, seq, recorded_by)
		SELECT club_id, transfer_id, seq, $3 FROM standing_payments WHERE club_id = $1 AND transfer_id = $2`,
		t.club, transferID, recordedBy); err != nil {
		return ledger.Transfer{}, err
	}
	return t.Transfer(ctx, transferID)
}

// OpenDebts returns the unpaid transfers of other sessions' latest
// settlements that concern any of players.
func (s *Store) OpenDebts(ctx context.Context, clubID, sessionID int64, players []int64) ([]ledger.Transfer, error) {
	list, err := queryTransfers(ctx, s.pool, `
		t.club_id = $1 AND t.session_id <> $2 AND p.transfer_id IS NULL
		AND (t.from_player = ANY($3) OR t.to_player = ANY($3)) AND `+currentVersion,
		clubID, sessionID, players)
	return list, mapError(err)
}

// ListTransfers returns the club's transfers in the filter, by id.
func (s *Store) ListTransfers(ctx context.Context, clubID int64, f ledger.TransferFilter) ([]ledger.Transfer, error) {
	args := []any{clubID, f.Page.After}
	where := `t.club_id = $1 AND t.transfer_id > $2`
	add := func(cond string, v any) {
		args = append(args, v)
		where += fmt.Sprintf(" AND "+cond, len(args))
	}
	switch f.Status {
	case ledger.TransfersOpen:
		where += ` AND p.transfer_id IS NULL AND ` + currentVersion
	case ledger.TransfersPaid:
		where += ` AND p.transfer_id IS NOT NULL`
	default:
		where += ` AND (p.transfer_id IS NOT NULL OR ` + currentVersion + `)`
	}
	if f.PlayerID != 0 {
		add("(t.from_player = $%[1]d OR t.to_player = $%[1]d)", f.PlayerID)
	}
	if f.SessionID != 0 {
		add("t.session_id = $%d", f.SessionID)
	}
	if f.From != "" {
		add("s.date >= $%d", f.From)
	}
	if f.To != "" {
		add("s.date <= $%d", f.To)
	}
	limit := ""
	if f.Page.Limit > 0 {
		limit = fmt.Sprintf(" LIMIT %d", f.Page.Limit)
	}
	rows, err := s.pool.Query(ctx, selectTransfer+` WHERE `+where+` ORDER BY t.transfer_id`+limit, args...)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, scanTransfer)
	return list, mapError(err)
}

// KittyMovements returns the kitty's cash movements, newest first (paid
// transfers with the kitty and manual bookings; the settlement bookings
// written before migration 7 were no cash and are left out), and the open
// transfers with the kitty of current settlement versions, oldest first.
func (s *Store) KittyMovements(ctx context.Context, clubID int64) ([]ledger.KittyMovement, []ledger.KittyMovement, error) {
	var cash, receivable []ledger.KittyMovement
	scan := func(into *[]ledger.KittyMovement) func(pgx.Rows) error {
		return func(rows pgx.Rows) error {
			var err error
			*into, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.KittyMovement, error) {
				var m ledger.KittyMovement
				return m, r.Scan(&m.Cents, &m.Kind, &m.Note, &m.Player, &m.SessionID, &m.TransferID, &m.BookingID, &m.At)
			})
			return err
		}
	}
	// A transfer with the kitty: into it from a player, or out of it to one.
	const kittyTransfer = `CASE WHEN t.to_player IS NULL THEN t.cents ELSE -t.cents END, %s, '',
		coalesce(t.from_player, t.to_player), t.session_id, t.transfer_id, NULL::bigint`
	b := &pgx.Batch{}
	b.Queue(`
		SELECT * FROM (
			SELECT `+fmt.Sprintf(kittyTransfer, "'"+ledger.KittyPayment+"'")+`, p.paid_at
			FROM transfers t JOIN standing_payments p USING (club_id, transfer_id)
			WHERE t.club_id = $1 AND (t.from_player IS NULL OR t.to_player IS NULL)
			UNION ALL
			SELECT cents, kind, note, NULL, session_id, NULL, booking_id, created_at
			FROM kitty_bookings WHERE club_id = $1 AND kind = $2
		) m ORDER BY 8 DESC, 6 DESC NULLS LAST, 7 DESC NULLS LAST`, clubID, ledger.KittyManual).Query(scan(&cash))
	b.Queue(`
		SELECT `+fmt.Sprintf(kittyTransfer, "'"+ledger.KittyOpen+"'")+`, v.created_at
		FROM transfers t
		JOIN settlements v ON v.club_id = t.club_id AND v.settlement_id = t.settlement_id
		LEFT JOIN standing_payments p ON p.club_id = t.club_id AND p.transfer_id = t.transfer_id
		WHERE t.club_id = $1 AND (t.from_player IS NULL OR t.to_player IS NULL) AND p.transfer_id IS NULL
		AND `+currentVersion+` ORDER BY t.transfer_id`, clubID).Query(scan(&receivable))
	return cash, receivable, mapError(send(ctx, s.pool, b))
}

// ListKittyBookings returns a page of the club's kitty bookings by id.
func (s *Store) ListKittyBookings(ctx context.Context, clubID int64, p ledger.Page) ([]ledger.KittyBooking, error) {
	rows, err := s.pool.Query(ctx, selectKittyBooking+` WHERE club_id = $1 AND booking_id > $2 ORDER BY booking_id LIMIT nullif($3, 0)`,
		clubID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.KittyBooking, error) { return scanKittyBooking(r) })
	return list, mapError(err)
}

// InsertKittyBooking stores a kitty booking.
func (t *tx) InsertKittyBooking(ctx context.Context, nb ledger.NewKittyBooking) (ledger.KittyBooking, error) {
	return scanKittyBooking(t.QueryRow(ctx, `
		INSERT INTO kitty_bookings (club_id, cents, kind, note, session_id, recorded_by) VALUES ($1, $2, $3, $4, $5, $6)
		RETURNING booking_id, cents, kind, note, session_id, created_at`, t.club, nb.Cents, nb.Kind, nb.Note, nb.SessionID, nb.RecordedBy))
}

// KittyBooking reads a kitty booking of the club.
func (t *tx) KittyBooking(ctx context.Context, id int64) (ledger.KittyBooking, error) {
	b, err := scanKittyBooking(t.QueryRow(ctx, selectKittyBooking+` WHERE club_id = $1 AND booking_id = $2`, t.club, id))
	return b, notFound(err, "kitty booking %d", id)
}

const selectKittyBooking = `SELECT booking_id, cents, kind, note, session_id, created_at FROM kitty_bookings`

func scanKittyBooking(row pgx.Row) (ledger.KittyBooking, error) {
	var b ledger.KittyBooking
	return b, row.Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.CreatedAt)
}
