#!/usr/bin/env bash
# A throwaway PostgreSQL server for the fleet tests, from Debian's postgresql package, on 127.0.0.1 and a free
# port, its data in a temporary folder:
#   pg_server.sh start STATE_DIR     initdb + pg_ctl start; writes STATE_DIR/conninfo (libpq key=value)
#   pg_server.sh restart STATE_DIR   pg_ctl restart (fast: open connections are cut, as in a real restart)
#   pg_server.sh stop STATE_DIR      pg_ctl stop (immediate) and removes the data
# initdb refuses to run as root, so as root the server runs as the unprivileged user "postgres" (or
# $PROOFLINE_PG_USER) through runuser; as anyone else it runs as that user.
set -euo pipefail

action=${1:?usage: pg_server.sh start|restart|stop STATE_DIR}
state=${2:?usage: pg_server.sh start|restart|stop STATE_DIR}
bindir=${PROOFLINE_PG_BINDIR:-/usr/lib/postgresql/15/bin}

as_server_user() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "${PROOFLINE_PG_USER:-postgres}" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  [[ -x $bindir/initdb && -x $bindir/pg_ctl ]] || { echo "pg_server.sh: no PostgreSQL server in $bindir" >&2; exit 1; }
  stop_quietly
  mkdir -p "$state"
  # The data lives in /tmp, which the server's user can reach whatever the build folder's permissions are.
  local data
  data=$(mktemp -d /tmp/proofline-pg.XXXXXX)
  echo "$data" > "$state/datadir"
  if [[ $(id -u) -eq 0 ]]; then chown "${PROOFLINE_PG_USER:-postgres}" "$data"; fi
  as_server_user "$bindir/initdb" -D "$data/db" -U proofline -A trust --no-sync -E UTF8 > "$state/initdb.log" 2>&1 ||
    { cat "$state/initdb.log" >&2; exit 1; }
  # A German locale the server may speak (lc_messages): the tests check that a refusal is read by its SQLSTATE,
  # not its words. Made here, since the system may have no locale but C; the server finds it through LOCPATH.
  # Without it (no localedef or no locale sources: Debian's locales) the server still starts, for benchmarks;
  # the tests that set lc_messages fail, naming it.
  mkdir -p "$data/locales"
  if localedef -i de_DE -f UTF-8 "$data/locales/de_DE.UTF-8" > "$state/localedef.log" 2>&1; then
    chmod -R a+rX "$data/locales"
  else
    echo "pg_server.sh: no de_DE locale for the server (Debian: locales): $(tail -n 1 "$state/localedef.log")" >&2
  fi
  local port
  port=$(free_port)
  echo "$port" > "$state/port"
  server_start "$data" "$port"
  printf 'host=127.0.0.1 port=%s user=proofline dbname=postgres connect_timeout=5\n' "$port" > "$state/conninfo"
  echo "pg_server.sh: PostgreSQL on 127.0.0.1:$port, data in $data"
}

server_start() {
  as_server_user env LOCPATH="$1/locales" "$bindir/pg_ctl" -D "$1/db" -l "$1/server.log" -w -t 60 \
    -o "-p $2 -c listen_addresses=127.0.0.1 -k $1 -c fsync=off -c synchronous_commit=off -c max_connections=60" \
    start > /dev/null || { cat "$1/server.log" >&2; exit 1; }
}

restart() {
  local data
  data=$(cat "$state/datadir")
  as_server_user "$bindir/pg_ctl" -D "$data/db" -m fast -w -t 60 stop > /dev/null
  server_start "$data" "$(cat "$state/port")"
}

stop_quietly() {
  [[ -f $state/datadir ]] || return 0
  local data
  data=$(cat "$state/datadir")
  as_server_user "$bindir/pg_ctl" -D "$data/db" -m immediate -w stop > /dev/null 2>&1 || true
  rm -rf "$data" "$state/datadir"
}

case $action in
  start) start ;;
  restart) restart ;;
  stop) stop_quietly ;;
  *) echo "pg_server.sh: unknown action $action" >&2; exit 2 ;;
esac
