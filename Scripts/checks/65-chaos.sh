#!/usr/bin/env bash
# Chaos on replicas over PostgreSQL: three scrollstackd replicas behind a loopback proxy, clients
# writing with If-Match and live streams resuming with Last-Event-ID, while replicas are killed
# and PostgreSQL is crashed at seeded random moments (see chaos_replicas.py for what is checked).
# The seed is SCROLLSTACK_SEED (default 20261123; printed). Needs the debug build (`swift build`); installs
# postgresql when its server binaries are missing. Bounded: 3 minutes at most.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq postgresql >/dev/null \
        || { echo "skipped: cannot install postgresql"; exit 0; }
fi
exec timeout --kill-after=10 180 python3 -u Scripts/checks/chaos_replicas.py --binary "$binary" "$@"
