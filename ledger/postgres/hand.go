package postgres

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

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

// AppendHand stores a new hand in two round trips: the hand with its
// entries, the running totals and the table's state and hand count; then
// its statistics rows, its Idempotency-Key and its change (last, so the
// club's change counter is held only through the commit).
func (t *tx) AppendHand(ctx context.Context, r ledger.HandRecord) (ledger.Hand, error) {
	h, err := t.insertHand(ctx, r)
	if err != nil {
		return h, err
	}
	b := &pgx.Batch{}
	queueStatHands(b, t.club, h, r.Session.Date, r.Stats)
	queueRemember(b, t.club, r.Idempotency, ledger.KindHand, h.ID)
	queueChange(b, t.club, r.Change)
	return h, send(ctx, t, b)
}

func (t *tx) insertHand(ctx context.Context, r ledger.HandRecord) (ledger.Hand, error) {
	res := r.Result
	stored, err := encodeResult(res)
	if err != nil {
		return ledger.Hand{}, err
	}
	players, nums, dens := pointColumns(res.Points)
	h := ledger.Hand{TableID: r.Table.ID, SessionID: r.Session.ID, Number: r.Number, Game: r.Table.Game, Rules: r.Table.Rules,
		Facts: r.Facts, Result: res, RecordedBy: r.RecordedBy, Revision: 1}

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
		t.club, h.TableID, h.SessionID, h.Number, h.Game, h.Rules, h.Facts, stored, res.State, h.RecordedBy, players, nums, dens).
		QueryRow(func(row pgx.Row) error { return row.Scan(&h.ID, &h.RecordedAt) })
	b.Queue(`
		INSERT INTO table_totals AS t (club_id, table_id, player_id, num, den, hands)
		SELECT $1, $2, e.player, e.num, e.den, 1
		FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
		ON CONFLICT (club_id, table_id, player_id) DO UPDATE
		SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
		    hands = t.hands + 1`,
		t.club, h.TableID, players, nums, dens)
	b.Queue(`
		INSERT INTO session_totals AS t (club_id, session_id, player_id, num, den, hands)
		SELECT $1, $2, e.player, e.num, e.den, 1
		FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
		ON CONFLICT (club_id, session_id, player_id) DO UPDATE
		SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
		    hands = t.hands + 1`,
		t.club, h.SessionID, players, nums, dens)
	b.Queue(`UPDATE tables SET hands = $3, state = $4 WHERE club_id = $1 AND table_id = $2`,
		t.club, h.TableID, h.Number, res.State)
	return h, send(ctx, t, b)
}

// pointColumns splits players' points into the columns of entries.
func pointColumns(ps []score.PlayerPoints) (players, nums, dens []int64) {
	players, nums, dens = make([]int64, len(ps)), make([]int64, len(ps)), make([]int64, len(ps))
	for i, p := range ps {
		players[i], nums[i], dens[i] = p.Player, p.Points.Num(), p.Points.Den()
	}
	return players, nums, dens
}

// HandCount reads how many hands a table has and whether an
// Idempotency-Key is stored, in one round trip.
func (s *Store) HandCount(ctx context.Context, clubID, tableID int64, key string) (int, bool, error) {
	var hands int
	var known bool
	err := s.pool.QueryRow(ctx, `
		SELECT t.hands, EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.club_id = $1 AND k.key = $3)
		FROM tables t WHERE t.club_id = $1 AND t.table_id = $2`, clubID, tableID, key).Scan(&hands, &known)
	return hands, known, notFound(err, "table %d", tableID)
}

// Hand reads a hand of the club by its id.
func (t *tx) Hand(ctx context.Context, id int64) (ledger.Hand, error) {
	h, err := findHand(ctx, t, selectHand+` WHERE h.club_id = $1 AND h.hand_id = $2`, t.club, id)
	return h, notFound(err, "hand %d", id)
}

// FindHand returns hand number n of a table.
func (s *Store) FindHand(ctx context.Context, clubID, tableID int64, n int) (ledger.Hand, error) {
	h, err := findHand(ctx, s.pool, selectHand+` WHERE h.club_id = $1 AND h.table_id = $2 AND h.number = $3`, clubID, tableID, n)
	return h, notFound(err, "hand %d of table %d", n, tableID)
}

// ListHands returns a table's hands in order, those numbered after p.After.
func (s *Store) ListHands(ctx context.Context, clubID, tableID int64, p ledger.Page) ([]ledger.Hand, error) {
	rows, err := s.pool.Query(ctx, selectHand+`
		WHERE h.club_id = $1 AND h.table_id = $2 AND h.number > $3
		ORDER BY h.number LIMIT $4`, clubID, tableID, p.After, p.Limit)
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
	       h.recorded_by, h.recorded_at, coalesce(r.revision, 1), coalesce(r.void, false), coalesce(r.reason, '')
	FROM hands h
	LEFT JOIN LATERAL (
		SELECT facts, result, state_after, revision, void, reason FROM hand_revisions r
		WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id
		ORDER BY r.revision DESC LIMIT 1) r ON true`

func findHand(ctx context.Context, q queryer, query string, args ...any) (ledger.Hand, error) {
	return scanHand(q.QueryRow(ctx, query, args...))
}

func scanHand(row pgx.Row) (ledger.Hand, error) {
	var h ledger.Hand
	var result []byte
	err := row.Scan(&h.ID, &h.TableID, &h.SessionID, &h.Number, &h.Game, &h.Rules, &h.Facts, &result, &h.Result.State,
		&h.RecordedBy, &h.RecordedAt, &h.Revision, &h.Void, &h.Reason)
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
