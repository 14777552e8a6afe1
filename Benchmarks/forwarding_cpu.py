#!/usr/bin/env python3
"""Where a write's CPU goes when three replicas write one stack: each replica's and
PostgreSQL's CPU time (from /proc/PID/stat) around a --duration-second wrk run per replica
(--clients connections each) inserting into one stack, divided by the writes made, in
microseconds a write; then the same load sent to one replica only (the stack's writer).

With --advertise-url (the default) the replicas are members, so the stack's writes go to one
of them and the others forward theirs; --no-owners races instead. Prints the medians of
--runs runs (each on a stack of its own, whose writer may be another replica). A throwaway PostgreSQL cluster (Scripts/postgres-cluster.sh, fsync on).

  python3 Benchmarks/forwarding_cpu.py --binary .build/release/scrollstackd --runs 3
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from durable_bench import call, free_port  # noqa: E402

CLUSTER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Scripts", "postgres-cluster.sh")
LUA = ('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
       'wrk.body = \'{"rows":[{"view":{"type":"Cell"},"size":{"fixed":44}}]}\'\n')


def cpu_seconds(pids):
    """User and system CPU seconds of `pids` (and their threads) so far."""
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / os.sysconf("SC_CLK_TCK")


def postgres_pids(cluster):
    """The cluster's postmaster and its children (not other clusters on the machine)."""
    master = int(open(os.path.join(cluster, "data", "postmaster.pid")).readline())
    return [master] + [int(p) for p in subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()]


def measure(ports, targets, stack, clients, seconds, servers, work, cluster):
    """wrk against each of `targets` at once; (writes/s, {name: µs a write})."""
    script = os.path.join(work, "insert.lua")
    with open(script, "w") as f:
        f.write(LUA)
    names = {f"replica {i}": [s.pid] for i, s in enumerate(servers)}
    names["PostgreSQL"] = postgres_pids(cluster)
    before = {name: cpu_seconds(pids) for name, pids in names.items()}
    runs = [subprocess.Popen(["wrk", "-t1", f"-c{clients}", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{port}/v1/stacks/{stack}/rows"],
                             stdout=subprocess.PIPE, text=True) for port in targets]
    outputs = [run.communicate(timeout=seconds + 60)[0] for run in runs]
    after = {name: cpu_seconds(pids) for name, pids in names.items()}
    writes = sum(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)) for out in outputs) * seconds
    return writes / seconds, {name: (after[name] - before[name]) / writes * 1e6 for name in names}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--duration", type=int, default=5)
    p.add_argument("--clients", type=int, default=5, help="connections per replica")
    p.add_argument("--no-owners", action="store_true", help="start the replicas without --advertise-url")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="ssfwdcpu-")
    os.chmod(work, 0o755)  # the cluster runs as the postgres user, which must reach its folder
    cluster = os.path.join(work, "pg")
    servers = []
    results = {"three replicas": [], "the writer alone": []}
    try:
        url = subprocess.run([CLUSTER, "start", cluster, "on"], check=True, capture_output=True, text=True, timeout=180).stdout.strip()
        ports = [free_port() for _ in range(3)]
        for port in ports:
            advertise = [] if args.no_owners else ["--advertise-url", f"http://127.0.0.1:{port}"]
            servers.append(subprocess.Popen([args.binary, "--port", str(port), "--store", url, "--log-level", "warning", "--threads", "32"] + advertise))
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                members = [len(json.loads(call(port, "GET", "/v1/health")[1]).get("writers", {}).get("members", [])) for port in ports]
                if args.no_owners or members == [3, 3, 3]:
                    break
            except OSError:
                pass
            time.sleep(0.1)  # waiting for the replicas to start and see each other; bounded by the deadline
        else:
            raise SystemExit("the replicas did not start and see each other within 60 s")
        for run in range(args.runs):
            stack = f"hot{run}"
            call(ports[0], "POST", "/v1/stacks", {"id": stack, "rows": []})
            forwarded = lambda: [json.loads(call(port, "GET", "/v1/health")[1]).get("writers", {}).get("forwarded", 0) for port in ports]
            before = forwarded()
            shared = measure(ports, ports, stack, args.clients, args.duration, servers, work, cluster)
            # The stack's writer is the replica that forwarded none of this run's writes.
            writer = [after - start for start, after in zip(before, forwarded())].index(0) if not args.no_owners else 0
            alone = measure(ports, [ports[writer]] * 3, stack, args.clients, args.duration, servers, work, cluster)
            for case, (rate, costs) in (("three replicas", shared), ("the writer alone", alone)):
                roles = {"the writer": costs[f"replica {writer}"],
                         "the two others": sum(costs[f"replica {i}"] for i in range(3) if i != writer),
                         "PostgreSQL": costs["PostgreSQL"]}
                results[case].append((rate, roles))
        print(f"median of {args.runs} runs of {args.duration} s; {os.cpu_count()} cores; {args.clients} connections per wrk; "
              f"{'without' if args.no_owners else 'with'} --advertise-url")
        for case, samples in results.items():
            rate = statistics.median(s[0] for s in samples)
            costs = {name: statistics.median(s[1][name] for s in samples) for name in samples[0][1]}
            print(f"  {case:<17}: {rate:8.0f} writes/s; CPU a write: " + ", ".join(f"{name} {cost:.0f} µs" for name, cost in costs.items()))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        subprocess.run([CLUSTER, "destroy", cluster], timeout=120)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
