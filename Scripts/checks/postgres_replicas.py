"""Three scrollstackd replicas sharing one PostgreSQL cluster, checked end to end:

1. concurrent clients writing one shared stack and stacks of their own, each request through
   a different replica, lose no acknowledged write, and every replica sees the same stack with
   contiguous revisions (history 2..N, each once);
2. a live event stream on replica C gets every revision written through A and B, in order,
   exactly once; Last-Event-ID resumes on another replica; so do streams on A and B while
   clients race reverts, settings and batches on one stack through both;
3. SIGKILL of a replica while clients write through it loses nothing acknowledged;
4. a PostgreSQL restart: requests in between answer 503 with Retry-After, the replicas
   reconnect by themselves, and nothing answered 503 was applied;
5. batched writes (one stack's writes that arrive during a transaction go in the next one):
   16 clients writing one stack through A and B lose no acknowledged write, get contiguous
   revisions, and C's live stream sees each once, in order (resumed from its last id when
   the server ends it, as an EventSource would); a PostgreSQL restart while they
   write loses nothing acknowledged and applies nothing answered 503;
6. piles follow the same rules: a pile written on one replica is read on the others at once,
   concurrent pushes through different replicas lose nothing and get contiguous revisions,
   a stale If-Match answers 412 on another replica, live pile events on C carry A's and B's
   pushes, a duplicate id or a deletion is seen across replicas;
6b. a replica whose cache is one write behind another's answers as if it were current (an
   If-Match or a row of the other's write is not refused; an id the other deleted is free;
   a write racing the other's deletion is 200 or 404, never 503; so is a read);
7. `scrollstackd migrate`: a SQLite data dir with history, copied into a fresh database, is
   served by a replica with every answer identical byte for byte (stacks, every past revision,
   history, transition plans, piles, the live event backlog); a data dir of journal format 1
   (revisions kept as HTTP requests) is refused, naming its format; a database already
   holding journals is refused unless --replace, and --replace run twice gives the same.

Prints a seed (SCROLLSTACK_SEED replays it) and ends with `N passed, N failed`.
"""
import argparse, glob, http.client, json, os, random, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "Scripts", "postgres-cluster.sh")
results = {"passed": 0, "failed": 0}


def check(ok, what):
    results["passed" if ok else "failed"] += 1
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    return ok


