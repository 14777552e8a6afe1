#!/usr/bin/env python3
"""Durable inserts per second (journal on disk, synchronous=FULL) with 1, 4, 16 and 64
concurrent clients (wrk connections), on one stack and on separate stacks, with group commit
and without it (--no-group-commit: the baseline, same run). The server runs with
--threads 64, so its worker threads are not the limit; the runs alternate between the two
modes. Prints the medians of --runs runs."""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(binary, data, port, extra):
    process = subprocess.Popen([binary, "--port", str(port), "--data-dir", data, "--log-level", "warning", "--threads", "64"] + extra)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the daemon did not start")

def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

LUA = """
local body = '{"rows":[{"view":{"type":"Cell"},"size":{"fixed":44}}],"at":{"index":50}}'
local threads = 0
function setup(thread) thread:set("first", threads * %(per_thread)d); threads = threads + 1 end
local n = 0
function request()
  n = n + 1
  local stack = %(separate)s and (first + n %% %(per_thread)d) or 0
  return wrk.format("POST", "/v1/stacks/s" .. stack .. "/rows", {["Content-Type"] = "application/json"}, body)
end
"""

def wrk(port, clients, separate, seconds, work):
    threads = min(2, clients)
    script = os.path.join(work, f"insert-{clients}-{separate}.lua")
    with open(script, "w") as f:
        f.write(LUA % {"per_thread": max(1, clients // threads), "separate": "true" if separate else "false"})
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{clients}", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{port}/"],
                         capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"wrk saw {errors.group(1)} error responses:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--duration", type=int, default=3)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--clients", default="1,4,16,64")
    args = p.parse_args()
    clients = [int(c) for c in args.clients.split(",")]
    work = tempfile.mkdtemp(prefix="ssdurable-")
    modes = {"group commit": [], "no group commit": ["--no-group-commit"]}
    results = {}
    try:
        for run in range(args.runs):
            for mode, extra in modes.items():
                data = os.path.join(work, f"data-{run}-{len(extra)}")
                port = free_port()
                server = start(args.binary, data, port, extra)
                try:
                    rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(100)]
                    for s in range(max(clients)):
                        call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": rows})
                    for c in clients:
                        for separate in (False, True):
                            results.setdefault((c, separate, mode), []).append(wrk(port, c, separate, args.duration, work))
                finally:
                    server.send_signal(signal.SIGTERM)
                    server.wait(timeout=60)
                shutil.rmtree(data, ignore_errors=True)
        print(f"durable inserts/s (synchronous=FULL, fsync per commit), wrk -d{args.duration}s, median of {args.runs} alternating runs; "
              f"server --threads 64; {os.cpu_count()} cores shared by wrk and the server")
        print(f"{'clients':>7} | {'one stack: group':>16} {'no group':>9} {'ratio':>6} | {'separate stacks: group':>22} {'no group':>9} {'ratio':>6}")
        for c in clients:
            cells = []
            for separate in (False, True):
                on = statistics.median(results[(c, separate, "group commit")])
                off = statistics.median(results[(c, separate, "no group commit")])
                cells.append((on, off, on / off))
            (a, b, r1), (d, e, r2) = cells
            print(f"{c:>7} | {a:>16.0f} {b:>9.0f} {r1:>6.2f} | {d:>22.0f} {e:>9.0f} {r2:>6.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
