#!/usr/bin/env python3
"""Worker threads per core: one scrollstackd per `--threads` value (in-memory store), measured
with wrk on loopback in alternating runs, on three request kinds: a cached GET of a stack
(the answer cache), an uncached GET (each request its own Accept parameter, so the layout is
encoded anew) and an insert (POST rows, durable in memory, into a stack of its own). By
default the cached GET and the insert are measured (`--cases`). Prints, per thread count and
kind, the median requests/s and p99 latency over the runs, and the server's CPU per request
(user + system from /proc). The core count is printed with them: what the default of
`--threads` (the core count) is judged against.

    python3 Benchmarks/threads_bench.py --binary .build/release/scrollstackd --threads-list 1,2,4,8
"""
import argparse, json, os, re, signal, socket, statistics, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def wait_port(port, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")

def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status

def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}

def wrk(url, seconds, connections, script, pid):
    """(requests/s, p99 ms, CPU µs per request of the server)."""
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"] + (["-s", script] if script else []) + [url]
    before = cpu_seconds(pid)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=seconds + 60).stdout
    used = cpu_seconds(pid) - before
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"wrk saw {errors.group(1)} error responses from {url}:\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    if requests == 0:
        raise SystemExit(f"wrk completed no request to {url} (server {pid}):\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    m = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    return rps, float(m.group(1)) * UNITS[m.group(2)], used * 1e6 / max(1, requests)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--threads-list", default="1,2,4,8")
    p.add_argument("--rows", type=int, default=1000)
    p.add_argument("--duration", type=int, default=3)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--cases", default="cached,insert")
    args = p.parse_args()
    counts = [int(t) for t in args.threads_list.split(",")]
    cases = args.cases.split(",")
    work = tempfile.mkdtemp(prefix="ssthreads-")
    uncached = os.path.join(work, "uncached.lua")
    with open(uncached, "w") as f:
        f.write('counter = 0\nrequest = function()\n  counter = counter + 1\n'
                '  return wrk.format(nil, nil, {["Accept"] = "application/json;n=" .. counter})\nend\n')
    insert = os.path.join(work, "insert.lua")
    body = json.dumps({"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": args.rows // 2}})
    with open(insert, "w") as f:
        f.write(f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = {json.dumps(body)}\n')
    servers = {}
    try:
        for count in counts:
            port = free_port()
            servers[count] = (port, subprocess.Popen([args.binary, "--port", str(port), "--log-level", "warning", "--in-memory",
                                                      "--threads", str(count)]))
        rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(args.rows)]
        for port, _ in servers.values():
            wait_port(port)
            post(port, "/v1/stacks", {"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows})
            # Inserts go to a stack of their own, so the GETs' answer keeps its size.
            post(port, "/v1/stacks", {"id": "inserts", "viewport": {"width": 375, "height": 667}, "rows": rows})
        results = {(count, case): [] for count in counts for case in cases}
        for run in range(args.runs):
            for case in cases:
                for count in counts:
                    port, server = servers[count]
                    path = "/v1/stacks/inserts/rows" if case == "insert" else "/v1/stacks/bench"
                    script = {"cached": None, "uncached": uncached, "insert": insert}[case]
                    results[(count, case)].append(wrk(f"http://127.0.0.1:{port}{path}", args.duration, args.connections, script, server.pid))
        print(f"{os.cpu_count()} cores; wrk -t2 -c{args.connections} -d{args.duration}s, median of {args.runs} alternating runs, {args.rows} rows")
        print(f"{'case':<10}{'threads':>8}{'req/s':>10}{'p99 ms':>9}{'CPU µs/req':>12}")
        for case in cases:
            for count in counts:
                runs = results[(count, case)]
                print(f"{case:<10}{count:>8}{statistics.median(r[0] for r in runs):>10.0f}"
                      f"{statistics.median(r[1] for r in runs):>9.2f}{statistics.median(r[2] for r in runs):>12.0f}")
    finally:
        for _, server in servers.values():
            server.send_signal(signal.SIGTERM)
        for _, server in servers.values():
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()

if __name__ == "__main__":
    main()
