#!/usr/bin/env python3
"""The cached `GET …/layout?window=visible` of a 10,000-row stack (with `--insert`, instead
`POST …/rows` inserting one row in its middle, as `http_bench.py`'s insert case: the stack
grows with every request), from several scrollstackd
binaries measured in turn: each binary gets the same stack (in memory), then every round
runs `wrk -t2 -c32` for `--duration` seconds against each binary one after the other.
Prints, per binary, the median requests per second and the median server CPU per request
(`server_cpu.cpu_seconds` over the round), with every round's figures. Rounds alternate
binaries so that a noisy machine's changes of speed fall on all of them alike.

    python3 Benchmarks/cached_get_ab.py [--rounds 8] [--duration 4] [--insert] NAME=BINARY...
"""
import argparse, json, os, re, statistics, subprocess, tempfile, urllib.request

from server_cpu import cpu_seconds, start_server, stop_servers


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binaries", nargs="+", help="NAME=BINARY")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--duration", type=int, default=4)
    p.add_argument("--insert", action="store_true", help="measure one-row inserts instead of the cached GET")
    args = p.parse_args()
    script = []
    if args.insert:
        insert = {"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": 5_000}}
        lua = os.path.join(tempfile.mkdtemp(), "insert.lua")
        with open(lua, "w") as f:
            f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                    f"wrk.body = {json.dumps(json.dumps(insert))}\n")
        script = ["-s", lua]
    path = "/v1/stacks/bench/rows" if args.insert else "/v1/stacks/bench/layout?window=visible"
    named = [b.split("=", 1) for b in args.binaries]
    servers, ports = [], []
    rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(10_000)]
    body = json.dumps({"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows}).encode()
    try:
        for _, binary in named:
            server, port = start_server(binary)
            servers.append(server)
            ports.append(port)
        for port in ports:
            create = urllib.request.Request(f"http://127.0.0.1:{port}/v1/stacks", data=body, method="POST",
                                            headers={"Content-Type": "application/json"})
            urllib.request.urlopen(create, timeout=60).read()
        rates = [[] for _ in named]
        cpu = [[] for _ in named]
        for _ in range(args.rounds):
            for i, port in enumerate(ports):
                before = cpu_seconds(servers[i].pid)
                out = subprocess.run(["wrk", "-t2", "-c32", f"-d{args.duration}s", *script, f"http://127.0.0.1:{port}{path}"],
                                     capture_output=True, text=True, check=True, timeout=args.duration + 60).stdout
                used = cpu_seconds(servers[i].pid) - before
                requests = int(re.search(r"(\d+) requests in", out).group(1))
                rates[i].append(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)))
                cpu[i].append(used * 1e6 / requests)
        what = "POST rows (insert 1), from 10,000 rows" if args.insert else "cached GET layout?window=visible, 10,000 rows"
        print(f"{what}, wrk -t2 -c32 -d{args.duration}s, {args.rounds} alternating rounds")
        for i, (name, _) in enumerate(named):
            print(f"{name:10} req/s median {statistics.median(rates[i]):8.0f} {[round(x) for x in rates[i]]}  "
                  f"server CPU µs/request median {statistics.median(cpu[i]):6.2f} {[round(x, 1) for x in cpu[i]]}")
    finally:
        stop_servers(servers)


if __name__ == "__main__":
    main()
