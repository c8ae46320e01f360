package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
	"github.com/stichbuch/stichbuch/ledger/postgres/handpack"
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

// HandSnapshot reads the table, the session and the Idempotency-Key in one
// round trip, without a lock.
func (s *Store) HandSnapshot(ctx context.Context, clubID, tableID, sessionID int64, key string) (ledger.HandSnapshot, error) {
	var snap ledger.HandSnapshot
	var tableErr, sessErr error
	b := &pgx.Batch{}
	b.Queue(selectTable+` WHERE club_id = $1 AND table_id = $2`, clubID, tableID).QueryRow(func(row pgx.Row) error {
		if tableErr = scanTable(row, &snap.Table); tableErr == pgx.ErrNoRows {
			return nil
		}
		return tableErr
	})
	b.Queue(selectSession+` WHERE s.club_id = $1 AND s.session_id = $2`, clubID, sessionID).QueryRow(func(row pgx.Row) error {
		if sessErr = scanSession(row, &snap.Session); sessErr == pgx.ErrNoRows {
			return nil
		}
		return sessErr
	})
	snap.Names = ledger.Names{}
	b.Queue(`
		SELECT p.player_id, p.name FROM session_players sp JOIN players p USING (club_id, player_id)
		WHERE sp.club_id = $1 AND sp.session_id = $2`, clubID, sessionID).Query(func(rows pgx.Rows) error {
		var id int64
		var name string
		_, err := pgx.ForEachRow(rows, []any{&id, &name}, func() error { snap.Names[id] = name; return nil })
		return err
	})
	if key != "" {
		b.Queue(`SELECT request_hash, kind, ref_id FROM idempotency_keys WHERE club_id = $1 AND key = $2`, clubID, key).
			QueryRow(func(row pgx.Row) error { return scanClaim(row, &snap.Claim) })
	}
	if err := send(ctx, s.pool, b); err != nil {
		return snap, mapError(err)
	}
	snap.SessionFound = sessErr == nil
	return snap, notFound(tableErr, "table %d", tableID)
}

// HandByID reads a hand of the club by its id.
func (s *Store) HandByID(ctx context.Context, clubID, id int64) (ledger.Hand, error) {
	h, err := findHand(ctx, s.pool, selectHand+` WHERE h.club_id = $1 AND h.hand_id = $2`, clubID, id)
	return h, notFound(err, "hand %d", id)
}

// AppendHand stores a new hand, durably, before it returns. Its
// statements (stated by handWrite.queue) run in one transaction: alone,
// in one round trip, when no other hand of this process is being written;
// else together with the hands that arrived meanwhile, each in its own
// savepoint, in one durable commit (handCommits). The compare-and-set on
// the table's version comes first: if the table changed, the hand is
// ErrStale and nothing of it is stored. A change the transaction could not
// number (another writer of the club held the feed's numbering lock) is
// numbered after the commit, before the hand is answered.
func (s *Store) AppendHand(ctx context.Context, clubID int64, r ledger.HandRecord) (ledger.Hand, error) {
	w, err := s.prepareHand(clubID, r)
	if err != nil {
		return ledger.Hand{}, err
	}
	if err := s.commits.write(ctx, w); err != nil {
		return ledger.Hand{}, err
	}
	if w.err != nil {
		return w.hand, w.err
	}
	if !w.queued {
		return w.hand, nil
	}
	if err := s.numberChanges(ctx, clubID); err != nil {
		return w.hand, where(err, "numbering the change of hand %d of table %d", w.hand.Number, w.hand.TableID)
	}
	return w.hand, nil
}

// prepareHand computes what a new hand's row holds (its hash, chained to
// the head read with the table's version, r.Table.ChainHead, with the
// store's key; its packed texts; its entries) and returns it ready to
// queue.
func (s *Store) prepareHand(clubID int64, r ledger.HandRecord) (*handWrite, error) {
	res := r.Result
	stored, err := encodeResult(res)
	if err != nil {
		return nil, err
	}
	h := ledger.Hand{TableID: r.Table.ID, SessionID: r.Session.ID, Number: r.Number, Game: r.Table.Game, Rules: r.Session.Terms.Rules,
		Facts: r.Facts, Result: res, RecordedBy: r.RecordedBy, RecordedAt: time.Now().UTC().Truncate(time.Microsecond), Revision: 1}
	link := chainLink{prev: r.Table.ChainHead, key: s.key.ID()}
	link.hash, err = s.key.Hand(chain.HandContent{ClubID: clubID, TableID: h.TableID, SessionID: h.SessionID, Number: h.Number,
		Game: h.Game, Rules: h.Rules, Facts: h.Facts, Result: stored, StateAfter: res.State, RecordedBy: h.RecordedBy,
		RecordedAt: h.RecordedAt}, link.prev)
	if err != nil {
		return nil, err
	}
	h.Hash = link.hash
	body, err := handpack.Pack(h.Game, h.Facts, stored, res.State)
	if err != nil {
		return nil, err
	}
	return &handWrite{club: clubID, rec: r, hand: h, body: body, link: link, done: make(chan struct{})}, nil
}

