#!/bin/sh
# The hand write through the service and in PostgreSQL alone, on a fresh
# embedded cluster: `stichbuch-bench load` with 8 tables, then pgbench with 8
# clients running ledger/postgres/bench/hand.sql on the same tables of the
# same database for as long; prints both and the ratio. Extra arguments go
# to the load tool (--tables 32, --duration 30s, --json …). Beside each
# measured line of 1 and 8 tables, pgbench also runs leastcost.sql (the
# least a durable hand costs, on a schema of its own) with as many clients
# for as long, and the tool prints service / least cost.
#   ledger/postgres/bench/run.sh        # the ratio at 8 tables
#   ledger/postgres/bench/run.sh all    # the README's figures: 1, 8 (+ pgbench), 32, 128 tables, a hot table of 16
set -eu
cd "$(dirname "$0")/../../.."
dir=$(mktemp -d "${TMPDIR:-/tmp}/stichbuch-bench-XXXXXX")
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir" # as root the cluster runs as the postgres user, who must reach it
# Both commands side by side: load --start runs the stichbuch beside it.
go build -o "$dir/" ./cmd/stichbuch ./cmd/stichbuch-bench
load() { env -u DATABASE_URL "$dir/stichbuch-bench" load --start --data "$dir/data" "$@"; }
# A brand-new database first: a service whose connections planned their
# statements against empty tables keeps those plans (sequential scans for
# the foreign-key checks on hands, the hash chain's lookup) until
# autovacuum's first ANALYZE, a minute or more later. Five seconds of hands,
# not measured, give the measured runs a database in its steady state.
echo "run.sh: priming the new database (not measured)"
load --tables 8 --duration 5s --warmup 0 >/dev/null
if [ "${1:-}" = all ]; then
  shift
  for n in 1 8 32 128; do
    if [ "$n" = 1 ]; then
      load --tables 1 --duration 20s --leastcost ledger/postgres/bench/leastcost.sql "$@"
    elif [ "$n" = 8 ]; then
      load --tables 8 --duration 20s --pgbench ledger/postgres/bench/hand.sql --leastcost ledger/postgres/bench/leastcost.sql "$@"
    else
      load --tables "$n" --duration 20s "$@"
    fi
  done
  load --tables 16 --hot --duration 20s "$@"
else
  load --tables 8 --duration 20s --pgbench ledger/postgres/bench/hand.sql --leastcost ledger/postgres/bench/leastcost.sql "$@"
fi