class Replica:
    def __init__(self, binary, url, name, storage=None, port=0):
        """A replica on `port` (0: any); with a port, it is a member at http://127.0.0.1:PORT
        (--advertise-url), so contended stacks' writes go to one replica."""
        self.name = name
        self.log = tempfile.NamedTemporaryFile(prefix=f"replica-{name}-", suffix=".log", delete=False)
        advertise = ["--advertise-url", f"http://127.0.0.1:{port}"] if port else []
        self.process = subprocess.Popen([binary, "--port", str(port), *(storage or ["--store", url]), *advertise,
                                         "--threads", "8", "--log-level", "notice"],
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

    def raw(self, method, path, body=None, headers=None, timeout=15):
        """(status, ETag, body bytes) as sent."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            connection.request(method, path, body=data, headers={**({"Content-Type": "application/json"} if data else {}), **(headers or {})})
            response = connection.getresponse()
            return response.status, response.getheader("ETag"), response.read()
        finally:
            connection.close()

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


def run_clients(client, count, seconds=120):
    """Runs client(0) … client(count − 1), each on a thread of its own; whether all finished
    (each is waited for `seconds` at most)."""
    threads = [threading.Thread(target=client, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds)
    return not any(thread.is_alive() for thread in threads)


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

    check(run_clients(client, 6), "6 concurrent clients finished within 120 s")
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


def dechunked(raw):
    """(body, ended): the body of an HTTP/1.1 answer received so far, its chunked framing
    removed (a chunk boundary may fall inside an event), the head left out and an incomplete
    chunk kept; `ended` once its last chunk (size 0) arrived, i.e. the server ended the
    answer. Always False for an answer that is not chunked."""
    head_end = raw.find(b"\r\n\r\n")
    if head_end < 0:
        return b"", False
    if b"chunked" not in raw[:head_end].lower():
        return raw[head_end + 4:], False
    body, at = b"", head_end + 4
    while True:
        line_end = raw.find(b"\r\n", at)
        if line_end < 0:
            return body, False
        size = int(raw[at:line_end].split(b";")[0] or b"0", 16)
        if size == 0:
            return body, True
        body += raw[line_end + 2:line_end + 2 + size]
        if line_end + 2 + size + 2 > len(raw):
            return body, False
        at = line_end + 2 + size + 2


class EventStream:
    """A Server-Sent Events stream read on a thread of its own; `ids` grows as events arrive."""

    def __init__(self, replica, stack, last_event_id=None, kind="stacks"):
        self.sock = socket.create_connection(("127.0.0.1", replica.port), timeout=30)
        self.raw = b""
        head = f"GET /v1/{kind}/{stack}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if last_event_id is not None:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.ids, self.changed, self.ended = [], threading.Condition(), False
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                buffer += data
                # The body without its chunked framing (a chunk boundary may fall inside an
                # event). A server that ends the stream ends the answer, not the connection
                # (HTTP/1.1 keeps it for a next request): its last chunk is the end.
                body, ended = dechunked(buffer)
                ids = [int(m) for m in re.findall(rb"(?:^|\n)id: (\d+)\n", body)]
                with self.changed:
                    self.ids, self.raw = ids, buffer
                    self.changed.notify_all()
                if ended:
                    return
        except OSError:
            pass
        finally:
            with self.changed:
                self.ended = True
                self.changed.notify_all()

    def wait_for(self, revision, seconds=20):
        """The ids so far, once the last is `revision` or later, the stream ended, or `seconds` passed."""
        deadline = time.time() + seconds
        with self.changed:
            while (not self.ids or self.ids[-1] < revision) and not self.ended and time.time() < deadline:
                self.changed.wait(timeout=deadline - time.time())
            return list(self.ids)

    def close(self):
        self.sock.close()


def events_through(stream, replica, stack, head, seconds=30, kind="stacks"):
    """The ids `stream` gets up to revision `head`, resuming it from its last id whenever the
    server ends it first (at most 5 times), as an EventSource would: the server ends a stream
    rather than leave a gap in it (EventHub), and the journal supplies the rest. Returns the
    ids and how many times the stream was resumed."""
    ids, resumed = stream.wait_for(head, seconds=seconds), 0
    stream.close()
    while ids and ids[-1] < head and stream.ended and resumed < 5:
        resumed += 1
        stream = EventStream(replica, stack, last_event_id=ids[-1], kind=kind)
        ids = ids + stream.wait_for(head, seconds=seconds)
        stream.close()
    return ids, resumed


def live_events(replicas):
    a, b, c = replicas
    status, _, _ = a.request("POST", "/v1/stacks", {"id": "live", "rows": []})
    assert status == 201
    stream = EventStream(c, "live", last_event_id=1)
    for n in range(20):
        status, _, _ = insert([a, b][n % 2], "live", f"l{n}")
        assert status == 200
    ids, resumptions = events_through(stream, c, "live", 21, seconds=20)
    check(ids == list(range(2, 22)), f"SSE on C saw revisions 2..21 written on A and B, in order, once each (got {ids}, resumed {resumptions} times)")
    resumed = EventStream(b, "live", last_event_id=15)
    ids = resumed.wait_for(21)
    resumed.close()
    check(ids == list(range(16, 22)), f"Last-Event-ID 15 on B resumes with 16..21 (got {ids})")


def streams_under_contention(replicas):
    """Writes to one stack racing through A and B (reverts, settings, batches: each loser is
    run again on the winner's state) while a live stream is open on each: every stream gets
    every revision once, in order. A stream the server ends is resumed from its last id, as
    an EventSource would. No run of revisions may come twice, and none may be lost."""
    a, b, _ = replicas
    status, _, body = a.request("POST", "/v1/stacks", {"id": "contended", "rows": [row(f"r{i}") for i in range(4)]})
    assert status == 201, body
    streams = {name: EventStream(replica, "contended", last_event_id=1) for name, replica in (("A", a), ("B", b))}

    def client(index):
        replica = (a, b)[index % 2]
        for n in range(40):
            kind = (n + index) % 3
            if kind == 0:
                replica.request("POST", "/v1/stacks/contended/revert", {"to": 1})
            elif kind == 1:
                replica.request("PATCH", "/v1/stacks/contended", {"spacing": n % 5})
            else:
                replica.request("POST", "/v1/stacks/contended/rows/batch", {"op": "hide" if n % 2 else "show", "rows": [0, 1]})

    check(run_clients(client, 4), "4 clients racing on one stack through A and B finished within 120 s")
    _, _, body = a.request("GET", "/v1/stacks/contended")
    head = body["revision"]
    for name, stream in streams.items():
        ids, resumed = events_through(stream, a if name == "A" else b, "contended", head)
        check(ids == list(range(2, head + 1)),
              f"the live stream on {name} got revisions 2..{head} once each, in order ({len(ids)} events, resumed {resumed} times; "
              f"repeated {sorted({i for i in ids if ids.count(i) > 1})[:6]}, missing {sorted(set(range(2, head + 1)) - set(ids))[:6]})")


def reads_racing_deletion(replicas):
    """Reads on B while A deletes and re-creates the stack and two clients write to it through
    B: each read answers 200 or 404, never 409 `revision_conflict` (the entry a read held
    may be replaced when B's own write loses) nor 503."""
    a, b, _ = replicas
    a.request("POST", "/v1/stacks", {"id": "churn", "rows": [row("r")]})
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            a.request("DELETE", "/v1/stacks/churn")
            a.request("POST", "/v1/stacks", {"id": "churn", "rows": [row("r")]})
            insert(a, "churn", f"a{time.time()}")
            insert(a, "churn", f"a{time.time()}")

    def writer(index):
        n = 0
        while not stop.is_set():
            n += 1
            insert(b, "churn", f"b{index}-{n}")

    threads = [threading.Thread(target=churn)] + [threading.Thread(target=writer, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    answers, wrong = {}, []
    deadline = time.time() + 8
    try:
        while time.time() < deadline:
            for path in ("/v1/stacks/churn", "/v1/stacks/churn/events?after=0"):
                status, _, body = b.request("GET", path)
                answers[status] = answers.get(status, 0) + 1
                if status not in (200, 404) and len(wrong) < 3:
                    wrong.append((path, status, body))
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    check(not wrong and answers.get(200, 0) > 0,
          f"reads on B racing A's deletions and B's own writes answer 200 or 404 ({answers}; {wrong[:2]})")


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
    answers += [r.request("GET", "/v1/piles/nav") for r in replicas] + [a.request("POST", "/v1/piles/nav/pop"), b.request("GET", "/v1/piles")]
    check(all(status == 503 and headers.get("Retry-After") for status, headers, _ in answers),
          f"with PostgreSQL down, writes and reads of stacks and piles answer 503 with Retry-After ({sorted({s for s, _, _ in answers})})")
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
    piles = [r.request("GET", "/v1/piles/nav")[2]["revision"] for r in replicas]
    check(len(set(piles)) == 1 and pile_history_revisions(c, "nav") == list(range(2, piles[0] + 1)),
          f"the pop answered 503 was not applied: the pile is at revision {piles} on A, B and C, its history contiguous")
    stream_check = history_revisions(a, "restart")
    check(stream_check == list(range(2, 2 + len(stream_check))), "the history stays contiguous across the restart")



def batched_one_stack(replicas):
    a, b, c = replicas
    status, _, _ = a.request("POST", "/v1/stacks", {"id": "batched", "rows": []})
    assert status == 201
    stream = EventStream(c, "batched", last_event_id=1)
    acked, other, lock = {}, [], threading.Lock()

    def client(index):
        for n in range(12):
            row_id = f"b{index}-{n}"
            status, _, body = insert([a, b][(index + n) % 2], "batched", row_id)
            with lock:
                if status == 200:
                    acked[row_id] = body["revision"]
                else:
                    other.append((status, body))

    check(run_clients(client, 16), "16 concurrent clients of one stack through A and B finished within 120 s")
    latest = 1 + len(acked)
    check(sorted(acked.values()) == list(range(2, latest + 1)) and len(acked) == 16 * 12,
          f"batched: {len(acked)} of 192 writes acknowledged with the distinct contiguous revisions 2..{latest}{f' (others: {other[:3]})' if other else ''}")
    for replica in replicas:
        status, _, body = replica.request("GET", "/v1/stacks/batched")
        check(status == 200 and body["revision"] == latest and {r["id"] for r in body["rows"]} == set(acked),
              f"batched on replica {replica.name}: revision {body.get('revision')}, every acknowledged row and nothing else")
    check(history_revisions(b, "batched") == list(range(2, latest + 1)), f"batched: history has revisions 2..{latest}, each once")
    # Resumed as an EventSource would if C ends the stream (C may end it, with nothing
    # missing from the journal, when it cannot trust what it sent).
    ids, resumed = events_through(stream, c, "batched", latest, seconds=20)
    check(ids == list(range(2, latest + 1)),
          f"batched: SSE on C saw revisions 2..{latest}, in order, once each ({len(ids)} events, resumed {resumed} times)")


def restart_under_load(directory, replicas):
    a, b, c = replicas
    status, _, _ = a.request("POST", "/v1/stacks", {"id": "loaded", "rows": []})
    assert status == 201
    answered, changed, stop = {}, threading.Condition(), threading.Event()

    def client(index):
        # 400 writes answered otherwise than 503 each, however long PostgreSQL stays down
        # (3,000 attempts at most); after a 503 a client pauses 50 ms (shorter than the
        # Retry-After of 1 s, so that the check stays short).
        n = written = 0
        while not stop.is_set() and written < 400 and n < 3000:
            row_id = f"l{index}-{n}"
            status, headers, body = insert([a, b][(index + n) % 2], "loaded", row_id)
            with changed:
                answered[row_id] = (status, body["revision"] if status == 200 else headers.get("Retry-After"))
                changed.notify_all()
            n += 1
            if status == 503:
                stop.wait(0.05)
            else:
                written += 1

    def wait_for(what, condition, seconds=60):
        deadline = time.time() + seconds
        with changed:
            while not condition() and time.time() < deadline:
                changed.wait(timeout=deadline - time.time())
            return condition()

    def count(status):
        return sum(1 for s, _ in answered.values() if s == status)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    try:
        wait_for("writes", lambda: count(200) >= 30)
        subprocess.run([CLUSTER, "stop", directory], check=True, timeout=90)
        down = wait_for("503s", lambda: count(503) >= 8)
        before = count(200)
        subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=90, stdout=subprocess.DEVNULL)
        up = wait_for("writes after the restart", lambda: count(200) >= before + 30)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    check(down and up, f"restart under load: writes answered 503 while PostgreSQL was down ({count(503)}) and succeeded again after ({count(200)})")
    acked = {row_id: revision for row_id, (status, revision) in answered.items() if status == 200}
    refused = {row_id for row_id, (status, retry) in answered.items() if status == 503}
    check(all(retry for row_id, (status, retry) in answered.items() if status == 503) and set(s for s, _ in answered.values()) <= {200, 503},
          f"restart under load: every answer is 200 or 503 with Retry-After ({sorted(set(s for s, _ in answered.values()), key=str)})")
    bodies = [r.request("GET", "/v1/stacks/loaded")[2] for r in replicas]
    ids = [{x["id"] for x in body["rows"]} for body in bodies]
    check(len({frozenset(i) for i in ids}) == 1 and len({body["revision"] for body in bodies}) == 1,
          "restart under load: the three replicas agree")
    missing, applied, unknown = sorted(set(acked) - ids[0]), sorted(refused & ids[0]), sorted(ids[0] - set(answered))
    check(not missing and not applied and not unknown,
          f"restart under load: all {len(acked)} acknowledged writes kept, none of the {len(refused)} answered 503 applied"
          + (f" (missing {missing[:5]}, answered 503 but applied {applied[:5]}, never sent {unknown[:5]})" if missing or applied or unknown else ""))
    history = history_revisions(c, "loaded")
    check(sorted(acked.values()) == sorted(set(acked.values())) and history == list(range(2, 2 + len(history))) and len(history) == len(ids[0]),
          f"restart under load: distinct revisions, the history contiguous (2..{1 + len(history)})")


def pile_history_revisions(replica, pile):
    status, _, body = replica.request("GET", f"/v1/piles/{pile}/events?after=0&limit=1000")
    assert status == 200, body
    return sorted({event["revision"] for event in body["events"]})


def piles_across_replicas(replicas):
    a, b, c = replicas
    status, _, body = a.request("POST", "/v1/piles", {"id": "nav", "bounds": {"width": 375, "height": 667},
                                                       "views": [{"id": "root", "view": {"type": "Root"}}]})
    assert status == 201, body
    status, _, body = b.request("POST", "/v1/piles/nav/push", {"id": "first", "controller": {"type": "FirstVC"}})
    check(status == 200 and body["revision"] == 2, f"a pile created on A is pushed to through B (revision {body and body.get('revision')})")
    seen = [r.request("GET", "/v1/piles/nav") for r in (a, c)]
    check(all(s == 200 and p["revision"] == 2 and p["active"] == "first" and h.get("ETag") == '"2"' for s, h, p in seen),
          "B's push is read at once on A and C (revision 2, active view, ETag)")
    status, _, _ = a.request("POST", "/v1/piles/nav/push", {"id": "second", "view": {"type": "V"}}, {"If-Match": '"2"'})
    stale, _, body = c.request("POST", "/v1/piles/nav/pop", None, {"If-Match": '"2"'})
    check(status == 200 and stale == 412 and body["error"]["code"] == "precondition_failed",
          f"If-Match across replicas: A's push on \"2\" answers {status}, then C's pop on \"2\" answers {stale}")

    stream = EventStream(c, "nav", last_event_id=3, kind="piles")
    acked, lock = {}, threading.Lock()

    def client(index):
        for n in range(10):
            try:
                status, _, body = replicas[(index + n) % 3].request("POST", "/v1/piles/nav/push", {"id": f"p{index}-{n}", "view": {"type": "V"}})
            except (OSError, http.client.HTTPException):
                continue
            if status == 200:
                with lock:
                    acked[f"p{index}-{n}"] = body["revision"]

    check(run_clients(client, 6), "6 concurrent pile clients finished within 120 s")
    latest = 3 + len(acked)
    check(sorted(acked.values()) == list(range(4, latest + 1)) and len(acked) == 60,
          f"{len(acked)} of 60 concurrent pushes through A, B and C acknowledged, with the distinct contiguous revisions 4..{latest}")
    for replica in replicas:
        status, _, body = replica.request("GET", "/v1/piles/nav")
        ids = {view["id"] for view in body["views"]}
        check(status == 200 and body["revision"] == latest and ids == {"root", "first", "second"} | set(acked),
              f"the pile on replica {replica.name}: revision {body.get('revision')}, every acknowledged view and nothing else")
    check(pile_history_revisions(b, "nav") == list(range(2, latest + 1)), f"the pile's history has revisions 2..{latest}, each once")
    ids, resumed = events_through(stream, c, "nav", latest, seconds=20, kind="piles")
    check(ids == list(range(4, latest + 1)),
          f"pile events on C: revisions 4..{latest} pushed through A, B and C, in order, once each ({len(ids)} events, resumed {resumed} times)")
    status, _, listed = c.request("GET", "/v1/piles")
    check(status == 200 and {"id": "nav", "revision": latest, "viewCount": 3 + len(acked), "active": max(acked, key=acked.get)} in listed,
          "GET /v1/piles on C lists the pile at its latest revision")

    status, _, _ = a.request("POST", "/v1/piles", {"id": "dup", "bounds": {"width": 10, "height": 10}})
    again, _, body = b.request("POST", "/v1/piles", {"id": "dup", "bounds": {"width": 10, "height": 10}})
    check(status == 201 and again == 409 and body["error"]["code"] == "duplicate_id", f"a pile id created on A is taken on B ({status}, {again})")
    c.request("GET", "/v1/piles/dup")  # C caches it, so the deletion must reach a cached copy
    deleted, _, _ = b.request("DELETE", "/v1/piles/dup")
    gone = [r.request("GET", "/v1/piles/dup")[0] for r in (a, c)]
    check(deleted == 204 and gone == [404, 404], f"a pile deleted on B is gone on A and C ({deleted}, {gone})")


def stale_caches(replicas):
    """A replica whose cached stack is behind another replica's write answers as if it were
    current (Semantics.md, "Writes on a replica without a head read"): a breach of the rules
    below shows in a few percent of tries, so a hundred-odd tries each catch it."""
    a, b, c = replicas
    status, _, body = a.request("POST", "/v1/stacks", {"id": "behind", "rows": [row("base")]})
    assert status == 201, body
    wrong = []
    for n in range(120):
        # A writes (its cache is current and its write may still be in flight), B writes: A's
        # cache is now one revision behind, and A's next answer must not come of it.
        insert(a, "behind", f"a{n}")
        _, _, made = insert(b, "behind", f"b{n}")
        if n % 2 == 0:
            status, _, body = a.request("PATCH", "/v1/stacks/behind", {"spacing": n % 7}, {"If-Match": f'"{made["revision"]}"'})
        else:
            status, _, body = a.request("PATCH", f"/v1/stacks/behind/rows/b{n}", {"hidden": True})
        if status != 200:
            wrong.append((n, status, body and body.get("error", {}).get("code")))
    check(not wrong, f"120 writes through A just after B's: If-Match naming B's revision and rows B just added are accepted (wrong: {wrong[:4]})")

    # B learns of the deletion from its watcher too, a moment later: the create comes first.
    answered = []
    for n in range(40):
        stack = f"again{n}"
        a.request("POST", "/v1/stacks", {"id": stack, "rows": []})
        b.request("GET", f"/v1/stacks/{stack}")  # B caches it
        insert(a, stack, "x")
        a.request("DELETE", f"/v1/stacks/{stack}")
        answered.append(b.request("POST", "/v1/stacks", {"id": stack, "rows": []})[0])
    check(answered == [201] * 40, f"a stack id deleted on A is free on B at once, though B cached it ({answered.count(201)} of 40 creates on B answered 201, {answered.count(409)} 409)")
    answered = []
    for n in range(10):
        pile = f"again{n}"
        a.request("POST", "/v1/piles", {"id": pile, "bounds": {"width": 10, "height": 10}})
        b.request("GET", f"/v1/piles/{pile}")
        a.request("DELETE", f"/v1/piles/{pile}")
        answered.append(b.request("POST", "/v1/piles", {"id": pile, "bounds": {"width": 10, "height": 10}})[0])
    check(answered == [201] * 10, f"a pile id deleted on A is free on B at once, though B cached it (creates on B: {sorted(set(answered))})")

    # Writers on A and B while C deletes the stack and creates it again: each write lands
    # (200) or finds no stack (404); none is a 503 for a stack that is simply gone.
    seen, messages, lock = {}, [], threading.Lock()
    for n in range(6):
        stack = f"race{n}"
        c.request("POST", "/v1/stacks", {"id": stack, "rows": []})
        go = threading.Event()
        done = threading.Event()

        def writer(replica, prefix):
            go.wait(10)
            for k in range(60):
                status, _, body = insert(replica, stack, f"{prefix}{k}")
                with lock:
                    error = body.get("error", {}) if isinstance(body, dict) else {}
                    key = (status, error.get("code"))
                    seen[key] = seen.get(key, 0) + 1
                    if status not in (200, 404):
                        messages.append(error.get("message") or str(body))
                if done.is_set() and k > 20:
                    return

        threads = [threading.Thread(target=writer, args=(r, p)) for r, p in ((a, "a"), (b, "b"))]
        for thread in threads:
            thread.start()
        go.set()
        insert(c, stack, "c0")
        c.request("DELETE", f"/v1/stacks/{stack}")
        c.request("POST", "/v1/stacks", {"id": stack, "rows": []})
        done.set()
        for thread in threads:
            thread.join(timeout=60)
    others = {key: count for key, count in seen.items() if key[0] not in (200, 404)}
    check(not others and seen.get((200, None), 0) > 0,
          f"writes racing a deletion on another replica answer 200 or 404 ({seen.get((200, None), 0)} and {seen.get((404, 'stack_not_found'), 0)}; others: {others} {messages[:2]})")


def answers(server, targets):
    """Every target's (status, ETag, body bytes) on `server`."""
    return {target: server.raw("GET", target) for target in targets}


def sse_backlog(server, kind, key, latest):
    """The event stream's bytes (its chunked framing removed) once revision `latest` is in."""
    stream = EventStream(server, key, last_event_id=1, kind=kind)
    stream.wait_for(latest)
    stream.close()
    body, data = stream.raw.split(b"\r\n\r\n", 1)[-1], b""
    while b"\r\n" in body:
        size, rest = body.split(b"\r\n", 1)
        length = int(size, 16)
        if length == 0 or len(rest) < length + 2:
            break
        data, body = data + rest[:length], rest[length + 2:]
    return data


def migration(binary, url, directory, rng):
    data = tempfile.mkdtemp(prefix="scrollstack-migrate-")
    source = Replica(binary, url, "sqlite", storage=["--data-dir", data])
    created = [source.request("POST", "/v1/stacks", {"id": sid, "viewport": {"width": 375, "height": 667},
                                                    "rows": [row(f"{sid}-0")]})[0] for sid in ("home", "other", "gone")]
    assert created == [201, 201, 201], created
    source.request("DELETE", "/v1/stacks/gone")
    for n in range(1, 40):
        choice = rng.randrange(6)
        if choice == 0:
            source.request("PATCH", f"/v1/stacks/home/rows/home-0", {"hidden": n % 2 == 1})
        elif choice == 1:
            source.request("POST", "/v1/stacks/home/scroll", {"offset": {"x": 0, "y": rng.randrange(0, 200)}})
        elif choice == 2 and n > 5:
            source.request("POST", "/v1/stacks/home/revert", {"to": rng.randrange(1, 4), "animation": True})
        else:
            source.request("POST", "/v1/stacks/home/rows", {"at": rng.choice(["top", "bottom"]), "rows": [row(f"r{n}")], "animation": n % 3 == 0})
        source.request("POST", "/v1/stacks/other/rows", {"rows": [row(f"o{n}")]})
    source.request("POST", "/v1/piles", {"id": "nav", "bounds": {"width": 375, "height": 667}, "views": [{"id": "root", "view": {"type": "Root"}}]})
    for n in range(8):
        source.request("POST", "/v1/piles/nav/push", {"id": f"v{n}", "controller": {"type": "VC"}, "animation": True})
    source.request("POST", "/v1/piles/nav/pop", {"animation": {"duration": 0.4}})
    heads = {sid: source.request("GET", f"/v1/stacks/{sid}")[2]["revision"] for sid in ("home", "other")}
    pile_head = source.request("GET", "/v1/piles/nav")[2]["revision"]
    targets = ["/v1/stacks", "/v1/piles", "/v1/piles/nav", f"/v1/piles/nav/events?after=0&limit=1000", "/v1/stacks/gone"]
    targets += [f"/v1/piles/nav/transitions/{k}?fps=30" for k in range(2, pile_head + 1)]
    for sid, head in heads.items():
        targets += [f"/v1/stacks/{sid}", f"/v1/stacks/{sid}/layout", f"/v1/stacks/{sid}/events?after=0&limit=1000"]
        targets += [f"/v1/stacks/{sid}?revision={k}" for k in range(1, head + 1)]
        targets += [f"/v1/stacks/{sid}/transitions/{k}" for k in range(2, head + 1)]
    before = answers(source, targets)
    streams = {("stacks", sid): sse_backlog(source, "stacks", sid, head) for sid, head in heads.items()}
    streams[("piles", "nav")] = sse_backlog(source, "piles", "nav", pile_head)
    source.stop()

    psql = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql")) or ["psql"]
    subprocess.run([psql[-1], url, "-qc", "CREATE DATABASE migrated"], check=True, timeout=60)
    target = url.rsplit("/", 1)[0] + "/migrated"

    def migrate(*extra, data_dir=data):
        done = subprocess.run([binary, "migrate", "--data-dir", data_dir, "--store", target, *extra], capture_output=True, text=True, timeout=300)
        return done.returncode, done.stderr

    code, said = migrate()
    check(code == 0 and "copied 2 stacks and 1 pile " in said, f"migrate copies the data dir: exit {code}, {said.strip().splitlines()[-1:]}")
    code, said = migrate()
    check(code == 1 and "nothing was copied" in said and "--replace" in said, f"a second migrate without --replace is refused (exit {code})")
    for attempt in range(2):
        code, said = migrate("--replace")
        check(code == 0, f"migrate --replace, run {attempt + 1}: exit {code}")
    replica = Replica(binary, target, "migrated")
    try:
        after = answers(replica, targets)
        differing = [t for t in targets if after[t] != before[t]]
        check(not differing and all(before[t][0] == 200 for t in targets if "gone" not in t),
              f"a replica on the migrated database answers all {len(targets)} reads byte for byte as the SQLite server did"
              f" (every revision of 2 stacks, history, plans, the pile){'; differ: ' + ', '.join(differing[:5]) if differing else ''}")
        for (kind, key), backlog in streams.items():
            latest = heads.get(key, pile_head)
            check(backlog and sse_backlog(replica, kind, key, latest) == backlog,
                  f"the live event backlog of {kind[:-1]} {key} (Last-Event-ID 1, {latest - 1} revisions) is the same bytes")
        status, etag, _ = replica.raw("POST", "/v1/stacks/home/rows", {"rows": [row("after")]})
        check(status == 200 and etag == f'"{heads["home"] + 1}"', f"the migrated stack goes on at revision {heads['home'] + 1} ({status}, {etag})")
    finally:
        replica.stop()

    # A data dir of journal format 1 (each revision kept as its HTTP request): refused, naming
    # its format, with nothing copied.
    old = tempfile.mkdtemp(prefix="scrollstack-migrate-format1-")
    import sqlite3
    legacy = sqlite3.connect(os.path.join(old, "scrollstack.sqlite"))
    legacy.executescript("""
        CREATE TABLE mutations (stack TEXT NOT NULL, revision INTEGER NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL,
                                body BLOB NOT NULL, events BLOB NOT NULL, PRIMARY KEY (stack, revision));
        INSERT INTO mutations VALUES ('s', 2, 'PATCH', '/v1/stacks/s', CAST('{"spacing":4}' AS BLOB), CAST('[]' AS BLOB));
        PRAGMA user_version = 1;
        """)
    legacy.close()
    subprocess.run([psql[-1], url, "-qc", "CREATE DATABASE fixture"], check=True, timeout=60)
    target = url.rsplit("/", 1)[0] + "/fixture"
    code, said = migrate(data_dir=old)
    tables = subprocess.run([psql[-1], target, "-Atc", "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"],
                            capture_output=True, text=True, timeout=60).stdout.strip()
    check(code != 0 and "journal format 1" in said and tables == "0",
          f"a data dir of journal format 1 is refused, naming its format, nothing copied: exit {code}, {tables} tables, {said.strip().splitlines()[-1:]}")
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    # Taken out of the environment the replicas inherit: scrollstackd refuses SCROLLSTACK_*
    # variables that name none of its options.
    seed = int(os.environ.pop("SCROLLSTACK_SEED", None) or "20261123")
    print(f"seed {seed} (SCROLLSTACK_SEED={seed} replays it)")
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="scrollstack-pg-check-")
    os.rmdir(directory)
    replicas = []
    try:
        url = subprocess.run([CLUSTER, "start", directory, "off"], check=True, timeout=180, capture_output=True, text=True).stdout.strip()
        replicas = [Replica(args.binary, url, name) for name in "ABC"]
        for step in (lambda: concurrent_writes(replicas, rng), lambda: live_events(replicas),
                     lambda: streams_under_contention(replicas),
                     lambda: piles_across_replicas(replicas), lambda: stale_caches(replicas),
                     lambda: reads_racing_deletion(replicas),
                     lambda: kill_mid_write(args.binary, url, replicas),
                     lambda: postgres_restart(directory, replicas), lambda: batched_one_stack(replicas),
                     lambda: restart_under_load(directory, replicas), lambda: migration(args.binary, url, directory, rng)):
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


if __name__ == "__main__":
    main()
