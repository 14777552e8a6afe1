#!/usr/bin/env python3
"""Insert latency on a growing stack: from --rows rows, wrk -c32 inserts one row in the
middle per request for --duration seconds (the stack grows past 150,000 rows at today's
rates), so the run crosses many snapshot points (every rows / 8 revisions). Same run,
alternating: the --baseline binary (e.g. an older build; --baseline-flags gives it options
of its own) and --binary. Both run --in-memory, as the HTTP table of Docs/Benchmarks.md, or
with --durable on a data dir."""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, tempfile, time, urllib.request

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

def run(binary, args, work, flags=()):
    port = free_port()
    storage = ["--data-dir", os.path.join(work, "data")] if args.durable else ["--in-memory"]
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning"] + storage + list(flags))
    try:
        deadline = time.time() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise SystemExit("the daemon did not start")
                time.sleep(0.05)
        rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(args.rows)]
        call(port, "POST", "/v1/stacks", {"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows})
        lua = os.path.join(work, "insert.lua")
        with open(lua, "w") as f:
            body = {"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": args.rows // 2}}
            f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
            f.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
        # wrk leaves requests slower than its timeout (2 s by default) out of the latencies:
        # 10 s keeps them in, and any still slower are counted apart.
        out = subprocess.run(["wrk", "-t2", "-c32", f"-d{args.duration}s", "--timeout", "10s", "--latency", "-s", lua, f"http://127.0.0.1:{port}/v1/stacks/bench/rows"],
                             capture_output=True, text=True, check=True).stdout
        if "Non-2xx" in out:
            raise SystemExit(f"errors:\n{out}")
        lat = {}
        for pct in ("50", "99"):
            m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
            lat[pct] = float(m.group(1)) * UNITS[m.group(2)]
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        count = json.loads(call(port, "GET", "/v1/stacks")[1])[0]["rowCount"]
        timeouts = re.search(r"timeout (\d+)", out)
        return rps, lat["50"], lat["99"], count, int(timeouts.group(1)) if timeouts else 0
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
        shutil.rmtree(os.path.join(work, "data"), ignore_errors=True)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--baseline", required=True)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--duration", type=int, default=40)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--durable", action="store_true")
    p.add_argument("--baseline-flags", default="", help="options for the baseline server only, space-separated")
    p.add_argument("--flags", default="", help="options for both servers, space-separated (e.g. --threads 32)")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="ssp99-")
    results = {"baseline": [], "this build": []}
    try:
        for _ in range(args.runs):
            results["baseline"].append(run(args.baseline, args, work, args.flags.split() + args.baseline_flags.split()))
            results["this build"].append(run(args.binary, args, work, args.flags.split()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"POST rows (insert 1 in the middle), wrk -t2 -c32 -d{args.duration}s from {args.rows} rows; "
          f"{'durable' if args.durable else 'in memory'}; median of {args.runs} alternating runs"
          + (f"; both servers {args.flags}" if args.flags else "")
          + (f"; baseline {args.baseline_flags}" if args.baseline_flags else ""))
    print(f"{'server':12} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'rows at the end':>16} {'timeouts':>9}")
    for name, values in results.items():
        m = [statistics.median(v[i] for v in values) for i in range(5)]
        print(f"{name:12} {m[0]:>8.0f} {m[1]:>8.2f} {m[2]:>8.2f} {m[3]:>16.0f} {m[4]:>9.0f}")

if __name__ == "__main__":
    main()
