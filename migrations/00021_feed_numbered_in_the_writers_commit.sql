-- The change feed numbered in the writer's own transaction again, with
-- neither a queue nor a counter row.
--
-- Since 00014 a writer numbered its change in its own transaction only
-- when nothing of the club was queued and the club's numbering lock was
-- free; otherwise it queued the change, committed, and waited for a second
-- transaction (with its own durable commit) to number it. Measured through
-- the service at 8 tables of a club, that second transaction, the
-- counter row every change updated (clubs.change_seq) and the NOTIFY every
-- numbering committed cost a third of the hands per second
-- (ledger/postgres/bench/README.md, "The change feed in the writer's
-- commit").
--
-- Now every change is numbered where it is written: record_change waits for
-- the club's numbering lock (a transaction-scoped advisory lock), takes
-- the number after the club's highest, and the lock is held until the
-- writer's commit is visible. The store records a transaction's changes as
-- its last statements, so the lock is held only through the commit itself
-- and a writer that holds it waits for nothing else. The feed stays
-- gap-free in the order changes become visible: a number is taken only
-- under the lock, after every change numbered before it is committed and
-- visible; a writer that rolls back frees its number for the next. A hand
-- and its change commit together: the feed never lags the ledger.
--
-- The club's head is its highest number in the feed (the primary key's
-- last entry), so clubs.change_seq goes. The NOTIFY is sent by the service
-- after the commit (ledger/postgres/notify.go), outside the lock.

-- +goose Up
-- Number whatever a writer queued and could not number itself.
SELECT number_changes(club_id) FROM (SELECT DISTINCT club_id FROM change_queue) q;

DROP FUNCTION number_changes(bigint);
DROP FUNCTION number_queued_changes(bigint);
DROP FUNCTION record_change(bigint, text, bigint, bigint, integer, jsonb);
DROP TABLE change_queue;
ALTER TABLE clubs DROP COLUMN change_seq;

-- record_change appends a change to the club's feed, numbered after the
-- club's highest, and returns its number. It waits for the club's
-- numbering lock, which its transaction holds until it ends: call it last,
-- right before the commit.
-- +goose StatementBegin
CREATE FUNCTION record_change(club bigint, kind text, tbl bigint, sess bigint, num integer, d jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    seq bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(1937007716, change_lock_key(club));
    SELECT coalesce(max(c.seq), 0) + 1 INTO seq FROM changes c WHERE c.club_id = club;
    INSERT INTO changes (club_id, seq, kind, table_id, session_id, number, data) VALUES (club, seq, kind, tbl, sess, num, d);
    RETURN seq;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION record_change(bigint, text, bigint, bigint, integer, jsonb);
ALTER TABLE clubs ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;
UPDATE clubs c SET change_seq = coalesce((SELECT max(x.seq) FROM changes x WHERE x.club_id = c.club_id), 0);

-- As 00014 made them.
CREATE TABLE change_queue (
    club_id    bigint NOT NULL,
    queue_id   bigint GENERATED ALWAYS AS IDENTITY,
    kind       text NOT NULL,
    table_id   bigint,
    session_id bigint,
    number     integer,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, queue_id)
);

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

-- +goose StatementBegin
CREATE FUNCTION number_changes(club bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1937007716, change_lock_key(club));
    RETURN coalesce(number_queued_changes(club), (SELECT change_seq FROM clubs WHERE club_id = club));
END
$$;
-- +goose StatementEnd
