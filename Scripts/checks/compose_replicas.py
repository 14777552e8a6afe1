"""docker-compose.replicas.yml's topology, run with podman (called by 50-container.sh, step f).

There is no Docker engine and no registry here, so the compose file is turned into the podman
commands `docker compose up` would amount to, by a translator that knows each key the file
uses and stops on any other (so the check follows the file as it changes):
- compose-standins/override.yml is merged over it: the public postgres and nginx images become
  stand-ins built here from Debian bookworm's packages (compose-standins/*.Containerfile, on
  the check's debootstrapped base, cached by content), and the replicas use the image the
  check built from the Dockerfile's runtime stage;
- one network per run, on which each container answers to its service's name (aardvark-dns);
  named volumes per run; bind mounts from the repository; `${VAR:?…}` interpolated;
- published ports go to 127.0.0.1 and a free port (the machine is shared), not to the host
  port the file names;
- `depends_on` with `service_healthy` waits (bounded) for the dependency's health check,
  run with `podman healthcheck run` (no systemd timers here).
Then, through the balancer: writes are spread over both replicas (round robin), each replica
read directly has every acknowledged write, a live event stream through the balancer gets
every revision whichever replica made it; each replica sees both by the addresses the file
gives them, and concurrent writes of one stack are forwarded to its writer; piles read the
same on both, and with one replica stopped the balancer still serves. Prints "ok"/"FAIL" lines and ends with "N passed, N failed".
"""
import argparse, hashlib, http.client, json, os, re, secrets, shlex, socket, subprocess, sys, threading, time
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STANDINS = os.path.join(ROOT, "Scripts", "checks", "compose-standins")
results = {"passed": 0, "failed": 0}


def check(ok, what):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    return ok


class StopSteps(Exception):
    """Ends the steps after a failure already reported (the later ones would only fail too)."""


