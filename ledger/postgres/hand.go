package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// RecordHand scores and stores one hand in one transaction: the hand row,
// one entry per player, the running totals of table and session, and the
// table's new state and hand count, the statistics, the Idempotency-Key and
// the change. The table row is locked first, so hands of one table are
// numbered 1, 2, 3 … with no gap and no duplicate; a request expecting
// another number is ECONFLICT naming the current one. The transaction
// takes at most six round trips: BEGIN, the key's claim (with a key), the
// table's lock with the session, the hand, the rest, COMMIT.
func (s *Store) RecordHand(ctx context.Context, a ledger.Actor, nh ledger.NewHand, idem *ledger.Idempotency) (ledger.Hand, bool, error) {
	var h ledger.Hand
	var replayed bool
	if err := s.numberTaken(ctx, a.ClubID, nh, idem); err != nil {
		return h, false, err
	}
	err := s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "hand")
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			h, err = findHand(ctx, tx, selectHand+` WHERE h.club_id = $1 AND h.hand_id = $2`, a.ClubID, ref)
			return err
		}
		t, sess, err := lockTableAndSession(ctx, tx, a.ClubID, nh)
		if err != nil {
			return err
		}
		if !sess.Open() {
			return &ledger.Error{Code: ledger.ECONFLICT, Message: fmt.Sprintf("session %d is closed; no more hands can be recorded in it", sess.ID)}
		}
		if nh.Number != t.Hands+1 {
			return numberConflict(nh, t.Hands)
		}
		res, err := ledger.ScoreHand(t, sess, nh.Facts)
		if err != nil {
			return err
		}
		h, err = insertHand(ctx, tx, a, t, sess, nh, res)
		if err != nil {
			return err
		}
		// The statistics, the key and the change in one round trip; the
		// change last, so the club's counter is held only through the commit.
		b := &pgx.Batch{}
		live := queueStatHands(b, a.ClubID, h, sess.Date)
		queueRemember(b, a.ClubID, idem, "hand", h.ID)
		queueChange(b, a.ClubID, change{kind: ledger.ChangeHandRecorded, tableID: &t.ID, sessionID: &sess.ID,
			number: &nh.Number, data: map[string]any{"revision": 1}})
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		if !*live {
			return rebuildSession(ctx, tx, a.ClubID, sess.ID)
		}
		return nil
	})
	return h, replayed, err
}

// numberTaken is the 409 of a phone that lost the race for a hand
// number, in one round trip before any transaction or lock: at a hot table
// most requests are such losers. A request whose Idempotency-Key is
// already stored goes on to its replay; the hand and its key are committed
// together, so one snapshot never shows the number taken by this very key
// without the key. A missing table is left to the transaction to name.
func (s *Store) numberTaken(ctx context.Context, clubID int64, nh ledger.NewHand, idem *ledger.Idempotency) error {
	key := ""
	if idem != nil {
		key = idem.Key
	}
	var hands int
	var known bool
	err := s.pool.QueryRow(ctx, `
		SELECT t.hands, EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.club_id = $1 AND k.key = $3)
		FROM tables t WHERE t.club_id = $1 AND t.table_id = $2`, clubID, nh.TableID, key).Scan(&hands, &known)
	if err == pgx.ErrNoRows {
		return nil
	}
	if err != nil {
		return mapError(err)
	}
	if nh.Number <= hands && !known {
		return numberConflict(nh, hands)
	}
	return nil
}

// numberConflict is the 409 of a hand that expects another number than the
// table's next, naming the one to record.
func numberConflict(nh ledger.NewHand, hands int) error {
	return &ledger.Error{
		Code:    ledger.ECONFLICT,
		Message: fmt.Sprintf("hand %d of table %d is already recorded or out of order: the table has %d hands, the next is %d", nh.Number, nh.TableID, hands, hands+1),
		Field:   "number", Rule: "must be the table's next hand number",
		Extra: map[string]any{"current_number": hands, "next_number": hands + 1},
	}
}

// lockTableSQL reads a table ($1 club, $2 table) and locks its row until
// the transaction ends: every write of the table's hands takes it first.
const lockTableSQL = selectTable + ` WHERE club_id = $1 AND table_id = $2 FOR UPDATE`

