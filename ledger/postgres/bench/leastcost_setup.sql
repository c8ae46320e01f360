-- The schema leastcost.sql writes: a table row per client, hands, entries
-- and totals, with the keys a ledger needs and nothing more.
CREATE SCHEMA IF NOT EXISTS leastcost;
CREATE TABLE IF NOT EXISTS leastcost.tables (table_id bigint PRIMARY KEY, hands integer NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS leastcost.hands (
    hand_id  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id bigint NOT NULL REFERENCES leastcost.tables,
    number   integer NOT NULL,
    facts    jsonb NOT NULL,
    UNIQUE (table_id, number)
);
CREATE TABLE IF NOT EXISTS leastcost.entries (
    hand_id bigint NOT NULL REFERENCES leastcost.hands,
    player  bigint NOT NULL,
    num     bigint NOT NULL,
    PRIMARY KEY (hand_id, player)
);
CREATE TABLE IF NOT EXISTS leastcost.totals (
    table_id bigint NOT NULL REFERENCES leastcost.tables,
    player   bigint NOT NULL,
    num      bigint NOT NULL,
    PRIMARY KEY (table_id, player)
);
INSERT INTO leastcost.tables SELECT g FROM generate_series(1, 1024) g ON CONFLICT DO NOTHING;
INSERT INTO leastcost.totals SELECT t, p, 0 FROM generate_series(1, 1024) t, generate_series(1, 4) p ON CONFLICT DO NOTHING;
