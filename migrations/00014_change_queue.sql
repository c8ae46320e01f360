-- The change feed without the club's row held through every commit.
--
-- Until now every change took the next number from clubs.change_seq in
-- its own transaction, so the club's row stayed locked until that
-- transaction's durable commit, and the hands of all tables of a club
-- committed one after the other. Now a writer numbers its change in its
-- own transaction only if nothing of the club is queued and the club's
-- numbering lock (a transaction-scoped advisory lock) is free at that
-- moment, as when the club has one writer; otherwise it leaves the change
-- in change_queue, commits without waiting for anyone, and after its
-- commit waits until what is queued is numbered (record_change /
-- number_changes; ledger/postgres/changes.go).
--
-- The feed stays gap-free in commit order: a change gets its number only
-- from a holder of the numbering lock, only once it is committed (a
-- numberer sees committed queue rows only), and numbers are taken from
-- clubs.change_seq under that lock, so a reader that has seen number n
-- never later sees a change numbered n or less appear. The queue is not
-- history: a queued row is moved into changes, which stays append-only.

-- +goose Up
CREATE TABLE change_queue (
    club_id    bigint NOT NULL, -- checked where the change lands: changes references clubs
    queue_id   bigint GENERATED ALWAYS AS IDENTITY,
    kind       text NOT NULL,
    table_id   bigint,
    session_id bigint,
    number     integer,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, queue_id)
);

-- number_queued_changes moves the club's committed queued changes into the
-- feed, numbered in queue order after clubs.change_seq, and returns the
-- club's new head (NULL when nothing was queued). Its caller holds the
-- club's numbering lock.
-- +goose StatementBegin
CREATE FUNCTION number_queued_changes(club bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    head bigint;
BEGIN
    WITH q AS (
        DELETE FROM change_queue WHERE club_id = club RETURNING *
    ), n AS (
        INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data, created_at)
        SELECT club, c.change_seq + row_number() OVER (ORDER BY q.queue_id), q.kind, q.table_id, q.session_id, q.number, q.data, q.created_at
        FROM q, clubs c WHERE c.club_id = club
        RETURNING seq
    )
    SELECT max(seq) INTO head FROM n;
    IF head IS NOT NULL THEN
        UPDATE clubs SET change_seq = head WHERE club_id = club;
        PERFORM pg_notify('stichbuch_changes', club::text || ':' || head::text);
    END IF;
    RETURN head;
END
$$;
-- +goose StatementEnd

-- change_lock_key is the club's numbering lock, as the two keys of an
-- advisory lock (a space of its own, apart from the Idempotency-Keys').
-- +goose StatementBegin
CREATE FUNCTION change_lock_key(club bigint) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT (club % 2147483647)::integer
$$;
-- +goose StatementEnd

-- record_change appends a change to the club's feed from a writer's
-- transaction: numbered at once when nothing of the club is queued and
-- the club's numbering lock is free (a club with one writer at a time),
-- and then returns its number; otherwise queued, and returns 0: the
-- writer calls number_changes after its commit. Under concurrent writers
-- the changes go through the queue, numbered in batches, and no writer's
-- transaction holds the numbering lock through its commit.
-- +goose StatementBegin
CREATE FUNCTION record_change(club bigint, kind text, tbl bigint, sess bigint, num integer, d jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    seq bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM change_queue q WHERE q.club_id = club)
       OR NOT pg_try_advisory_xact_lock(1937007716, change_lock_key(club)) THEN
        INSERT INTO change_queue (club_id, kind, table_id, session_id, number, data) VALUES (club, kind, tbl, sess, num, d);
        RETURN 0;
    END IF;
    UPDATE clubs SET change_seq = change_seq + 1 WHERE club_id = club RETURNING change_seq INTO seq;
    INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data) VALUES (club, seq, kind, tbl, sess, num, d);
    PERFORM pg_notify('stichbuch_changes', club::text || ':' || seq::text);
    RETURN seq;
END
$$;
-- +goose StatementEnd

-- number_changes numbers the club's committed queued changes under the
-- club's numbering lock, waiting for it, and returns the club's head. Run
-- in a transaction of its own, after the writer's commit.
-- +goose StatementBegin
CREATE FUNCTION number_changes(club bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1937007716, change_lock_key(club));
    RETURN coalesce(number_queued_changes(club), (SELECT change_seq FROM clubs WHERE club_id = club));
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION number_changes(bigint);
DROP FUNCTION record_change(bigint, text, bigint, bigint, integer, jsonb);
DROP FUNCTION change_lock_key(bigint);
DROP FUNCTION number_queued_changes(bigint);
DROP TABLE change_queue;
