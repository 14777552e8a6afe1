"""Three scrollstackd replicas sharing one PostgreSQL cluster (issue 12), checked end to end:

1. concurrent clients writing one shared stack and stacks of their own, each request through
   a different replica, lose no acknowledged write, and every replica sees the same stack with
   contiguous revisions (history 2..N, each once);
2. a live event stream on replica C gets every revision written through A and B, in order,
   exactly once; Last-Event-ID resumes on another replica;
3. SIGKILL of a replica while clients write through it loses nothing acknowledged;
4. a PostgreSQL restart: requests in between answer 503 with Retry-After, the replicas
   reconnect by themselves, and nothing answered 503 was applied.

Prints a seed (SCROLLSTACK_SEED replays it) and ends with `N passed, N failed`.
"""
import argparse, http.client, json, os, random, re, signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "Scripts", "postgres-cluster.sh")
results = {"passed": 0, "failed": 0}


def check(ok, what):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    return ok


class Replica:
    def __init__(self, binary, url, name):
        self.name = name
        self.log = tempfile.NamedTemporaryFile(prefix=f"replica-{name}-", suffix=".log", delete=False)
        self.process = subprocess.Popen([binary, "--port", "0", "--store", url, "--threads", "8", "--log-level", "notice"],
                                        stdout=self.log, stderr=self.log)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            text = open(self.log.name).read()
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text)
            if match:
                self.port = int(match.group(1))
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)  # polling a log file for a line; bounded by the deadline
        if self.port is None:
            raise RuntimeError(f"replica {name} did not start: {open(self.log.name).read()}")

    def request(self, method, path, body=None, headers=None, timeout=15):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            all_headers = {"Content-Type": "application/json"} if data else {}
            all_headers.update(headers or {})
            connection.request(method, path, body=data, headers=all_headers)
            response = connection.getresponse()
            raw = response.read()
            return response.status, dict(response.getheaders()), (json.loads(raw) if raw else None)
        finally:
            connection.close()

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def row(row_id):
    return {"id": row_id, "view": {"type": "V"}, "size": {"fixed": 10}}


def insert(replica, stack, row_id, headers=None):
    try:
        return replica.request("POST", f"/v1/stacks/{stack}/rows", {"rows": [row(row_id)]}, headers)
    except (OSError, http.client.HTTPException) as error:
        return None, {}, str(error)


def history_revisions(replica, stack):
    revisions, after = [], 0
    while True:
        status, _, body = replica.request("GET", f"/v1/stacks/{stack}/events?after={after}&limit=1000")
        assert status == 200, body
        page = sorted({event["revision"] for event in body["events"]})
        if not page:
            return revisions
        revisions += page
        after = page[-1]


