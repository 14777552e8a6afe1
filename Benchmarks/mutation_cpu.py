#!/usr/bin/env python3
"""Server CPU time per request of a mutation and of a read, for two scrollstackd binaries side by
side: each serves --in-memory a stack of --rows rows; for each binary in turn (alternating,
--runs rounds), --requests one-row inserts in the middle of the stack (so it grows, as in
`Benchmarks/run.sh`) and as many cached `GET …/layout?window=visible` are sent one after
another on one keep-alive connection, and the server process's time on a CPU over them
(its threads' /proc/…/schedstat) divided by the count is the figure. CPU time is far less
disturbed by other load on a shared machine than requests per second. Prints the median µs of server CPU per
request, the candidate / baseline ratio, and per binary the GET / POST ratio of CPU: the
rate a CPU-bound server could reach for inserts relative to reads.

    Benchmarks/mutation_cpu.py BASELINE_BINARY CANDIDATE_BINARY [--rows N] [--requests N] [--runs N]
"""
import argparse, http.client, json, statistics
from server_cpu import cpu_seconds, start_server

class Server:
    def __init__(self, binary, rows):
        self.process, self.port = start_server(binary)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        self.rows = rows
        body = {"id": "bench", "viewport": {"width": 375, "height": 667},
                "rows": [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(rows)]}
        self.send("POST", "/v1/stacks", json.dumps(body).encode())

    def send(self, method, path, data=None):
        self.connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
        response = self.connection.getresponse()
        payload = response.read()
        if response.status >= 300:
            raise SystemExit(f"{method} {path}: {response.status} {payload[:200]!r}")

    def measure(self, method, path, data, count):
        # A new connection each time: the server closes one left idle while the other measured.
        self.connection.close()
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        self.send(method, path, data)  # warm
        before = cpu_seconds(self.process.pid)
        for _ in range(count):
            self.send(method, path, data)
        return (cpu_seconds(self.process.pid) - before) / count * 1e6

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)

def main():
    p = argparse.ArgumentParser()
    p.add_argument("baseline")
    p.add_argument("candidate")
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    insert = json.dumps({"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": args.rows // 2}}).encode()
    servers = [Server(args.baseline, args.rows), Server(args.candidate, args.rows)]
    results = [{"POST": [], "GET": []} for _ in servers]
    try:
        for _ in range(args.runs):
            for server, result in zip(servers, results):
                result["POST"].append(server.measure("POST", "/v1/stacks/bench/rows", insert, args.requests))
                result["GET"].append(server.measure("GET", "/v1/stacks/bench/layout?window=visible", None, args.requests))
    finally:
        for server in servers:
            server.stop()
    print(f"{args.requests} requests on one connection, median of {args.runs} alternating runs; stack of {args.rows} rows "
          f"(growing by the inserts), in memory; µs of server CPU (its threads' schedstat) per request")
    print(f"{'request':42} {'baseline':>9} {'candidate':>9} {'ratio':>6}")
    medians = [{kind: statistics.median(values) for kind, values in result.items()} for result in results]
    for kind, name in [("POST", "POST rows (insert 1)"), ("GET", "GET layout?window=visible, cached")]:
        b, c = medians[0][kind], medians[1][kind]
        print(f"{name:42} {b:9.1f} {c:9.1f} {c / b:6.2f}")
    print(f"{'GET / POST CPU (insert rate / read rate)':42} {medians[0]['GET'] / medians[0]['POST']:9.2f} {medians[1]['GET'] / medians[1]['POST']:9.2f}")

if __name__ == "__main__":
    main()