// queue adds the hand's statements to b: the compare-and-set on the
// table's version, which also takes the table's row lock and stores the
// table as the hand leaves it (ledger.Table.AfterHand: count, state, the
// new hand's hash as the chain head, the next version); the hand with its
// entries, its session's listing among those the statistics read live and
// its Idempotency-Key; the running totals; the change last. What the
// statements answer lands in w.
func (w *handWrite) queue(b *pgx.Batch) {
	r, h, link := w.rec, w.hand, w.link
	players, nums, dens := pointColumns(r.Result.Points)
	after := r.Table.AfterHand(h) // what the table is after the hand: the domain says, the row holds it
	b.Queue(`
		WITH t AS (
			UPDATE tables SET hands = $3, state = $4, version = $8, last_hash = $6
			WHERE club_id = $1 AND table_id = $2 AND version = $5 AND last_hash IS NOT DISTINCT FROM $7
			RETURNING 1
		)
		SELECT stichbuch_expect(EXISTS (SELECT 1 FROM t), 'the table')`,
		w.club, h.TableID, after.Hands, after.State, r.Table.Version, after.ChainHead, link.prev, after.Version)
	queueInsertHand(b, w.club, r, w.body, h.RecordedAt, link).QueryRow(func(row pgx.Row) error {
		return row.Scan(&w.hand.ID, &w.hand.SessionNumber)
	})
	queueTotals(b, w.club, h, players, nums, dens, r.Attendance)
	queueChange(b, w.club, r.Change, &w.queued)
}

// chainLink is a row's place in the chain: the hash it chains to, its own,
// and the id of the key that made it.
type chainLink struct {
	prev, hash, key []byte
}

// queueInsertHand queues one statement: the hand (its texts packed in
// body, its entries in its row, and no rule set of its own: it is its
// session's), its session's listing among the evenings read live
// (stat_open) and its Idempotency-Key, from the hand's new id.
func queueInsertHand(b *pgx.Batch, clubID int64, r ledger.HandRecord, body []byte, at time.Time, link chainLink) *pgx.QueuedQuery {
	players, nums, dens := pointColumns(r.Result.Points)
	key, hash := "", []byte(nil)
	if r.Idempotency != nil {
		key, hash = r.Idempotency.Key, r.Idempotency.Hash
	}
	return b.Queue(`
		WITH h AS (
			INSERT INTO hands (club_id, table_id, session_id, number, game, rules, body, recorded_by,
			                   recorded_at, prev_hash, hash, chain_key, entry_players, entry_nums, entry_dens)
			VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, $11, $12, $13, $14)
			RETURNING hand_id
		), o AS (
			INSERT INTO stat_open (club_id, session_id, table_id, game, date)
			VALUES ($1, $3, $2, $5, $15::date)
			ON CONFLICT DO NOTHING
		), k AS (
			INSERT INTO idempotency_keys (club_id, key, request_hash, kind, ref_id)
			SELECT $1, $16, $17, $18, h.hand_id FROM h WHERE $16 <> ''
		)
		SELECT hand_id, $4 - coalesce((SELECT min(f.number) FROM hands f WHERE f.club_id = $1 AND f.session_id = $3), $4) + 1 FROM h`,
		clubID, r.Table.ID, r.Session.ID, r.Number, r.Table.Game, body, r.RecordedBy, at, link.prev, link.hash, link.key,
		players, nums, dens, r.Session.Date, key, hash, string(ledger.KindHand))
}

// queueTotals queues the moves of the table's and the session's running
// totals by a new hand's points and who played and sat it out.
func queueTotals(b *pgx.Batch, clubID int64, h ledger.Hand, players, nums, dens []int64, att []ledger.Attendance) {
	played, satOut := attendanceColumns(players, att)
	for _, q := range []struct {
		table, owner string
		id           int64
	}{
		{"table_totals", "table_id", h.TableID}, {"session_totals", "session_id", h.SessionID},
	} {
		b.Queue(`
			INSERT INTO `+q.table+` AS t (club_id, `+q.owner+`, player_id, num, den, hands, played, sat_out)
			SELECT $1, $2, e.player, e.num, e.den, 1, e.played, e.sat_out
			FROM unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::integer[], $7::integer[]) AS e(player, num, den, played, sat_out)
			ON CONFLICT (club_id, `+q.owner+`, player_id) DO UPDATE
			SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
			    hands = t.hands + 1, played = t.played + excluded.played, sat_out = t.sat_out + excluded.sat_out`,
			clubID, q.id, players, nums, dens, played, satOut)
	}
}

