-- A club's season rules (ledger/season): named, versioned, append-only
-- like the rest of the history. Changing a season's rules stores the next
-- version; a table is computed under the version asked for (the latest by
-- default), so an old table can still be shown as it was ranked.

-- +goose Up
CREATE TABLE season_rules (
    club_id    bigint NOT NULL REFERENCES clubs,
    name       text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    version    integer NOT NULL CHECK (version BETWEEN 1 AND 10000),
    rules      jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, name, version)
);
CREATE TRIGGER season_rules_append_only BEFORE UPDATE OR DELETE ON season_rules
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER season_rules_no_truncate BEFORE TRUNCATE ON season_rules
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- +goose Down
DROP TABLE season_rules;
