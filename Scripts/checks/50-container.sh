#!/usr/bin/env bash
# The container image as users build and run it, checked without a Docker engine:
#   1. the build stage's copy list is enough: the files it COPYs (and only those, minus
#      .dockerignore) are put in .build-container/context, and the build stage's own script,
#      Scripts/build-release.sh, builds the stripped release binary there with the local
#      toolchain, with the dependencies Package.resolved pins; the curl examples of the README
#      and the Guide run on that binary (doc_examples.py, a fresh in-memory server each);
#   2. hadolint finds nothing in the Dockerfile;
#   3. every shared library that binary loads comes from a package the runtime stage installs,
#      a dependency of one, or the base image, and every package installed is used;
#   4. where buildah and podman can be had: the runtime stage of the real Dockerfile is built
#      on a Debian bookworm minbase made with debootstrap from this machine's apt mirror, with
#      the binary of step 1, then run (see the comments there), alone and, last, in
#      docker-compose.replicas.yml's topology (compose_replicas.py).
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
    apt-get -o DPkg::Lock::Timeout=900 update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq "$@" >/dev/null
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
    read -ra all <<<"$rest"
    words=()
    for w in "${all[@]}"; do [[ "$w" == --* ]] || words+=("$w"); done   # --chown, --chmod, --link
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
if [ "$copy_ok" = 1 ] && (cd "$context" && timeout 1800 Scripts/build-release.sh "$scratch/out" --scratch-path "$scratch/build") >"$scratch/build.log" 2>&1; then
    pass "the build stage's files are enough to build the release scrollstackd"
else
    tail -20 "$scratch/build.log"
    grep -q "invalid custom path" "$scratch/build.log" \
        && echo "hint: Package.swift names a folder the build stage does not COPY: add it to the Dockerfile's build stage"
    fail "the release build from only the build stage's files failed (log: $scratch/build.log)"
fi
if cmp -s Package.resolved "$context/Package.resolved"; then
    pass "Package.resolved pins the dependencies the build used (unchanged by the build)"
else
    fail "the build changed Package.resolved: run 'swift package resolve' and commit Package.resolved"
fi
if [ -x "$binary" ]; then
    if readelf -S "$binary" | grep -q '\.symtab'; then fail "$binary is not stripped"; else pass "the binary is stripped ($(du -h "$binary" | cut -f1))"; fi
    # The walkthrough and the recipes, as users run them, on the release binary.
    command -v curl >/dev/null || apt_install curl
    if ! command -v curl >/dev/null; then
        fail "curl is missing and cannot be installed: cannot run the README and the Guide on the release binary"
    elif examples_out=$(timeout 900 python3 Scripts/checks/doc_examples.py "$binary" README.md Docs/Guide.md 2>&1); then
        pass "the README and the Guide run on the release binary ($(tail -1 <<<"$examples_out"))"
    else
        sed '$d' <<<"$examples_out"
        fail "the README and the Guide on the release binary: $(tail -1 <<<"$examples_out")"
    fi
fi

# --- 2. hadolint ---------------------------------------------------------------------------
Scripts/pip-install.sh
if hadolint Dockerfile; then pass "hadolint: clean"; else fail "hadolint found problems"; fi

# --- 3. The runtime stage's libraries --------------------------------------------------------
if [ ! -x "$binary" ]; then
    fail "no binary: cannot check the runtime stage's libraries"
    finish
fi
runtime=$(stage runtime | grep 'apt-get install' | grep -o 'lib[a-z0-9.+-]*[0-9][a-z]*' | sort -u)
base="libc6 libgcc-s1 libstdc++6 zlib1g"   # in debian:bookworm-slim already (zlib1g: dpkg, which is essential, depends on it)
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

