#!/usr/bin/env python3
"""The store on PostgreSQL against SQLite, in the same run: durable inserts/s at --clients
concurrent clients (wrk; on one stack and on separate stacks), restore speed (rows/s for a
server to start over --stacks stacks of --rows rows), and the p99 of an insert in the middle
of one growing stack (from --p99-rows rows, wrk -c32 for --p99-duration seconds), for: SQLite (the baseline, --data-dir),
PostgreSQL with 1 replica, and PostgreSQL with 3 replicas (the clients split over them; each
replica started with --advertise-url, so a stack's writes go to one of them, unless
--no-owners).
With --baseline-binary (e.g. a release build of main) the two PostgreSQL modes also run that binary ("main x1",
"main x3"), and the ratios against it are printed.

The PostgreSQL cluster is a throwaway one (Scripts/postgres-cluster.sh) with fsync on, so a
commit is as durable as SQLite's synchronous=FULL. Prints medians of --runs runs.
"""
import argparse, json, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from durable_bench import LUA, call, free_port  # noqa: E402

CLUSTER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Scripts", "postgres-cluster.sh")


def start(binary, storage, port):
    """Starts a server; returns it and the seconds until it accepted connections."""
    began = time.time()
    process = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", "--threads", "32"] + storage)
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            call(port, "GET", "/healthz")
            return process, time.time() - began
        except OSError:
            time.sleep(0.01)  # polling for the port to open; bounded by the deadline
    raise SystemExit("the daemon did not start")


def wait_for_members(ports):
    """Waits (10 s at most) until every replica sees every other as a member."""
    deadline = time.time() + 10
    while time.time() < deadline:
        if all(len(json.loads(call(port, "GET", "/v1/health")[1]).get("writers", {}).get("members", [])) == len(ports) for port in ports):
            return
        time.sleep(0.1)  # members refresh about once a second; bounded by the deadline
    raise SystemExit("the replicas did not all see each other within 10 s")


