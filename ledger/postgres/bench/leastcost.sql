-- The least a durable hand costs PostgreSQL, for pgbench: one pipeline,
-- one transaction, committed before it answers: the table's row updated,
-- the hand inserted, its four entries, its four players' totals updated.
-- No keys, no statistics, no feed, no chain: the floor the service's
-- write is measured against (run.sh prints service / this).
-- On a schema of its own in the same cluster (leastcost_setup.sql).
-- Client i writes table 1 + i.

\set tid 1 + :client_id
\startpipeline
UPDATE leastcost.tables SET hands = hands + 1 WHERE table_id = :tid;
INSERT INTO leastcost.hands (table_id, number, facts)
SELECT :tid, hands, '{"re": {"augen": 187, "players": [1, 3], "announced": "keine90"}, "game": "normal"}'
FROM leastcost.tables WHERE table_id = :tid;
INSERT INTO leastcost.entries (hand_id, player, num)
SELECT currval(pg_get_serial_sequence('leastcost.hands', 'hand_id')), e.p, e.n
FROM unnest('{1,2,3,4}'::bigint[], '{16,-16,16,-16}'::bigint[]) AS e(p, n);
UPDATE leastcost.totals t SET num = t.num + e.n
FROM unnest('{1,2,3,4}'::bigint[], '{16,-16,16,-16}'::bigint[]) AS e(p, n)
WHERE t.table_id = :tid AND t.player = e.p;
\endpipeline