# --- 4. The image, built and run -------------------------------------------------------------
# Rootful buildah and podman on vfs storage of their own (under $cache, so nothing else on the
# machine is touched and no mount is left behind), with flags that work inside a container
# too: chroot isolation for RUN, host networking (the server listens on 127.0.0.1 only),
# cgroupfs, runc (crun refuses hybrid cgroup hierarchies), rlimits lowered rather than raised
# (raising needs CAP_SYS_RESOURCE). The base is Debian bookworm minbase from this machine's apt
# mirror, slimmed as debian:bookworm-slim is; it stands for RUNTIME_IMAGE. The binary of step 1
# is committed as an image holding /out/scrollstackd; it stands for BINARY_SOURCE, the build
# stage (the Swift toolchain image cannot be had offline). The runtime stage itself is the
# Dockerfile's, unchanged.
skip_run() { echo "(image build and run skipped: $*)"; finish; }
[ "$(id -u)" = 0 ] || skip_run "rootful podman needs root"
for tool in buildah podman debootstrap runc; do
    command -v "$tool" >/dev/null && continue
    echo "installing buildah podman debootstrap runc"
    apt_install buildah podman debootstrap runc || skip_run "buildah, podman, debootstrap or runc cannot be installed"
    break
done

cache=/var/cache/scrollstack-ci
mkdir -p "$cache"
exec 9>"$cache/lock"
flock -w 900 9 || skip_run "another run held $cache/lock for 15 minutes"
store=(--root "$cache/storage" --runroot /run/scrollstack-ci --storage-driver vfs)
buildah_command=(buildah "${store[@]}")
podman_command=(podman "${store[@]}" --cgroup-manager cgroupfs --events-backend file --runtime runc)
# Every call bounded: none takes more than a few seconds here (vfs copies the image on create).
buildah() { timeout 300 "${buildah_command[@]}" "$@"; }
podman() { timeout 300 "${podman_command[@]}" "$@"; }
run_flags=(--network host --ulimit nofile=4096:4096 --ulimit nproc=4096:4096)

work=$(mktemp -d)
tag=$$
image=localhost/scrollstack-ci/server:$tag
binary_image=localhost/scrollstack-ci/binary:$tag
volume=scrollstack-ci-data-$tag
containers=()
cleanup() {
    for c in "${containers[@]}"; do podman rm -f -v "$c" >/dev/null 2>&1; done
    podman volume rm -f "$volume" >/dev/null 2>&1
    podman rmi -f "$image" "$binary_image" >/dev/null 2>&1
    podman image prune -f >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
log=$work/podman.log

# Debian sources of this machine: one "deb URI SUITE COMPONENTS" line per bookworm suite.
sources=$(python3 - <<'PY'
import glob, os, re
entries = []
def add(uri, suites, components, signed):
    for suite in suites:
        if suite.startswith("bookworm"):
            entries.append((uri, suite, " ".join(components), signed))
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"\s*deb\s+(\[[^]]*\]\s+)?(\S+)\s+(\S+)\s+(.*)", line.split("#")[0])
            if m:
                signed = re.search(r"signed-by=(\S+?)\]?(\s|$)", m.group(1) or "")
                add(m.group(2), [m.group(3)], m.group(4).split(), signed.group(1) if signed else "")
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for block in re.split(r"\n\s*\n", open(path).read()):
        fields = {}
        for line in block.splitlines():
            if ":" in line and not line.startswith(("#", " ")):
                key, value = line.split(":", 1)
                fields[key.strip().lower()] = value.strip()
        if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes") != "no":
            for uri in fields.get("uris", "").split():
                add(uri, fields.get("suites", "").split(), fields.get("components", "").split(), fields.get("signed-by", ""))
for uri, suite, components, signed in entries:
    print(f"deb {'[signed-by=' + signed + '] ' if signed.startswith('/') else ''}{uri} {suite} {components}")
PY
)
mirror=$(awk '$NF != "" && ($2 ~ /^\[/ ? $4 : $3) == "bookworm" { print ($2 ~ /^\[/ ? $3 : $2); exit }' <<<"$sources")
[ -n "$mirror" ] || skip_run "no Debian bookworm source in this machine's apt configuration"
key=$(printf 'minbase slim v1\n%s\n' "$sources" | sha256sum | cut -c1-16)
base_tar=$cache/bookworm-minbase-$key.tar
base_image=localhost/scrollstack-ci/bookworm-minbase:$key

if [ ! -s "$base_tar" ]; then
    echo "making the Debian bookworm minbase from $mirror (cached as $base_tar)"
    rootfs=$work/rootfs
    if ! timeout 900 debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
        tail -5 "$work/debootstrap.log"
        fail "debootstrap from $mirror"
        finish
    fi
    # What debian:bookworm-slim does: no documentation, manuals or translations, installed or
    # to come; no package cache; apt pointed at this machine's sources.
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
CFG
    cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
