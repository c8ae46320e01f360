package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// queryer is a pool or a transaction: what the read helpers need.
type queryer interface {
	querier
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// settleInput loads everything a session's settlement is computed from,
// and the seated players in order.
func settleInput(ctx context.Context, q queryer, clubID int64, sess ledger.Session) (in ledger.SettleInput, players []ledger.Player, err error) {
	in = ledger.SettleInput{Session: sess}
	if err = scanTable(q.QueryRow(ctx, selectTable+` WHERE club_id = $1 AND table_id = $2`, clubID, sess.TableID), &in.Table); err != nil {
		return in, nil, err
	}
	engine, err := ledger.Engine("game", in.Table.Game)
	if err != nil {
		return in, nil, err
	}
	in.ZeroSum = engine.ZeroSum()
	if players, err = seatedPlayers(ctx, q, clubID, sess); err != nil {
		return in, nil, err
	}
	in.Names = map[int64]string{}
	for _, p := range players {
		in.Names[p.ID] = p.Name
	}
	if in.Standings, err = queryStandings(ctx, q, clubID, sess.ID); err != nil {
		return in, nil, err
	}
	in.Hands, err = sessionHands(ctx, q, clubID, sess.ID)
	return in, players, err
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

// closeAndSettle freezes an open session in tx and stores its settlement
// as version 1 with its transfers and its kitty booking.
func closeAndSettle(ctx context.Context, tx pgx.Tx, a ledger.Actor, sess ledger.Session) error {
	if _, err := tx.Exec(ctx, `UPDATE sessions SET closed_at = now() WHERE club_id = $1 AND session_id = $2`, a.ClubID, sess.ID); err != nil {
		return err
	}
	if err := recordChange(ctx, tx, a.ClubID, change{kind: ledger.ChangeSessionClosed, tableID: &sess.TableID, sessionID: &sess.ID}); err != nil {
		return err
	}
	now := time.Now()
	sess.ClosedAt = &now
	in, _, err := settleInput(ctx, tx, a.ClubID, sess)
	if err != nil {
		return err
	}
	st, err := ledger.Settle(in)
	if err != nil {
		return err
	}
	return storeSettlement(ctx, tx, a, st, 1)
}

// storeSettlement stores settlement version `version` of a session with its
// transfers, books what it changes in the kitty (a later version books only
// the difference to the one before), and records the change.
func storeSettlement(ctx context.Context, tx pgx.Tx, a ledger.Actor, st ledger.Settlement, version int) error {
	st.Version, st.Final = version, true
	var booked int64
	if version > 1 {
		if err := tx.QueryRow(ctx, `
			SELECT coalesce(sum(cents), 0) FROM kitty_bookings
			WHERE club_id = $1 AND session_id = $2 AND kind = 'settlement'`, a.ClubID, st.SessionID).Scan(&booked); err != nil {
			return err
		}
	}
	body, err := json.Marshal(st)
	if err != nil {
		return err
	}
	var id int64
	if err := tx.QueryRow(ctx, `
		INSERT INTO settlements (club_id, session_id, version, body) VALUES ($1, $2, $3, $4)
		RETURNING settlement_id`, a.ClubID, st.SessionID, version, body).Scan(&id); err != nil {
		return err
	}
	if err := indexSettlement(ctx, tx, a.ClubID, st); err != nil {
		return err
	}
	for _, t := range st.Transfers {
		if _, err := tx.Exec(ctx, `
			INSERT INTO transfers (club_id, settlement_id, session_id, from_player, to_player, cents)
			VALUES ($1, $2, $3, $4, $5, $6)`, a.ClubID, id, st.SessionID, t.From, t.To, t.Cents); err != nil {
			return err
		}
	}
	if err := recordChange(ctx, tx, a.ClubID, change{kind: ledger.ChangeSettlement, tableID: &st.TableID, sessionID: &st.SessionID,
		data: map[string]any{"version": version, "kitty_cents": st.KittyCents}}); err != nil {
		return err
	}
	delta := st.KittyCents - booked
	if delta == 0 {
		return nil
	}
	note := fmt.Sprintf("Abrechnung vom %s (Sitzung %d)", germanDate(st.Date), st.SessionID)
	if version > 1 {
		note = fmt.Sprintf("Korrektur der Abrechnung vom %s (Sitzung %d, Fassung %d)", germanDate(st.Date), st.SessionID, version)
	}
	_, err = tx.Exec(ctx, `
		INSERT INTO kitty_bookings (club_id, cents, kind, note, session_id, recorded_by)
		VALUES ($1, $2, 'settlement', $3, $4, $5)`,
		a.ClubID, delta, note, st.SessionID, a.KeyID)
	return err
}

// resettle stores a closed session's settlement anew after a correction,
// as the next version.
func resettle(ctx context.Context, tx pgx.Tx, a ledger.Actor, sess ledger.Session) error {
	var version int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM settlements WHERE club_id = $1 AND session_id = $2`,
		a.ClubID, sess.ID).Scan(&version); err != nil {
		return err
	}
	in, _, err := settleInput(ctx, tx, a.ClubID, sess)
	if err != nil {
		return err
	}
	st, err := ledger.Settle(in)
	if err != nil {
		return err
	}
	return storeSettlement(ctx, tx, a, st, version+1)
}

// FindSettlement returns a session's settlement: the stored latest version
// of a closed session (with each transfer's paid state), or the provisional
// figures of an open one.
func (s *Store) FindSettlement(ctx context.Context, a ledger.Actor, sessionID int64) (ledger.Settlement, error) {
	sess, err := s.FindSession(ctx, a, sessionID)
	if err != nil {
		return ledger.Settlement{}, err
	}
	if sess.Open() {
		in, _, err := settleInput(ctx, s.pool, a.ClubID, sess)
		if err != nil {
			return ledger.Settlement{}, mapError(err)
		}
		return ledger.Settle(in)
	}
	st, err := storedSettlement(ctx, s.pool, a.ClubID, sess)
	return st, mapError(err)
}

// settlementOf is a session's settlement from its loaded input: computed
// while open, the stored latest version once closed.
func settlementOf(ctx context.Context, q queryer, clubID int64, in ledger.SettleInput) (ledger.Settlement, error) {
	if in.Session.Open() {
		return ledger.Settle(in)
	}
	return storedSettlement(ctx, q, clubID, in.Session)
}

// storedSettlement reads a closed session's latest settlement version.
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

// MarkTransferPaid records that a transfer was paid. Marking it again
// changes nothing.
func (s *Store) MarkTransferPaid(ctx context.Context, a ledger.Actor, transferID int64) (ledger.Transfer, error) {
	var t ledger.Transfer
	err := s.tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `
			INSERT INTO transfer_payments (club_id, transfer_id, recorded_by)
			SELECT club_id, transfer_id, $3 FROM transfers WHERE club_id = $1 AND transfer_id = $2
			ON CONFLICT DO NOTHING`, a.ClubID, transferID, a.KeyID)
		if err != nil {
			return err
		}
		list, err := queryTransfers(ctx, tx, `t.club_id = $1 AND t.transfer_id = $2`, a.ClubID, transferID)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return ledger.Errorf(ledger.ENOTFOUND, "transfer %d not found", transferID)
		}
		t = list[0]
		return nil
	})
	return t, err
}

// openDebts returns the unpaid transfers of other sessions' latest
// settlements that concern any of players.
func openDebts(ctx context.Context, q queryer, clubID, sessionID int64, players []int64) ([]ledger.Transfer, error) {
	return queryTransfers(ctx, q, `
		t.club_id = $1 AND t.session_id <> $2 AND p.transfer_id IS NULL
		AND (t.from_player = ANY($3) OR t.to_player = ANY($3))
		AND t.settlement_id = (SELECT max(s.settlement_id) FROM settlements s
		                       WHERE s.club_id = t.club_id AND s.session_id = t.session_id)`,
		clubID, sessionID, players)
}

// Report assembles a session's report: score sheet, standings, money,
// transfers and the open debts of its players.
func (s *Store) Report(ctx context.Context, a ledger.Actor, sessionID int64) (ledger.Report, error) {
	sess, err := s.FindSession(ctx, a, sessionID)
	if err != nil {
		return ledger.Report{}, err
	}
	club, err := s.FindClub(ctx, a)
	if err != nil {
		return ledger.Report{}, err
	}
	r, err := s.report(ctx, a.ClubID, club, sess)
	return r, mapError(err)
}

func (s *Store) report(ctx context.Context, clubID int64, club ledger.Club, sess ledger.Session) (ledger.Report, error) {
	in, players, err := settleInput(ctx, s.pool, clubID, sess)
	if err != nil {
		return ledger.Report{}, err
	}
	st, err := settlementOf(ctx, s.pool, clubID, in)
	if err != nil {
		return ledger.Report{}, err
	}
	debts, err := openDebts(ctx, s.pool, clubID, sess.ID, sess.Seating)
	if err != nil {
		return ledger.Report{}, err
	}
	standings := sortStandings(in.Standings)
	return ledger.BuildReport(club, in.Table, sess, players, in.Hands, standings, st, debts), nil
}

// EveningReport joins every session of the club on date, per player.
func (s *Store) EveningReport(ctx context.Context, a ledger.Actor, date string) (ledger.EveningReport, error) {
	if _, err := ledger.ParseDate("date", date); err != nil {
		return ledger.EveningReport{}, err
	}
	club, err := s.FindClub(ctx, a)
	if err != nil {
		return ledger.EveningReport{}, err
	}
	rows, err := s.pool.Query(ctx, selectSession+` WHERE s.club_id = $1 AND s.date = $2 ORDER BY s.session_id`, a.ClubID, date)
	if err != nil {
		return ledger.EveningReport{}, mapError(err)
	}
	sessions, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Session, error) {
		var sess ledger.Session
		return sess, scanSession(r, &sess)
	})
	if err != nil {
		return ledger.EveningReport{}, mapError(err)
	}
	var parts []ledger.EveningTable
	for _, sess := range sessions {
		in, _, err := settleInput(ctx, s.pool, a.ClubID, sess)
		if err != nil {
			return ledger.EveningReport{}, mapError(err)
		}
		st, err := settlementOf(ctx, s.pool, a.ClubID, in)
		if err != nil {
			return ledger.EveningReport{}, mapError(err)
		}
		parts = append(parts, ledger.EveningTable{Table: in.Table, Session: sess, Settlement: st})
	}
	return ledger.BuildEveningReport(club, date, parts), nil
}

// Kitty returns the club's kitty: its balance and its bookings, newest first.
func (s *Store) Kitty(ctx context.Context, a ledger.Actor) (ledger.Kitty, error) {
	k := ledger.Kitty{Bookings: []ledger.KittyBooking{}}
	rows, err := s.pool.Query(ctx, `
		SELECT booking_id, cents, kind, note, session_id, created_at
		FROM kitty_bookings WHERE club_id = $1 ORDER BY booking_id DESC`, a.ClubID)
	if err != nil {
		return k, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.KittyBooking, error) {
		var b ledger.KittyBooking
		return b, r.Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.CreatedAt)
	})
	if err != nil {
		return k, mapError(err)
	}
	for _, b := range list {
		k.BalanceCents += b.Cents
	}
	if list != nil {
		k.Bookings = list
	}
	return k, nil
}

// BookKitty adds a manual booking to the club's kitty ("Grillabend", -8000).
func (s *Store) BookKitty(ctx context.Context, a ledger.Actor, cents int64, note string, idem *ledger.Idempotency) (ledger.KittyBooking, bool, error) {
	if cents == 0 || cents > 100_000_000 || cents < -100_000_000 {
		return ledger.KittyBooking{}, false, ledger.Invalid("cents", "must be non-zero and at most 1.000.000,00 € either way")
	}
	if err := ledger.CheckName("note", note, 200); err != nil {
		return ledger.KittyBooking{}, false, err
	}
	var b ledger.KittyBooking
	var replayed bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "kitty_booking")
		if err != nil {
			return err
		}
		query := `SELECT booking_id, cents, kind, note, session_id, created_at FROM kitty_bookings WHERE club_id = $1 AND booking_id = $2`
		if ref != 0 {
			replayed = true
			return tx.QueryRow(ctx, query, a.ClubID, ref).Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.CreatedAt)
		}
		err = tx.QueryRow(ctx, `
			INSERT INTO kitty_bookings (club_id, cents, kind, note, recorded_by) VALUES ($1, $2, 'manual', $3, $4)
			RETURNING booking_id, cents, kind, note, session_id, created_at`, a.ClubID, cents, note, a.KeyID).
			Scan(&b.ID, &b.Cents, &b.Kind, &b.Note, &b.SessionID, &b.CreatedAt)
		if err != nil {
			return err
		}
		if err := recordChange(ctx, tx, a.ClubID, change{kind: ledger.ChangeKittyBooking, data: map[string]any{"booking": b.ID, "cents": cents}}); err != nil {
			return err
		}
		return remember(ctx, tx, a.ClubID, idem, "kitty_booking", b.ID)
	})
	return b, replayed, err
}

func germanDate(iso string) string {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return iso
	}
	return t.Format("02.01.2006")
}
