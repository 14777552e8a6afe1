#!/usr/bin/env bash
# Replicas over PostgreSQL: a throwaway cluster (Scripts/postgres-cluster.sh, as the postgres
# user) and three scrollstackd replicas sharing it (--store postgres://…); see
# postgres_replicas.py for what is checked. Needs the debug build (`swift build`); installs
# postgresql when its server binaries are missing. Bounded: every wait has a deadline, the
# whole check a few minutes at most.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq postgresql >/dev/null \
        || { echo "skipped: cannot install postgresql"; exit 0; }
fi
exec timeout --kill-after=10 600 python3 -u Scripts/checks/postgres_replicas.py --binary "$binary"