CFG
    find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$rootfs"/usr/share/{groff,info,linda,lintian,locale,man}/* "$rootfs"/var/cache/apt/archives/*.deb \
        "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/*
    printf '%s\n' "$sources" >"$rootfs/etc/apt/sources.list"
    tar -C "$rootfs" --numeric-owner -cf "$base_tar.part" . && mv "$base_tar.part" "$base_tar"
    rm -rf "$rootfs"
fi
if ! podman image exists "$base_image"; then
    podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/scrollstack-ci/bookworm-minbase:' | xargs -r podman rmi -f >/dev/null 2>&1
    podman import "$base_tar" "$base_image" >/dev/null 2>>"$log" || { cat "$log"; fail "podman import of the base"; finish; }
fi

# The binary of step 1 as the stage the runtime stage copies it from.
holder=$(buildah from --pull=never scratch 2>>"$log") \
    && buildah copy "$holder" "$binary" /out/scrollstackd >/dev/null 2>>"$log" \
    && buildah commit -q "$holder" "$binary_image" >/dev/null 2>>"$log"
[ -n "${holder:-}" ] && buildah rm "$holder" >/dev/null 2>&1
if timeout 600 "${buildah_command[@]}" bud --format docker --pull=never --isolation chroot --network host --target runtime \
    --build-arg RUNTIME_IMAGE="$base_image" --build-arg BINARY_SOURCE="$binary_image" \
    -f Dockerfile -t "$image" . >"$work/bud.log" 2>&1; then
    size=$(podman image inspect --format '{{.Size}}' "$image")
    base_size=$(podman image inspect --format '{{.Size}}' "$base_image")
    mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
    pass "runtime stage built: image $(mb "$size") = base $(mb "$base_size") + $(mb $((size - base_size))) (the binary: $(mb "$(stat -c %s "$binary")"))"
else
    tail -20 "$work/bud.log"
    fail "buildah bud of the runtime stage"
    finish
fi

# Seconds since the epoch, to the millisecond.
now() { date +%s.%3N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# HTTP on loopback, no proxy: prints the status, then the body. With "wait" as the method,
# polls GET until 200 or the deadline (seconds) and prints the status only.
http() {
    python3 - "$@" <<'PY'
import sys, time, urllib.request, urllib.error
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
method, url = sys.argv[1], sys.argv[2]
def ask(method, url, body=None):
    request = urllib.request.Request(url, data=body.encode() if body else None, method=method,
                                     headers={"Content-Type": "application/json"} if body else {})
    try:
        with opener.open(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)
if method == "wait":
    deadline = time.monotonic() + float(sys.argv[3])
    status = 0
    while status != 200 and time.monotonic() < deadline:
        status, _ = ask("GET", url)
        if status != 200:
            time.sleep(0.05)  # polling: nothing tells the host the container's server is up
    print(status)
else:
    status, body = ask(method, url, sys.argv[3] if len(sys.argv) > 3 else None)
    print(status)
    print(body)
PY
}
# The container's exit code once it has stopped, within $2 seconds.
exit_code() { timeout "$2" "${podman_command[@]}" wait "$1" 2>>"$log" || echo "none (still running after $2 s)"; }
healthy() {
    podman healthcheck run "$1" >>"$log" 2>&1 \
        && [ "$(podman inspect --format '{{.State.Health.Status}}' "$1" 2>>"$log")" = healthy ]
}

# (a) As docker-compose.yml runs it (its settings turned into podman flags; ports aside, as
# the network is the host's), on 127.0.0.1 and a free port set through the environment.
compose_flags=$(python3 - "$volume" <<'PY'
import sys, yaml
service = yaml.safe_load(open("docker-compose.yml"))["services"]["scrollstack"]
flags = []
for key, value in service.items():
    if key in ("build", "image", "ports", "restart", "stop_grace_period"):
        continue  # build, publishing and restarts are the engine's; the stop is timed below
    elif key == "environment":
        items = value.items() if isinstance(value, dict) else (item.split("=", 1) for item in value)
        flags += [f"--env={k}={v}" for k, v in items]
    elif key == "volumes":
        flags += [f"--volume={sys.argv[1]}:{entry.split(':', 1)[1]}" for entry in value]
    elif key == "read_only":
        flags += ["--read-only"] if value else []
    elif key == "cap_drop":
        flags += [f"--cap-drop={c}" for c in value]
    elif key == "security_opt":
        flags += [f"--security-opt={o}" for o in value]
    else:
        sys.exit(f"docker-compose.yml sets {key}, which this check does not turn into a podman flag yet")
print("\n".join(flags))
PY
) && pass "docker-compose.yml: $(tr '\n' ' ' <<<"$compose_flags")" || { fail "docker-compose.yml"; compose_flags=""; }
mapfile -t compose_flags < <(printf "%s" "$compose_flags")
port=$(free_port)
c1=scrollstack-ci-$tag-a
containers+=("$c1")
podman create --name "$c1" "${run_flags[@]}" "${compose_flags[@]}" -e SCROLLSTACK_HOST=127.0.0.1 -e SCROLLSTACK_PORT="$port" \
    "$image" >/dev/null 2>>"$log"
t0=$(now)
podman start "$c1" >/dev/null 2>>"$log"
status=$(http wait "http://127.0.0.1:$port/healthz" 30)
t1=$(now)
# Baseline in the same run: the same binary started outside a container, on an empty data dir.
mkdir "$work/host-data"
host_port=$(free_port)
t2=$(now)
"$binary" --host 127.0.0.1 --port "$host_port" --data-dir "$work/host-data" --log-level notice >"$work/host.log" 2>&1 &
host_pid=$!
host_status=$(http wait "http://127.0.0.1:$host_port/healthz" 10)
t3=$(now)
kill "$host_pid"; wait "$host_pid" 2>/dev/null
if [ "$status" = 200 ]; then
    pass "SCROLLSTACK_HOST/SCROLLSTACK_PORT: /healthz answers 200, $(elapsed "$t0" "$t1") s after podman start (the binary alone, outside: $(elapsed "$t2" "$t3") s, status $host_status)"
else
    fail "no /healthz within 30 s of podman start (last status $status): $(podman logs "$c1" 2>&1 | tail -3)"
fi
if healthy "$c1"; then pass "the image's HEALTHCHECK reports healthy"; else fail "the image's HEALTHCHECK: $(grep -v systemd "$log" | tail -3)"; fi
answer=$(podman exec "$c1" scrollstackd healthcheck 2>&1)
[ "$answer" = "healthy: http://127.0.0.1:$port/healthz answered 200" ] && pass "scrollstackd healthcheck: $answer" \
    || fail "scrollstackd healthcheck in the container said: $answer"
created=$(http POST "http://127.0.0.1:$port/v1/stacks" '{"id": "ci", "viewport": {"width": 320, "height": 480}, "rows": [{"id": "r1", "view": {"type": "V"}, "size": {"fixed": 44}}]}')
[ "$(head -1 <<<"$created")" = 201 ] && pass "a stack is created" || fail "creating a stack: $created"
t0=$(now)
podman stop -t 10 "$c1" >/dev/null 2>>"$log"
t1=$(now)
code=$(exit_code "$c1" 10)
[ "$code" = 0 ] && pass "podman stop: exit 0 after $(elapsed "$t0" "$t1") s (SIGTERM, graceful)" || fail "the container exited with $code on podman stop"

# (b) A new container on the same volume reads the stack back.
c2=scrollstack-ci-$tag-b
containers+=("$c2")
podman run -d --name "$c2" "${run_flags[@]}" -v "$volume:/data" -e SCROLLSTACK_HOST=127.0.0.1 -e SCROLLSTACK_PORT="$port" \
    "$image" >/dev/null 2>>"$log"
http wait "http://127.0.0.1:$port/healthz" 30 >/dev/null
stack=$(http GET "http://127.0.0.1:$port/v1/stacks/ci")
if [ "$(head -1 <<<"$stack")" = 200 ] && grep -q '"r1"' <<<"$stack"; then
    pass "a new container on the same volume reads the stack back"
else
    fail "the stack after a restart on the same volume: $stack"
fi
podman stop -t 10 "$c2" >/dev/null 2>>"$log"

# (c) The `--port` style of Docs/Operations.md: options on the command line only; still healthy.
port2=$(free_port)
c3=scrollstack-ci-$tag-c
containers+=("$c3")
podman run -d --name "$c3" "${run_flags[@]}" "$image" --host 127.0.0.1 --port "$port2" --in-memory >/dev/null 2>>"$log"
status=$(http wait "http://127.0.0.1:$port2/healthz" 30)
if [ "$status" = 200 ] && healthy "$c3"; then
    pass "--host 127.0.0.1 --port $port2 on the command line: the HEALTHCHECK follows (healthy)"
else
    fail "--port on the command line: /healthz $status, health $(podman inspect --format '{{.State.Health.Status}}' "$c3" 2>&1)"
fi
podman stop -t 10 "$c3" >/dev/null 2>>"$log"

# (d) A root-owned bind mount: a clear error naming the folder, its owner and the server's uid;
# after the chown the error suggests, the same mount works.
bind=$work/bind
mkdir -m 0755 "$bind"
c4=scrollstack-ci-$tag-d
containers+=("$c4")
podman run -d --name "$c4" "${run_flags[@]}" -v "$bind:/data" -e SCROLLSTACK_HOST=127.0.0.1 -e SCROLLSTACK_PORT="$port" \
    "$image" >/dev/null 2>>"$log"
code=$(exit_code "$c4" 30)
said=$(podman logs "$c4" 2>&1)
expected="cannot write to /data (the data folder, --data-dir): Permission denied; /data belongs to uid $(stat -c %u "$bind"), gid $(stat -c %g "$bind"), mode 0755, and the server runs as uid 10001, gid 10001"
if [ "$code" = 1 ] && grep -qF "$expected" <<<"$said" && grep -qF "chown -R 10001:10001" <<<"$said"; then
    pass "a root-owned bind mount stops the start with: ${expected%%;*}; … runs as uid 10001 …"
else
    fail "a root-owned bind mount: exit $code, said: $said"
fi
chown 10001:10001 "$bind"
podman start "$c4" >/dev/null 2>>"$log"
status=$(http wait "http://127.0.0.1:$port/healthz" 30)
[ "$status" = 200 ] && pass "after chown 10001:10001 the same bind mount serves" || fail "after chown: /healthz $status: $(podman logs "$c4" 2>&1 | tail -2)"
podman stop -t 10 "$c4" >/dev/null 2>>"$log"

# (e) Or run as the folder's owner, whoever that is (--user): the server needs no account.
owned=$work/owned
mkdir -m 0755 "$owned"
chown 12345:12345 "$owned"
c5=scrollstack-ci-$tag-e
containers+=("$c5")
podman run -d --name "$c5" "${run_flags[@]}" --user 12345:12345 -v "$owned:/data" -e SCROLLSTACK_HOST=127.0.0.1 \
    -e SCROLLSTACK_PORT="$port" "$image" >/dev/null 2>>"$log"
status=$(http wait "http://127.0.0.1:$port/healthz" 30)
if [ "$status" = 200 ] && [ "$(stat -c %u "$owned/scrollstack.sqlite" 2>/dev/null)" = 12345 ]; then
    pass "--user 12345:12345 on a folder 12345 owns serves and keeps its database there"
else
    fail "--user 12345:12345: /healthz $status: $(podman logs "$c5" 2>&1 | tail -2)"
fi
podman stop -t 10 "$c5" >/dev/null 2>>"$log"

# (f) docker-compose.replicas.yml's topology, PostgreSQL, two replicas of this image and nginx,
# run with podman from the compose file, the public postgres and nginx images replaced by
# stand-ins built from Debian packages (compose_replicas.py; compose-standins/override.yml).
compose_out=$(timeout 1500 python3 Scripts/checks/compose_replicas.py --podman "${podman_command[*]}" \
    --buildah "${buildah_command[*]}" --image "$image" --base "$base_image" 2>&1)
sed '$d' <<<"$compose_out"
if [[ "$(tail -1 <<<"$compose_out")" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
else
    tail -1 <<<"$compose_out"
    fail "docker-compose.replicas.yml's topology: the check ended without its count"
fi

finish