func lockTable(ctx context.Context, tx pgx.Tx, clubID, id int64) (ledger.Table, error) {
	var t ledger.Table
	err := scanTable(tx.QueryRow(ctx, lockTableSQL, clubID, id), &t)
	return t, notFound(err, "table %d", id)
}

// lockTableAndSession locks the hand's table, as lockTable, and reads its
// session in the same round trip: the session's read starts only once the
// lock is granted, so it sees a close committed by whoever held the lock.
// A session that is missing or of another table is EINVALID.
func lockTableAndSession(ctx context.Context, tx pgx.Tx, clubID int64, nh ledger.NewHand) (ledger.Table, ledger.Session, error) {
	var t ledger.Table
	var sess ledger.Session
	var tableErr, sessErr error
	b := &pgx.Batch{}
	b.Queue(lockTableSQL, clubID, nh.TableID).QueryRow(func(row pgx.Row) error {
		if tableErr = scanTable(row, &t); tableErr == pgx.ErrNoRows {
			return nil
		}
		return tableErr
	})
	b.Queue(selectSession+` WHERE s.club_id = $1 AND s.session_id = $2`, clubID, nh.SessionID).QueryRow(func(row pgx.Row) error {
		if sessErr = scanSession(row, &sess); sessErr == pgx.ErrNoRows {
			return nil
		}
		return sessErr
	})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return t, sess, err
	}
	if tableErr != nil {
		return t, sess, notFound(tableErr, "table %d", nh.TableID)
	}
	if sessErr != nil || sess.TableID != t.ID {
		return t, sess, ledger.Invalid("session_id", "session %d is not a session of table %d", nh.SessionID, t.ID)
	}
	return t, sess, nil
}

// storedResult is the part of a score.Result kept in hands.result; the
// state is kept in its own column.
type storedResult struct {
	Title   string               `json:"title"`
	Points  []score.PlayerPoints `json:"points"`
	Lines   []score.Line         `json:"lines"`
	Events  []score.Event        `json:"events"`
	Winners []int64              `json:"winners"`
	Stats   []score.Stat         `json:"stats,omitempty"`
	Parties [][]int64            `json:"parties,omitempty"`
	Dealer  int64                `json:"dealer,omitempty"`
	Players []int64              `json:"players,omitempty"`
}

func insertHand(ctx context.Context, tx pgx.Tx, a ledger.Actor, t ledger.Table, sess ledger.Session, nh ledger.NewHand, res score.Result) (ledger.Hand, error) {
	stored, err := encodeResult(res)
	if err != nil {
		return ledger.Hand{}, err
	}
	players := make([]int64, len(res.Points))
	nums := make([]int64, len(res.Points))
	dens := make([]int64, len(res.Points))
	for i, p := range res.Points {
		players[i], nums[i], dens[i] = p.Player, p.Points.Num(), p.Points.Den()
	}
	h := ledger.Hand{TableID: t.ID, SessionID: sess.ID, Number: nh.Number, Game: t.Game, Rules: t.Rules, Facts: nh.Facts, Result: res,
		RecordedBy: a.KeyID, Revision: 1}

	// One round trip for the whole hand.
	b := &pgx.Batch{}
	b.Queue(`
		WITH h AS (
			INSERT INTO hands (club_id, table_id, session_id, number, game, rules, facts, result, state_after, recorded_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			RETURNING hand_id, recorded_at
		), e AS (
			INSERT INTO entries (club_id, hand_id, table_id, session_id, player_id, num, den)
			SELECT $1, h.hand_id, $2, $3, e.player, e.num, e.den
			FROM h, unnest($11::bigint[], $12::bigint[], $13::bigint[]) AS e(player, num, den)
		)
		SELECT hand_id, recorded_at FROM h`,
		a.ClubID, t.ID, sess.ID, nh.Number, t.Game, t.Rules, nh.Facts, stored, res.State, a.KeyID, players, nums, dens).
		QueryRow(func(row pgx.Row) error { return row.Scan(&h.ID, &h.RecordedAt) })
	b.Queue(`
		INSERT INTO table_totals AS t (club_id, table_id, player_id, num, den, hands)
		SELECT $1, $2, e.player, e.num, e.den, 1
		FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
		ON CONFLICT (club_id, table_id, player_id) DO UPDATE
		SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
		    hands = t.hands + 1`,
		a.ClubID, t.ID, players, nums, dens)
	b.Queue(`
		INSERT INTO session_totals AS t (club_id, session_id, player_id, num, den, hands)
		SELECT $1, $2, e.player, e.num, e.den, 1
		FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
		ON CONFLICT (club_id, session_id, player_id) DO UPDATE
		SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
		    hands = t.hands + 1`,
		a.ClubID, sess.ID, players, nums, dens)
	b.Queue(`UPDATE tables SET hands = $3, state = $4 WHERE club_id = $1 AND table_id = $2`,
		a.ClubID, t.ID, nh.Number, res.State)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return ledger.Hand{}, err
	}
	return h, nil
}

