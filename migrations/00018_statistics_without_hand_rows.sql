-- The statistics keep no rows per hand: an open evening's figures (the
-- sessions in stat_open) are computed from its hands' current revisions
-- when they are read, as a settled session's rollups are when it is rolled
-- up (ledger.StatsOf). stat_hands cost a statement with two indexes in
-- every hand's transaction, and its rows, deleted when their session was
-- rolled up, left the table as big as the hands written between two
-- autovacuum runs. stat_open lists an open session from its first hand.

-- +goose Up
DROP TABLE stat_hands;

-- +goose Down
CREATE TABLE stat_hands (
    club_id     bigint NOT NULL,
    hand_id     bigint NOT NULL,
    player_id   bigint NOT NULL,
    session_id  bigint NOT NULL,
    table_id    bigint NOT NULL,
    game        text NOT NULL,
    date        date NOT NULL,
    number      integer NOT NULL,
    num         bigint NOT NULL,
    den         bigint NOT NULL CHECK (den > 0),
    outcome     smallint NOT NULL CHECK (outcome IN (-1, 0, 1)),
    present     boolean NOT NULL,
    sat_out     boolean NOT NULL,
    party       smallint,
    stat_keys   text[] NOT NULL DEFAULT '{}',
    stat_counts bigint[] NOT NULL DEFAULT '{}',
    PRIMARY KEY (club_id, hand_id, player_id)
);
CREATE INDEX stat_hands_by_session ON stat_hands (club_id, session_id, player_id, number);
-- The open evenings' rows come back with a statistics rebuild
-- (postgres.Store.RebuildStats) of the code of version 17.
