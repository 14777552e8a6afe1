#!/usr/bin/env python3
"""Restore speed of scrollstackd from snapshot format 2 (binary rows) against format 1 (the
API's JSON, as servers before journal format 2 wrote them), same binary, same run.

Loads N stacks of M rows (each row with a small props object) plus K inserts each through
the API into a data dir, stops the server, and makes a copy of the data dir whose snapshots
are rewritten in format 1: each one becomes the stack's JSON at that revision, as a GET
answers it (the rows here hold integers only, so its 15 digits are exact). Then restarts the
release daemon on each copy in turn (alternating, --runs times) and reads the restore time
it logs; checks both answer the same. Prints medians and rows/s.

With --baseline OLD (a server that journals requests, e.g. main before the journal of
operations), OLD writes the data dir instead; a copy of it is migrated by --binary's first
start (timed on its own), and then OLD restores its copy (replaying requests through the
routes) and --binary restores the migrated one (applying operations), alternating."""
import argparse, hashlib, json, os, re, shutil, signal, socket, sqlite3, statistics, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(binary, data, port):
    process = subprocess.Popen([binary, "--port", str(port), "--data-dir", data, "--log-level", "notice"],
                               stderr=subprocess.PIPE, text=True)
    restored_ms = None
    for line in process.stderr:
        m = re.search(r"restored (\d+) stacks .* in (\d+) ms", line)
        if m:
            restored_ms = int(m.group(2))
        if "listening on" in line:
            return process, restored_ms
    raise SystemExit("the daemon did not start")

def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)

def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--stacks", type=int, default=20)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--mutations", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--baseline")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="ssrestore-")
    new, old = os.path.join(work, "format2"), os.path.join(work, "format1")
    if args.baseline:
        try:
            compare_with_baseline(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        port = free_port()
        server, _ = start(args.binary, new, port)
        rows = [{"id": f"r{i}", "controller": {"type": "Cell", "props": {"n": i}}, "size": {"fixed": 44}} for i in range(args.rows)]
        for s in range(args.stacks):
            call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": rows})
            for m in range(args.mutations):
                call(port, "POST", f"/v1/stacks/s{s}/rows", {"rows": [{"view": {"type": "V"}, "size": {"fixed": 20}}], "at": {"index": m * 7}})
        stop(server)
        database = sqlite3.connect(os.path.join(new, "scrollstack.sqlite"))
        snapshots = database.execute("SELECT stack, revision FROM snapshots").fetchall()
        database.close()
        # The same snapshots in format 1, from the server's own answers.
        server, _ = start(args.binary, new, port)
        format1 = {(s, r): call(port, "GET", f"/v1/stacks/{s}?revision={r}")[1] for s, r in snapshots}
        stop(server)
        shutil.copytree(new, old)
        database = sqlite3.connect(os.path.join(old, "scrollstack.sqlite"))
        with database:
            for (s, r), model in format1.items():
                database.execute("UPDATE snapshots SET model = ? WHERE stack = ? AND revision = ?", (model, s, r))
        database.close()
        size = lambda d: sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)) / 1e6
        total = args.stacks * (args.rows + args.mutations)
        print(f"{args.stacks} stacks x {args.rows} rows + {args.mutations} inserts each (replayed after the creation snapshot); "
              f"{len(snapshots)} snapshots; data dir {size(old):.0f} MB in format 1, {size(new):.0f} MB in format 2; median of {args.runs}")
        results = {"format 1 (JSON, baseline)": [], "format 2 (binary)": []}
        answers = {}
        for _ in range(args.runs):
            for name, directory in [("format 1 (JSON, baseline)", old), ("format 2 (binary)", new)]:
                port = free_port()
                server, restored = start(args.binary, directory, port)
                results[name].append(restored)
                answers[name] = hashlib.sha256(b"".join(call(port, "GET", f"/v1/stacks/s{s}")[1] for s in range(args.stacks))).hexdigest()
                stop(server)
        assert len(set(answers.values())) == 1, "the two restores answer differently"
        baseline = statistics.median(results["format 1 (JSON, baseline)"])
        print(f"{'snapshots':28} {'restore ms':>11} {'rows/s':>12} {'speed-up':>9}")
        for name, values in results.items():
            ms = statistics.median(values)
            print(f"{name:28} {ms:>11.0f} {total / (ms / 1000):>12,.0f} {baseline / ms:>8.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)

def fill(port, args):
    rows = [{"id": f"r{i}", "controller": {"type": "Cell", "props": {"n": i}}, "size": {"fixed": 44}} for i in range(args.rows)]
    for s in range(args.stacks):
        call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": rows})
        for m in range(args.mutations):
            call(port, "POST", f"/v1/stacks/s{s}/rows", {"rows": [{"view": {"type": "V"}, "size": {"fixed": 20}}], "at": {"index": m * 7}})

def compare_with_baseline(args, work):
    old, new = os.path.join(work, "requests"), os.path.join(work, "operations")
    port = free_port()
    server, _ = start(args.baseline, old, port)
    fill(port, args)
    stop(server)
    shutil.copytree(old, new)
    port = free_port()
    server, migration = start(args.binary, new, port)
    stop(server)
    total = args.stacks * (args.rows + args.mutations)
    print(f"{args.stacks} stacks x {args.rows} rows + {args.mutations} inserts each (after the creation snapshot), written by the baseline; "
          f"first start of this build (migrating {args.stacks * args.mutations} requests to operations): {migration} ms; median of {args.runs}")
    results = {"baseline (replays requests)": [], "this build (applies operations)": []}
    answers = {}
    for _ in range(args.runs):
        for (name, values), (binary, directory) in zip(results.items(), [(args.baseline, old), (args.binary, new)]):
            port = free_port()
            server, restored = start(binary, directory, port)
            values.append(restored)
            answers[name] = hashlib.sha256(b"".join(call(port, "GET", f"/v1/stacks/s{s}")[1] for s in range(args.stacks))).hexdigest()
            stop(server)
    assert len(set(answers.values())) == 1, "the two restores answer differently"
    baseline = statistics.median(next(iter(results.values())))
    print(f"{'server':32} {'restore ms':>11} {'rows/s':>12} {'speed-up':>9}")
    for name, values in results.items():
        ms = max(statistics.median(values), 1)
        print(f"{name:32} {ms:>11.0f} {total / (ms / 1000):>12,.0f} {baseline / ms:>8.1f}x")

if __name__ == "__main__":
    main()
