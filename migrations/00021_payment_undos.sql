-- A payment marked by mistake is undone by a new fact, never by deleting
-- it: payment_undos names the payment (its transfer and its sequence
-- number) and who undid it when. A transfer may be paid again after an
-- undo, as the next payment of the same transfer (seq 2, 3, …). What
-- stands is standing_payments: the payments not undone, at most one per
-- transfer (the ledger pays a transfer only while none stands, under the
-- table's lock). Every reader of what was paid reads standing_payments.

-- +goose Up
ALTER TABLE transfer_payments ADD COLUMN seq integer NOT NULL DEFAULT 1 CHECK (seq >= 1);
ALTER TABLE transfer_payments DROP CONSTRAINT transfer_payments_pkey;
ALTER TABLE transfer_payments ADD PRIMARY KEY (club_id, transfer_id, seq);

CREATE TABLE payment_undos (
    club_id     bigint NOT NULL,
    transfer_id bigint NOT NULL,
    seq         integer NOT NULL,
    undone_at   timestamptz NOT NULL DEFAULT now(),
    recorded_by bigint NOT NULL,
    PRIMARY KEY (club_id, transfer_id, seq),
    FOREIGN KEY (club_id, transfer_id, seq) REFERENCES transfer_payments,
    FOREIGN KEY (club_id, recorded_by) REFERENCES api_keys
);
CREATE TRIGGER payment_undos_append_only BEFORE UPDATE OR DELETE ON payment_undos
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

CREATE VIEW standing_payments AS
    SELECT p.club_id, p.transfer_id, p.seq, p.paid_at, p.recorded_by
    FROM transfer_payments p
    WHERE NOT EXISTS (SELECT 1 FROM payment_undos u
                      WHERE u.club_id = p.club_id AND u.transfer_id = p.transfer_id AND u.seq = p.seq);

-- +goose Down
DROP VIEW standing_payments;
DROP TABLE payment_undos;
ALTER TABLE transfer_payments DROP CONSTRAINT transfer_payments_pkey;
ALTER TABLE transfer_payments ADD PRIMARY KEY (club_id, transfer_id);
ALTER TABLE transfer_payments DROP COLUMN seq;
