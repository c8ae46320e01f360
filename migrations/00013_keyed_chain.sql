-- The keyed chain: from here on the service computes every hand's and
-- revision's hash in Go, as an HMAC-SHA256 with the installation's chain
-- key (ledger/chain says what is hashed), and inserts it with the row; the
-- database no longer computes hashes, so nobody who can write an export
-- and recompute a SHA-256 can forge one.
--
-- Rows chained before keep their trigger-era SHA-256 (hand_digest and
-- revision_digest stay, for verify) with chain_key NULL; the first keyed
-- hand of a table chains to the last of them. chain_key is the id of the
-- key that made the hash (the first 8 bytes of the key's SHA-256).
--
-- tables.last_hash is the hash of the table's last hand: table state, like
-- hands and state, updated with the compare-and-set on the version that
-- stores the hand, so the service reads it in the snapshot it scores the
-- next hand from. History (hands, revisions) is still never updated.

-- +goose Up
ALTER TABLE hands ADD COLUMN chain_key bytea;
ALTER TABLE hand_revisions ADD COLUMN chain_key bytea;
ALTER TABLE tables ADD COLUMN last_hash bytea;

UPDATE tables t SET last_hash = h.hash
FROM hands h WHERE h.club_id = t.club_id AND h.table_id = t.table_id AND h.number = t.hands;

DROP TRIGGER hands_chain ON hands;
DROP FUNCTION chain_hand();
DROP TRIGGER hand_revisions_chain ON hand_revisions;
DROP FUNCTION chain_revision();

-- Every row written from now on carries a keyed hash; the legacy rows are
-- not checked (NOT VALID), verify checks their SHA-256.
ALTER TABLE hands ADD CONSTRAINT hands_keyed
    CHECK (chain_key IS NOT NULL AND octet_length(chain_key) = 8 AND octet_length(hash) = 32) NOT VALID;
ALTER TABLE hand_revisions ADD CONSTRAINT hand_revisions_keyed
    CHECK (chain_key IS NOT NULL AND octet_length(chain_key) = 8 AND octet_length(hash) = 32) NOT VALID;

-- A club's rows of the trigger era are sealed once, by the first start of
-- serve that has the key (postgres.SealLegacy): how many hands and
-- revisions there are, and an HMAC over their hashes (ledger/chain), so
-- their unkeyed SHA-256 can no longer be recomputed unnoticed, nor a keyed
-- row be passed off as one of them. A seal is history: written once.
CREATE TABLE chain_seals (
    club_id   bigint PRIMARY KEY REFERENCES clubs,
    hands     bigint NOT NULL,
    revisions bigint NOT NULL,
    seal      bytea NOT NULL,
    chain_key bytea NOT NULL,
    sealed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER chain_seals_append_only BEFORE UPDATE OR DELETE ON chain_seals
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE INDEX hands_legacy ON hands (club_id, hand_id) WHERE chain_key IS NULL;
CREATE INDEX hand_revisions_legacy ON hand_revisions (club_id, revision_id) WHERE chain_key IS NULL;

-- +goose Down
DROP INDEX hand_revisions_legacy;
DROP INDEX hands_legacy;
DROP TABLE chain_seals;
ALTER TABLE hand_revisions DROP CONSTRAINT hand_revisions_keyed;
ALTER TABLE hands DROP CONSTRAINT hands_keyed;
-- +goose StatementBegin
CREATE FUNCTION chain_hand() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT p.hash INTO NEW.prev_hash FROM hands p
    WHERE p.club_id = NEW.club_id AND p.table_id = NEW.table_id AND p.number = NEW.number - 1;
    NEW.hash := hand_digest(NEW);
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER hands_chain BEFORE INSERT ON hands
    FOR EACH ROW EXECUTE FUNCTION chain_hand();
-- +goose StatementBegin
CREATE FUNCTION chain_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.revision = 2 THEN
        SELECT h.hash INTO NEW.prev_hash FROM hands h WHERE h.club_id = NEW.club_id AND h.hand_id = NEW.hand_id;
    ELSE
        SELECT p.hash INTO NEW.prev_hash FROM hand_revisions p
        WHERE p.club_id = NEW.club_id AND p.hand_id = NEW.hand_id AND p.revision = NEW.revision - 1;
    END IF;
    NEW.hash := revision_digest(NEW);
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER hand_revisions_chain BEFORE INSERT ON hand_revisions
    FOR EACH ROW EXECUTE FUNCTION chain_revision();
ALTER TABLE tables DROP COLUMN last_hash;
ALTER TABLE hand_revisions DROP COLUMN chain_key;
ALTER TABLE hands DROP COLUMN chain_key;
