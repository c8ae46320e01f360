package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/stichbuch/stichbuch/ledger"
)

// StoreHandForTest stores hand h as a row of hands, with the result as
// given (no facts, no state, a chain link of zeros: the statistics tests
// write their results out by hand), and indexes it as RecordHand does, in
// one transaction. A settled session's rollups are rebuilt.
func (s *Store) StoreHandForTest(ctx context.Context, clubID int64, h ledger.Hand, date string) error {
	return s.tx(ctx, func(t pgx.Tx) error {
		stored, err := encodeResult(h.Result)
		if err != nil {
			return err
		}
		players, nums, dens := pointColumns(h.Result.Points)
		_, err = t.Exec(ctx, `
			INSERT INTO hands (club_id, hand_id, table_id, session_id, number, game, facts, result, state_after, recorded_by,
			                   hash, chain_key, entry_players, entry_nums, entry_dens) OVERRIDING SYSTEM VALUE
			SELECT $1, $2, $3, $4, $5, $6, '{}', $7, '{}', min(key_id), $8, $9, $10, $11, $12 FROM api_keys WHERE club_id = $1`,
			clubID, h.ID, h.TableID, h.SessionID, h.Number, h.Game, stored, make([]byte, 32), make([]byte, 8), players, nums, dens)
		if err != nil {
			return err
		}
		return indexHand(ctx, &tx{Tx: t, club: clubID}, h, date)
	})
}

// ReviseHandForTest appends a revision of stored hand h with h's result
// (void, when h.Void); a settled session's rollups are rebuilt, as the
// correction flow's new settlement does.
func (s *Store) ReviseHandForTest(ctx context.Context, clubID int64, h ledger.Hand) error {
	return s.tx(ctx, func(t pgx.Tx) error {
		stored, err := encodeResult(h.Result)
		if err != nil {
			return err
		}
		_, err = t.Exec(ctx, `
			INSERT INTO hand_revisions (club_id, hand_id, table_id, number, revision, facts, result, state_after, void, reason,
			                            caused_by, recorded_by, hash, chain_key, entry_players, entry_nums, entry_dens)
			SELECT h.club_id, h.hand_id, h.table_id, h.number,
			       coalesce((SELECT max(r.revision) FROM hand_revisions r WHERE r.club_id = h.club_id AND r.hand_id = h.hand_id), 1) + 1,
			       '{}', $3, '{}', $4, 'a test', h.number, h.recorded_by, $5, $6, '{}', '{}', '{}'
			FROM hands h WHERE h.club_id = $1 AND h.hand_id = $2`,
			clubID, h.ID, stored, h.Void, make([]byte, 32), make([]byte, 8))
		if err != nil {
			return err
		}
		return ledger.RollUpSession(ctx, &tx{Tx: t, club: clubID}, h.SessionID)
	})
}

// IndexSettlementForTest stores st as the session's next settlement
// version (its body only: no transfers, no change) and rolls the session
// up, as settling it does, in a transaction of its own.
func (s *Store) IndexSettlementForTest(ctx context.Context, clubID int64, st ledger.Settlement) error {
	return s.tx(ctx, func(t pgx.Tx) error {
		if err := t.QueryRow(ctx, `SELECT coalesce(max(version), 0) + 1 FROM settlements WHERE club_id = $1 AND session_id = $2`,
			clubID, st.SessionID).Scan(&st.Version); err != nil {
			return err
		}
		body, err := ledger.SettlementBody(st)
		if err != nil {
			return err
		}
		if _, err := t.Exec(ctx, `INSERT INTO settlements (club_id, session_id, version, body) VALUES ($1, $2, $3, $4)`,
			clubID, st.SessionID, st.Version, body); err != nil {
			return err
		}
		return ledger.RollUpSession(ctx, &tx{Tx: t, club: clubID}, st.SessionID)
	})
}

// queueStatOpen queues the listing of hand h's session in stat_open when
// it is open. Once the batch has run, the returned flag tells whether the
// session's figures are read live (open, or listed in stat_open); if not,
// the caller owes the session's rollups a rebuild.
func queueStatOpen(b *pgx.Batch, clubID int64, h ledger.Hand, date string) *bool {
	live := new(bool)
	b.Queue(`
		WITH s AS (
		    SELECT closed_at IS NULL AS open FROM sessions WHERE club_id = $1 AND session_id = $2
		), o AS (
		    INSERT INTO stat_open (club_id, session_id, table_id, game, date)
		    SELECT $1, $2, $3, $4, $5::date FROM s WHERE s.open
		    ON CONFLICT DO NOTHING
		)
		SELECT coalesce((SELECT open FROM s), false)
		    OR EXISTS (SELECT 1 FROM stat_open WHERE club_id = $1 AND session_id = $2)`,
		clubID, h.SessionID, h.TableID, h.Game, date).QueryRow(func(row pgx.Row) error { return row.Scan(live) })
	return live
}

// indexHand lists a stored hand's open session in stat_open, or rolls up
// its settled session again (the tests' hand-written hands).
func indexHand(ctx context.Context, t *tx, h ledger.Hand, date string) error {
	b := &pgx.Batch{}
	live := queueStatOpen(b, t.club, h, date)
	if err := send(ctx, t, b); err != nil || *live {
		return err
	}
	return ledger.RollUpSession(ctx, t, h.SessionID)
}
