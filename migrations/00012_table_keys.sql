-- A key may be limited to one table of its club (a phone invited to that
-- table): it sees and acts on that table only. Such keys are made by
-- redeeming a one-time join code, which is stored only as its SHA-256.

-- +goose Up
ALTER TABLE api_keys
    ADD COLUMN table_id bigint,
    ADD FOREIGN KEY (club_id, table_id) REFERENCES tables (club_id, table_id),
    ADD CHECK (table_id IS NULL OR role IN ('scorer', 'reader'));

CREATE TABLE join_codes (
    club_id     bigint NOT NULL REFERENCES clubs,
    join_id     bigint GENERATED ALWAYS AS IDENTITY,
    table_id    bigint NOT NULL,
    role        text NOT NULL CHECK (role IN ('scorer', 'reader')),
    code_hash   bytea NOT NULL CHECK (length(code_hash) = 32), -- sha256 of the code
    created_by  bigint NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL CHECK (expires_at > created_at),
    redeemed_at timestamptz,
    key_id      bigint, -- the key the code was exchanged for
    PRIMARY KEY (club_id, join_id),
    UNIQUE (club_id, code_hash),
    FOREIGN KEY (club_id, table_id) REFERENCES tables (club_id, table_id),
    FOREIGN KEY (club_id, created_by) REFERENCES api_keys (club_id, key_id),
    FOREIGN KEY (club_id, key_id) REFERENCES api_keys (club_id, key_id),
    CHECK ((redeemed_at IS NULL) = (key_id IS NULL))
);

-- +goose Down
DROP TABLE join_codes;
ALTER TABLE api_keys DROP COLUMN table_id;
