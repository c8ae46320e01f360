-- Tournament evenings (ledger/tournament.go): DDV Spielrunden at several
-- Doppelkopf tables. A tournament names its tables in the organizer's
-- order; each round is one session per table, opened with the round's
-- seating. Every primary, unique and foreign key carries club_id, as
-- everywhere.

-- +goose Up
CREATE TABLE tournaments (
    club_id         bigint NOT NULL REFERENCES clubs,
    tournament_id   bigint GENERATED ALWAYS AS IDENTITY,
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    date            date NOT NULL,
    hands_per_round integer NOT NULL CHECK (hands_per_round BETWEEN 4 AND 99), -- TSR 8.5.1: 24
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, tournament_id)
);

CREATE TABLE tournament_tables (
    club_id       bigint NOT NULL,
    tournament_id bigint NOT NULL,
    position      smallint NOT NULL CHECK (position >= 1),
    table_id      bigint NOT NULL,
    PRIMARY KEY (club_id, tournament_id, position),
    UNIQUE (club_id, tournament_id, table_id),
    FOREIGN KEY (club_id, tournament_id) REFERENCES tournaments,
    FOREIGN KEY (club_id, table_id) REFERENCES tables
);

CREATE TABLE tournament_rounds (
    club_id       bigint NOT NULL,
    tournament_id bigint NOT NULL,
    round         integer NOT NULL CHECK (round >= 1),
    opened_at     timestamptz NOT NULL DEFAULT now(),
    time_up_at    timestamptz, -- the organizer ended the playing time (TSR 8.5.1)
    PRIMARY KEY (club_id, tournament_id, round),
    FOREIGN KEY (club_id, tournament_id) REFERENCES tournaments
);

CREATE TABLE tournament_sessions (
    club_id       bigint NOT NULL,
    tournament_id bigint NOT NULL,
    round         integer NOT NULL,
    table_id      bigint NOT NULL,
    session_id    bigint NOT NULL,
    PRIMARY KEY (club_id, tournament_id, round, table_id),
    UNIQUE (club_id, session_id),
    FOREIGN KEY (club_id, tournament_id, round) REFERENCES tournament_rounds,
    FOREIGN KEY (club_id, tournament_id, table_id) REFERENCES tournament_tables (club_id, tournament_id, table_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);

-- +goose Down
DROP TABLE tournament_sessions, tournament_rounds, tournament_tables, tournaments;