def interpolate(value, env):
    """Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}` in every string."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(match):
        name, operator, argument = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if operator == ":?":
            raise SystemExit(f"compose: {name} must be set: {argument}")
        return argument or ""
    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def merge(base, override):
    if isinstance(base, dict) and isinstance(override, dict):
        return {k: merge(base[k], override[k]) if k in base and k in override else override.get(k, base.get(k))
                for k in list(base) + [k for k in override if k not in base]}
    return override


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Topology:
    def __init__(self, podman, project, services):
        self.podman, self.project, self.services = podman, project, services
        self.network = f"{project}_default"
        self.containers, self.volumes, self.published = [], set(), {}

    def run(self, *args, timeout=300, check=True):
        done = subprocess.run(self.podman + list(args), capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise RuntimeError(f"podman {' '.join(args[:3])}…: {done.stderr.strip()[-500:]}")
        return done

    def name(self, service):
        return f"{self.project}-{service}-1"

    def flags(self, service, spec, one_off=False):
        """The podman flags of `service`; `one_off` as `docker compose run --rm` makes them
        (another name, no network alias, no published ports, no restarts)."""
        flags = ["--name", self.name(service) + ("-run" if one_off else ""), "--network", self.network,
                 *([] if one_off else ["--network-alias", service]), "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]
        for key, value in spec.items():
            if key in ("image", "build", "depends_on") or (one_off and key in ("ports", "restart")):
                continue  # the image is given below; build is the check's; order is up()'s
            elif key == "environment":
                items = value.items() if isinstance(value, dict) else (item.split("=", 1) for item in value)
                flags += [f"--env={k}={v}" for k, v in items]
            elif key == "volumes":
                for entry in value:
                    source, target, *mode = entry.split(":")
                    if source.startswith((".", "/")):
                        source = os.path.normpath(os.path.join(ROOT, source))
                    else:
                        source = f"{self.project}_{source}"
                        self.volumes.add(source)
                    flags += [f"--volume={source}:{target}" + (f":{mode[0]}" if mode else "")]
            elif key == "ports":
                for entry in value:
                    container_port = str(entry).split(":")[-1]
                    host_port = free_port()
                    self.published[service] = host_port
                    flags += [f"--publish=127.0.0.1:{host_port}:{container_port}"]
            elif key == "healthcheck":
                test = value["test"]
                flags += ["--health-cmd", json.dumps(test[1:]) if test[0] == "CMD" else " ".join(test[1:])]
                for option in ("interval", "timeout", "retries", "start_period"):
                    if option in value:
                        flags += [f"--health-{option.replace('_', '-')}={value[option]}"]
            elif key == "read_only":
                flags += ["--read-only"] if value else []
            elif key == "cap_drop":
                flags += [f"--cap-drop={c}" for c in value]
            elif key == "security_opt":
                flags += [f"--security-opt={o}" for o in value]
            elif key == "stop_grace_period":
                flags += [f"--stop-timeout={int(str(value).rstrip('s'))}"]
            elif key == "restart":
                flags += [f"--restart={value}"]
            else:
                raise SystemExit(f"docker-compose.replicas.yml sets {key} on {service}, which this check does not turn into a podman flag yet")
        return flags

    def healthy(self, service, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.run("healthcheck", "run", self.name(service), check=False, timeout=30).returncode == 0:
                return True
            time.sleep(0.5)  # polling a health check, as the engine's timer would; bounded by the deadline
        return False

    def up(self):
        """Starts every service after what it depends on; returns the order they started in."""
        self.run("network", "create", self.network)
        started, order = set(), []
        while len(order) < len(self.services):
            ready = [s for s, spec in self.services.items() if s not in started and all(d in started for d in spec.get("depends_on", []))]
            if not ready:
                raise SystemExit("depends_on has a cycle")
            for service in ready:
                spec = self.services[service]
                dependencies = spec.get("depends_on", [])
                for dependency in dependencies:
                    if isinstance(dependencies, dict) and dependencies[dependency].get("condition") == "service_healthy":
                        if not self.healthy(dependency, 90):
                            raise RuntimeError(f"{dependency} did not become healthy within 90 s: {self.logs(dependency)[-800:]}")
                self.run("run", "-d", *self.flags(service, spec), spec["image"])
                self.containers.append(self.name(service))
                started.add(service)
                order.append(service)
        return order

    def run_once(self, service, extra, command):
        """`docker compose run --rm -v … SERVICE COMMAND…`: exit code and output."""
        done = self.run("run", "--rm", *self.flags(service, self.services[service], one_off=True), *extra,
                        self.services[service]["image"], *command, check=False, timeout=300)
        # podman's own complaints (no systemd for health check timers here) left out
        said = [line for line in (done.stdout + done.stderr).splitlines() if not line.startswith(("time=", "failed to connect to syslog"))]
        return done.returncode, "\n".join(said)

    def ip(self, service):
        return self.run("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", self.name(service)).stdout.strip()

    def logs(self, service):
        done = self.run("logs", self.name(service), check=False)
        return done.stdout + done.stderr

    def down(self):
        for container in reversed(self.containers):
            self.run("rm", "-f", "-v", "-t", "5", container, check=False)
        for volume in self.volumes:
            self.run("volume", "rm", "-f", volume, check=False)
        self.run("network", "rm", "-f", self.network, check=False)


def http_request(host, port, method, path, body=None, headers=None, timeout=10):
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        return response.status, (json.loads(raw) if raw else None)
    except (OSError, http.client.HTTPException) as error:
        return None, str(error)
    finally:
        connection.close()


def wait_http(host, port, path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _ = http_request(host, port, "GET", path, timeout=3)
        if status == 200:
            return True
        time.sleep(0.2)  # waiting for a server to answer; bounded by the deadline
    return False


class EventStream:
    """Server-Sent Events through the balancer, read on a thread; `ids` grows as events arrive."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nLast-Event-ID: 1\r\n\r\n".encode())
        self.ids, self.changed = [], threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                buffer += data
                with self.changed:
                    self.ids = [int(m) for m in re.findall(rb"(?:^|\n)id: (\d+)\n", buffer)]
                    self.changed.notify_all()
        except OSError:
            return

    def wait_for(self, revision, seconds=30):
        deadline = time.monotonic() + seconds
        with self.changed:
            while (not self.ids or self.ids[-1] < revision) and time.monotonic() < deadline:
                self.changed.wait(timeout=deadline - time.monotonic())
            return list(self.ids)


