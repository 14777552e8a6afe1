#!/usr/bin/env python3
"""Instructions per request: scrollstackd runs under `valgrind --tool=callgrind`
(instrumentation on from the start, so nothing is toggled), a 10,000-row stack is built, and
for each kind of request (the last two, a full layout of the whole stack, fewer
times: `--full-requests`; "repeated" asks the same again, which a server keeping streamed
answers answers from the kept bytes, "uncached" with a new `Accept` parameter each time, so
it is always laid out, encoded and streamed) the counters are zeroed (`callgrind_control -z`), N requests are sent
one after another on one keep-alive connection, and the counters are dumped
(`callgrind_control -d`); the dump's total of instructions (Ir) divided by N is the figure.
Whatever the server does between requests (its idle threads) is included: it is part of the
cost of serving, and so are the one or two `/healthz` requests that wake valgrind's scheduler
for each `callgrind_control` command. Prints one line per kind.

Valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information Swift writes and gives
up at start, so the binary is run from a copy with its debug sections stripped (its symbols
stay, so `callgrind_annotate` still names functions)."""
import argparse, glob, http.client, json, os, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def control(args, pid, port):
    """Runs callgrind_control while poking the server so that valgrind's scheduler notices
    the command (it is read when a thread runs)."""
    proc = subprocess.Popen(["callgrind_control"] + args + [str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while proc.poll() is None:
        if time.time() > deadline:
            proc.kill()
            sys.exit("callgrind_control did not finish")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/healthz")
            c.getresponse().read()
            c.close()
        except OSError:
            pass
        time.sleep(0.2)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--requests", type=int, default=300)
    p.add_argument("--full-requests", type=int, default=5, help="full layouts of the whole stack (streamed), each about 250 bytes per row")
    p.add_argument("--keep", help="copy the dumps into this folder (for callgrind_annotate)")
    p.add_argument("--start-timeout", type=float, default=600, help="seconds the server may take to start under valgrind (minutes on a loaded machine)")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="sscg-")
    port = free_port()
    out = os.path.join(work, "callgrind.out.%p")
    binary = os.path.join(work, "scrollstackd")
    subprocess.run(["strip", "--strip-debug", "-o", binary, args.binary], check=True)
    server = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
                               "--port", str(port), "--log-level", "warning", "--in-memory"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + args.start_timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("the server did not start under valgrind")
                time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        def send(method, path, body=None, headers=None):
            data = json.dumps(body).encode() if body is not None else None
            h = {"Content-Type": "application/json"} if data else {}
            h.update(headers or {})
            conn.request(method, path, body=data, headers=h)
            r = conn.getresponse()
            payload = r.read()
            if r.status >= 300:
                sys.exit(f"{method} {path}: {r.status} {payload[:200]!r}")
            return payload
        rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(args.rows)]
        send("POST", "/v1/stacks", {"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows})
        insert = {"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": args.rows // 2}}
        counter = [0]
        def uncached():
            counter[0] += 1
            return {"Accept": f"application/json;n={counter[0]}"}
        kinds = [
            ("GET /healthz", lambda: send("GET", "/healthz")),
            ("GET layout?window=visible, cached", lambda: send("GET", "/v1/stacks/bench/layout?window=visible")),
            ("GET layout?window=visible, uncached", lambda: send("GET", "/v1/stacks/bench/layout?window=visible", headers=uncached())),
            ("POST rows (insert 1)", lambda: send("POST", "/v1/stacks/bench/rows", insert)),
            ("GET layout (full), repeated", lambda: send("GET", "/v1/stacks/bench/layout")),
            ("GET layout (full, streamed), uncached", lambda: send("GET", "/v1/stacks/bench/layout", headers=uncached())),
        ]
        counts = [args.requests] * 4 + [args.full_requests] * 2
        print(f"valgrind --tool=callgrind, {args.rows}-row stack in memory, {args.requests} requests of each kind on one connection")
        print(f"{'request':40} {'instructions/request':>22}")
        for (name, run), count in zip(kinds, counts):
            run()  # warm, twice: the code is loaded, the cache holds the answer (a streamed
            run()  # answer is kept from its second request on)
            control(["-z"], server.pid, port)
            for _ in range(count):
                run()
            before = set(glob.glob(os.path.join(work, "callgrind.out.*")))
            control(["-d"], server.pid, port)
            dumps = sorted(set(glob.glob(os.path.join(work, "callgrind.out.*"))) - before, key=os.path.getmtime)
            total = 0
            for dump in dumps:
                with open(dump) as f:
                    for line in f:
                        m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                        if m:
                            total = max(total, int(m.group(1)))
                            break
            print(f"{name:40} {total / count:>22,.0f}")
            sys.stdout.flush()
        conn.close()
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for dump in glob.glob(os.path.join(work, "callgrind.out.*")):
                shutil.copy(dump, args.keep)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