// FindHand returns hand number n of a table.
func (s *Store) FindHand(ctx context.Context, a ledger.Actor, tableID int64, n int) (ledger.Hand, error) {
	h, err := findHand(ctx, s.pool, selectHand+` WHERE h.club_id = $1 AND h.table_id = $2 AND h.number = $3`, a.ClubID, tableID, n)
	if err == pgx.ErrNoRows {
		return h, ledger.Errorf(ledger.ENOTFOUND, "hand %d of table %d not found", n, tableID)
	}
	return h, mapError(err)
}

// ListHands returns a table's hands in order, those numbered after p.After.
func (s *Store) ListHands(ctx context.Context, a ledger.Actor, tableID int64, p ledger.Page) ([]ledger.Hand, error) {
	if _, err := s.FindTable(ctx, a, tableID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, selectHand+`
		WHERE h.club_id = $1 AND h.table_id = $2 AND h.number > $3
		ORDER BY h.number LIMIT $4`, a.ClubID, tableID, p.After, p.Limit)
	if err != nil {
		return nil, mapError(err)
	}
	hands, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) {
		return scanHand(r)
	})
	return hands, mapError(err)
}

// selectHand reads a hand as its current revision.
const selectHand = `
	SELECT h.hand_id, h.table_id, h.session_id, h.number, h.game, h.rules,
	       coalesce(r.facts, h.facts), coalesce(r.result, h.result), coalesce(r.state_after, h.state_after),
	       h.recorded_by, h.recorded_at, coalesce(r.revision, 1), coalesce(r.void, false)
	FROM hands h
	LEFT JOIN LATERAL (
		SELECT facts, result, state_after, revision, void FROM hand_revisions r
		WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id
		ORDER BY r.revision DESC LIMIT 1) r ON true`

func findHand(ctx context.Context, q querier, query string, args ...any) (ledger.Hand, error) {
	return scanHand(q.QueryRow(ctx, query, args...))
}

func scanHand(row pgx.Row) (ledger.Hand, error) {
	var h ledger.Hand
	var result []byte
	err := row.Scan(&h.ID, &h.TableID, &h.SessionID, &h.Number, &h.Game, &h.Rules, &h.Facts, &result, &h.Result.State,
		&h.RecordedBy, &h.RecordedAt, &h.Revision, &h.Void)
	if err != nil {
		return h, err
	}
	state := h.Result.State
	if h.Result, err = decodeResult(result); err != nil {
		return h, fmt.Errorf("hand %d: %w", h.ID, err)
	}
	h.Result.State = state
	return h, nil
}

// encodeResult is the part of a result kept in a result column; the state
// has a column of its own.
func encodeResult(res score.Result) ([]byte, error) {
	return json.Marshal(storedResult{Title: res.Title, Points: res.Points, Lines: res.Lines, Events: res.Events,
		Winners: res.Winners, Stats: res.Stats, Parties: res.Parties, Dealer: res.Dealer, Players: res.Players})
}

func decodeResult(raw []byte) (score.Result, error) {
	var stored storedResult
	if err := json.Unmarshal(raw, &stored); err != nil {
		return score.Result{}, fmt.Errorf("stored result unreadable: %w", err)
	}
	return score.Result{Title: stored.Title, Points: stored.Points, Lines: stored.Lines, Events: stored.Events,
		Winners: stored.Winners, Stats: stored.Stats, Parties: stored.Parties, Dealer: stored.Dealer, Players: stored.Players}, nil
}
