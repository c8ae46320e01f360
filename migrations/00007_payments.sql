-- Payments are facts, settlements are versions. A transfer marked paid
-- stays paid whatever a later settlement version says; a new version's
-- transfers settle what is still open once those payments are counted
-- (ledger/money.go). The kitty's cash is its paid transfers and its manual
-- bookings: settlements no longer book into kitty_bookings (the rows of
-- kind 'settlement' written before this migration are kept for the audit
-- trail, and counted nowhere). The club's open debts and a player's
-- balance are read by player.

-- +goose Up
CREATE INDEX transfers_from_player ON transfers (club_id, from_player) WHERE from_player IS NOT NULL;
CREATE INDEX transfers_to_player ON transfers (club_id, to_player) WHERE to_player IS NOT NULL;
COMMENT ON TABLE kitty_bookings IS 'The treasurer''s manual bookings of the kitty (kind manual). Rows of kind settlement come from before migration 7 and are not cash.';

-- +goose Down
DROP INDEX transfers_from_player, transfers_to_player;
COMMENT ON TABLE kitty_bookings IS NULL;
