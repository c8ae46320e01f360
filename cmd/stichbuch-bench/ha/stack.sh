#!/usr/bin/env bash
# stack.sh starts or stops stichbuch's highly available PostgreSQL on one
# machine: etcd, three Patroni nodes (PostgreSQL 15, synchronous
# replication) and HAProxy, all on loopback, each node in its own data
# directory below DIR. Debian's packages: patroni, python3-etcd,
# etcd-server, haproxy, postgresql-15.
#
#   stack.sh start DIR    starts everything and waits for a primary and a
#                         synchronous standby (prints DATABASE_URL)
#   stack.sh stop DIR     stops everything started from DIR
#   stack.sh status DIR   patronictl list
#
# Write port 127.0.0.1:15000 (primary), read port 127.0.0.1:15001
# (replicas). As root the nodes run as the postgres user (PostgreSQL
# refuses root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cmd="${1:-}"; dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: stack.sh start|stop|status DIR" >&2; exit 2; }
mkdir -p "$dir"; dir="$(cd "$dir" && pwd)"

as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups --)
fi

start_bg() { # name, command...: starts a daemon in its own session, logs and pid under DIR
  local name="$1"; shift
  setsid "$@" >"$dir/$name.log" 2>&1 < /dev/null &
  echo $! >"$dir/$name.pid"
}

stop_pid() { # name: SIGTERM, then SIGKILL after 10 s
  local f="$dir/$1.pid"
  [ -f "$f" ] || return 0
  local pid; pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

patronictl_() { patronictl -c "$here/patroni-1.yml" "$@"; }

case "$cmd" in
start)
  for bin in etcd patroni patronictl haproxy; do
    command -v "$bin" >/dev/null || { echo "stack.sh: $bin is missing (apt-get install patroni python3-etcd etcd-server haproxy)" >&2; exit 3; }
  done
  mkdir -p "$dir/etcd"
  start_bg etcd etcd --name etcd1 --data-dir "$dir/etcd" \
    --listen-client-urls http://127.0.0.1:12379 --advertise-client-urls http://127.0.0.1:12379 \
    --listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 \
    --initial-cluster etcd1=http://127.0.0.1:12380 --initial-cluster-state new
  for _ in $(seq 100); do
    ETCDCTL_API=3 etcdctl --endpoints=127.0.0.1:12379 endpoint health >/dev/null 2>&1 && break; sleep 0.2
  done
  for n in 1 2 3; do
    mkdir -p "$dir/pg$n"; chmod 700 "$dir/pg$n"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir/pg$n"
    start_bg "patroni$n" "${as_pg[@]}" env HOME="$dir/pg$n" PATRONI_POSTGRESQL_DATA_DIR="$dir/pg$n/data" \
      PATRONI_POSTGRESQL_PGPASS="$dir/pg$n/pgpass" patroni "$here/patroni-$n.yml"
    # The first node bootstraps alone; the others clone it.
    if [ "$n" -eq 1 ]; then
      for _ in $(seq 300); do
        curl -fs -o /dev/null http://127.0.0.1:18008/primary && break
        kill -0 "$(cat "$dir/patroni1.pid")" 2>/dev/null || { echo "stack.sh: patroni pg1 ended; see $dir/patroni1.log" >&2; exit 1; }
        sleep 0.2
      done
    fi
  done
  start_bg haproxy haproxy -db -f "$here/haproxy.cfg"
  # Ready: a primary behind the write port and a synchronous standby.
  for _ in $(seq 600); do
    if patronictl_ list -f json 2>/dev/null | grep -q '"Role": "Sync Standby"' && \
       [ "$(patronictl_ list -f json 2>/dev/null | grep -o '"State": "\(running\|streaming\)"' | wc -l)" -eq 3 ]; then
      echo "DATABASE_URL=postgres://postgres:stichbuch@127.0.0.1:15000/postgres?sslmode=disable"
      echo "STICHBUCH_READ_DATABASE_URL=postgres://postgres:stichbuch@127.0.0.1:15001/postgres?sslmode=disable"
      exit 0
    fi
    sleep 0.2
  done
  echo "stack.sh: no primary with a synchronous standby after 120 s; see $dir/*.log" >&2
  patronictl_ list >&2 || true
  exit 1
  ;;
stop)
  stop_pid haproxy
  for n in 3 2 1; do stop_pid "patroni$n"; done
  # A postmaster that outlived its Patroni (kill -9 of Patroni) stops too.
  for n in 1 2 3; do
    if [ -f "$dir/pg$n/data/postmaster.pid" ]; then
      pid="$(head -1 "$dir/pg$n/data/postmaster.pid")"
      kill -QUIT "$pid" 2>/dev/null || true
    fi
  done
  stop_pid etcd
  ;;
status)
  patronictl_ list
  ;;
*)
  echo "usage: stack.sh start|stop|status DIR" >&2; exit 2
  ;;
esac
