#!/usr/bin/env python3
"""What recording metrics costs a request: wrk on loopback against the same scrollstackd
binary started without and with --metrics (and, with --baseline, another binary, e.g. main's
build, without it), each holding a stack of 10,000 rows in memory. The runs alternate between
the servers; prints medians of requests/s and p50/p99 latency, and each server's ratio to the
one without --metrics.
    python3 Benchmarks/metrics_bench.py --binary .build/release/scrollstackd [--baseline OTHER] [--runs K]
"""
import argparse, json, re, statistics, subprocess, urllib.request

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}

def start(binary, extra):
    server = subprocess.Popen([binary, "--port", "0", "--in-memory", "--log-level", "notice"] + extra,
                              stderr=subprocess.PIPE, text=True)
    for _ in range(50):
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", server.stderr.readline())
        if match:
            port = int(match.group(1))
            break
    else:
        server.kill()
        raise SystemExit(f"{binary} {extra} did not start")
    subprocess.Popen(["cat"], stdin=server.stderr, stdout=subprocess.DEVNULL)  # keep its log drained
    rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(10_000)]
    body = json.dumps({"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/stacks", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
    return server, port

def wrk(url, seconds, connections, threads):
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         capture_output=True, text=True, check=True, timeout=seconds + 30).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"errors from {url}:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = []
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        latency.append(float(m.group(1)) * UNITS[m.group(2)])
    return rps, latency[0], latency[1]

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--baseline", help="another binary, run without --metrics (e.g. main's release build)")
    p.add_argument("--duration", type=int, default=5)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    variants = [("metrics off", args.binary, []), ("metrics on", args.binary, ["--metrics"])]
    if args.baseline:
        variants.insert(0, ("baseline, off", args.baseline, []))
    servers = []
    try:
        for name, binary, extra in variants:
            servers.append((name,) + start(binary, extra))
        paths = [("GET /healthz", "/healthz"), ("GET layout?window=visible", "/v1/stacks/bench/layout?window=visible")]
        print(f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, median of {args.runs} alternating runs; "
              "stack of 10000 rows; in memory; 2 cores shared by wrk and the server")
        print(f"{'endpoint':26} {'server':14} | {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} | ratio to metrics off")
        for label, path in paths:
            results = {name: [] for name, _, _ in servers}
            for _ in range(args.runs):
                for name, _, port in servers:
                    results[name].append(wrk(f"http://127.0.0.1:{port}{path}", args.duration, args.connections, args.threads))
            medians = {name: [statistics.median(r[i] for r in runs) for i in range(3)] for name, runs in results.items()}
            for name, (rps, p50, p99) in medians.items():
                print(f"{label:26} {name:14} | {rps:>8.0f} {p50:>7.3f} {p99:>7.2f} | {rps / medians['metrics off'][0]:.3f}")
    finally:
        for _, server, _ in servers:
            server.terminate()
            server.wait(timeout=30)

if __name__ == "__main__":
    main()
