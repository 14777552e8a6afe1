#!/usr/bin/env python3
"""Durable inserts per second (journal on disk, synchronous=FULL) with 1, 4, 16 and 64
concurrent clients (wrk connections), on one stack and on separate stacks: the binary as it
runs (pipelined writes, group commit, answers given once durable), alternating in the same
run with --in-memory, the same requests with no disk, to show the CPU's ceiling on this
machine. The server runs with --threads 64, so its worker threads are not the limit. Prints
the medians of --runs runs, with the durable mode's mean commit time (BEGIN to the end of
COMMIT, fsync included) and mean writes per commit, read from /metrics around each wrk run:
inserts/s is bound by writes per commit / commit time. With --baseline, compares the binary
with another one (e.g. main's) instead."""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def start(binary, data, port, extra, threads=64):
    process = subprocess.Popen([binary, "--port", str(port), "--data-dir", data, "--log-level", "warning", "--threads", str(threads), "--metrics"] + extra)
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

def commits(port):
    """(commit seconds summed, commits, writes committed) from /metrics."""
    text = call(port, "GET", "/metrics")[1].decode()
    def value(name):
        m = re.search(rf"^{name}(?:\{{[^}}]*\}})?\s+(\S+)$", text, re.M)
        return float(m.group(1)) if m else 0.0
    return (value("scrollstack_journal_commit_duration_seconds_sum"), value("scrollstack_journal_commit_duration_seconds_count"),
            value("scrollstack_journal_commit_writes_sum"))

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

def measure(args, clients, work, modes, threads):
    """Runs every mode ({name: (binary, extra flags)}) --runs times, alternating; for each
    (clients, separate stacks, mode): inserts/s, mean commit ms and writes per commit, one per run."""
    results, commit_ms, batch = {}, {}, {}
    for run in range(args.runs):
        for index, (mode, (binary, extra)) in enumerate(modes.items()):
            data = os.path.join(work, f"data-{run}-{index}")
            port = free_port()
            server = start(binary, data, port, extra, threads=threads)
            try:
                rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(100)]
                for s in range(max(clients)):
                    call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": rows})
                for c in clients:
                    for separate in (False, True):
                        before = commits(port)
                        results.setdefault((c, separate, mode), []).append(wrk(port, c, separate, args.duration, work))
                        after = commits(port)
                        n = max(1.0, after[1] - before[1])
                        commit_ms.setdefault((c, separate, mode), []).append(1000 * (after[0] - before[0]) / n)
                        batch.setdefault((c, separate, mode), []).append((after[2] - before[2]) / n)
            finally:
                server.send_signal(signal.SIGTERM)
                server.wait(timeout=60)
            shutil.rmtree(data, ignore_errors=True)
    return results, commit_ms, batch

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--duration", type=int, default=3)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--clients", default="1,4,16,64")
    p.add_argument("--baseline", help="compare with this binary (e.g. main's) instead: --binary and it, both at --threads, alternating")
    p.add_argument("--threads", type=int, default=64, help="the servers' --threads")
    args = p.parse_args()
    if args.baseline:
        return compare(args)
    clients = [int(c) for c in args.clients.split(",")]
    work = tempfile.mkdtemp(prefix="ssdurable-")
    modes = {"durable": [], "in memory": ["--in-memory"]}
    try:
        results, commit_ms, batch = measure(args, clients, work, {mode: (args.binary, extra) for mode, extra in modes.items()}, threads=64)
        print(f"durable inserts/s (synchronous=FULL, fsync per commit), wrk -d{args.duration}s, median of {args.runs} alternating runs; "
              f"server --threads 64; {os.cpu_count()} cores shared by wrk and the server")
        print("durable = the binary as it runs; no fsync = --in-memory, the same requests with no disk (the CPU's ceiling);"
              " commit ms and writes/commit are the durable mode's")
        for separate in (False, True):
            print("separate stacks" if separate else "one stack")
            print(f"{'clients':>7} | {'durable':>8} {'no fsync':>8} | {'commit ms':>9} {'writes/commit':>13}")
            for c in clients:
                durable, memory = (statistics.median(results[(c, separate, m)]) for m in modes)
                ms = statistics.median(commit_ms[(c, separate, "durable")])
                size = statistics.median(batch[(c, separate, "durable")])
                print(f"{c:>7} | {durable:>8.0f} {memory:>8.0f} | {ms:>9.2f} {size:>13.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

def compare(args):
    """Durable inserts/s of --binary and the --baseline binary at the same --threads,
    alternating in each run; with commit ms and writes per commit."""
    clients = [int(c) for c in args.clients.split(",")]
    work = tempfile.mkdtemp(prefix="ssbaseline-")
    modes = {"binary": (args.binary, []), "baseline": (args.baseline, [])}
    try:
        results, commit_ms, batch = measure(args, clients, work, modes, threads=args.threads)
        print(f"durable inserts/s (synchronous=FULL), wrk -d{args.duration}s, median of {args.runs} alternating runs; "
              f"both servers --threads {args.threads}; {os.cpu_count()} cores shared by wrk and the servers")
        print("binary = --binary; baseline = --baseline")
        for separate in (False, True):
            print("separate stacks" if separate else "one stack")
            print(f"{'clients':>7} | {'binary':>8} {'baseline':>8} | {'vs baseline':>11} | "
                  f"{'commit ms':>9} {'writes/commit':>13} | {'baseline':>8}")
            for c in clients:
                on, base = (statistics.median(results[(c, separate, m)]) for m in modes)
                ms = statistics.median(commit_ms[(c, separate, "binary")])
                size = [statistics.median(batch[(c, separate, m)]) for m in modes]
                print(f"{c:>7} | {on:>8.0f} {base:>8.0f} | {on / base:>11.2f} | "
                      f"{ms:>9.2f} {size[0]:>13.1f} | {size[1]:>8.1f}")
        print("(writes/commit of the binary, then of the baseline at the right)")
    finally:
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
