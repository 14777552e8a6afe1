#!/bin/sh
# The stand-in postgres image's entrypoint (postgres.Containerfile): as the official image's,
# a first start on an empty /var/lib/postgresql/data creates the cluster with the superuser
# POSTGRES_USER (default postgres) and the password POSTGRES_PASSWORD, creates the database
# POSTGRES_DB (default: the user's name), and admits password (scram-sha-256) connections from
# any address; every start then runs the server, as the user postgres, listening on every
# interface.
set -eu
data=/var/lib/postgresql/data
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$data" /run/postgresql
    chown postgres:postgres "$data" /run/postgresql
    chmod 700 "$data"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
if [ ! -s "$data/PG_VERSION" ]; then
    password=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$password"
    initdb -D "$data" -U "$user" --pwfile="$password" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null
    rm -f "$password"
    echo "host all all all scram-sha-256" >>"$data/pg_hba.conf"
    pg_ctl -D "$data" -o "-c listen_addresses=''" -w -t 60 start >/dev/null
    [ "$database" = postgres ] || psql -q -U "$user" -d postgres -c "CREATE DATABASE \"$database\""
    pg_ctl -D "$data" -m fast -w -t 60 stop >/dev/null
fi
exec postgres -D "$data" -c listen_addresses='*'
