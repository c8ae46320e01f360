-- A table's settings are to change from its next evening on: an evening
-- is played and settled under the settings it opened with. A session keeps them: the resolved rule set its hands are
-- scored under, the stake, the settle-up mode and a lost match's price.
-- Until now a table's settings never changed, so every existing session
-- was played under its table's.

-- +goose Up
ALTER TABLE sessions
    ADD COLUMN rules jsonb,
    ADD COLUMN stake_num bigint,
    ADD COLUMN stake_den bigint CHECK (stake_den > 0),
    ADD COLUMN settle_mode text CHECK (settle_mode IN ('transfers', 'kitty', 'losers_to_kitty')),
    ADD COLUMN match_loss_cents bigint CHECK (match_loss_cents >= 0);
UPDATE sessions s SET rules = t.rules, stake_num = t.stake_num, stake_den = t.stake_den,
    settle_mode = t.settle_mode, match_loss_cents = t.match_loss_cents
FROM tables t WHERE t.club_id = s.club_id AND t.table_id = s.table_id;
ALTER TABLE sessions
    ALTER COLUMN rules SET NOT NULL,
    ALTER COLUMN stake_num SET NOT NULL,
    ALTER COLUMN stake_den SET NOT NULL,
    ALTER COLUMN settle_mode SET NOT NULL,
    ALTER COLUMN match_loss_cents SET NOT NULL;

-- A player who no longer plays stays in the history; retired players are
-- not seated at new evenings.
ALTER TABLE players ADD COLUMN retired boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE players DROP COLUMN retired;
ALTER TABLE sessions DROP COLUMN rules, DROP COLUMN stake_num, DROP COLUMN stake_den,
    DROP COLUMN settle_mode, DROP COLUMN match_loss_cents;
