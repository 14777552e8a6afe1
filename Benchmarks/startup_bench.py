#!/usr/bin/env python3
"""Startup and recovery time of scrollstackd with N stacks of M rows journaled in a data dir.
Creates the stacks, applies K mutations to each (so restarts replay a log after the last
snapshot), then measures the restore time the daemon logs after a graceful stop and after
SIGKILL. Baseline, same run: restarting on an empty data dir."""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(binary, data, port):
    process = subprocess.Popen([binary, "--port", str(port), "--data-dir", data, "--log-level", "notice"],
                               stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    restored_ms = None
    for line in process.stderr:
        m = re.search(r"restored (\d+) stacks .* in (\d+) ms", line)
        if m:
            restored_ms = int(m.group(2))
        if "listening on" in line:
            return process, restored_ms, (time.monotonic() - started) * 1000
    raise SystemExit("the daemon did not start")

def post(port, path, body, method="POST"):
    data = json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return r.status

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--stacks", type=int, default=100)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--mutations", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="ssstart-")
    data, empty = os.path.join(work, "data"), os.path.join(work, "empty")
    try:
        port = free_port()
        server, _, _ = start(args.binary, data, port)
        t0 = time.monotonic()
        rows = [{"id": f"r{i}", "controller": {"type": "Cell", "props": {"n": i}}, "size": {"fixed": 44}} for i in range(args.rows)]
        for s in range(args.stacks):
            post(port, "/v1/stacks", {"id": f"s{s}", "rows": rows})
            for m in range(args.mutations):
                post(port, f"/v1/stacks/s{s}/rows", {"rows": [{"view": {"type": "V"}, "size": {"fixed": 20}}], "at": {"index": m * 7}})
        load_s = time.monotonic() - t0
        server.send_signal(signal.SIGTERM)
        server.wait()
        size_mb = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data)) / 1e6
        print(f"{args.stacks} stacks x {args.rows} rows, {args.mutations} mutations each after creation; "
              f"loaded in {load_s:.1f} s; data dir {size_mb:.0f} MB")
        results = {"empty data dir (baseline)": [], "after a graceful stop": [], "after SIGKILL": []}
        for _ in range(args.runs):
            for name, directory, kill in [("empty data dir (baseline)", empty, False), ("after a graceful stop", data, False), ("after SIGKILL", data, True)]:
                port = free_port()
                server, restored, listening = start(args.binary, directory, port)
                results[name].append((restored, listening))
                if kill:
                    server.kill()
                else:
                    server.send_signal(signal.SIGTERM)
                server.wait()
        print(f"{'start':28} {'restore ms (median)':>20} {'to listening ms (median)':>26}")
        for name, values in results.items():
            print(f"{name:28} {statistics.median(v[0] for v in values):>20.0f} {statistics.median(v[1] for v in values):>26.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
