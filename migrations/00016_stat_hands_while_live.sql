-- stat_hands holds the rows of the sessions read live only (stat_open: an
-- open evening, or a closed one until its settlement is stored). A settled
-- session's figures are its rollups, and a rebuild of them (a correction,
-- a new settlement version) computes its rows again from its hands'
-- current revisions; its stat_hands rows go when it is rolled up. About
-- 1,200 bytes per hand of derived data less.
--
-- The running totals' hands played and sat out are counted again from
-- the hands' results: 00011_standings_attendance counted them from
-- stat_hands, which has no rows for hands stored before the statistics
-- existed (00004), so a ledger older than that counted those hands for
-- nobody. What counts is ledger.AttendanceOf: the players of the points,
-- played when the result names them among its players (or, for a result
-- stored before it named them, when the hand had no parties or they were
-- in one); a voided hand and a redeal count for nobody. From now on
-- `stichbuch verify` checks the totals against the hands this way.

-- +goose Up
DELETE FROM stat_hands h
WHERE NOT EXISTS (SELECT 1 FROM stat_open o WHERE o.club_id = h.club_id AND o.session_id = h.session_id);

CREATE TEMPORARY TABLE attendance ON COMMIT DROP AS
WITH current AS (
    SELECT h.club_id, h.hand_id, h.table_id, h.session_id,
           coalesce(r.result, h.result) AS result, coalesce(r.void, false) AS void
    FROM hands h
    LEFT JOIN LATERAL (SELECT x.result, x.void FROM hand_revisions x
                       WHERE x.club_id = h.club_id AND x.hand_id = h.hand_id
                       ORDER BY x.revision DESC LIMIT 1) r ON true
), present AS (
    SELECT DISTINCT c.club_id, c.hand_id, c.table_id, c.session_id, c.result, p->'player' AS player
    FROM current c, jsonb_array_elements(c.result->'points') p
    WHERE NOT c.void AND NOT coalesce(c.result->'events' @> '[{"type": "redeal"}]', false)
)
SELECT club_id, table_id, session_id, player::text::bigint AS player_id,
       CASE WHEN result ? 'players' THEN result->'players' @> player
            ELSE jsonb_array_length(coalesce(nullif(result->'parties', 'null'), '[]')) = 0
                 OR EXISTS (SELECT 1 FROM jsonb_array_elements(result->'parties') party WHERE party @> player) END AS played
FROM present;

UPDATE table_totals SET played = 0, sat_out = 0;
UPDATE table_totals t SET played = a.played, sat_out = a.sat_out
FROM (SELECT club_id, table_id, player_id,
             count(*) FILTER (WHERE played) AS played, count(*) FILTER (WHERE NOT played) AS sat_out
      FROM attendance GROUP BY club_id, table_id, player_id) a
WHERE t.club_id = a.club_id AND t.table_id = a.table_id AND t.player_id = a.player_id;

UPDATE session_totals SET played = 0, sat_out = 0;
UPDATE session_totals t SET played = a.played, sat_out = a.sat_out
FROM (SELECT club_id, session_id, player_id,
             count(*) FILTER (WHERE played) AS played, count(*) FILTER (WHERE NOT played) AS sat_out
      FROM attendance GROUP BY club_id, session_id, player_id) a
WHERE t.club_id = a.club_id AND t.session_id = a.session_id AND t.player_id = a.player_id;

-- +goose Down
-- A settled session keeps no stat_hands rows: the code of version 15
-- rebuilds a settled session's rollups from them (a correction), so after
-- rolling back, rebuild the statistics (postgres.Store.RebuildStats)
-- before correcting a hand of a settled session.
SELECT 1;
