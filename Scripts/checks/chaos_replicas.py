"""Chaos on three scrollstackd replicas sharing one PostgreSQL cluster, behind a loopback proxy
that sends each connection to a live replica (round robin):

- clients write rows with If-Match (read the revision, then insert on it) through the proxy,
  while replicas are killed (SIGKILL) and restarted and PostgreSQL is crashed (immediate
  stop) and restarted, at seeded random moments;
- one live event stream per stack, through the proxy, resumes with Last-Event-ID whenever
  it ends, as an EventSource does.

Then, with everything up again: every acknowledged write is in its stack exactly once (and
no row at all appears twice), each stack's revisions are contiguous and each acknowledged
revision distinct, every stream saw every revision once and in order, reads never answered
409, and no answer was a 5xx other than 503 with Retry-After while PostgreSQL was down (or,
for a write, while a replica it could have been forwarded to was down). The replicas are
members (`--advertise-url`), so the stacks' writes go to one replica each.

The seed is SCROLLSTACK_SEED (default 20261123, printed); it replays a run (its moments and
choices; the interleavings of threads are the machine's). Bounded: the load lasts `--seconds` (default 45), every wait has a
deadline, the whole check well under 3 minutes. Ends with `N passed, N failed`.
"""
import argparse, http.client, json, os, random, re, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from postgres_replicas import CLUSTER, Replica, check, dechunked, history_revisions, results, row  # noqa: E402


class Proxy:
    """A TCP proxy on loopback: each accepted connection goes to the next live replica (one
    that accepts the connection), its bytes copied both ways until either side closes."""

    def __init__(self, replicas):
        self.replicas = replicas
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(256)
        self.port = self.listener.getsockname()[1]
        self.next = 0
        self.closed = False
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        upstream = None
        for _ in range(len(self.replicas)):
            replica = self.replicas[self.next % len(self.replicas)]
            self.next += 1
            if replica.port is None or replica.process.poll() is not None:
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", replica.port), timeout=2)
                break
            except OSError:
                upstream = None
        if upstream is None:
            client.close()
            return
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 60)
                if not readable:
                    return
                for each in readable:
                    data = each.recv(65536)
                    if not data:
                        return
                    (upstream if each is client else client).sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def close(self):
        self.closed = True
        self.listener.close()


def free_port():
    """A loopback port free now (bound and released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Outages:
    """When PostgreSQL was down: 503 with Retry-After is allowed then (and for `grace`
    seconds after it came back, while replicas reconnect)."""

    def __init__(self, grace=10.0):
        self.grace = grace
        self.windows = []
        self.lock = threading.Lock()

    def down(self):
        with self.lock:
            self.windows.append([time.time(), None])

    def up(self):
        with self.lock:
            self.windows[-1][1] = time.time()

    def during(self, start, end):
        with self.lock:
            return any(s - 1 <= end and (e is None or start <= e + self.grace) for s, e in self.windows)


def call(port, method, path, body=None, headers=None, timeout=10):
    """(status, headers, parsed body), or (None, {}, error text) when the connection failed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}), **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw
        return response.status, dict(response.getheaders()), parsed
    except (OSError, http.client.HTTPException) as error:
        return None, {}, str(error)
    finally:
        connection.close()


