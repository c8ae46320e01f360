#!/bin/sh
# The hand write through the service and in PostgreSQL alone, on a fresh
# embedded cluster: `stichbuch-bench load` with 8 tables, then pgbench with 8
# clients running ledger/postgres/bench/hand.sql on the same tables of the
# same database for as long; prints both and the ratio. Extra arguments go
# to the load tool (--tables 32, --duration 30s, --json …). Beside each
# measured line of 1 and 8 tables and of 100 clubs × 4 tables, pgbench also
# runs leastcost.sql (the least a durable hand costs, on a schema of its
# own) with as many clients for as long, and the tool prints service /
# least cost.
#   ledger/postgres/bench/run.sh        # the ratio at 8 tables
#   ledger/postgres/bench/run.sh all    # the README's figures: 1, 8 (+ pgbench), 32, 128 tables,
#                                       # 100 clubs × 4 tables, a hot table of 16
# With BEFORE=<commit> every line runs twice, alternating, the first time
# with that commit's service (built from a temporary worktree) and the
# second with the working tree's, each on a fresh cluster: a before/after
# pair measured in one run, by the same load tool.
set -eu
cd "$(dirname "$0")/../../.."
dir=$(mktemp -d "${TMPDIR:-/tmp}/stichbuch-bench-XXXXXX")
cleanup() {
  [ -n "${BEFORE:-}" ] && git worktree remove --force "$dir/before-src" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
chmod 755 "$dir" # as root the cluster runs as the postgres user, who must reach it
go build -o "$dir/" ./cmd/stichbuch ./cmd/stichbuch-bench
variants="now"
if [ -n "${BEFORE:-}" ]; then
  git worktree add --detach "$dir/before-src" "$BEFORE" >/dev/null 2>&1
  mkdir "$dir/before"
  (cd "$dir/before-src" && go build -o "$dir/before/" ./cmd/stichbuch)
  variants="before now"
fi
# measure VARIANT ARGS: one line on a brand-new database. A service whose
# connections planned their statements against empty tables keeps those
# plans (sequential scans for the foreign-key checks on hands, the hash
# chain's lookup) until autovacuum's first ANALYZE, a minute or more later:
# five seconds of hands, not measured, give the measured run a database in
# its steady state.
measure() {
  v=$1
  shift
  bin="$dir/stichbuch"
  [ "$v" = before ] && bin="$dir/before/stichbuch"
  rm -rf "$dir/data"
  echo "run.sh: service $v ($bin)"
  env -u DATABASE_URL "$dir/stichbuch-bench" load --start --bin "$bin" --data "$dir/data" --tables 8 --duration 5s --warmup 0 >/dev/null
  env -u DATABASE_URL "$dir/stichbuch-bench" load --start --bin "$bin" --data "$dir/data" "$@"
}
line() {
  for v in $variants; do
    measure "$v" "$@"
  done
}
lc=ledger/postgres/bench/leastcost.sql
if [ "${1:-}" = all ]; then
  shift
  line --tables 1 --duration 20s --leastcost $lc "$@"
  line --tables 8 --duration 20s --pgbench ledger/postgres/bench/hand.sql --leastcost $lc "$@"
  line --tables 32 --duration 20s "$@"
  line --tables 128 --duration 20s "$@"
  line --tables 400 --clubs 100 --duration 20s --leastcost $lc "$@"
  line --tables 16 --hot --duration 20s "$@"
else
  line --tables 8 --duration 20s --pgbench ledger/postgres/bench/hand.sql --leastcost $lc "$@"
fi
