-- Tamper evidence: every hand carries a SHA-256 over its canonical content
-- and the previous hand's hash of its table, computed by the database as
-- the row is inserted, so `stichbuch verify` can recompute the chain. And an
-- exact rational sum aggregate, so totals can be checked in SQL.

-- +goose Up
ALTER TABLE hands ADD COLUMN prev_hash bytea, ADD COLUMN hash bytea;

-- hand_digest is the hash of one hand: its canonical content (jsonb's own
-- text form, which is deterministic) chained to the previous hand's hash.
-- +goose StatementBegin
CREATE FUNCTION hand_digest(h hands) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT sha256(convert_to(concat_ws(E'\n',
        h.club_id, h.table_id, h.session_id, h.number, h.game,
        h.rules::text, h.facts::text, h.result::text, h.state_after::text,
        h.recorded_by, to_char(h.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        encode(coalesce(h.prev_hash, ''::bytea), 'hex')), 'UTF8'))
$$;
-- +goose StatementEnd

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

-- Chain the hands recorded before this migration, table by table in order.
-- This is the one time history is written to, by the schema itself.
ALTER TABLE hands DISABLE TRIGGER hands_append_only;
-- +goose StatementBegin
DO $$
DECLARE
    h hands;
    prev bytea;
BEGIN
    FOR h IN SELECT * FROM hands ORDER BY club_id, table_id, number LOOP
        SELECT p.hash INTO prev FROM hands p
        WHERE p.club_id = h.club_id AND p.table_id = h.table_id AND p.number = h.number - 1;
        h.prev_hash := prev;
        UPDATE hands SET prev_hash = prev, hash = hand_digest(h)
        WHERE club_id = h.club_id AND hand_id = h.hand_id;
    END LOOP;
END
$$;
-- +goose StatementEnd
ALTER TABLE hands ENABLE TRIGGER hands_append_only;

-- rat_sum(num, den) is the exact sum of rationals as {num, den} in lowest terms.
-- +goose StatementBegin
CREATE FUNCTION rat_acc(acc bigint[], num bigint, den bigint) RETURNS bigint[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT ARRAY[r.num, r.den] FROM rat_add(acc[1], acc[2], num, den) r
$$;
-- +goose StatementEnd

CREATE AGGREGATE rat_sum(bigint, bigint) (
    SFUNC = rat_acc,
    STYPE = bigint[],
    INITCOND = '{0,1}'
);

-- +goose Down
DROP AGGREGATE rat_sum(bigint, bigint);
DROP FUNCTION rat_acc(bigint[], bigint, bigint);
DROP TRIGGER hands_chain ON hands;
DROP FUNCTION chain_hand();
DROP FUNCTION hand_digest(hands);
ALTER TABLE hands DROP COLUMN prev_hash, DROP COLUMN hash;
