-- The evening's money: settlements frozen when a session closes, the
-- transfers that settle them, their payments, and the club's kitty. All of
-- it is append-only like the rest of the ledger.

-- +goose Up
ALTER TABLE tables
    ADD COLUMN settle_mode text NOT NULL DEFAULT 'transfers'
        CHECK (settle_mode IN ('transfers', 'kitty', 'losers_to_kitty')),
    ADD COLUMN match_loss_cents bigint NOT NULL DEFAULT 0 CHECK (match_loss_cents >= 0);

-- A settlement: the money of one session, computed with the stake and rules
-- stored in it. A correction of a closed session adds a new version.
CREATE TABLE settlements (
    club_id       bigint NOT NULL,
    settlement_id bigint GENERATED ALWAYS AS IDENTITY,
    session_id    bigint NOT NULL,
    version       integer NOT NULL CHECK (version >= 1),
    body          jsonb NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, settlement_id),
    UNIQUE (club_id, session_id, version),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions
);

-- Who pays whom; a NULL player is the club's kitty.
CREATE TABLE transfers (
    club_id       bigint NOT NULL,
    transfer_id   bigint GENERATED ALWAYS AS IDENTITY,
    settlement_id bigint NOT NULL,
    session_id    bigint NOT NULL,
    from_player   bigint,
    to_player     bigint,
    cents         bigint NOT NULL CHECK (cents > 0),
    PRIMARY KEY (club_id, transfer_id),
    FOREIGN KEY (club_id, settlement_id) REFERENCES settlements,
    FOREIGN KEY (club_id, from_player) REFERENCES players,
    FOREIGN KEY (club_id, to_player) REFERENCES players,
    CHECK (from_player IS NOT NULL OR to_player IS NOT NULL)
);
CREATE INDEX transfers_by_session ON transfers (club_id, session_id);

-- A transfer marked paid. Paying is recorded, never undone.
CREATE TABLE transfer_payments (
    club_id     bigint NOT NULL,
    transfer_id bigint NOT NULL,
    paid_at     timestamptz NOT NULL DEFAULT now(),
    recorded_by bigint NOT NULL,
    PRIMARY KEY (club_id, transfer_id),
    FOREIGN KEY (club_id, transfer_id) REFERENCES transfers,
    FOREIGN KEY (club_id, recorded_by) REFERENCES api_keys
);

-- The club's kitty: its balance is the sum of its bookings.
CREATE TABLE kitty_bookings (
    club_id     bigint NOT NULL REFERENCES clubs,
    booking_id  bigint GENERATED ALWAYS AS IDENTITY,
    cents       bigint NOT NULL CHECK (cents <> 0),
    kind        text NOT NULL CHECK (kind IN ('settlement', 'manual')),
    note        text NOT NULL DEFAULT '',
    session_id  bigint,
    recorded_by bigint NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, booking_id),
    FOREIGN KEY (club_id, session_id) REFERENCES sessions,
    FOREIGN KEY (club_id, recorded_by) REFERENCES api_keys
);

CREATE TRIGGER settlements_append_only BEFORE UPDATE OR DELETE ON settlements
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER transfers_append_only BEFORE UPDATE OR DELETE ON transfers
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER transfer_payments_append_only BEFORE UPDATE OR DELETE ON transfer_payments
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER kitty_bookings_append_only BEFORE UPDATE OR DELETE ON kitty_bookings
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- +goose Down
DROP TABLE kitty_bookings, transfer_payments, transfers, settlements;
ALTER TABLE tables DROP COLUMN settle_mode, DROP COLUMN match_loss_cents;
