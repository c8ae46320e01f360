-- A hand is written in one round trip: the service reads the table (its
-- version, hand count and state) without a lock, scores the hand, and
-- sends one pipeline whose first statement is a compare-and-set on the
-- table's version. Every write that changes what the next hand is scored
-- from (a hand, a correction, opening or closing a session) bumps the
-- version, so a writer that read an older one fails in that statement and
-- nothing of its pipeline is stored; it reads again (a phone that lost the
-- race then gets its 409). A loser waits at most for the winner's commit,
-- instead of queueing on the row lock for a whole read-score-write turn.

-- +goose Up
ALTER TABLE tables ADD COLUMN version bigint NOT NULL DEFAULT 0;

-- stichbuch_expect raises serialization_failure (40001, "try again") when
-- ok is false: the compare-and-set found the table changed.
-- +goose StatementBegin
CREATE FUNCTION stichbuch_expect(ok boolean, what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT ok THEN
        RAISE EXCEPTION 'stichbuch: % changed since it was read', what USING ERRCODE = 'serialization_failure';
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION stichbuch_expect(boolean, text);
ALTER TABLE tables DROP COLUMN version;