def wrk_parallel(ports, clients, separate, seconds, work, mode):
    """Runs one wrk per port at once, the clients split between them; their requests/s summed."""
    shares = [clients // len(ports) + (1 if i < clients % len(ports) else 0) for i in range(len(ports))]
    runs = []
    for i, (port, share) in enumerate(zip(ports, shares)):
        threads = min(2, share)
        script = os.path.join(work, f"insert-{i}-{clients}-{separate}.lua")
        first = sum(shares[:i])
        with open(script, "w") as f:
            f.write(LUA.replace("threads * %(per_thread)d", f"{first} + threads * %(per_thread)d")
                    % {"per_thread": max(1, share // threads), "separate": "true" if separate else "false"})
            # Each answer that is not 2xx, its status and error code, for the summary below.
            f.write('function response(status, headers, body) if status > 299 then '
                    'io.write("answered " .. status .. " " .. (body:match(\'"code":"([^"]*)"\') or "") .. "\\n") end end\n')
        runs.append(subprocess.Popen(["wrk", f"-t{threads}", f"-c{share}", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{port}/"],
                                     stdout=subprocess.PIPE, text=True))
    total, failed, answers = 0.0, 0, {}
    for run in runs:
        out, _ = run.communicate(timeout=seconds + 60)
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        failed += int(errors.group(1)) if errors else 0
        total += float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        for answer in re.findall(r"^answered (\d+ \S*)", out, re.M):
            answers[answer] = answers.get(answer, 0) + 1
    if failed:
        print(f"  {mode}: {failed} of the requests with {clients} clients ({'separate stacks' if separate else 'one stack'}) were not 2xx: {answers}")
    return total


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def growing_p99(ports, rows, seconds, work):
    """32 connections split over `ports` insert into the middle of stack "grow"; returns
    requests/s (summed) and the p50 and p99 latency in ms (the worst replica's)."""
    body = {"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": rows // 2}}
    lua = os.path.join(work, "grow.lua")
    with open(lua, "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
        f.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
    shares = [32 // len(ports) + (1 if i < 32 % len(ports) else 0) for i in range(len(ports))]
    runs = [subprocess.Popen(["wrk", "-t1", f"-c{share}", f"-d{seconds}s", "--latency", "-s", lua, f"http://127.0.0.1:{port}/v1/stacks/grow/rows"],
                             stdout=subprocess.PIPE, text=True) for port, share in zip(ports, shares)]
    rps, p50, p99 = 0.0, 0.0, 0.0
    for run in runs:
        out, _ = run.communicate(timeout=seconds + 120)
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if errors:
            print(f"  {errors.group(1)} inserts into the growing stack through port {run.args[-1]} were not 2xx")
        rps += float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        for pct in ("50", "99"):
            m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
            value = float(m.group(1)) * UNITS[m.group(2)]
            p50, p99 = (max(p50, value), p99) if pct == "50" else (p50, max(p99, value))
    return rps, p50, p99


def stop(process):
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=60)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--duration", type=int, default=5)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--stacks", type=int, default=20)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--p99-rows", type=int, default=10_000)
    p.add_argument("--p99-duration", type=int, default=20)
    p.add_argument("--baseline-binary", help="also run both PostgreSQL modes with this binary")
    p.add_argument("--baseline-owners", action="store_true", help="start the baseline's replicas with --advertise-url too")
    p.add_argument("--no-owners", action="store_true", help="start --binary's replicas without --advertise-url")
    args = p.parse_args()
    modes = ["sqlite", "postgres x1", "postgres x3"] + (["main x1", "main x3"] if args.baseline_binary else [])
    work = tempfile.mkdtemp(prefix="sspgbench-")
    os.chmod(work, 0o755)  # the cluster runs as the postgres user, which must reach its folder
    inserts, restores, growing = {}, {}, {}
    rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(args.rows)]
    try:
        for run in range(args.runs):
            for mode in modes:
                cluster = os.path.join(work, f"pg-{run}")
                if mode == "sqlite":
                    storages = [["--data-dir", os.path.join(work, f"data-{run}")]]
                else:
                    url = subprocess.run([CLUSTER, "start", cluster, "on"], check=True, capture_output=True, text=True, timeout=180).stdout.strip()
                    storages = [["--store", url]] * (3 if "x3" in mode else 1)
                binary = args.baseline_binary if mode.startswith("main") else args.binary
                try:
                    # Restore: fill through one server, then time a fresh one starting over it.
                    port = free_port()
                    server, _ = start(binary, storages[0], port)
                    for s in range(args.stacks):
                        call(port, "POST", "/v1/stacks", {"id": f"big{s}", "rows": rows})
                    stop(server)
                    port = free_port()
                    server, seconds = start(binary, storages[0], port)
                    restores.setdefault(mode, []).append(args.stacks * args.rows / seconds)
                    stop(server)
                    # Durable inserts through every replica at once.
                    servers, ports = [], []
                    owners = len(storages) > 1 and (args.baseline_owners if mode.startswith("main") else not args.no_owners)
                    for storage in storages:
                        ports.append(free_port())
                        advertise = ["--advertise-url", f"http://127.0.0.1:{ports[-1]}"] if owners else []
                        servers.append(start(binary, storage + advertise, ports[-1])[0])
                    if owners:
                        wait_for_members(ports)
                    small = rows[:100]
                    for s in range(args.clients):
                        call(ports[0], "POST", "/v1/stacks", {"id": f"s{s}", "rows": small})
                    for separate in (False, True):
                        inserts.setdefault((mode, separate), []).append(wrk_parallel(ports, args.clients, separate, args.duration, work, mode))
                    call(ports[0], "POST", "/v1/stacks", {"id": "grow", "rows": [dict(r, id=f"g{i}") for i, r in enumerate(rows[:args.p99_rows])]})
                    growing.setdefault(mode, []).append(growing_p99(ports, args.p99_rows, args.p99_duration, work))
                    for server in servers:
                        stop(server)
                finally:
                    if mode != "sqlite":
                        subprocess.run([CLUSTER, "destroy", cluster], timeout=120)
        print(f"median of {args.runs} runs; {os.cpu_count()} cores shared by wrk, the servers and PostgreSQL (fsync on)")
        print(f"{'store':<12} | {'restore rows/s':>14} {'vs SQLite':>9} | {args.clients} clients, one stack/s {'vs SQLite':>9} | separate stacks/s {'vs SQLite':>9}")
        base_restore = statistics.median(restores["sqlite"])
        base = {sep: statistics.median(inserts[("sqlite", sep)]) for sep in (False, True)}
        for mode in modes:
            r = statistics.median(restores[mode])
            one, sep = statistics.median(inserts[(mode, False)]), statistics.median(inserts[(mode, True)])
            print(f"{mode:<12} | {r:>14.0f} {r / base_restore:>9.2f} | {one:>24.0f} {one / base[False]:>9.2f} | {sep:>17.0f} {sep / base[True]:>9.2f}")
        print(f"insert into the middle of one growing stack from {args.p99_rows} rows, wrk -c32 (split over the replicas) for {args.p99_duration} s:")
        print(f"{'store':<12} | {'inserts/s':>9} | {'p50 ms':>7} | {'p99 ms':>7} {'vs SQLite':>9}")
        base_p99 = statistics.median(g[2] for g in growing["sqlite"])
        for mode in modes:
            rps, p50, p99 = (statistics.median(g[i] for g in growing[mode]) for i in range(3))
            print(f"{mode:<12} | {rps:>9.0f} | {p50:>7.2f} | {p99:>7.2f} {p99 / base_p99:>9.2f}")
        one, sep = (statistics.median(inserts[("postgres x3", v)]) / statistics.median(inserts[("postgres x1", v)]) for v in (False, True))
        p99 = statistics.median(g[2] for g in growing["postgres x3"])
        print(f"  3 replicas against 1: one stack {one:.2f}x (target >= 0.8), separate stacks {sep:.2f}x (target >= 1), insert p99 at 3 replicas {p99:.2f} ms (target <= 50)")
        for replicas in ("x1", "x3") if args.baseline_binary else ():
            new, old = f"postgres {replicas}", f"main {replicas}"
            one, sep = (statistics.median(inserts[(new, v)]) / statistics.median(inserts[(old, v)]) for v in (False, True))
            rps, p99 = (statistics.median(g[i] for g in growing[new]) / statistics.median(g[i] for g in growing[old]) for i in (0, 2))
            print(f"  {replicas} against {args.baseline_binary}: one stack {one:.2f}x, separate stacks {sep:.2f}x, growing stack inserts/s {rps:.2f}x, p99 {p99:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
