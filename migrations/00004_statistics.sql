-- Historical statistics: side tables extracted from each hand's result in
-- the hand's own transaction (ledger/postgres/stats.go indexHand), rolled
-- up per session when the session's settlement is stored
-- (indexSettlement). They are derived data, not history: a correction
-- removes a hand's rows (unindexHand) and adds the new ones, and a closed
-- session's rollups are rebuilt from its hands, so these tables are
-- updatable and carry no append-only trigger. No query reads the hands'
-- JSON. Every key carries club_id (distribution by club).
--
-- Points are exact: num/den in lowest terms.
-- A hand's outcome for a player: 1 won (in Result.Winners), -1 lost (the
-- hand has winners and he is not one), 0 nobody won (a redeal, a tie).

-- +goose Up

-- One row per hand and player the hand concerns: present, the players of
-- Result.Points; not present, a player named only in Result.Stats (the
-- payer of a Schwarze Sau payout, the winner of a Schwarze Dame match who
-- did not play the hand), kept for his counters. sat_out: not playing this
-- hand (in Result.Points but in none of Result.Parties, a Doppelkopf table
-- of five or more; always for a player not present). party: the index of
-- the player's side in Result.Parties, NULL where the game has no parties.
-- stat_keys/stat_counts are the player's Result.Stats of the hand.
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
-- A session's hands in order: what a rollup and an open evening are read from.
CREATE INDEX stat_hands_by_session ON stat_hands (club_id, session_id, player_id, number);

-- The sessions whose hands are not rolled up: every open evening (and a
-- closed one until its settlement is stored). Queries add their figures
-- from stat_hands to the rollups'.
CREATE TABLE stat_open (
    club_id    bigint NOT NULL,
    session_id bigint NOT NULL,
    table_id   bigint NOT NULL,
    game       text NOT NULL,
    date       date NOT NULL,
    PRIMARY KEY (club_id, session_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);
CREATE INDEX stat_open_by_date ON stat_open (club_id, date);

-- The rollups of a settled session, written once when its settlement is
-- stored (rebuilt when a correction changes it), so their rows are never
-- updated hand by hand and their covering indexes stay compact: a player's
-- years or a club's year are read by index-only scans from a few index
-- pages rather than from one heap page per session.

-- Per player and session (one evening at one table):
--   hands     hands played (sat-out hands not counted)
--   won, lost hands won and lost (hands = won + lost + hands nobody won)
--   sat_out   hands sat out (in Result.Points, in none of Result.Parties)
--   num/den   points of the session, exact
-- The streak summary is over the session's decided hands (won or lost) in
-- hand order: the run of wins (losses) the session starts with
-- (win_first, loss_first), ends with (win_last, loss_last), and its longest
-- (win_best, loss_best). Sessions combine in time order (date, session) to
-- the longest streaks of any period.
CREATE TABLE stat_sessions (
    club_id     bigint NOT NULL,
    session_id  bigint NOT NULL,
    player_id   bigint NOT NULL,
    table_id    bigint NOT NULL,
    game        text NOT NULL,
    date        date NOT NULL,
    hands       integer NOT NULL,
    won         integer NOT NULL,
    lost        integer NOT NULL,
    sat_out     integer NOT NULL,
    num         bigint NOT NULL,
    den         bigint NOT NULL CHECK (den > 0),
    win_first   integer NOT NULL,
    loss_first  integer NOT NULL,
    win_last    integer NOT NULL,
    loss_last   integer NOT NULL,
    win_best    integer NOT NULL,
    loss_best   integer NOT NULL,
    PRIMARY KEY (club_id, session_id, player_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);
CREATE INDEX stat_sessions_by_player ON stat_sessions (club_id, player_id, date, session_id)
    INCLUDE (table_id, game, hands, won, lost, sat_out, num, den,
             win_first, loss_first, win_last, loss_last, win_best, loss_best);
CREATE INDEX stat_sessions_by_date ON stat_sessions (club_id, date)
    INCLUDE (player_id, game, table_id, num, den, hands, won);

-- The engines' countable facts (Result.Stats) per player and session, by
-- key as each engine documents them ("solo_played", "kontra_said_won").
CREATE TABLE stat_counters (
    club_id    bigint NOT NULL,
    session_id bigint NOT NULL,
    player_id  bigint NOT NULL,
    key        text NOT NULL,
    table_id   bigint NOT NULL,
    game       text NOT NULL,
    date       date NOT NULL,
    count      bigint NOT NULL,
    PRIMARY KEY (club_id, session_id, player_id, key),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);
CREATE INDEX stat_counters_by_player ON stat_counters (club_id, player_id, date)
    INCLUDE (game, table_id, key, count);

-- Pairs per session, from each player's side (both (a, b) and (b, a) are
-- kept, so a player's partners are one index range). Over the hands both
-- played:
--   hands          hands together at the table, both playing
--   partner_hands  in the same party (Result.Parties)
--   partner_won    ... and won together
--   partner_lost   ... and lost together
--   against_hands  not in the same party (every hand of a game without parties)
--   won_against    player won, other did not
--   lost_against   other won, player did not
--   num/den, other_num/other_den   each one's points in these hands
CREATE TABLE stat_pairs (
    club_id       bigint NOT NULL,
    session_id    bigint NOT NULL,
    player_id     bigint NOT NULL,
    other_id      bigint NOT NULL,
    table_id      bigint NOT NULL,
    game          text NOT NULL,
    date          date NOT NULL,
    hands         integer NOT NULL,
    partner_hands integer NOT NULL,
    partner_won   integer NOT NULL,
    partner_lost  integer NOT NULL,
    against_hands integer NOT NULL,
    won_against   integer NOT NULL,
    lost_against  integer NOT NULL,
    num           bigint NOT NULL,
    den           bigint NOT NULL CHECK (den > 0),
    other_num     bigint NOT NULL,
    other_den     bigint NOT NULL CHECK (other_den > 0),
    PRIMARY KEY (club_id, session_id, player_id, other_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);
CREATE INDEX stat_pairs_by_player ON stat_pairs (club_id, player_id, other_id, date)
    INCLUDE (game, table_id, hands, partner_hands, partner_won, partner_lost, against_hands,
             won_against, lost_against, num, den, other_num, other_den);

-- Money per player and session from the session's latest settlement
-- version (replaced whenever a new version is stored).
CREATE TABLE stat_money (
    club_id      bigint NOT NULL,
    session_id   bigint NOT NULL,
    player_id    bigint NOT NULL,
    table_id     bigint NOT NULL,
    game         text NOT NULL,
    date         date NOT NULL,
    version      integer NOT NULL,
    points_cents bigint NOT NULL,
    payout_cents bigint NOT NULL,
    net_cents    bigint NOT NULL,
    PRIMARY KEY (club_id, session_id, player_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);
CREATE INDEX stat_money_by_player ON stat_money (club_id, player_id, date)
    INCLUDE (game, table_id, session_id, net_cents);
CREATE INDEX stat_money_by_date ON stat_money (club_id, date)
    INCLUDE (game, table_id, player_id, net_cents);

-- +goose Down
DROP TABLE stat_money, stat_pairs, stat_counters, stat_sessions, stat_open, stat_hands;
