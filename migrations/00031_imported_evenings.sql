-- Imported evenings (ledger/oldlists, ledger.Service.ImportOldLists): the
-- club's old lists from before stichbuch, one row per player and evening
-- with points and hands, no facts. They count in season tables, never in
-- the fact-based counters. An import is stored whole or not at all, once
-- per content (its SHA-256), and is history: append-only.

-- +goose Up
CREATE TABLE imports (
    club_id      bigint NOT NULL REFERENCES clubs,
    import_id    bigint GENERATED ALWAYS AS IDENTITY,
    content_hash text NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
    file_name    text NOT NULL CHECK (length(file_name) <= 200),
    evenings     integer NOT NULL CHECK (evenings >= 1),
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, import_id),
    UNIQUE (club_id, content_hash)
);

CREATE TABLE imported_evenings (
    club_id    bigint NOT NULL,
    evening_id bigint GENERATED ALWAYS AS IDENTITY,
    import_id  bigint NOT NULL,
    game       text NOT NULL,
    date       date NOT NULL,
    PRIMARY KEY (club_id, evening_id),
    FOREIGN KEY (club_id, import_id) REFERENCES imports
);
CREATE INDEX imported_evenings_by_date ON imported_evenings (club_id, date);

-- Points exact: num/den in lowest terms.
CREATE TABLE imported_lines (
    club_id    bigint NOT NULL,
    evening_id bigint NOT NULL,
    player_id  bigint NOT NULL,
    hands      integer NOT NULL CHECK (hands BETWEEN 1 AND 1000),
    num        bigint NOT NULL,
    den        bigint NOT NULL CHECK (den > 0),
    PRIMARY KEY (club_id, evening_id, player_id),
    FOREIGN KEY (club_id, evening_id) REFERENCES imported_evenings,
    FOREIGN KEY (club_id, player_id) REFERENCES players
);

CREATE TRIGGER imports_append_only BEFORE UPDATE OR DELETE ON imports
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER imported_evenings_append_only BEFORE UPDATE OR DELETE ON imported_evenings
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER imported_lines_append_only BEFORE UPDATE OR DELETE ON imported_lines
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- +goose Down
DROP TABLE imported_lines, imported_evenings, imports;