// attendanceColumns lines up who played and sat out with the players of
// the entries (a player without attendance counts 0 and 0).
func attendanceColumns(players []int64, att []ledger.Attendance) (played, satOut []int32) {
	played, satOut = make([]int32, len(players)), make([]int32, len(players))
	for _, a := range att {
		if i := slices.Index(players, a.Player); i >= 0 {
			played[i], satOut[i] = int32(a.Played), int32(a.SatOut)
		}
	}
	return played, satOut
}

// pointColumns splits players' points into a row's entries: its
// entry_players, entry_nums and entry_dens.
func pointColumns(ps []score.PlayerPoints) (players, nums, dens []int64) {
	players, nums, dens = make([]int64, len(ps)), make([]int64, len(ps)), make([]int64, len(ps))
	for i, p := range ps {
		players[i], nums[i], dens[i] = p.Player, p.Points.Num(), p.Points.Den()
	}
	return players, nums, dens
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

// ListHands returns a table's hands in the filter, in order.
func (s *Store) ListHands(ctx context.Context, clubID, tableID int64, f ledger.HandFilter) ([]ledger.Hand, error) {
	rows, err := s.pool.Query(ctx, selectHand+`
		WHERE h.club_id = $1 AND h.table_id = $2 AND h.number > $3 AND ($5 = 0 OR h.session_id = $5)
		ORDER BY h.number LIMIT nullif($4, 0)`, clubID, tableID, f.Page.After, f.Page.Limit, f.SessionID)
	if err != nil {
		return nil, mapError(err)
	}
	hands, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) {
		return scanHand(r)
	})
	return hands, mapError(err)
}

// selectHand reads a hand as its current revision, with its session's
// rule set when it stores none (migrations/00015_hand_rules_from_session.sql),
// and its texts from its body when it is packed (packed.go).
const selectHand = `
	SELECT h.hand_id, h.table_id, h.session_id, h.number, h.game, coalesce(h.rules, s.rules),
	       coalesce(r.facts, h.facts), coalesce(r.result, h.result), coalesce(r.state_after, h.state_after),
	       CASE WHEN r.revision IS NULL THEN h.body END, h.recorded_by, h.recorded_at, coalesce(r.revision, 1), coalesce(r.void, false), coalesce(r.reason, ''),
	       coalesce(r.hash, h.hash),
	       h.number - (SELECT min(f.number) FROM hands f WHERE f.club_id = h.club_id AND f.session_id = h.session_id) + 1
	FROM hands h
	JOIN sessions s ON s.club_id = h.club_id AND s.session_id = h.session_id
	LEFT JOIN LATERAL (
		SELECT facts, result, state_after, revision, void, reason, hash FROM hand_revisions r
		WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id
		ORDER BY r.revision DESC LIMIT 1) r ON true`

func findHand(ctx context.Context, q queryer, query string, args ...any) (ledger.Hand, error) {
	return scanHand(q.QueryRow(ctx, query, args...))
}

func scanHand(row pgx.Row) (ledger.Hand, error) {
	var h ledger.Hand
	var t handTexts
	err := row.Scan(&h.ID, &h.TableID, &h.SessionID, &h.Number, &h.Game, &h.Rules, &t.facts, &t.result, &t.state, &t.body,
		&h.RecordedBy, &h.RecordedAt, &h.Revision, &h.Void, &h.Reason, &h.Hash, &h.SessionNumber)
	if err != nil {
		return h, err
	}
	if err := t.unpack(); err != nil {
		return h, fmt.Errorf("hand %d: %w", h.ID, err)
	}
	h.Facts = t.facts
	if h.Result, err = decodeResult(t.result); err != nil {
		return h, fmt.Errorf("hand %d: %w", h.ID, err)
	}
	h.Result.State = t.state
	if h.Result.Dealer == 0 {
		h.Result.Dealer = legacyDealer(h.Facts)
	}
	return h, nil
}

// legacyDealer reads the dealer of a hand stored before results named it
// (engines have filled Result.Dealer since): from the facts, where the
// client gave one; 0 where the server chose.
func legacyDealer(facts json.RawMessage) int64 {
	var f struct {
		Dealer int64 `json:"dealer"`
	}
	_ = json.Unmarshal(facts, &f)
	return f.Dealer
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
