-- A hand's rule set is its session's: a session's rules are fixed when it
-- opens and never change, so a hand stores none of its own (NULL) and is
-- read with its session's (coalesce(h.rules, s.rules)); about 200 bytes
-- less per hand. Hands stored before keep the rule set they were stored
-- with (the sessions of the time before 00010_session_terms took theirs
-- from the table later). The chain's HMAC still covers the rule set the
-- hand was scored with, so a session's rules changed behind the service's
-- back break every keyed hand of it in verify.

-- +goose Up
ALTER TABLE hands ALTER COLUMN rules DROP NOT NULL;

-- +goose Down
-- The rule set is written back into the hands that took their session's
-- (the schema's own step, as 00003_tamper_evidence's; no history changes:
-- the value is the one these hands were read with).
ALTER TABLE hands DISABLE TRIGGER hands_append_only;
UPDATE hands h SET rules = s.rules FROM sessions s
WHERE h.rules IS NULL AND s.club_id = h.club_id AND s.session_id = h.session_id;
ALTER TABLE hands ENABLE TRIGGER hands_append_only;
ALTER TABLE hands ALTER COLUMN rules SET NOT NULL;
