#!/usr/bin/env python3
"""Cost of generated row ids: the same N rows posted with ids and without (the server
generates them), to the stateless layout and as one insert into a stack. The rows with ids
are the baseline, measured in the same run, alternating with the id-less ones."""
import argparse, json, re, socket, statistics, subprocess, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(binary, port):
    process = subprocess.Popen([binary, "--port", str(port), "--in-memory", "--log-level", "notice",
                                "--max-body-bytes", str(64 << 20), "--connection-timeout", "600"],
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if "listening on" in line:
            return process
    raise SystemExit("the daemon did not start")

def timed(port, method, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method,
                                 headers={"Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=600) as r:
        r.read()
        assert r.status in (200, 201, 204), r.status
    return time.monotonic() - started

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", default=".build/release/scrollstackd")
    p.add_argument("--sizes", default="4000,16000,50000")
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    port = free_port()
    server = start(args.binary, port)
    try:
        print(f"median of {args.runs} alternating runs; --in-memory; seconds per request")
        print(f"{'request':34} {'rows':>6} | {'ids given':>9} | {'id-less':>8} | ratio")
        for n in map(int, args.sizes.split(",")):
            given = [{"id": f"g{i}", "view": {"type": "V"}, "size": {"fixed": 44}} for i in range(n)]
            idless = [{"view": {"type": "V"}, "size": {"fixed": 44}} for _ in range(n)]
            for name in ("POST /v1/layout", "POST /v1/stacks/{s}/rows"):
                times = {"given": [], "idless": []}
                for run in range(args.runs):
                    for kind, rows in (("given", given), ("idless", idless)):
                        if name == "POST /v1/layout":
                            times[kind].append(timed(port, "POST", "/v1/layout", json.dumps({"rows": rows}).encode()))
                        else:
                            stack = f"{kind}-{n}-{run}"
                            timed(port, "POST", "/v1/stacks", json.dumps({"id": stack}).encode())
                            times[kind].append(timed(port, "POST", f"/v1/stacks/{stack}/rows", json.dumps({"rows": rows}).encode()))
                            timed(port, "DELETE", f"/v1/stacks/{stack}", None)
                g, i = statistics.median(times["given"]), statistics.median(times["idless"])
                print(f"{name:34} {n:>6} | {g:9.3f} | {i:8.3f} | {i / g:5.2f}")
    finally:
        server.terminate()
        server.wait(timeout=30)

if __name__ == "__main__":
    main()
