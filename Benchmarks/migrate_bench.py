#!/usr/bin/env python3
"""What `scrollstackd migrate` costs: a data dir of --stacks stacks with --revisions revisions
in all (one-row inserts made by 16 clients), copied into a fresh database of a throwaway
PostgreSQL cluster (fsync on), against a baseline in the same run: the SQLite server starting
on the same data dir (its restore reads each stack's latest snapshot and the records after it;
migrate restores the same way, then reads and copies every revision, snapshot and plan).
Prints the medians of --runs runs of each, revisions per second, and the ratio migrate / start.

    python3 Benchmarks/migrate_bench.py --binary .build/release/scrollstackd
"""
import argparse, http.client, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from durable_bench import call, free_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTER = os.path.join(ROOT, "Scripts", "postgres-cluster.sh")


def serve(binary, data):
    """Starts the SQLite server on `data`; returns it, its port and the seconds until it answered."""
    port = free_port()
    began = time.time()
    process = subprocess.Popen([binary, "--port", str(port), "--data-dir", data, "--log-level", "warning", "--threads", "16"])
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            call(port, "GET", "/healthz")
            return process, port, time.time() - began
        except OSError:
            time.sleep(0.01)  # polling for the port to open; bounded by the deadline
    raise SystemExit("the server did not start")


def fill(port, stacks, revisions):
    for s in range(stacks):
        call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": []})
    per_client = revisions // 16

    def client(index):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for n in range(per_client):
            body = json.dumps({"rows": [{"id": f"c{index}-{n}", "view": {"type": "Cell"}, "size": {"fixed": 44}}]})
            connection.request("POST", f"/v1/stacks/s{(index + n) % stacks}/rows", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            assert response.status == 200, response.status
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return per_client * 16


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "scrollstackd"))
    parser.add_argument("--stacks", type=int, default=20)
    parser.add_argument("--revisions", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="scrollstack-migrate-bench-")
    data = os.path.join(work, "data")
    os.mkdir(data)
    # The cluster's folder sits in /tmp itself: the postgres user cannot enter `work` (mode 700).
    cluster = tempfile.mkdtemp(prefix="scrollstack-migrate-bench-pg-")
    os.rmdir(cluster)
    try:
        server, port, _ = serve(args.binary, data)
        made = fill(port, args.stacks, args.revisions)
        server.terminate()
        server.wait(timeout=60)
        url = subprocess.run([CLUSTER, "start", cluster, "on"], check=True, capture_output=True, text=True, timeout=180).stdout.strip()
        psql = sorted(__import__("glob").glob("/usr/lib/postgresql/*/bin/psql"))[-1]
        starts, copies = [], []
        for run in range(args.runs):
            server, _, seconds = serve(args.binary, data)
            server.terminate()
            server.wait(timeout=60)
            starts.append(seconds)
            subprocess.run([psql, url, "-qc", f"CREATE DATABASE run{run}"], check=True, timeout=60)
            began = time.time()
            subprocess.run([args.binary, "migrate", "--data-dir", data, "--store", url.rsplit("/", 1)[0] + f"/run{run}"],
                           check=True, capture_output=True, timeout=1800)
            copies.append(time.time() - began)
        start, copy = statistics.median(starts), statistics.median(copies)
        print(f"{args.stacks} stacks, {made} revisions after their first; medians of {args.runs} runs")
        print(f"baseline: the SQLite server starts on the data dir in {start:.2f} s ({made / start:,.0f} revisions/s)")
        print(f"migrate:  copied into a fresh database in {copy:.2f} s ({made / copy:,.0f} revisions/s), {copy / start:.2f}x the start")
    finally:
        subprocess.run([CLUSTER, "destroy", cluster], timeout=90)
        shutil.rmtree(work, ignore_errors=True)


main()
