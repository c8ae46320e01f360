package postgres

import (
	"context"
	"encoding/json"
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
	in.Hands, err = sessionHands(ctx, q, clubID, sess.ID)
	return in, err
}

// seatedPlayers returns the session's players in seating order.
func seatedPlayers(ctx context.Context, q queryer, clubID int64, sess ledger.Session) ([]ledger.Player, error) {
	rows, err := q.Query(ctx, `
		SELECT p.player_id, p.name, p.created_at
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

// SettlementVersion is a session's latest settlement version (0: none)
// and what its settlements booked in the kitty so far.
func (t *tx) SettlementVersion(ctx context.Context, sessionID int64) (int, int64, error) {
	var version int
	var booked int64
	err := t.QueryRow(ctx, `
		SELECT (SELECT coalesce(max(version), 0) FROM settlements WHERE club_id = $1 AND session_id = $2),
		       (SELECT coalesce(sum(cents), 0) FROM kitty_bookings WHERE club_id = $1 AND session_id = $2 AND kind = $3)`,
		t.club, sessionID, ledger.KittySettlement).Scan(&version, &booked)
	return version, booked, err
}

// StoreSettlement stores a settlement version with its transfers, its
// money rows for the statistics, its change and its kitty booking.
func (t *tx) StoreSettlement(ctx context.Context, r ledger.SettlementRecord) error {
	st := r.Settlement
	body, err := json.Marshal(st)
	if err != nil {
		return err
	}
	var id int64
	if err := t.QueryRow(ctx, `
		INSERT INTO settlements (club_id, session_id, version, body) VALUES ($1, $2, $3, $4)
		RETURNING settlement_id`, t.club, st.SessionID, st.Version, body).Scan(&id); err != nil {
		return err
	}
	b := &pgx.Batch{}
	queueStatMoney(b, t.club, st)
	for _, tr := range st.Transfers {
		b.Queue(`
			INSERT INTO transfers (club_id, settlement_id, session_id, from_player, to_player, cents)
			VALUES ($1, $2, $3, $4, $5, $6)`, t.club, id, st.SessionID, tr.From, tr.To, tr.Cents)
	}
	queueChange(b, t.club, r.Change)
	if r.KittyCents != 0 {
		b.Queue(`
			INSERT INTO kitty_bookings (club_id, cents, kind, note, session_id, recorded_by)
			VALUES ($1, $2, $3, $4, $5, $6)`, t.club, r.KittyCents, ledger.KittySettlement, r.KittyNote, st.SessionID, r.RecordedBy)
	}
	return send(ctx, t, b)
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
	if err := json.Unmarshal(body, &st); err != nil {
		return st, fmt.Errorf("settlement %d unreadable: %w", id, err)
	}
	st.CreatedAt = &created
	st.Transfers, err = queryTransfers(ctx, q, `t.club_id = $1 AND t.settlement_id = $2`, clubID, id)
	return st, err
}

func queryTransfers(ctx context.Context, q queryer, where string, args ...any) ([]ledger.Transfer, error) {
	rows, err := q.Query(ctx, `
		SELECT t.transfer_id, t.session_id, t.from_player, t.to_player, t.cents, p.paid_at
		FROM transfers t
		LEFT JOIN transfer_payments p USING (club_id, transfer_id)
		WHERE `+where+` ORDER BY t.transfer_id`, args...)
	if err != nil {
		return nil, err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Transfer, error) {
		var t ledger.Transfer
		err := r.Scan(&t.ID, &t.SessionID, &t.From, &t.To, &t.Cents, &t.PaidAt)
		t.Paid = t.PaidAt != nil
		return t, err
	})
	if list == nil {
		list = []ledger.Transfer{}
	}
	return list, err
}

// MarkTransferPaid records a transfer's payment, once; ok is false when
// the club has no such transfer.
func (t *tx) MarkTransferPaid(ctx context.Context, transferID, recordedBy int64) (ledger.Transfer, bool, error) {
	_, err := t.Exec(ctx, `
		INSERT INTO transfer_payments (club_id, transfer_id, recorded_by)
		SELECT club_id, transfer_id, $3 FROM transfers WHERE club_id = $1 AND transfer_id = $2
		ON CONFLICT DO NOTHING`, t.club, transferID, recordedBy)
	if err != nil {
		return ledger.Transfer{}, false, err
	}
	list, err := queryTransfers(ctx, t, `t.club_id = $1 AND t.transfer_id = $2`, t.club, transferID)
	if err != nil || len(list) == 0 {
		return ledger.Transfer{}, false, err
	}
	return list[0], true, nil
}

// OpenDebts returns the unpaid transfers of other sessions' latest
// settlements that concern any of players.
func (s *Store) OpenDebts(ctx context.Context, clubID, sessionID int64, players []int64) ([]ledger.Transfer, error) {
	list, err := queryTransfers(ctx, s.pool, `
		t.club_id = $1 AND t.session_id <> $2 AND p.transfer_id IS NULL
		AND (t.from_player = ANY($3) OR t.to_player = ANY($3))
		AND t.settlement_id = (SELECT max(s.settlement_id) FROM settlements s
		                       WHERE s.club_id = t.club_id AND s.session_id = t.session_id)`,
		clubID, sessionID, players)
	return list, mapError(err)
}

// KittyBookings returns the kitty's bookings, newest first.
func (s *Store) KittyBookings(ctx context.Context, clubID int64) ([]ledger.KittyBooking, error) {
	rows, err := s.pool.Query(ctx, selectKittyBooking+` WHERE club_id = $1 ORDER BY booking_id DESC`, clubID)
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
