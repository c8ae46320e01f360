-- A guest plays and pays like a member but is not ranked among the
-- club's players (the leaderboard leaves him out); a member may be
-- marked a guest and back.

-- +goose Up
ALTER TABLE players ADD COLUMN guest boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE players DROP COLUMN guest;
