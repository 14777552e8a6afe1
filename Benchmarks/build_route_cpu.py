#!/usr/bin/env python3
"""Server CPU per row of building a stack from a request, for two scrollstackd binaries side
by side (the target "build ≤ 200 ns/row", measured with the request's decoding included):

- create: `POST /v1/stacks` with --rows rows;
- batch insert: `POST /v1/stacks/{id}/rows` of --rows rows into a stack of --into rows, in its
  middle (at the bottom when --into is 0 or 1).

Each server runs --in-memory; for each binary in turn (alternating, --runs rounds) the
request is sent once and the server process's time on a CPU over it (its threads'
/proc/…/schedstat, the whole request: reading the body, parsing, decoding, building,
journaling, encoding and sending the answer) is divided by the rows. The stacks are deleted
after each round. Rows are `{"id","controller":{"type"},"size":{"fixed"}}`, as in
`core-benchmark --targets`. Prints the median ns per row, and the candidate / baseline ratio.

    Benchmarks/build_route_cpu.py BASELINE_BINARY CANDIDATE_BINARY [--rows N] [--into N] [--runs N]
"""
import argparse, http.client, json, os, statistics
from server_cpu import cpu_seconds, start_server

def rows_json(prefix, n):
    return ",".join(f'{{"id":"{prefix}{i}","controller":{{"type":"Cell"}},"size":{{"fixed":44}}}}' for i in range(n))

class Server:
    def __init__(self, binary):
        self.process, self.port = start_server(binary, "--max-body-bytes", str(1 << 30))

    def send(self, method, path, data=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        if response.status >= 300:
            raise SystemExit(f"{method} {path}: {response.status} {payload[:300]!r}")
        return len(payload)

    def measure(self, method, path, data):
        before = cpu_seconds(self.process.pid)
        size = self.send(method, path, data)
        return cpu_seconds(self.process.pid) - before, size

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("baseline")
    p.add_argument("candidate")
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--into", type=int, default=1)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    n = args.rows
    create = ('{"id":"built","viewport":{"width":375,"height":667},"rows":[' + rows_json("r", n) + "]}").encode()
    base = ('{"id":"target","viewport":{"width":375,"height":667},"rows":[' + rows_json("t", max(1, args.into)) + "]}").encode()
    at = '"bottom"' if args.into <= 1 else f'{{"index":{args.into // 2}}}'
    insert = ('{"at":' + at + ',"rows":[' + rows_json("b", n) + "]}").encode()
    servers = [Server(args.baseline), Server(args.candidate)]
    results = [{"create": [], "insert": []} for _ in servers]
    sizes = {}
    try:
        for _ in range(args.runs):
            for server, result in zip(servers, results):
                seconds, sizes["create"] = server.measure("POST", "/v1/stacks", create)
                result["create"].append(seconds / n * 1e9)
                server.send("DELETE", "/v1/stacks/built")
                server.send("POST", "/v1/stacks", base)
                seconds, sizes["insert"] = server.measure("POST", "/v1/stacks/target/rows", insert)
                result["insert"].append(seconds / n * 1e9)
                server.send("DELETE", "/v1/stacks/target")
    finally:
        for server in servers:
            server.stop()
    print(f"{n} rows per request, median of {args.runs} alternating runs; in memory; ns of server CPU "
          f"(its threads' schedstat) per row, the whole request; load {os.getloadavg()[0]:.1f}")
    print(f"{'request':52} {'baseline':>9} {'candidate':>9} {'ratio':>6}  runs (baseline | candidate)")
    names = {"create": f"create (body {len(create) / 1e6:.0f} MB, answer {sizes['create'] / 1e6:.0f} MB)",
             "insert": f"batch insert into {max(1, args.into)} (body {len(insert) / 1e6:.0f} MB, answer {sizes['insert'] / 1e6:.0f} MB)"}
    for kind in ["create", "insert"]:
        b, c = statistics.median(results[0][kind]), statistics.median(results[1][kind])
        runs = " ".join(f"{v:.0f}" for v in results[0][kind]) + " | " + " ".join(f"{v:.0f}" for v in results[1][kind])
        print(f"{names[kind]:52} {b:9.0f} {c:9.0f} {b / c:5.2f}×  {runs}")

if __name__ == "__main__":
    main()
