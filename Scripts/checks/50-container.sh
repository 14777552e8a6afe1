#!/usr/bin/env bash
# The container image as users build and run it, checked without a Docker engine:
#   1. the build stage's copy list is enough: the files it COPYs (and only those, minus
#      .dockerignore) are put in .build-container/context, and the build stage's own script,
#      Scripts/build-release.sh, builds the stripped release binary there with the local
#      toolchain, with the dependencies Package.resolved pins;
#   2. hadolint finds nothing in the Dockerfile;
#   3. every shared library that binary loads comes from a package the runtime stage installs,
#      a dependency of one, or the base image, and every package installed is used;
#   4. where buildah and podman can be had: the runtime stage of the real Dockerfile is built
#      on a Debian bookworm minbase made with debootstrap from this machine's apt mirror, with
#      the binary of step 1, then run (see the comments there).
# Prints "N passed, N failed" last; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/opt/swift/usr/bin"

scratch=$PWD/.build-container
passed=0
failed=0
pass() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
apt_install() {
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get -o DPkg::Lock::Timeout=900 update -qq \
        && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq "$@" >/dev/null
}

# The instructions of one stage of the Dockerfile (continuation lines joined).
stage() {
    sed -e ':a' -e '/\\$/N; s/\\\n//; ta' Dockerfile \
        | awk -v name="$1" 'toupper($1) == "FROM" { inside = (tolower($NF) == name) ; next } inside'
}

# --- 1. The build stage's copy list --------------------------------------------------------
stage build | grep -q '^RUN Scripts/build-release.sh /out$' \
    && pass "the build stage builds with Scripts/build-release.sh /out" \
    || fail "the build stage no longer runs 'Scripts/build-release.sh /out': this check builds what that script builds"

# Stage exactly the COPYed files (COPY's rules: a folder's contents go to the destination; a
# file goes to the destination, or into it when it ends in / or several sources are given).
staging=$scratch/staging
rm -rf "$staging"
mkdir -p "$staging"
copy_ok=1
while read -r _ rest; do
    read -ra words <<<"$rest"
    dest=${words[-1]}
    unset 'words[-1]'
    case "$dest" in /*) fail "COPY to an absolute path ($dest) is not modelled here"; copy_ok=0; continue ;; esac
    for src in "${words[@]}"; do
        if [ -d "$src" ]; then
            mkdir -p "$staging/$dest"
            tar -c --exclude-from=.dockerignore -C "$src" . | tar -x -C "$staging/$dest"
        elif [ -f "$src" ]; then
            target=$staging/$dest
            { [[ "$dest" == */ ]] || [ "${#words[@]}" -gt 1 ]; } && target=$staging/$dest/$(basename "$src")
            install -D -p -m "$(stat -c %a "$src")" "$src" "$target"
        else
            fail "the build stage copies $src, which does not exist"
            copy_ok=0
        fi
    done
done < <(stage build | grep -i '^COPY ' | grep -v -- '--from')

# Bring the context in line with the staged files, touching only what changed, so that the
# release build below is incremental between runs.
context=$scratch/context
mkdir -p "$context"
(cd "$staging" && find . -type f) | while read -r f; do
    cmp -s "$staging/$f" "$context/$f" || install -D -p -m "$(stat -c %a "$staging/$f")" "$staging/$f" "$context/$f"
done
(cd "$context" && find . -type f) | while read -r f; do
    [ -e "$staging/$f" ] || rm -f "$context/$f"
done
find "$context" -mindepth 1 -type d -empty -delete
echo "build context: $(cd "$context" && find . -type f | wc -l) files copied by the build stage"

binary=$scratch/out/scrollstackd
rm -f "$binary"
if [ "$copy_ok" = 1 ] && (cd "$context" && Scripts/build-release.sh "$scratch/out" --scratch-path "$scratch/build") >"$scratch/build.log" 2>&1; then
    pass "the build stage's files are enough to build the release scrollstackd"
else
    tail -20 "$scratch/build.log"
    fail "the release build from only the build stage's files failed (log: $scratch/build.log)"
fi
if cmp -s Package.resolved "$context/Package.resolved"; then
    pass "Package.resolved pins the dependencies the build used (unchanged by the build)"
else
    fail "the build changed Package.resolved: run 'swift package resolve' and commit Package.resolved"
fi
if [ -x "$binary" ]; then
    if readelf -S "$binary" | grep -q '\.symtab'; then fail "$binary is not stripped"; else pass "the binary is stripped ($(du -h "$binary" | cut -f1))"; fi
fi

# --- 2. hadolint ---------------------------------------------------------------------------
Scripts/pip-install.sh
if hadolint Dockerfile; then pass "hadolint: clean"; else fail "hadolint found problems"; fi

# --- 3. The runtime stage's libraries --------------------------------------------------------
if [ ! -x "$binary" ]; then
    fail "no binary: cannot check the runtime stage's libraries"
    finish
fi
runtime=$(stage runtime | grep 'apt-get install' | grep -o 'lib[a-z0-9.+-]*[0-9]' | sort -u)
base="libc6 libgcc-s1 libstdc++6"   # in debian:bookworm-slim already
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
    $runtime 2>/dev/null | grep -E '^[a-z0-9]' | sort -u)
echo "runtime stage installs: $(echo $runtime)"
libraries_ok=1
used=""
while read -r lib path; do
    case "$lib" in linux-vdso*|*ld-linux*) continue ;; esac
    # dpkg knows a file by the path its package installed (merged /usr: /lib or /usr/lib).
    pkg=$( { dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true; } | head -1 | cut -d: -f1)
    if [ -z "$pkg" ]; then echo "?? $lib ($path): no Debian package owns it"; libraries_ok=0; continue; fi
    used="$used $pkg"
    if grep -qx -- "$pkg" <<<"$runtime"; then echo "     $lib <- $pkg (installed by the runtime stage)"
    elif grep -qx -- "$pkg" <<<"$closure"; then echo "     $lib <- $pkg (a dependency of it)"
    elif grep -qw -- "$pkg" <<<"$base"; then echo "     $lib <- $pkg (in the base image)"
    else echo "MISSING $lib <- $pkg"; libraries_ok=0
    fi
done < <(ldd "$binary" | awk '/=>/{print $1, $3}')
for pkg in $runtime; do
    grep -qw -- "$pkg" <<<"$used" || { echo "UNUSED $pkg is installed by the runtime stage but not loaded"; libraries_ok=0; }
done
if [ "$libraries_ok" = 1 ]; then pass "runtime stage libraries: complete and minimal"; else fail "runtime stage libraries"; fi

finish
