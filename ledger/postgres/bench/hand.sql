-- One hand write of stichbuch, statement for statement, for pgbench: the
-- API's key lookup (api/auth.go, Service.Authenticate), RecordHand's read
-- of the table, the session and the Idempotency-Key (Store.HandSnapshot,
-- one pipeline, no lock), and its write (Store.AppendHand): one pipeline,
-- which PostgreSQL runs as one transaction and commits before it answers:
-- the compare-and-set on the table's version, the hand (its texts packed,
-- its entries in its row) with its session's listing among the evenings
-- read live and its Idempotency-Key in one statement, both running totals
-- through rat_add, and the change (last; numbered after the commit when
-- queued). The same tables, indexes,
-- triggers and foreign keys; what the Go service adds on top is HTTP,
-- JSON, validation and scoring.
--
-- Client i records the next hand of table table0 + i (session session0 + i,
-- players player0 + 4i .. player0 + 4i + 3), which `stichbuch-bench load` set up;
-- run it through ledger/postgres/bench/run.sh, or by hand:
--   pgbench -n -M prepared -c 8 -j 2 -T 20 -f hand.sql -D club=1 -D key=1 \
--     -D table0=1 -D session0=1 -D player0=1 "$DATABASE_URL"
-- The facts, result and state are a real Doppelkopf hand (keine 90
-- announced, in a Bock game: 16 points each), packed in its body as the
-- service stores it (ledger/postgres/handpack; 1,670 bytes of JSON in 406);
-- the table's state is the same as JSON. The
-- hand's hash is the HMAC the service computes in Go (ledger/chain) from
-- the table's chain head it read; here a fixed 32 bytes stand for it, and
-- the chain head moves to it with the compare-and-set, as the service's does.

\set tid :table0 + :client_id
\set sid :session0 + :client_id
\set p1 :player0 + 4 * :client_id
\set p2 :p1 + 1
\set p3 :p1 + 2
\set p4 :p1 + 3
\set idem random(1, 9000000000000000000)

SELECT role, secret_hash FROM api_keys
WHERE club_id = :club AND key_id = :key AND revoked_at IS NULL;

-- The read the hand is decided from: the table (with its version), the
-- session and the Idempotency-Key, in one round trip and without a lock
-- (the service sends three statements in one pipeline; pgbench allows no
-- \gset inside a pipeline, so here they are one statement).
SELECT t.game, t.rules, t.hands, t.version, coalesce(encode(t.last_hash, 'hex'), '') AS last_hash,
       (SELECT s.closed_at IS NULL FROM sessions s WHERE s.club_id = t.club_id AND s.session_id = :sid) AS open,
       ARRAY(SELECT player_id FROM session_players sp WHERE sp.club_id = t.club_id AND sp.session_id = :sid ORDER BY seat) AS seating,
       EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.club_id = t.club_id AND k.key = 'load-pgbench-' || :idem::text) AS known
FROM tables t WHERE t.club_id = :club AND t.table_id = :tid \gset t_