def concurrent_writes(replicas, rng):
    for name in ["shared"] + [f"own{i}" for i in range(6)]:
        status, _, body = replicas[rng.randrange(3)].request("POST", "/v1/stacks", {"id": name, "rows": []})
        assert status == 201, body
    acked = {"shared": {}, **{f"own{i}": {} for i in range(6)}}
    lock = threading.Lock()

    def client(index):
        for n in range(25):
            stack = "shared" if n % 2 == 0 else f"own{index}"
            row_id = f"c{index}-{n}"
            status, _, body = insert(replicas[(index + n) % 3], stack, row_id)
            if status == 200:
                with lock:
                    acked[stack][row_id] = body["revision"]

    threads = [threading.Thread(target=client, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    check(not any(thread.is_alive() for thread in threads), "6 concurrent clients finished within 120 s")
    for stack, rows in acked.items():
        revisions = sorted(rows.values())
        check(revisions == list(range(2, 2 + len(rows))) and len(rows) > 0,
              f"{stack}: {len(rows)} acknowledged writes got the distinct contiguous revisions 2..{1 + len(rows)}")
        for replica in replicas:
            status, _, body = replica.request("GET", f"/v1/stacks/{stack}")
            ids = {r["id"] for r in body["rows"]}
            check(status == 200 and body["revision"] == 1 + len(rows) and ids == set(rows),
                  f"{stack} on replica {replica.name}: revision {body.get('revision')}, every acknowledged row and nothing else")
        check(history_revisions(replicas[0], stack) == list(range(2, 2 + len(rows))), f"{stack}: history has revisions 2..{1 + len(rows)}, each once")


class EventStream:
    """A Server-Sent Events stream read on a thread of its own; `ids` grows as events arrive."""

    def __init__(self, replica, stack, last_event_id=None):
        self.sock = socket.create_connection(("127.0.0.1", replica.port), timeout=30)
        head = f"GET /v1/stacks/{stack}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
        if last_event_id is not None:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
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
                for match in re.finditer(rb"\nid: (\d+)\n", buffer):
                    pass
                ids = [int(m) for m in re.findall(rb"(?:^|\n)id: (\d+)\n", buffer)]
                with self.changed:
                    self.ids = ids
                    self.changed.notify_all()
        except OSError:
            return

    def wait_for(self, revision, seconds=20):
        deadline = time.time() + seconds
        with self.changed:
            while (not self.ids or self.ids[-1] < revision) and time.time() < deadline:
                self.changed.wait(timeout=deadline - time.time())
            return list(self.ids)

    def close(self):
        self.sock.close()


def live_events(replicas):
    a, b, c = replicas
    status, _, _ = a.request("POST", "/v1/stacks", {"id": "live", "rows": []})
    assert status == 201
    stream = EventStream(c, "live", last_event_id=1)
    for n in range(20):
        status, _, _ = insert([a, b][n % 2], "live", f"l{n}")
        assert status == 200
    ids = stream.wait_for(21)
    stream.close()
    check(ids == list(range(2, 22)), f"SSE on C saw revisions 2..21 written on A and B, in order, once each (got {ids})")
    resumed = EventStream(b, "live", last_event_id=15)
    ids = resumed.wait_for(21)
    resumed.close()
    check(ids == list(range(16, 22)), f"Last-Event-ID 15 on B resumes with 16..21 (got {ids})")


def kill_mid_write(binary, url, replicas):
    victim = Replica(binary, url, "victim")
    status, _, _ = replicas[0].request("POST", "/v1/stacks", {"id": "crash", "rows": []})
    assert status == 200 or status == 201
    acked, acking, stop = set(), threading.Condition(), threading.Event()

    def client(index):
        n = 0
        while not stop.is_set() and n < 500:
            status, _, _ = insert(victim, "crash", f"k{index}-{n}")
            if status == 200:
                with acking:
                    acked.add(f"k{index}-{n}")
                    acking.notify_all()
            elif status is None:
                return
            n += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    with acking:  # writes under way: 40 acknowledged (30 s at most)
        acking.wait_for(lambda: len(acked) >= 40, timeout=30)
    victim.stop(signal.SIGKILL)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    # A write the victim sent just before it died may still commit (PostgreSQL finishes a
    # statement it received): allowed, it was never acknowledged. So the history is read
    # first, and the state read after it must hold it all.
    history = history_revisions(replicas[2], "crash")
    status, _, body = replicas[1].request("GET", "/v1/stacks/crash")
    assert status == 200, f"GET crash on B answered {status} {body}"
    ids = {r["id"] for r in body["rows"]}
    check(acked <= ids and len(acked) >= 40,
          f"SIGKILL mid-write: all {len(acked)} acknowledged rows are on replica B ({len(ids)} rows in all)")
    check(history == list(range(2, 2 + len(history))) and body["revision"] >= 1 + len(history) and body["revision"] == 1 + len(ids),
          f"after the kill the history is contiguous: revision {body['revision']}, {len(ids)} rows, history 2..{history[-1] if history else None}")


def postgres_restart(directory, replicas):
    a, b, c = replicas
    status, _, _ = a.request("POST", "/v1/stacks", {"id": "restart", "rows": [row("first")]})
    assert status == 201
    subprocess.run([CLUSTER, "stop", directory], check=True, timeout=90)
    answers = [insert(r, "restart", f"down{i}") for i, r in enumerate(replicas)] + [(r.request("GET", "/v1/stacks/restart")) for r in replicas]
    check(all(status == 503 and headers.get("Retry-After") for status, headers, _ in answers),
          f"with PostgreSQL down, writes and reads answer 503 with Retry-After ({sorted({s for s, _, _ in answers})})")
    subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=90, stdout=subprocess.DEVNULL)
    deadline, statuses = time.time() + 30, []
    while time.time() < deadline:
        statuses = [insert(r, "restart", f"up-{r.name}-{int(time.time() * 1000)}")[0] for r in replicas]
        if statuses == [200, 200, 200]:
            break
        time.sleep(0.2)  # retrying as a client told Retry-After would; bounded by the deadline
    check(statuses == [200, 200, 200], f"after the restart every replica writes again within 30 s ({statuses})")
    bodies = [r.request("GET", "/v1/stacks/restart")[2] for r in replicas]
    ids = [{x["id"] for x in body["rows"]} for body in bodies]
    check(all(not any(i.startswith("down") for i in s) for s in ids) and len({frozenset(s) for s in ids}) == 1
          and len({body["revision"] for body in bodies}) == 1,
          "nothing answered 503 was applied, and the three replicas agree")
    stream_check = history_revisions(a, "restart")
    check(stream_check == list(range(2, 2 + len(stream_check))), "the history stays contiguous across the restart")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    seed = int(os.environ.get("SCROLLSTACK_SEED", str(int(time.time()))))
    print(f"seed {seed} (SCROLLSTACK_SEED={seed} replays it)")
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="scrollstack-pg-check-")
    os.rmdir(directory)
    replicas = []
    try:
        url = subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=180, capture_output=True, text=True).stdout.strip()
        replicas = [Replica(args.binary, url, name) for name in "ABC"]
        for step in (lambda: concurrent_writes(replicas, rng), lambda: live_events(replicas),
                     lambda: kill_mid_write(args.binary, url, replicas), lambda: postgres_restart(directory, replicas)):
            try:
                step()
            except Exception as error:  # a step that breaks counts as one failure; the others still run
                check(False, f"{error!r}")
    finally:
        for replica in replicas:
            replica.stop()
        subprocess.run([CLUSTER, "destroy", directory], timeout=90)
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


main()
