package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// attendanceRows is one row per player of every hand of a club that counts,
// from the hand's current revision, with whether he played it (else he
// sat it out): ledger.AttendanceOf in SQL. Who played is the result's
// players, or, for a result stored before it named them, every player at
// the table whom the statistics do not mark as sitting out; voided hands
// (which have no statistics rows) and redeals count for nobody.
func attendanceRows(where string) string {
	return `
	WITH current AS (
	    SELECT h.club_id, h.hand_id, h.table_id, h.session_id,
	           coalesce(r.result, h.result) AS result, coalesce(r.void, false) AS void
	    FROM hands h
	    LEFT JOIN LATERAL (SELECT x.result, x.void FROM hand_revisions x
	                       WHERE x.club_id = h.club_id AND x.hand_id = h.hand_id
	                       ORDER BY x.revision DESC LIMIT 1) r ON true
	    WHERE ` + where + `
	)
	SELECT c.club_id, c.table_id, c.session_id, s.player_id,
	       CASE WHEN c.result ? 'players' THEN c.result->'players' @> to_jsonb(s.player_id)
	            ELSE NOT s.sat_out END AS played
	FROM current c
	JOIN stat_hands s ON s.club_id = c.club_id AND s.hand_id = c.hand_id AND s.present
	WHERE NOT c.void AND NOT coalesce(c.result->'events' @> '[{"type": "redeal"}]', false)`
}

// attendanceSums sums attendanceRows(where) per club, owner (table_id or
// session_id) and player.
func attendanceSums(owner, where string) string {
	return `
	SELECT club_id, ` + owner + `, player_id,
	       count(*) FILTER (WHERE played) AS played, count(*) FILTER (WHERE NOT played) AS sat_out
	FROM (` + attendanceRows(where) + `) a
	GROUP BY club_id, ` + owner + `, player_id`
}

// rebuildAttendance sets the hands played and sat out of a club's running
// totals from its hands (after an import, once the statistics are built).
func rebuildAttendance(ctx context.Context, q batcher, clubID int64) error {
	b := &pgx.Batch{}
	for _, t := range totalTables {
		b.Queue(`
			UPDATE `+t.table+` t SET played = a.played, sat_out = a.sat_out
			FROM (`+attendanceSums(t.owner, "h.club_id = $1")+`) a
			WHERE t.club_id = a.club_id AND t.`+t.owner+` = a.`+t.owner+` AND t.player_id = a.player_id`, clubID)
	}
	return send(ctx, q, b)
}

// totalTables are the running totals by the column that owns them.
var totalTables = []struct{ table, owner string }{{"table_totals", "table_id"}, {"session_totals", "session_id"}}

// attendanceCheck is the invariant of Verify that a total's hands played
// and sat out are what the hands' current revisions say.
func attendanceCheck(table, owner string) check {
	return check{name: "every " + table + " row counts the hands played and sat out", query: `
		SELECT format('%s %s, player %s: the total says %s played and %s sat out, the hands %s and %s',
		              '` + owner + `', coalesce(t.` + owner + `, a.` + owner + `), coalesce(t.player_id, a.player_id),
		              t.played, t.sat_out, coalesce(a.played, 0), coalesce(a.sat_out, 0))
		FROM ` + table + ` t FULL JOIN (` + attendanceSums(owner, "true") + `) a USING (club_id, ` + owner + `, player_id)
		WHERE coalesce(t.played, 0) <> coalesce(a.played, 0) OR coalesce(t.sat_out, 0) <> coalesce(a.sat_out, 0)
		LIMIT 1`}
}