def build_standin(buildah, podman, base, name):
    """The stand-in image `name` (postgres or nginx), built once per content of its files and base."""
    files = [f"{name}.Containerfile"] + (["postgres-entrypoint.sh"] if name == "postgres" else [])
    digest = hashlib.sha256(base.encode() + b"".join(open(os.path.join(STANDINS, f), "rb").read() for f in files)).hexdigest()[:16]
    image = f"localhost/scrollstack-ci/{name}-standin:{digest}"
    if subprocess.run(podman + ["image", "exists", image], timeout=60).returncode == 0:
        return image, "cached"
    old = subprocess.run(podman + ["images", "--format", "{{.Repository}}:{{.Tag}}"], capture_output=True, text=True, timeout=60).stdout.split()
    for stale in [i for i in old if i.startswith(f"localhost/scrollstack-ci/{name}-standin:")]:
        subprocess.run(podman + ["rmi", "-f", stale], capture_output=True, timeout=120)
    done = subprocess.run(buildah + ["bud", "--format", "docker", "--pull=never", "--isolation", "chroot", "--network", "host",
                                     "--build-arg", f"BASE={base}", "-f", os.path.join(STANDINS, f"{name}.Containerfile"), "-t", image, STANDINS],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"building the {name} stand-in: {done.stdout[-1500:]}{done.stderr[-1500:]}")
    return image, "built"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--podman", required=True, help="the podman command and its storage flags")
    parser.add_argument("--buildah", required=True, help="the buildah command and its storage flags")
    parser.add_argument("--image", required=True, help="the image built from the Dockerfile's runtime stage")
    parser.add_argument("--base", required=True, help="the debootstrapped Debian bookworm base image")
    args = parser.parse_args()
    podman, buildah = shlex.split(args.podman), shlex.split(args.buildah)
    topology = None
    try:
        for hadolinted in ("postgres.Containerfile", "nginx.Containerfile"):
            done = subprocess.run(["hadolint", os.path.join(STANDINS, hadolinted)], capture_output=True, text=True, timeout=60)
            check(done.returncode == 0, f"hadolint: compose-standins/{hadolinted} {'clean' if done.returncode == 0 else done.stdout.strip()}")
        t0 = time.monotonic()
        postgres, how_postgres = build_standin(buildah, podman, args.base, "postgres")
        nginx, how_nginx = build_standin(buildah, podman, args.base, "nginx")
        check(True, f"stand-ins from Debian packages: postgresql-15 ({how_postgres}), nginx-light ({how_nginx}), {time.monotonic() - t0:.0f} s")

        env = {"POSTGRES_PASSWORD": secrets.token_hex(16), "SCROLLSTACK_IMAGE": args.image, "STANDIN_POSTGRES": postgres, "STANDIN_NGINX": nginx}
        compose = yaml.safe_load(open(os.path.join(ROOT, "docker-compose.replicas.yml")))
        override = yaml.safe_load(open(os.path.join(STANDINS, "override.yml")))
        services = interpolate(merge(compose, override), env)["services"]
        check(set(services) == {"postgres", "replica-a", "replica-b", "balancer"} and all("image" in s for s in services.values()),
              f"docker-compose.replicas.yml with the stand-ins' override: services {', '.join(services)}")

        topology = Topology(podman, f"scrollstack-ci-replicas-{os.getpid()}", services)
        t0 = time.monotonic()
        order = topology.up()
        replicas = {service: topology.ip(service) for service in ("replica-a", "replica-b")}
        up = all(wait_http(ip, 8080, "/healthz", 60) for ip in replicas.values())
        port = topology.published.get("balancer")
        up = up and port is not None and wait_http("127.0.0.1", port, "/healthz", 60)
        check(up, f"up in dependency order ({' → '.join(order)}; the replicas after PostgreSQL's health check passed): "
                  f"both replicas and the balancer answer /healthz, {time.monotonic() - t0:.0f} s")
        if not up:
            for service in services:
                print(f"--- {service}\n{topology.logs(service)[-1500:]}")
            raise StopSteps()
        check(all(topology.healthy(service, 30) for service in replicas), "both replicas' image HEALTHCHECK reports healthy")

        # Docs/Operations.md's migration in the compose setup, into the fresh database: a SQLite data dir (made
        # by the same image on a volume) copied with `run --rm -v …:/old replica-a migrate --data-dir /old`.
        old_volume = f"{topology.project}_old-data"
        topology.volumes.add(old_volume)
        topology.run("run", "-d", "--name", f"{topology.project}-sqlite", "--network", topology.network, "--ulimit", "nofile=4096:4096",
                     "--ulimit", "nproc=4096:4096", "-v", f"{old_volume}:/data", args.image)
        topology.containers.append(f"{topology.project}-sqlite")
        sqlite_ip = topology.run("inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", f"{topology.project}-sqlite").stdout.strip()
        made = wait_http(sqlite_ip, 8080, "/healthz", 30) and http_request(sqlite_ip, 8080, "POST", "/v1/stacks", {"id": "legacy", "rows": []})[0] == 201
        for n in range(3):
            made = made and http_request(sqlite_ip, 8080, "POST", "/v1/stacks/legacy/rows", {"rows": [{"id": f"l{n}", "view": {"type": "V"}, "size": {"fixed": 10}}], "animation": True})[0] == 200
        before = [http_request(sqlite_ip, 8080, "GET", path) for path in ("/v1/stacks/legacy", "/v1/stacks/legacy/events", "/v1/stacks/legacy/transitions/3")]
        topology.run("stop", "-t", "10", f"{topology.project}-sqlite")
        code, said = topology.run_once("replica-a", ["-v", f"{old_volume}:/old"], ["migrate", "--data-dir", "/old"])
        after = [http_request("127.0.0.1", port, "GET", path) for path in ("/v1/stacks/legacy", "/v1/stacks/legacy/events", "/v1/stacks/legacy/transitions/3")]
        differing = [path for path, b, a in zip(("stack", "history", "plan"), before, after) if b != a]
        check(made and code == 0 and not differing and before[0][0] == 200,
              f"migrate in a replica's container (run --rm -v …:/old replica-a migrate --data-dir /old): exit {code}; the stack, its history"
              f" and a plan read through the balancer as from the SQLite server{'' if made else ' (making the data dir failed)'}"
              f"{'; differing: ' + ', '.join(differing) + ' ' + str(after)[:300] if differing else ''}{'' if code == 0 else ': ' + said.strip()[-1200:]}")

        def forwarded_total():
            """The writes the replicas have forwarded to their stack's writer since they started."""
            return sum(((http_request(ip, 8080, "GET", "/v1/health")[1] or {}).get("writers") or {}).get("forwarded", 0)
                       for ip in replicas.values())

        # Writes through the balancer: spread over both replicas, all on both. A write the
        # balancer gave the replica that is not the stack's writer, once that one has noted
        # contention, is forwarded: it is logged by both, so the logs hold 20 + forwarded.
        status, _ = http_request("127.0.0.1", port, "POST", "/v1/stacks", {"id": "compose", "rows": []})
        forwarded_before = forwarded_total()
        check(status == 201, f"a stack is created through the balancer ({status})")
        stream = EventStream(port, "/v1/stacks/compose/events")
        acknowledged = []
        for n in range(20):
            status, body = http_request("127.0.0.1", port, "POST", "/v1/stacks/compose/rows",
                                        {"rows": [{"id": f"w{n}", "view": {"type": "V"}, "size": {"fixed": 10}}]})
            if status == 200:
                acknowledged.append(body["revision"])
        check(acknowledged == list(range(2, 22)), f"20 writes through the balancer: revisions {acknowledged[:1]}…{acknowledged[-1:]}, contiguous")
        relayed = forwarded_total() - forwarded_before
        # The log collector may lag the answers: read the logs again until they hold every
        # line (a 10 s deadline).
        deadline = time.time() + 10
        while True:
            served = {service: len(re.findall(r"POST /v1/stacks/compose/rows 200", topology.logs(service))) for service in replicas}
            if sum(served.values()) >= 20 + relayed or time.time() > deadline:
                break
            time.sleep(0.2)  # waiting for the log collector; bounded by the deadline
        check(all(count > 0 for count in served.values()) and sum(served.values()) == 20 + relayed,
              f"round robin: the writes were served by both replicas ({', '.join(f'{s} {c}' for s, c in served.items())}; "
              f"{relayed} of them forwarded to the stack's writer, so logged by both)")
        for service, ip in replicas.items():
            status, body = http_request(ip, 8080, "GET", "/v1/stacks/compose")
            ids = [r["id"] for r in body["rows"]] if status == 200 else []
            check(status == 200 and body["revision"] == 21 and ids == [f"w{n}" for n in range(20)],
                  f"{service}, asked directly, has every write made through the balancer (revision {body.get('revision') if status == 200 else status})")
        ids = stream.wait_for(21)
        check(ids == list(range(2, 22)), f"a live event stream through the balancer got revisions 2..21 from both replicas, once each, in order ({len(ids)})")
        stream.sock.close()

        # One writer per stack: each replica, given its address on the compose network, sees
        # both (the members are refreshed about once a second: 15 s deadline), and writes of one
        # stack sent through both by concurrent clients are forwarded to its writer: rounds of
        # 8 clients × 5 writes until a replica has forwarded one (30 s deadline).
        expected = sorted(f"http://{service}:8080" for service in replicas)
        deadline = time.monotonic() + 15
        while True:
            writers = {service: http_request(ip, 8080, "GET", "/v1/health")[1] for service, ip in replicas.items()}
            writers = {service: (body or {}).get("writers") if isinstance(body, dict) else None for service, body in writers.items()}
            seen = all(isinstance(w, dict) and w.get("address") == f"http://{service}:8080" and sorted(w.get("members") or []) == expected
                       for service, w in writers.items())
            if seen or time.monotonic() > deadline:
                break
            time.sleep(0.2)  # waiting for the members' refresh; bounded by the deadline
        check(seen, "SCROLLSTACK_ADVERTISE_URL: each replica names its own address and sees both members ("
                    + "; ".join(f"{service}: {(w or {}).get('members')}" for service, w in writers.items()) + ")")
        status, _ = http_request("127.0.0.1", port, "POST", "/v1/stacks", {"id": "contended", "rows": []})
        answers, lock = [], threading.Lock()

        def client(number, round_):
            for n in range(5):
                got = http_request("127.0.0.1", port, "POST", "/v1/stacks/contended/rows",
                                   {"rows": [{"id": f"c{round_}-{number}-{n}", "view": {"type": "V"}, "size": {"fixed": 10}}]})
                with lock:
                    answers.append(got)
        forwarded, rounds, deadline = 0, 0, time.monotonic() + 30
        forwarded_before = forwarded_total()
        while forwarded == 0 and time.monotonic() < deadline:
            threads = [threading.Thread(target=client, args=(number, rounds)) for number in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            rounds += 1
            forwarded = forwarded_total() - forwarded_before
        revisions = sorted(body["revision"] for code, body in answers if code == 200)
        final = http_request("127.0.0.1", port, "GET", "/v1/stacks/contended")
        check(status == 201 and forwarded > 0 and len(revisions) == len(answers) and revisions == list(range(2, 2 + len(answers)))
              and final[0] == 200 and final[1]["revision"] == 1 + len(answers) and len(final[1]["rows"]) == len(answers),
              f"8 clients writing one stack through the balancer: {len(revisions)} of {len(answers)} writes answered 200 with the distinct "
              f"contiguous revisions 2..{1 + len(answers)}, in {rounds} round(s); {forwarded} forwarded to the stack's writer"
              f"{'' if len(revisions) == len(answers) else '; others: ' + str([a for a in answers if a[0] != 200][:3])}")

        # Piles through the balancer, read on each replica.
        status, _ = http_request("127.0.0.1", port, "POST", "/v1/piles", {"id": "nav", "bounds": {"width": 375, "height": 667}})
        pushed = [http_request("127.0.0.1", port, "POST", "/v1/piles/nav/push", {"id": f"v{n}", "view": {"type": "V"}})[0] for n in range(4)]
        piles = [http_request(ip, 8080, "GET", "/v1/piles/nav") for ip in replicas.values()]
        check(status == 201 and pushed == [200] * 4 and all(s == 200 and p["revision"] == 5 and p["active"] == "v3" for s, p in piles),
              f"a pile created and pushed to through the balancer reads the same on both replicas ({status}, {pushed})")

        # One replica stopped: the balancer sends everything to the other.
        topology.run("stop", "-t", "10", topology.name("replica-a"))
        answers = [http_request("127.0.0.1", port, "POST", "/v1/stacks/compose/rows",
                                {"rows": [{"id": f"late{n}", "view": {"type": "V"}, "size": {"fixed": 10}}]})[0] for n in range(6)]
        status, body = http_request("127.0.0.1", port, "GET", "/v1/stacks/compose")
        check(answers == [200] * 6 and status == 200 and body["revision"] == 27,
              f"replica-a stopped: the balancer serves from replica-b alone ({answers}, revision {body.get('revision') if status == 200 else status})")
    except StopSteps:
        pass
    except Exception as error:  # a broken step is one failure; the topology is still taken down
        check(False, f"{error}")
    finally:
        if topology:
            topology.down()
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


main()
