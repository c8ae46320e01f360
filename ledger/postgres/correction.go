package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/score"
)

// CorrectHand records new facts for a past hand (or voids it) as a new
// revision, re-derives the table's state from that hand on, re-scores every
// later hand under the rule set it was played with, and appends a revision
// and difference entries for each hand whose score or state changed. It
// stops early once a re-scored hand leaves the state as it was. Closed
// sessions whose hands changed get a new settlement version. Nothing is
// updated or deleted but the running totals and the table's current state.
func (s *Store) CorrectHand(ctx context.Context, a ledger.Actor, c ledger.Correction, idem *ledger.Idempotency) (ledger.CorrectionResult, bool, error) {
	if err := ledger.CheckName("reason", strings.TrimSpace(c.Reason), 500); err != nil {
		return ledger.CorrectionResult{}, false, err
	}
	if !c.Void && len(c.Facts) == 0 {
		return ledger.CorrectionResult{}, false, ledger.Invalid("facts", "give the corrected facts, or void the hand")
	}
	var out ledger.CorrectionResult
	var replayed bool
	err := s.tx(ctx, func(tx pgx.Tx) error {
		ref, err := claim(ctx, tx, a.ClubID, idem, "correction")
		if err != nil {
			return err
		}
		if ref != 0 {
			replayed = true
			out.Hand, err = findHand(ctx, tx, selectHand+` WHERE h.club_id = $1 AND h.hand_id = $2`, a.ClubID, ref)
			return err
		}
		t, err := lockTable(ctx, tx, a.ClubID, c.TableID)
		if err != nil {
			return err
		}
		out, err = correct(ctx, tx, a, t, c)
		if err != nil {
			return err
		}
		return remember(ctx, tx, a.ClubID, idem, "correction", out.Hand.ID)
	})
	return out, replayed, err
}

// correct does the work of CorrectHand on a locked table.
func correct(ctx context.Context, tx pgx.Tx, a ledger.Actor, t ledger.Table, c ledger.Correction) (ledger.CorrectionResult, error) {
	// From the hand before (its state is where re-scoring starts) to the last.
	hands, err := tableHands(ctx, tx, a.ClubID, t.ID, c.Number-2)
	if err != nil {
		return ledger.CorrectionResult{}, err
	}
	if len(hands) == 0 || (c.Number > 1 && hands[0].Number != c.Number-1) || hands[len(hands)-1].Number < c.Number {
		return ledger.CorrectionResult{}, ledger.Errorf(ledger.ENOTFOUND, "hand %d of table %d not found", c.Number, t.ID)
	}
	stateBefore := json.RawMessage(`{}`)
	if hands[0].Number == c.Number-1 {
		stateBefore = hands[0].Result.State
		hands = hands[1:]
	}
	target := hands[0]
	if c.Revision != target.Revision {
		return ledger.CorrectionResult{}, &ledger.Error{Code: ledger.EPRECONDITION,
			Message: fmt.Sprintf("hand %d is at revision %d, not %d: read it again before correcting it", c.Number, target.Revision, c.Revision),
			Extra:   map[string]any{"current_revision": target.Revision}}
	}
	sessions := map[int64]ledger.Session{}
	session := func(id int64) (ledger.Session, error) {
		if s, ok := sessions[id]; ok {
			return s, nil
		}
		s, err := findSession(ctx, tx, a.ClubID, id)
		sessions[id] = s
		return s, err
	}
	first, err := session(target.SessionID)
	if err != nil {
		return ledger.CorrectionResult{}, err
	}
	if !first.Open() && !a.Role.Includes(ledger.RoleAdmin) {
		return ledger.CorrectionResult{}, ledger.Errorf(ledger.EFORBIDDEN, "hand %d belongs to a closed session: only an admin may correct it", c.Number)
	}

	out := ledger.CorrectionResult{Rescored: []int{}, Settlements: []int64{}}
	changedSessions := map[int64]bool{}
	for i, h := range hands {
		sess, err := session(h.SessionID)
		if err != nil {
			return out, err
		}
		facts, void, reason := h.Facts, h.Void, fmt.Sprintf("neu berechnet nach Korrektur von Spiel %d", c.Number)
		if i == 0 {
			facts, void, reason = c.Facts, c.Void, strings.TrimSpace(c.Reason)
			if void {
				facts = h.Facts
			}
		}
		next, err := rescore(h, sess, stateBefore, facts, void)
		if err != nil {
			if i == 0 {
				return out, err
			}
			return out, ledger.Invalid(fmt.Sprintf("hand %d", h.Number), "would no longer be valid after this correction: %v", ledger.AsError(err).Rule)
		}
		if i > 0 && ledger.SameOutcome(h.Result, next) {
			break // the same state from here on: nothing later changes
		}
		if err := appendRevision(ctx, tx, a, h, sess, facts, void, reason, c.Number, next); err != nil {
			return out, err
		}
		changedSessions[sess.ID] = true
		if i > 0 {
			out.Rescored = append(out.Rescored, h.Number)
		}
		stateBefore = next.State
		if i == len(hands)-1 {
			if _, err := tx.Exec(ctx, `UPDATE tables SET state = $3 WHERE club_id = $1 AND table_id = $2`, a.ClubID, t.ID, next.State); err != nil {
				return out, err
			}
		}
	}
	for id := range changedSessions {
		sess := sessions[id]
		if sess.Open() {
			continue
		}
		if err := resettle(ctx, tx, a, sess); err != nil {
			return out, err
		}
		out.Settlements = append(out.Settlements, id)
	}
	out.Hand, err = findHand(ctx, tx, selectHand+` WHERE h.club_id = $1 AND h.hand_id = $2`, a.ClubID, target.ID)
	return out, err
}