-- The write: one pipeline, one transaction.
\set number :t_hands + 1
\startpipeline
WITH t AS (
    UPDATE tables SET hands = :number, state = '{"games": 196, "solos": {"3": 15, "4": 15}, "session": 1, "summary": "next dealer: player 1; 1 Bock game left, 0 rounds queued; solos this session: player 3: 15, player 4: 15", "next_dealer": 1, "next_players": [1, 2, 3, 4], "bock_games_left": 1, "next_sitting_out": [], "bock_rounds_queued": 0}', version = version + 1,
                      last_hash = '\x5d41402abc4b2a76b9719d911017c592a1b2c3d4e5f60718293a4b5c6d7e8f90'::bytea
    WHERE club_id = :club AND table_id = :tid AND version = :t_version AND last_hash IS NOT DISTINCT FROM decode(nullif(:t_last_hash, ''), 'hex')
    RETURNING 1
)
SELECT stichbuch_expect(EXISTS (SELECT 1 FROM t), 'the table');
WITH h AS (
    INSERT INTO hands (club_id, table_id, session_id, number, game, rules, body, recorded_by,
                       recorded_at, prev_hash, hash, chain_key, entry_players, entry_nums, entry_dens)
    VALUES (:club, :tid, :sid, :number, :t_game, NULL, '\x28b52ffd63010142538905450c00628a212090b16dffff790ad6ec08bd411b31415144ecbf5050a849ca4cf28c7c9abc7e4e9f9a1e7c7b952ecee6bb385b27641450c2a779600a32532e94784d3e006549ce6c0945cfd95fdcd47517376d65497cd7cbce5719d6f5321bde8662ec7e396aaf7620ebdebbbb5b2d0a44bcb732e23e337e051ea828252c0602fe3525cf61dec2f5f281444269a0d0b0c2a00405007042292360371860d838ac36c5c022c2aa482f17b1d3686d6fdc47c1d4e6144a129789ab331922c536664d26168f11b7f4f07573d36546be69db1529d2aa3e45398ce77307c5e0f6af91575dd7d81dbc377e8218f86e1ba25e8f94072e38530608e5222eb8ad299ec22f0b943e66b902e58b77983f71675f5f3a1d650c7544bccc8f7a0c1f516cff19a223e3ecec02999b24687fd0742f5d1cfe207342698f2f380e6e64d21766245e76130386d5c439f91f2c3dd58e0ec4d6e0c028458a4432a7804fc027925eac645a2b931813153804ef9635b64fc50ea6fb644b68909f200b25486288aeb763cbe0524592c596d7b904af338602'::bytea, :key,
            now(), decode(nullif(:t_last_hash, ''), 'hex'), '\x5d41402abc4b2a76b9719d911017c592a1b2c3d4e5f60718293a4b5c6d7e8f90'::bytea, '\x0123456789abcdef'::bytea,
            ARRAY[:p1, :p2, :p3, :p4]::bigint[], '{16,-16,16,-16}'::bigint[], '{1,1,1,1}'::bigint[])
    RETURNING hand_id
), o AS (
    INSERT INTO stat_open (club_id, session_id, table_id, game, date)
    VALUES (:club, :sid, :tid, :t_game, current_date)
    ON CONFLICT DO NOTHING
), k AS (
    INSERT INTO idempotency_keys (club_id, key, request_hash, kind, ref_id)
    SELECT :club, 'load-pgbench-' || :idem::text, '\x5d41402abc4b2a76b9719d911017c592a1b2c3d4e5f60718293a4b5c6d7e8f90'::bytea, 'hand', h.hand_id FROM h
)
SELECT hand_id FROM h;
INSERT INTO table_totals AS t (club_id, table_id, player_id, num, den, hands)
SELECT :club, :tid, e.player, e.num, e.den, 1
FROM unnest(ARRAY[:p1, :p2, :p3, :p4]::bigint[], '{16,-16,16,-16}'::bigint[], '{1,1,1,1}'::bigint[]) AS e(player, num, den)
ON CONFLICT (club_id, table_id, player_id) DO UPDATE
SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
    hands = t.hands + 1;
INSERT INTO session_totals AS t (club_id, session_id, player_id, num, den, hands)
SELECT :club, :sid, e.player, e.num, e.den, 1
FROM unnest(ARRAY[:p1, :p2, :p3, :p4]::bigint[], '{16,-16,16,-16}'::bigint[], '{1,1,1,1}'::bigint[]) AS e(player, num, den)
ON CONFLICT (club_id, session_id, player_id) DO UPDATE
SET (num, den) = (SELECT r.num, r.den FROM rat_add(t.num, t.den, excluded.num, excluded.den) r),
    hands = t.hands + 1;
SELECT record_change(:club, 'hand_recorded', :tid, :sid, :number, '{"revision": 1}');
\endpipeline
-- A change another writer's numbering lock made record_change queue is
-- numbered after the commit. The service does this when its own change
-- was queued; pgbench allows no \gset inside a pipeline, so here it is
-- whenever the club has a queued change.
SELECT number_changes(:club) FROM clubs WHERE club_id = :club AND EXISTS (SELECT 1 FROM change_queue q WHERE q.club_id = :club);
