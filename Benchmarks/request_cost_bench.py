#!/usr/bin/env python3
"""What the costliest request of each kind costs one scrollstackd, beside a plain one.

    python3 Benchmarks/request_cost_bench.py [--binary .build/release/scrollstackd]
        [--in-memory | --data-dir DIR] [--runs N] [--seed S] [--port P]

Starts the binary (--in-memory by default; --data-dir keeps a journal in DIR, or in a fresh
temporary folder with --data-dir ''), builds the stacks below, then sends each kind N times
(default 3) and prints, per kind, the answer's status and size, the server's CPU seconds
(user + system around the request: the threads' /proc/PID/task/*/schedstat run times, which
/proc/PID/stat's utime + stime give in 10 ms ticks) and its peak resident memory above
what it held before the request (VmHWM from /proc/PID/status, reset before each request by
writing 5 to /proc/PID/clear_refs), each the median of the runs, with the ratio of the CPU to
a plain 10-row stateless layout measured in the same run, and whether the targets are met
(at most 1 s of CPU and 64 MiB above the model per request):

  text×devices POST   POST /v1/layout: 1,000 text rows, each at its own font size (~600 bytes
                      of words each, 0.6 MB), and 14 distinct devices (9 built-in, 5 custom; 13
                      differ from the viewport: the most the default text budget admits); the
                      text differs each run, so every run shapes it cold.
  text×16 devices     the same with 16 devices (9 built-in, 7 custom): past the budget.
  text×devices GET    GET /v1/stacks/text/layout?window=visible&devices=<the 9 built-in,
                      then 7 again, rotated each run so no answer is cached>, on a stored stack
                      of such rows (about 270 bytes of request).
  rows×devices GET    GET /v1/stacks/big/layout?window=visible&devices=<5 that differ from its
                      viewport, rotated each run> on the 200,000-row stack: 1,000,000 row
                      layouts, the default budget.
  events catch-up     GET /v1/stacks/hist/events?after=1&limit=1000 on a 50,000-row stack
                      with 20 delete-all/revert pairs after its creation.
  svg 200k            GET /v1/stacks/big/layout.svg of a 200,000-row stack.
  text layout         POST /v1/layout: 1,000 text rows of ~900 bytes in one font (0.9 MB).
  plain (baseline)    POST /v1/layout of 10 fixed rows.

Then /healthz latency (p50 and max over probes sent one after another) while two
"text×devices POST" requests run at once, against a target of 100 ms; and /healthz latency
from another address (127.0.0.2) while --trickle-connections (2,000) connections from
--trickle-addresses (20) loopback addresses (127.0.0.10 on) trickle a request head one byte a
second for --trickle-seconds (20), against the same target.

The text is random words from a seeded generator (--seed, printed).
"""
import argparse, json, os, random, resource, socket, statistics, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.request

WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore "
         "magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo "
         "consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur").split()
BUILT_IN = ["iphone-se", "iphone-mini", "iphone-15", "iphone-15-plus", "iphone-15-pro-max", "ipad-mini", "ipad",
            "ipad-pro-11", "ipad-pro-13"]
CPU_TARGET = 1.0
MEMORY_TARGET_MIB = 64
HEALTH_TARGET_MS = 100


def ticks(pid):
    """The process's CPU so far, user + system, in seconds: the sum over its threads of
    /proc/PID/task/TID/schedstat's run time (nanoseconds; /proc/PID/stat's utime + stime
    count in clock ticks of 10 ms, too coarse for the plain request), falling back to
    /proc/PID/stat when schedstat is missing. Threads that ended are counted by stat only."""
    total, found = 0, False
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(open(f"/proc/{pid}/task/{task}/schedstat").read().split()[0])
            found = True
        except (OSError, ValueError, IndexError):
            pass
    if found:
        return total / 1e9
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def reset_peak(pid):
    """Makes VmHWM the current RSS (Linux: clear_refs 5), so it holds this request's peak."""
    with open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")


