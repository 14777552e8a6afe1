#!/bin/bash
# A throwaway PostgreSQL cluster on loopback, for tests and benchmarks:
#   Scripts/postgres-cluster.sh start DIR [fsync on|off]   creates DIR (initdb) if needed, starts
#                                                          the server, prints its URL
#   Scripts/postgres-cluster.sh stop DIR                   stops it (fast: sessions are cut)
#   Scripts/postgres-cluster.sh crash DIR                  stops it as a crash would (immediate:
#                                                          no transaction ends, `start` recovers)
#   Scripts/postgres-cluster.sh destroy DIR                stops it and removes DIR
# A restart is `stop` then `start`: the same port (kept in DIR/port) and the same data.
# PostgreSQL refuses to run as root, so as root the binaries run as the user `postgres`
# (Debian's package creates it) through setpriv, and DIR is given to that user. The server
# listens on 127.0.0.1 only, on an ephemeral port, and trusts local connections (a test
# cluster: nothing else can reach it). Every wait has a deadline (pg_ctl -t, timeout).
set -euo pipefail
command=${1:?usage: postgres-cluster.sh start|stop|crash|destroy DIR}
dir=${2:?usage: postgres-cluster.sh start|stop|crash|destroy DIR}
fsync=${3:-on}
bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
[ -x "$bin/initdb" ] || { echo "PostgreSQL's server binaries are missing: apt-get install postgresql (make test does)" >&2; exit 2; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid=postgres --regid=postgres --clear-groups -- "$@"
    else
        "$@"
    fi
}

case $command in
start)
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ "$(id -u)" != 0 ] || chown postgres:postgres "$dir"
    cd "$dir"
    if [ ! -f data/PG_VERSION ]; then
        as_owner timeout 120 "$bin/initdb" -D "$dir/data" -U scrollstack -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
            || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if [ ! -f port ]; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >port
    fi
    port=$(cat port)
    as_owner timeout 60 "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 45 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=$fsync -c max_connections=300" start >/dev/null \
        || { tail -n 20 "$dir/server.log" >&2; exit 1; }
    echo "postgresql://scrollstack@127.0.0.1:$port/postgres"
    ;;
stop)
    cd "$dir"
    as_owner timeout 60 "$bin/pg_ctl" -D "$dir/data" -w -t 45 -m fast stop >/dev/null
    ;;
crash)
    cd "$dir"
    as_owner timeout 60 "$bin/pg_ctl" -D "$dir/data" -w -t 45 -m immediate stop >/dev/null
    ;;
destroy)
    if [ -f "$dir/data/postmaster.pid" ]; then
        (cd "$dir" && as_owner timeout 60 "$bin/pg_ctl" -D "$dir/data" -w -t 45 -m immediate stop >/dev/null) || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "unknown command $command" >&2
    exit 2
    ;;
esac
