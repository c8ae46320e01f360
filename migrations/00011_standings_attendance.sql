-- A standing counts the hands a player played and those he sat out, beside
-- the hands with an entry of his (which a settlement reports): a redeal
-- and a voided hand count for neither.

-- +goose Up
ALTER TABLE table_totals
    ADD COLUMN played  integer NOT NULL DEFAULT 0 CHECK (played >= 0),
    ADD COLUMN sat_out integer NOT NULL DEFAULT 0 CHECK (sat_out >= 0);
ALTER TABLE session_totals
    ADD COLUMN played  integer NOT NULL DEFAULT 0 CHECK (played >= 0),
    ADD COLUMN sat_out integer NOT NULL DEFAULT 0 CHECK (sat_out >= 0);

-- The hands so far, from each hand's current revision: who played is the
-- result's players, or, for a result stored before it named them, every
-- player at the table but those the statistics mark as sitting out.
CREATE TEMPORARY TABLE attendance ON COMMIT DROP AS
WITH current AS (
    SELECT h.club_id, h.hand_id, h.table_id, h.session_id,
           coalesce(r.result, h.result) AS result, coalesce(r.void, false) AS void
    FROM hands h
    LEFT JOIN LATERAL (SELECT x.result, x.void FROM hand_revisions x
                       WHERE x.club_id = h.club_id AND x.hand_id = h.hand_id
                       ORDER BY x.revision DESC LIMIT 1) r ON true
)
SELECT c.club_id, c.table_id, c.session_id, s.player_id,
       CASE WHEN c.result ? 'players' THEN c.result->'players' @> to_jsonb(s.player_id)
            ELSE NOT s.sat_out END AS played
FROM current c
JOIN stat_hands s ON s.club_id = c.club_id AND s.hand_id = c.hand_id AND s.present
WHERE NOT c.void AND NOT coalesce(c.result->'events' @> '[{"type": "redeal"}]', false);

UPDATE table_totals t SET played = a.played, sat_out = a.sat_out
FROM (SELECT club_id, table_id, player_id,
             count(*) FILTER (WHERE played) AS played, count(*) FILTER (WHERE NOT played) AS sat_out
      FROM attendance GROUP BY club_id, table_id, player_id) a
WHERE t.club_id = a.club_id AND t.table_id = a.table_id AND t.player_id = a.player_id;

UPDATE session_totals t SET played = a.played, sat_out = a.sat_out
FROM (SELECT club_id, session_id, player_id,
             count(*) FILTER (WHERE played) AS played, count(*) FILTER (WHERE NOT played) AS sat_out
      FROM attendance GROUP BY club_id, session_id, player_id) a
WHERE t.club_id = a.club_id AND t.session_id = a.session_id AND t.player_id = a.player_id;

-- +goose Down
ALTER TABLE session_totals DROP COLUMN played, DROP COLUMN sat_out;
ALTER TABLE table_totals DROP COLUMN played, DROP COLUMN sat_out;