def request(port, method, path, body=None, headers=None):
    """(status, body bytes) of one request; `body` is sent as JSON (bytes as they are)."""
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=600) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, store, port):
    process = subprocess.Popen([binary, *store, "--port", str(port), "--log-level", "warning"], stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while True:
        try:
            if request(port, "GET", "/healthz")[0] == 200:
                return process
        except OSError:
            pass
        if time.time() > deadline or process.poll() is not None:
            process.kill()
            sys.exit(f"{binary} did not start on port {port}")
        time.sleep(0.05)  # polling for start-up, bounded by the deadline


def probe(port, source="127.0.0.2"):
    """Milliseconds for GET /healthz on a fresh connection from `source`, or None when it is
    not answered 200 within 5 s."""
    t0 = time.perf_counter()
    try:
        with socket.socket() as s:
            s.bind((source, 0))
            s.settimeout(5)
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = s.recv(4096)
    except OSError:
        return None
    return (time.perf_counter() - t0) * 1000 if answer.startswith(b"HTTP/1.1 200") else None


def trickle(port, connections, addresses, seconds):
    """/healthz from 127.0.0.2 every 0.25 s while `connections` from `addresses` loopback
    addresses each send one byte of a request head a second, for `seconds`."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, connections + 256)), hard))
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + b"a" * 200
    sockets = []
    for i in range(connections):
        s = socket.socket()
        s.bind((f"127.0.0.{10 + i % addresses}", 0))
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            continue
        sockets.append(s)
    latencies, failed, sent = [], 0, 0
    started = time.monotonic()
    next_probe = started + 0.25
    while time.monotonic() - started < seconds:
        if time.monotonic() - started >= sent:
            for s in sockets:
                try:
                    s.send(head[sent:sent + 1])
                except OSError:
                    pass
            sent += 1
        if time.monotonic() >= next_probe:
            next_probe += 0.25
            ms = probe(port)
            if ms is None:
                failed += 1
            else:
                latencies.append(ms)
        time.sleep(0.01)  # the trickle's own pace, not a synchronization
    still_open = 0
    for s in sockets:
        try:
            if s.recv(1, socket.MSG_PEEK):
                still_open += 1
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        s.close()
    latencies.sort()
    worst = latencies[-1] if latencies else float("inf")
    p50 = statistics.median(latencies) if latencies else float("inf")
    print(f"\n/healthz while {len(sockets)} connections from {addresses} addresses trickle for {seconds:g} s: "
          f"{len(latencies)} probes answered, {failed} not; p50 {p50:.1f} ms, max {worst:.1f} ms (target max <= {HEALTH_TARGET_MS} ms)  "
          f"{'target met' if failed == 0 and worst <= HEALTH_TARGET_MS else 'not met'}; {still_open} trickling connections still open")


def words(rng, nbytes):
    out, size = [], 0
    while size < nbytes:
        w = rng.choice(WORDS)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def text_rows(rng, count, nbytes, sized=True):
    return [{"id": f"t{i}", "view": {"type": "Label"}, "size": "fit",
             "content": {"text": words(rng, nbytes), "font": {"family": "Inter", "size": 8 + i / 16 if sized else 15}}}
            for i in range(count)]


def custom_devices():
    return [{"name": f"custom-{i}", "width": 300 + 37 * i, "height": 700} for i in range(7)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/scrollstackd")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--in-memory", action="store_true", help="the default")
    store.add_argument("--data-dir", help="a journal in this folder ('' for a fresh temporary one)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--trickle-connections", type=int, default=2000)
    parser.add_argument("--trickle-addresses", type=int, default=20)
    parser.add_argument("--trickle-seconds", type=float, default=20)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(f"seed {seed}  binary {args.binary}  runs {args.runs}")
    rng = random.Random(seed)
    if args.data_dir is None:
        store_args = ["--in-memory"]
    else:
        store_args = ["--data-dir", args.data_dir or tempfile.mkdtemp(prefix="request-cost-")]
    port = args.port or free_port()
    process = start(args.binary, store_args, port)
    pid = process.pid
    try:
        # The stored stacks.
        status, body = request(port, "POST", "/v1/stacks", {"id": "text", "rows": text_rows(rng, 1000, 600)})
        assert status == 201, body[:300]
        fixed = [{"id": f"r{i}", "view": {"type": "V"}, "size": {"fixed": 40}} for i in range(200_000)]
        for stack, count in (("hist", 50_000), ("big", 200_000)):
            for start_row in range(0, count, 10_000):
                chunk = fixed[start_row:start_row + 10_000]
                if start_row == 0:
                    status, body = request(port, "POST", "/v1/stacks", {"id": stack, "rows": chunk})
                    assert status == 201, body[:300]
                else:
                    status, body = request(port, "POST", f"/v1/stacks/{stack}/rows", {"rows": chunk})
                    assert status == 200, body[:300]
        for _ in range(20):
            assert request(port, "DELETE", "/v1/stacks/hist/rows")[0] == 200
            assert request(port, "POST", "/v1/stacks/hist/revert", {"to": 1})[0] == 200

        devices16 = BUILT_IN + custom_devices()

        # 13 devices that differ from the viewport (iphone-se's): as many as the default text
        # budget (8 MiB × devices) lets 0.6 MB of text have; 16 are past it.
        devices13 = BUILT_IN + custom_devices()[:5]

        def text_devices_post(devices=devices13):
            body = {"viewport": {"width": 375, "height": 667}, "rows": text_rows(rng, 1000, 600), "devices": devices}
            return "POST", "/v1/layout?window=visible", json.dumps(body).encode()

        rotation = [0]

        def rotated(names):
            rotation[0] += 1
            k = rotation[0] % len(names)
            return ",".join(names[k:] + names[:k])

        kinds = [
            ("text×devices POST", text_devices_post),
            ("text×16 devices POST", lambda: text_devices_post(devices16)),
            ("text×devices GET", lambda: ("GET", "/v1/stacks/text/layout?window=visible&devices=" + rotated(BUILT_IN) + "," + ",".join(BUILT_IN[:7]), None)),
            ("rows×devices GET", lambda: ("GET", "/v1/stacks/big/layout?window=visible&devices=" + rotated(["iphone-mini", "iphone-15", "ipad-mini", "ipad", "ipad-pro-13"]), None)),
            ("events catch-up", lambda: ("GET", "/v1/stacks/hist/events?after=1&limit=1000", None)),
            ("svg 200k", lambda: ("GET", "/v1/stacks/big/layout.svg", None)),
            ("text layout", lambda: ("POST", "/v1/layout?window=visible",
                                     json.dumps({"rows": text_rows(rng, 1000, 900, sized=False)}).encode())),
        ]
        plain = json.dumps({"rows": [{"id": f"p{i}", "view": {"type": "V"}, "size": {"fixed": 44}} for i in range(10)]}).encode()

        def measure(method, path, body):
            reset_peak(pid)
            before_rss = status_kib(pid, "VmRSS")
            before = ticks(pid)
            status, answer = request(port, method, path, body)
            cpu = ticks(pid) - before
            peak = max(0, status_kib(pid, "VmHWM") - before_rss) / 1024
            code = ""
            if status >= 400:
                try:
                    code = json.loads(answer)["error"]["code"]
                except (ValueError, KeyError, TypeError):
                    pass
            return status, len(answer), cpu, peak, code

        results = {name: [] for name, _ in kinds}
        baseline = []
        for _ in range(args.runs):
            baseline.append(measure("POST", "/v1/layout", plain))
            for name, make in kinds:
                results[name].append(measure(*make()))

        base_cpu = statistics.median(r[2] for r in baseline)
        print(f"\nper request, median of {args.runs}; targets: CPU <= {CPU_TARGET:g} s, peak <= {MEMORY_TARGET_MIB} MiB above the model")
        print(f"{'kind':20} {'status':>28} {'answer':>10} {'CPU s':>8} {'× plain':>9} {'peak MiB':>9}  target")
        print(f"{'plain (baseline)':20} {baseline[-1][0]:>28} {baseline[-1][1] / 1e6:>8.3f}MB {base_cpu:>8.4f} {'1':>9} "
              f"{statistics.median(r[3] for r in baseline):>9.1f}")
        for name, _ in kinds:
            runs = results[name]
            status, size, _, _, code = runs[-1]
            cpu = statistics.median(r[2] for r in runs)
            peak = statistics.median(r[3] for r in runs)
            ratio = f"{cpu / base_cpu:9.0f}" if base_cpu > 0 else f"{'-':>9}"
            met = cpu <= CPU_TARGET and peak <= MEMORY_TARGET_MIB
            shown = f"{status} {code}".strip()
            print(f"{name:20} {shown:>28} {size / 1e6:>8.3f}MB {cpu:>8.4f} {ratio} {peak:>9.1f}  {'target met' if met else 'not met'}")

        # /healthz while two of the worst run at once.
        worst = [text_devices_post() for _ in range(2)]
        done = threading.Event()
        outcomes = []

        def run(req):
            outcomes.append(request(port, *req)[0])

        threads = [threading.Thread(target=run, args=(req,)) for req in worst]
        for t in threads:
            t.start()
        waiter = threading.Thread(target=lambda: ([t.join() for t in threads], done.set()))
        waiter.start()
        latencies = []
        while not done.is_set():
            t0 = time.perf_counter()
            request(port, "GET", "/healthz")
            latencies.append((time.perf_counter() - t0) * 1000)
            done.wait(0.01)  # a probe every 10 ms or so until both requests are answered
        waiter.join()
        p50 = statistics.median(latencies)
        worst_ms = max(latencies)
        print(f"\n/healthz during two concurrent 'text×devices POST' (answered {outcomes}): {len(latencies)} probes, "
              f"p50 {p50:.1f} ms, max {worst_ms:.1f} ms (target max <= {HEALTH_TARGET_MS} ms)  "
              f"{'target met' if worst_ms <= HEALTH_TARGET_MS else 'not met'}")
        trickle(port, args.trickle_connections, args.trickle_addresses, args.trickle_seconds)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    main()