// rescore gives a hand's new result from the state before it.
func rescore(h ledger.Hand, sess ledger.Session, stateBefore, facts json.RawMessage, void bool) (score.Result, error) {
	if void {
		return ledger.VoidResult(h.Result, stateBefore), nil
	}
	return ledger.RescoreHand(h, sess, stateBefore, facts)
}

// appendRevision stores hand h's next revision with its difference entries,
// moves the running totals by the differences and records the change.
func appendRevision(ctx context.Context, tx pgx.Tx, a ledger.Actor, h ledger.Hand, sess ledger.Session, facts json.RawMessage, void bool, reason string, causedBy int, next score.Result) error {
	stored, err := encodeResult(next)
	if err != nil {
		return err
	}
	revision := h.Revision + 1
	diffs := ledger.PointDiffs(h.Result, next)
	players := make([]int64, len(diffs))
	nums := make([]int64, len(diffs))
	dens := make([]int64, len(diffs))
	for i, d := range diffs {
		players[i], nums[i], dens[i] = d.Player, d.Points.Num(), d.Points.Den()
	}
	b := &pgx.Batch{}
	b.Queue(`
		INSERT INTO hand_revisions (club_id, hand_id, table_id, number, revision, facts, result, state_after, void, reason, caused_by, recorded_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		a.ClubID, h.ID, h.TableID, h.Number, revision, facts, stored, next.State, void, reason, causedBy, a.KeyID)
	if len(diffs) > 0 {
		b.Queue(`
			INSERT INTO entries (club_id, hand_id, table_id, session_id, player_id, num, den, revision)
			SELECT $1, $2, $3, $4, e.player, e.num, e.den, $5
			FROM unnest($6::bigint[], $7::bigint[], $8::bigint[]) AS e(player, num, den)`,
			a.ClubID, h.ID, h.TableID, sess.ID, revision, players, nums, dens)
		b.Queue(`
			UPDATE table_totals t SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, e.num, e.den) r)
			FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
			WHERE t.club_id = $1 AND t.table_id = $2 AND t.player_id = e.player`,
			a.ClubID, h.TableID, players, nums, dens)
		b.Queue(`
			UPDATE session_totals t SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, e.num, e.den) r)
			FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
			WHERE t.club_id = $1 AND t.session_id = $2 AND t.player_id = e.player`,
			a.ClubID, sess.ID, players, nums, dens)
	}
	queueChange(b, a.ClubID, change{kind: ledger.ChangeHandCorrected, tableID: &h.TableID, sessionID: &sess.ID, number: &h.Number,
		data: map[string]any{"revision": revision, "void": void, "caused_by": causedBy}})
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	// The statistics follow the hand's current revision.
	if err := unindexHand(ctx, tx, a.ClubID, h); err != nil {
		return err
	}
	revised := h
	revised.Facts, revised.Result, revised.Revision, revised.Void = facts, next, revision, void
	return indexHand(ctx, tx, a.ClubID, revised, sess.Date)
}

// tableHands returns a table's hands numbered after `after`, in order, as
// their current revisions.
func tableHands(ctx context.Context, tx pgx.Tx, clubID, tableID int64, after int) ([]ledger.Hand, error) {
	rows, err := tx.Query(ctx, selectHand+` WHERE h.club_id = $1 AND h.table_id = $2 AND h.number > $3 ORDER BY h.number`, clubID, tableID, after)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
}

// HandRevisions returns every revision of a hand, the original first.
func (s *Store) HandRevisions(ctx context.Context, a ledger.Actor, tableID int64, number int) ([]ledger.Revision, error) {
	h, err := s.FindHand(ctx, a, tableID, number)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT 1, h.facts, h.result, h.state_after, false, '', 0, h.recorded_by, h.recorded_at
		FROM hands h WHERE h.club_id = $1 AND h.hand_id = $2
		UNION ALL
		SELECT r.revision, r.facts, r.result, r.state_after, r.void, r.reason, r.caused_by, r.recorded_by, r.recorded_at
		FROM hand_revisions r WHERE r.club_id = $1 AND r.hand_id = $2
		ORDER BY 1`, a.ClubID, h.ID)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Revision, error) {
		var rev ledger.Revision
		var result []byte
		var state json.RawMessage
		if err := r.Scan(&rev.Revision, &rev.Facts, &result, &state, &rev.Void, &rev.Reason, &rev.CausedBy, &rev.RecordedBy, &rev.RecordedAt); err != nil {
			return rev, err
		}
		var err error
		rev.Result, err = decodeResult(result)
		rev.Result.State = state
		return rev, err
	})
	return list, mapError(err)
}
