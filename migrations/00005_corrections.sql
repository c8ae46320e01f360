-- Corrections and the change feed. A wrong hand is never edited: a
-- correction appends a revision of it (and of every later hand whose score
-- changed), with entries carrying the difference. Every change of a club is
-- numbered by a per-club counter taken inside the writing transaction, so
-- the feed has no gaps and follows commit order.

-- +goose Up
CREATE TABLE hand_revisions (
    club_id     bigint NOT NULL,
    revision_id bigint GENERATED ALWAYS AS IDENTITY,
    hand_id     bigint NOT NULL,
    table_id    bigint NOT NULL,
    number      integer NOT NULL,
    revision    integer NOT NULL CHECK (revision >= 2), -- the hand itself is revision 1
    facts       jsonb NOT NULL,
    result      jsonb NOT NULL,
    state_after jsonb NOT NULL,
    void        boolean NOT NULL DEFAULT false,
    reason      text NOT NULL,
    caused_by   integer NOT NULL, -- the number of the hand whose correction made this revision
    recorded_by bigint NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    prev_hash   bytea,
    hash        bytea,
    PRIMARY KEY (club_id, revision_id),
    UNIQUE (club_id, hand_id, revision),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands,
    FOREIGN KEY (club_id, recorded_by) REFERENCES api_keys
);

-- Which revision an entry belongs to: 1 for the hand's own entries, n for
-- the differences a correction appended.
ALTER TABLE entries ADD COLUMN revision integer NOT NULL DEFAULT 1;

-- +goose StatementBegin
CREATE FUNCTION revision_digest(r hand_revisions) RETURNS bytea LANGUAGE sql STABLE AS $$
    SELECT sha256(convert_to(concat_ws(E'\n',
        r.club_id, r.hand_id, r.revision, r.facts::text, r.result::text, r.state_after::text,
        r.void, r.reason, r.caused_by, r.recorded_by,
        to_char(r.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        encode(coalesce(r.prev_hash, ''::bytea), 'hex')), 'UTF8'))
$$;
-- +goose StatementEnd

-- A revision chains to the previous revision of its hand (or the hand).
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
CREATE TRIGGER hand_revisions_append_only BEFORE UPDATE OR DELETE ON hand_revisions
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER hand_revisions_no_truncate BEFORE TRUNCATE ON hand_revisions
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- The change feed.
ALTER TABLE clubs ADD COLUMN change_seq bigint NOT NULL DEFAULT 0;

CREATE TABLE changes (
    club_id    bigint NOT NULL REFERENCES clubs,
    seq        bigint NOT NULL,
    kind       text NOT NULL,
    table_id   bigint,
    session_id bigint,
    number     integer, -- the hand's number, for hand changes
    data       jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, seq)
);
CREATE INDEX changes_by_table ON changes (club_id, table_id, seq);

CREATE TRIGGER changes_append_only BEFORE UPDATE OR DELETE ON changes
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- +goose Down
DROP TABLE changes;
ALTER TABLE clubs DROP COLUMN change_seq;
DROP FUNCTION revision_digest(hand_revisions);
DROP TABLE hand_revisions;
DROP FUNCTION chain_revision();
ALTER TABLE entries DROP COLUMN revision;
