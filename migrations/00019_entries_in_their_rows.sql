-- A hand's entries are kept in its own row, and a revision's difference
-- entries in the revision's: entry_players, entry_nums and entry_dens,
-- one element per player in the order of the result's points. A row of
-- entries cost 150 bytes with its two indexes (four of them per hand,
-- and eight index insertions in every hand's transaction); the three
-- arrays cost about 170 bytes a hand. The view `entries` shows them as
-- before, one row per entry, for the checks and sums that read them.
-- Entries are history: the hands' and revisions' triggers keep them
-- append-only as they keep the rest of those rows.

-- +goose Up
ALTER TABLE hands ADD COLUMN entry_players bigint[], ADD COLUMN entry_nums bigint[], ADD COLUMN entry_dens bigint[];
ALTER TABLE hand_revisions ADD COLUMN entry_players bigint[], ADD COLUMN entry_nums bigint[], ADD COLUMN entry_dens bigint[];

-- The entries stored so far move into their rows (the schema's own step,
-- as 00003_tamper_evidence's; every value is kept, in entry order). The
-- rows of the trigger era have no keyed hash, which 00013's constraints
-- check on every row written; they are set aside for this step.
ALTER TABLE hands DISABLE TRIGGER hands_append_only, DROP CONSTRAINT hands_keyed;
ALTER TABLE hand_revisions DISABLE TRIGGER hand_revisions_append_only, DROP CONSTRAINT hand_revisions_keyed;
UPDATE hands h SET entry_players = e.players, entry_nums = e.nums, entry_dens = e.dens
FROM (SELECT club_id, hand_id, array_agg(player_id ORDER BY entry_id) AS players,
             array_agg(num ORDER BY entry_id) AS nums, array_agg(den ORDER BY entry_id) AS dens
      FROM entries WHERE revision = 1 GROUP BY club_id, hand_id) e
WHERE h.club_id = e.club_id AND h.hand_id = e.hand_id;
UPDATE hand_revisions r SET entry_players = e.players, entry_nums = e.nums, entry_dens = e.dens
FROM (SELECT club_id, hand_id, revision, array_agg(player_id ORDER BY entry_id) AS players,
             array_agg(num ORDER BY entry_id) AS nums, array_agg(den ORDER BY entry_id) AS dens
      FROM entries WHERE revision > 1 GROUP BY club_id, hand_id, revision) e
WHERE r.club_id = e.club_id AND r.hand_id = e.hand_id AND r.revision = e.revision;
UPDATE hands SET entry_players = '{}', entry_nums = '{}', entry_dens = '{}' WHERE entry_players IS NULL;
UPDATE hand_revisions SET entry_players = '{}', entry_nums = '{}', entry_dens = '{}' WHERE entry_players IS NULL;
ALTER TABLE hands ENABLE TRIGGER hands_append_only, ADD CONSTRAINT hands_keyed
    CHECK (chain_key IS NOT NULL AND octet_length(chain_key) = 8 AND octet_length(hash) = 32) NOT VALID;
ALTER TABLE hand_revisions ENABLE TRIGGER hand_revisions_append_only, ADD CONSTRAINT hand_revisions_keyed
    CHECK (chain_key IS NOT NULL AND octet_length(chain_key) = 8 AND octet_length(hash) = 32) NOT VALID;

ALTER TABLE hands
    ALTER COLUMN entry_players SET NOT NULL, ALTER COLUMN entry_nums SET NOT NULL, ALTER COLUMN entry_dens SET NOT NULL,
    ADD CONSTRAINT hands_entries CHECK (cardinality(entry_nums) = cardinality(entry_players)
                                        AND cardinality(entry_dens) = cardinality(entry_players) AND 0 < ALL (entry_dens));
ALTER TABLE hand_revisions
    ALTER COLUMN entry_players SET NOT NULL, ALTER COLUMN entry_nums SET NOT NULL, ALTER COLUMN entry_dens SET NOT NULL,
    ADD CONSTRAINT hand_revisions_entries CHECK (cardinality(entry_nums) = cardinality(entry_players)
                                                 AND cardinality(entry_dens) = cardinality(entry_players) AND 0 < ALL (entry_dens));
DROP TABLE entries;

-- One row per entry: revision 1 is the hand's own, n a correction's
-- differences.
CREATE VIEW entries AS
SELECT h.club_id, h.hand_id, h.table_id, h.session_id, 1 AS revision, e.player_id, e.num, e.den
FROM hands h, unnest(h.entry_players, h.entry_nums, h.entry_dens) AS e(player_id, num, den)
UNION ALL
SELECT r.club_id, r.hand_id, h.table_id, h.session_id, r.revision, e.player_id, e.num, e.den
FROM hand_revisions r JOIN hands h ON h.club_id = r.club_id AND h.hand_id = r.hand_id,
     unnest(r.entry_players, r.entry_nums, r.entry_dens) AS e(player_id, num, den);

-- +goose Down
DROP VIEW entries;
CREATE TABLE entries (
    club_id    bigint NOT NULL,
    entry_id   bigint GENERATED ALWAYS AS IDENTITY,
    hand_id    bigint NOT NULL,
    table_id   bigint NOT NULL,
    session_id bigint NOT NULL,
    player_id  bigint NOT NULL,
    num        bigint NOT NULL,
    den        bigint NOT NULL CHECK (den > 0),
    revision   integer NOT NULL DEFAULT 1,
    PRIMARY KEY (club_id, entry_id),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);
CREATE INDEX entries_by_hand ON entries (club_id, hand_id);
INSERT INTO entries (club_id, hand_id, table_id, session_id, player_id, num, den, revision)
SELECT x.club_id, x.hand_id, x.table_id, x.session_id, e.player_id, e.num, e.den, x.revision
FROM (SELECT club_id, hand_id, table_id, session_id, 1 AS revision, entry_players, entry_nums, entry_dens FROM hands
      UNION ALL
      SELECT r.club_id, r.hand_id, h.table_id, h.session_id, r.revision, r.entry_players, r.entry_nums, r.entry_dens
      FROM hand_revisions r JOIN hands h ON h.club_id = r.club_id AND h.hand_id = r.hand_id) x,
     unnest(x.entry_players, x.entry_nums, x.entry_dens) WITH ORDINALITY AS e(player_id, num, den, ord)
ORDER BY x.club_id, x.revision > 1, x.hand_id, x.revision, e.ord;
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();
ALTER TABLE hand_revisions DROP CONSTRAINT hand_revisions_entries,
    DROP COLUMN entry_players, DROP COLUMN entry_nums, DROP COLUMN entry_dens;
ALTER TABLE hands DROP CONSTRAINT hands_entries,
    DROP COLUMN entry_players, DROP COLUMN entry_nums, DROP COLUMN entry_dens;
