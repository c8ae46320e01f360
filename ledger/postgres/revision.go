package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
	"github.com/stichbuch/stichbuch/ledger/chain"
)

// HandsAfter returns a table's hands numbered after `after`, in order, as
// their current revisions.
func (t *tx) HandsAfter(ctx context.Context, tableID int64, after int) ([]ledger.Hand, error) {
	rows, err := t.Query(ctx, selectHand+` WHERE h.club_id = $1 AND h.table_id = $2 AND h.number > $3 ORDER BY h.number`, t.club, tableID, after)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Hand, error) { return scanHand(r) })
}

// AppendRevision stores a hand's next revision with its difference
// entries (in its row), moves the running totals by the differences and records the
// change. The statistics read the revision from the hand (an open
// evening's live, a settled one's when the correction resettles it). The revision's hash
// chains it to the hand's current one (r.Hand.Hash, read under the
// table's lock); the insert refuses (as stale) a hand whose current
// revision is not that one.
func (t *tx) AppendRevision(ctx context.Context, r ledger.RevisionRecord) error {
	stored, err := encodeResult(r.Result)
	if err != nil {
		return err
	}
	h := r.Hand
	at, err := t.clock(ctx)
	if err != nil {
		return err
	}
	link := chainLink{prev: h.Hash, key: t.key.ID()}
	link.hash, err = t.key.Revision(chain.RevisionContent{ClubID: t.club, HandID: h.ID, TableID: h.TableID, Number: h.Number,
		Revision: r.Revision, Facts: r.Facts, Result: stored, StateAfter: r.Result.State, Void: r.Void, Reason: r.Reason,
		CausedBy: r.CausedBy, RecordedBy: r.RecordedBy, RecordedAt: at}, link.prev)
	if err != nil {
		return err
	}
	players, nums, dens := pointColumns(r.Diffs)
	b := &pgx.Batch{}
	b.Queue(`
		WITH head AS (
			SELECT stichbuch_expect(coalesce(
				(SELECT p.hash FROM hand_revisions p WHERE p.club_id = $1 AND p.hand_id = $2 AND p.revision = $5 - 1),
				(SELECT h.hash FROM hands h WHERE h.club_id = $1 AND h.hand_id = $2)) IS NOT DISTINCT FROM $14, 'the hand')
		)
		INSERT INTO hand_revisions (club_id, hand_id, table_id, number, revision, facts, result, state_after, void, reason, caused_by,
		                            recorded_by, recorded_at, prev_hash, hash, chain_key, entry_players, entry_nums, entry_dens)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19 FROM head`,
		t.club, h.ID, h.TableID, h.Number, r.Revision, r.Facts, stored, r.Result.State, r.Void, r.Reason, r.CausedBy, r.RecordedBy,
		at, link.prev, link.hash, link.key, players, nums, dens)
	if len(r.Diffs) > 0 {
		b.Queue(`
			UPDATE table_totals t SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, e.num, e.den) r)
			FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
			WHERE t.club_id = $1 AND t.table_id = $2 AND t.player_id = e.player`,
			t.club, h.TableID, players, nums, dens)
		b.Queue(`
			UPDATE session_totals t SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, e.num, e.den) r)
			FROM unnest($3::bigint[], $4::bigint[], $5::bigint[]) AS e(player, num, den)
			WHERE t.club_id = $1 AND t.session_id = $2 AND t.player_id = e.player`,
			t.club, r.Session.ID, players, nums, dens)
	}
	queueAttendance(b, t.club, h.TableID, r.Session.ID, r.Attendance)
	queueChange(b, t.club, r.Change, &t.queued)
	return where(send(ctx, t, b), "appending revision %d of hand %d", r.Revision, r.Hand.ID)
}

// HandRevisions returns every revision of a hand, the original first.
func (s *Store) HandRevisions(ctx context.Context, clubID, tableID int64, number int) ([]ledger.Revision, error) {
	h, err := s.FindHand(ctx, clubID, tableID, number)
	if err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `
		SELECT 1, h.facts, h.result, h.state_after, h.body, false, '', 0, h.recorded_by, h.recorded_at
		FROM hands h WHERE h.club_id = $1 AND h.hand_id = $2
		UNION ALL
		SELECT r.revision, r.facts, r.result, r.state_after, NULL, r.void, r.reason, r.caused_by, r.recorded_by, r.recorded_at
		FROM hand_revisions r WHERE r.club_id = $1 AND r.hand_id = $2
		ORDER BY 1`, clubID, h.ID)
	if err != nil {
		return nil, mapError(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ledger.Revision, error) {
		var rev ledger.Revision
		var t handTexts
		if err := r.Scan(&rev.Revision, &t.facts, &t.result, &t.state, &t.body, &rev.Void, &rev.Reason, &rev.CausedBy, &rev.RecordedBy, &rev.RecordedAt); err != nil {
			return rev, err
		}
		if err := t.unpack(); err != nil {
			return rev, err
		}
		var err error
		rev.Facts = t.facts
		rev.Result, err = decodeResult(t.result)
		rev.Result.State = t.state
		return rev, err
	})
	return list, mapError(err)
}

// queueAttendance queues the moves of the table's and the session's hands
// played and sat out by a revision's differences.
func queueAttendance(b *pgx.Batch, clubID, tableID, sessionID int64, diffs []ledger.Attendance) {
	if len(diffs) == 0 {
		return
	}
	players, played, satOut := make([]int64, len(diffs)), make([]int32, len(diffs)), make([]int32, len(diffs))
	for i, d := range diffs {
		players[i], played[i], satOut[i] = d.Player, int32(d.Played), int32(d.SatOut)
	}
	b.Queue(`
		UPDATE table_totals t SET played = t.played + d.played, sat_out = t.sat_out + d.sat_out
		FROM unnest($3::bigint[], $4::integer[], $5::integer[]) AS d(player, played, sat_out)
		WHERE t.club_id = $1 AND t.table_id = $2 AND t.player_id = d.player`,
		clubID, tableID, players, played, satOut)
	b.Queue(`
		UPDATE session_totals t SET played = t.played + d.played, sat_out = t.sat_out + d.sat_out
		FROM unnest($3::bigint[], $4::integer[], $5::integer[]) AS d(player, played, sat_out)
		WHERE t.club_id = $1 AND t.session_id = $2 AND t.player_id = d.player`,
		clubID, sessionID, players, played, satOut)
}
