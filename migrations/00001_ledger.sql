-- The ledger's core. Every primary, unique and foreign key carries club_id,
-- so the schema can be distributed by club (Citus) without change.

-- +goose Up
CREATE TABLE clubs (
    club_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    time_zone  text NOT NULL DEFAULT 'Europe/Berlin',
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
    club_id     bigint NOT NULL REFERENCES clubs,
    key_id      bigint GENERATED ALWAYS AS IDENTITY,
    role        text NOT NULL CHECK (role IN ('admin', 'scorer', 'reader')),
    label       text NOT NULL DEFAULT '',
    secret_hash bytea NOT NULL, -- sha256 of the key's random secret
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz,
    PRIMARY KEY (club_id, key_id)
);

CREATE TABLE players (
    club_id    bigint NOT NULL REFERENCES clubs,
    player_id  bigint GENERATED ALWAYS AS IDENTITY,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, player_id),
    UNIQUE (club_id, name)
);

-- A table: a standing group playing one game under one rule set.
CREATE TABLE tables (
    club_id    bigint NOT NULL REFERENCES clubs,
    table_id   bigint GENERATED ALWAYS AS IDENTITY,
    name       text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    game       text NOT NULL,
    preset     text NOT NULL,
    options    jsonb NOT NULL DEFAULT '{}', -- the overrides as given
    rules      jsonb NOT NULL,              -- the resolved rule set
    stake_num  bigint NOT NULL DEFAULT 0,   -- cents per point, exact
    stake_den  bigint NOT NULL DEFAULT 1 CHECK (stake_den > 0),
    hands      integer NOT NULL DEFAULT 0,  -- number of the last hand
    state      jsonb NOT NULL DEFAULT '{}', -- game state after the last hand
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, table_id),
    UNIQUE (club_id, name)
);

-- A session: one evening at a table.
CREATE TABLE sessions (
    club_id    bigint NOT NULL,
    session_id bigint GENERATED ALWAYS AS IDENTITY,
    table_id   bigint NOT NULL,
    date       date NOT NULL,
    opened_at  timestamptz NOT NULL DEFAULT now(),
    closed_at  timestamptz,
    PRIMARY KEY (club_id, session_id),
    FOREIGN KEY (club_id, table_id) REFERENCES tables
);
-- A table plays one evening at a time.
CREATE UNIQUE INDEX sessions_one_open ON sessions (club_id, table_id) WHERE closed_at IS NULL;
CREATE INDEX sessions_by_table ON sessions (club_id, table_id, session_id);

CREATE TABLE session_players (
    club_id    bigint NOT NULL,
    session_id bigint NOT NULL,
    seat       smallint NOT NULL CHECK (seat >= 1),
    player_id  bigint NOT NULL,
    PRIMARY KEY (club_id, session_id, seat),
    UNIQUE (club_id, session_id, player_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);

-- A hand: immutable facts, numbered 1, 2, 3 ... per table.
CREATE TABLE hands (
    club_id     bigint NOT NULL,
    hand_id     bigint GENERATED ALWAYS AS IDENTITY,
    table_id    bigint NOT NULL,
    session_id  bigint NOT NULL,
    number      integer NOT NULL CHECK (number >= 1),
    game        text NOT NULL,
    rules       jsonb NOT NULL,  -- the rule set in effect
    facts       jsonb NOT NULL,
    result      jsonb NOT NULL,  -- points, breakdown lines, events, winners
    state_after jsonb NOT NULL,  -- the table's game state after this hand
    recorded_by bigint NOT NULL, -- api key
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, hand_id),
    UNIQUE (club_id, table_id, number),
    FOREIGN KEY (club_id, table_id) REFERENCES tables,
    FOREIGN KEY (club_id, session_id) REFERENCES sessions,
    FOREIGN KEY (club_id, recorded_by) REFERENCES api_keys
);
CREATE INDEX hands_by_session ON hands (club_id, session_id, number);

-- An entry: one player's exact points (num/den in lowest terms) from one hand.
CREATE TABLE entries (
    club_id    bigint NOT NULL,
    entry_id   bigint GENERATED ALWAYS AS IDENTITY,
    hand_id    bigint NOT NULL,
    table_id   bigint NOT NULL,
    session_id bigint NOT NULL,
    player_id  bigint NOT NULL,
    num        bigint NOT NULL,
    den        bigint NOT NULL CHECK (den > 0),
    PRIMARY KEY (club_id, entry_id),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);
CREATE INDEX entries_by_hand ON entries (club_id, hand_id);

-- Running totals, updated in the hand's transaction; always equal to the
-- sum of the entries they cover.
CREATE TABLE table_totals (
    club_id   bigint NOT NULL,
    table_id  bigint NOT NULL,
    player_id bigint NOT NULL,
    num       bigint NOT NULL,
    den       bigint NOT NULL CHECK (den > 0),
    hands     integer NOT NULL,
    PRIMARY KEY (club_id, table_id, player_id),
    FOREIGN KEY (club_id, table_id) REFERENCES tables,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);

CREATE TABLE session_totals (
    club_id    bigint NOT NULL,
    session_id bigint NOT NULL,
    player_id  bigint NOT NULL,
    num        bigint NOT NULL,
    den        bigint NOT NULL CHECK (den > 0),
    hands      integer NOT NULL,
    PRIMARY KEY (club_id, session_id, player_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);

-- Idempotency keys of writes: the same key and request replay the first
-- answer; the row is written in the same transaction as what it protects.
CREATE TABLE idempotency_keys (
    club_id      bigint NOT NULL REFERENCES clubs,
    key          text NOT NULL,
    request_hash bytea NOT NULL,
    kind         text NOT NULL, -- what was created: hand, player, table, session
    ref_id       bigint NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, key)
);

-- Exact rational addition for running totals: (an/ad) + (bn/bd) in lowest
-- terms with a positive denominator. bigint overflow raises an error.
-- +goose StatementBegin
CREATE FUNCTION rat_add(an bigint, ad bigint, bn bigint, bd bigint, OUT num bigint, OUT den bigint)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT s.n / gcd(s.n, s.d), s.d / gcd(s.n, s.d)
    FROM (SELECT an * bd + bn * ad AS n, ad * bd AS d) s
$$;
-- +goose StatementEnd

-- History is append-only: no bug and no hand in psql can rewrite it.
-- +goose StatementBegin
CREATE FUNCTION refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'stichbuch: % on % refused: the ledger is append-only, record a correction instead', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
-- +goose StatementEnd

CREATE TRIGGER hands_append_only BEFORE UPDATE OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER hands_no_truncate BEFORE TRUNCATE ON hands
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- +goose Down
DROP TABLE idempotency_keys, session_totals, table_totals, entries, hands,
    session_players, sessions, tables, players, api_keys, clubs;
DROP FUNCTION refuse_history_change();
DROP FUNCTION rat_add(bigint, bigint, bigint, bigint);