class Resuming:
    """A live event stream that resumes with Last-Event-ID whenever it ends, until stopped;
    `ids` is every revision received, in the order received."""

    def __init__(self, port, stack, after):
        self.port, self.stack = port, stack
        self.ids, self.last = [], after
        self.stopped = False
        self.bad = []  # statuses other than 200 / 503 seen when opening
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped:
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            except OSError:
                time.sleep(0.2)  # the proxy has no live replica for now: try again shortly
                continue
            try:
                sock.settimeout(2)
                sock.sendall((f"GET /v1/stacks/{self.stack}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              f"Accept: text/event-stream\r\nLast-Event-ID: {self.last}\r\n\r\n").encode())
                buffer, seen = b"", 0
                while not self.stopped:
                    try:
                        data = sock.recv(65536)
                    except socket.timeout:
                        continue
                    if not data:
                        break
                    buffer += data
                    status = re.match(rb"HTTP/1\.1 (\d+)", buffer)
                    if status and status.group(1) != b"200":
                        if status.group(1) != b"503":
                            self.bad.append(int(status.group(1)))
                        time.sleep(0.2)  # an outage: resume shortly, as EventSource would
                        break
                    body, ended = dechunked(buffer)
                    ids = [int(m) for m in re.findall(rb"(?:^|\n)id: (\d+)\n", body)]
                    for revision in ids[seen:]:
                        self.ids.append(revision)
                        self.last = revision
                    seen = len(ids)
                    if ended:
                        # The server ended the stream: resume now, as EventSource does when
                        # the answer ends. The connection itself stays open (HTTP/1.1 keeps
                        # it for a next request, until the server's idle timeout, 30 s), so
                        # waiting for it to close would leave the stream deaf meanwhile.
                        break
            except OSError:
                pass
            finally:
                sock.close()

    def wait_for(self, revision, seconds=30):
        deadline = time.time() + seconds
        while self.last < revision and time.time() < deadline:
            time.sleep(0.05)  # polling the reader thread's progress, bounded by the deadline
        return list(self.ids)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=float, default=45)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--stacks", type=int, default=4)
    parser.add_argument("--events", type=int, default=6)
    args = parser.parse_args()
    # Taken out of the environment the replicas inherit: scrollstackd refuses SCROLLSTACK_*
    # variables that name none of its options.
    seed = int(os.environ.pop("SCROLLSTACK_SEED", None) or "20261123")
    print(f"seed {seed} (SCROLLSTACK_SEED={seed} replays it)", flush=True)
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="scrollstack-chaos-")
    os.rmdir(directory)
    replicas, proxy, streams = [], None, []
    try:
        url = subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=180, capture_output=True, text=True).stdout.strip()
        # Members at fixed ports (kept across restarts), so a stack's writes go to one replica
        # and a killed replica is a writer going away mid-request.
        ports = {name: free_port() for name in "ABC"}
        replicas = [Replica(args.binary, url, name, port=ports[name]) for name in "ABC"]
        proxy = Proxy(replicas)
        stacks = [f"chaos{i}" for i in range(args.stacks)]
        for stack in stacks:
            status, _, body = call(proxy.port, "POST", "/v1/stacks", {"id": stack, "rows": []})
            assert status == 201, body
        streams = {stack: Resuming(proxy.port, stack, 1) for stack in stacks}

        outages = Outages()
        # A replica killed while writes were forwarded to it: until it is back and seen again
        # (members refresh each second, a dead one is left after 3 s).
        writers_down = Outages(grace=8.0)
        acked = {stack: {} for stack in stacks}       # row id -> revision answered
        attempted = {stack: set() for stack in stacks}
        statuses, forbidden = {}, []
        lock = threading.Lock()
        end = time.time() + args.seconds

        def client(index):
            local = random.Random(seed * 1000 + index)
            n = 0
            while time.time() < end:
                stack = local.choice(stacks)
                started = time.time()
                status, headers, body = call(proxy.port, "GET", f"/v1/stacks/{stack}")
                with lock:
                    statuses[("GET", status)] = statuses.get(("GET", status), 0) + 1
                    if status == 409 or (status is not None and status >= 500 and not (
                            status == 503 and "Retry-After" in headers and outages.during(started, time.time()))):
                        forbidden.append(("GET", stack, status, body))
                if status != 200:
                    time.sleep(0.05)  # the read failed (something is down): a client's pause
                    continue
                row_id = f"c{index}-{n}"
                n += 1
                with lock:
                    attempted[stack].add(row_id)
                started = time.time()
                status, headers, body = call(proxy.port, "POST", f"/v1/stacks/{stack}/rows", {"rows": [row(row_id)]},
                                             {"If-Match": f"\"{body['revision']}\""})
                with lock:
                    statuses[("POST", status)] = statuses.get(("POST", status), 0) + 1
                    if status == 200:
                        acked[stack][row_id] = body["revision"]
                    elif status is not None and status >= 500 and not (
                            status == 503 and "Retry-After" in headers
                            and (outages.during(started, time.time()) or writers_down.during(started, time.time()))):
                        forbidden.append(("POST", stack, status, body))

        threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.clients)]
        for thread in threads:
            thread.start()

        # The chaos: seeded moments in the load, each a replica killed or PostgreSQL crashed,
        # brought back after a seeded pause.
        moments = sorted(rng.uniform(2, args.seconds - 6) for _ in range(args.events))
        plan = [(moment, rng.choice(["replica", "replica", "postgres"]), rng.randrange(3), rng.uniform(0.5, 2.5)) for moment in moments]
        begin = end - args.seconds
        for moment, kind, which, pause in plan:
            delay = begin + moment - time.time()
            if delay > 0:
                time.sleep(delay)  # waiting for the seeded moment
            if kind == "replica":
                replica = replicas[which]
                # Not an outage for reads: the proxy sends new connections to the other replicas
                # (requests cut with the process fail as connections). A write forwarded to it as
                # its stack's writer and cut may answer 503 with Retry-After (`writers_down`).
                print(f"  {time.time() - begin:5.1f} s: replica {replica.name} killed for {pause:.1f} s", flush=True)
                writers_down.down()
                replica.stop(signal.SIGKILL)
                time.sleep(pause)  # the seeded time it stays down
                replicas[which] = Replica(args.binary, url, replica.name, port=ports[replica.name])
                writers_down.up()
            else:
                print(f"  {time.time() - begin:5.1f} s: PostgreSQL crashed for {pause:.1f} s", flush=True)
                outages.down()
                subprocess.run([CLUSTER, "crash", directory], check=True, timeout=90, capture_output=True)
                time.sleep(pause)  # the seeded time it stays down
                subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=180, capture_output=True)
                outages.up()
        for thread in threads:
            thread.join(timeout=args.seconds + 60)
        check(not any(thread.is_alive() for thread in threads), f"{args.clients} clients finished")
        print(f"  answers: {dict(sorted(statuses.items(), key=str))}", flush=True)
        for replica in replicas:
            status, _, body = call(replica.port, "GET", "/v1/health")
            writers = body.get("writers", {}) if status == 200 else {}
            print(f"  replica {replica.name} since its last start: {writers.get('forwarded')} writes forwarded, "
                  f"{writers.get('unreachable')} made here with their writer unreachable", flush=True)

        # Everything is up: wait until every replica answers again, then check.
        deadline = time.time() + 60
        while time.time() < deadline and not all(call(r.port, "GET", f"/v1/stacks/{stacks[0]}")[0] == 200 for r in replicas):
            time.sleep(0.2)  # replicas reconnecting to PostgreSQL, bounded by the deadline
        check(not forbidden, f"no read answered 409 and no 5xx but 503 with Retry-After during an outage ({forbidden[:3]})")
        for stack in stacks:
            revisions = history_revisions(replicas[0], stack)
            head = 1 + len(revisions)
            check(revisions == list(range(2, head + 1)), f"{stack}: revisions 2..{head} contiguous, each once")
            answered = sorted(acked[stack].values())
            check(len(answered) == len(set(answered)), f"{stack}: {len(answered)} acknowledged writes, each its own revision")
            for replica in replicas:
                status, _, body = call(replica.port, "GET", f"/v1/stacks/{stack}")
                ids = [r["id"] for r in body["rows"]] if status == 200 else []
                check(status == 200 and body["revision"] == head and len(ids) == len(set(ids))
                      and set(acked[stack]) <= set(ids) and set(ids) <= attempted[stack],
                      f"{stack} on {replica.name}: revision {head}, every acknowledged write once, no row twice, none unsent")
            seen = streams[stack].wait_for(head)
            check(seen == list(range(2, head + 1)) and not streams[stack].bad,
                  f"{stack}: its live stream, resumed with Last-Event-ID, saw revisions 2..{head} once each in order"
                  + ("" if seen == list(range(2, head + 1)) else f" (saw {len(seen)}: first difference at "
                     f"{next((i for i, (a, b) in enumerate(zip(seen, range(2, head + 1))) if a != b), min(len(seen), head - 1))})"))
    except Exception as error:
        check(False, f"{error!r}")
    finally:
        for stream in (streams.values() if isinstance(streams, dict) else []):
            stream.stopped = True
        if proxy:
            proxy.close()
        for replica in replicas:
            replica.stop()
        subprocess.run([CLUSTER, "destroy", directory], timeout=90)
    if results["failed"]:
        print(f"failing seed {seed}", flush=True)
    print(f"{results['passed']} passed, {results['failed']} failed", flush=True)
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
