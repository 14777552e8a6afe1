#!/usr/bin/env python3
"""Where a durable write's time goes on PostgreSQL: --clients wrk connections insert into
--stacks stacks (each request the next stack) through one replica of each --binary (given
once or more; with --runs N they alternate), and for each run it prints the writes/s, the
CPU per write of the server and of every PostgreSQL process (/proc, so the load of other
programs does not count), the transactions per write, each statement's calls per write and
mean execution time (pg_stat_statements, preloaded in the throwaway cluster), and what the
active PostgreSQL sessions were waiting for (pg_stat_activity sampled every 20 ms).

  python3 Benchmarks/postgres_write_profile.py --binary A --binary B --duration 5 --runs 2
"""
import argparse, collections, http.client, json, os, re, signal, socket, subprocess, tempfile, threading, time
CLUSTER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Scripts", "postgres-cluster.sh")

def call(port, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request(method, path, json.dumps(body) if body is not None else None, {"Content-Type": "application/json"})
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def ticks(pids):
    total = 0
    for pid in pids:
        try:
            f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            total += int(f[11]) + int(f[12])
        except OSError: pass
    return total

def pg_pids(cluster):
    """The cluster's postmaster and its children (not other clusters on the machine)."""
    master = int(open(os.path.join(cluster, "data", "postmaster.pid")).readline())
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return [master] + [int(p) for p in out]

def psql(url, sql):
    return subprocess.run(["psql", url, "-At", "-F", "|", "-c", sql], capture_output=True, text=True, check=True).stdout

p = argparse.ArgumentParser()
p.add_argument("--binary", action="append", required=True)
p.add_argument("--clients", type=int, default=16)
p.add_argument("--stacks", type=int, default=10)
p.add_argument("--duration", type=int, default=5)
p.add_argument("--threads", type=int, default=32)
p.add_argument("--flags", default="", help="extra scrollstackd options")
p.add_argument("--runs", type=int, default=1)
a = p.parse_args()
work = tempfile.mkdtemp(prefix="pg2prof-"); os.chmod(work, 0o755)
cluster = os.path.join(work, "pg")
url = subprocess.run([CLUSTER, "start", cluster, "on"], check=True, capture_output=True, text=True).stdout.strip()
with open(os.path.join(cluster, "data", "postgresql.conf"), "a") as f:
    f.write("\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track = all\n")
subprocess.run([CLUSTER, "stop", cluster], check=True)
url = subprocess.run([CLUSTER, "start", cluster, "on"], check=True, capture_output=True, text=True).stdout.strip()
psql(url, "CREATE EXTENSION pg_stat_statements")
lua = os.path.join(work, "w.lua")
open(lua, "w").write("""
local body = '{"rows":[{"view":{"type":"Cell"},"size":{"fixed":44}}],"at":{"index":50}}'
local counter = 0
function setup(thread) thread:set("id", counter); counter = counter + 1 end
local n = 0
function request()
  n = n + 1
  local stack = (id * 7 + n) %% %d
  return wrk.format("POST", "/v1/stacks/s" .. stack .. "/rows", {["Content-Type"] = "application/json"}, body)
end
""" % a.stacks)
try:
  for run in range(a.runs):
   for binary in a.binary:
    port = free_port()
    server = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", "--threads", str(a.threads), "--store", url] + a.flags.split())
    for _ in range(3000):
        try: call(port, "GET", "/healthz"); break
        except OSError: time.sleep(0.01)
    rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(100)]
    for s in range(a.stacks):
        call(port, "DELETE", f"/v1/stacks/s{s}")
        call(port, "POST", "/v1/stacks", {"id": f"s{s}", "rows": rows})
    psql(url, "SELECT pg_stat_statements_reset()")
    x0 = int(psql(url, "SELECT xact_commit FROM pg_stat_database WHERE datname='postgres'"))
    waits = collections.Counter(); stop = threading.Event()
    def sample():
        # one psql session sampling wait events of the others every 20 ms
        q = "SELECT coalesce(wait_event_type,'-')||':'||coalesce(wait_event,'cpu')||':'||state FROM pg_stat_activity WHERE backend_type='client backend' AND pid<>pg_backend_pid() AND state<>'idle';\n"
        pr = subprocess.Popen(["psql", url, "-At"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        n = 0
        while not stop.is_set():
            pr.stdin.write(q + "SELECT '--end--';\n"); pr.stdin.flush()
            while True:
                line = pr.stdout.readline().strip()
                if line == "--end--": break
                waits[line] += 1
            n += 1; stop.wait(0.02)
        pr.stdin.close(); pr.wait(); waits["samples"] = n
    t = threading.Thread(target=sample); 
    sp, pp = ticks([server.pid]), ticks(pg_pids(cluster))
    t0 = time.time(); t.start()
    wrk = subprocess.run(["wrk", "-t2", f"-c{a.clients}", f"-d{a.duration}s", "--latency", "-s", lua, f"http://127.0.0.1:{port}/"], capture_output=True, text=True)
    stop.set(); t.join(); el = time.time() - t0
    sp, pp = ticks([server.pid]) - sp, ticks(pg_pids(cluster)) - pp
    x1 = int(psql(url, "SELECT xact_commit FROM pg_stat_database WHERE datname='postgres'"))
    out = wrk.stdout
    reqs = int(re.search(r"(\d+) requests in", out).group(1)); rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    p50 = re.search(r"50%\s+(\S+)", out).group(1); p99 = re.search(r"99%\s+(\S+)", out).group(1)
    hz = os.sysconf("SC_CLK_TCK")
    print(f"== {binary} {a.flags}: {rps:.0f} writes/s ({reqs} in {a.duration}s, non2xx {non2xx.group(1) if non2xx else 0}), p50 {p50} p99 {p99}, load {os.getloadavg()[0]:.1f}")
    print(f"   CPU per write: server {sp/hz/reqs*1e6:.0f} us, postgres {pp/hz/reqs*1e6:.0f} us; transactions/write {(x1-x0)/reqs:.3f}")
    st = psql(url, "SELECT calls, round(total_exec_time::numeric,1), round(total_plan_time::numeric,1), rows, regexp_replace(left(query, 70), '\\s+', ' ', 'g') FROM pg_stat_statements ORDER BY calls DESC LIMIT 8")
    for line in st.splitlines():
        c, ex, pl, rw, q = line.split("|", 4)
        print(f"   {int(c)/reqs:7.3f}/write  exec {float(ex)/max(1,int(c))*1000:7.0f} us/call  {q}")
    print("   wait samples (active backends):", ", ".join(f"{k} {v}" for k, v in waits.most_common(10)))
    server.send_signal(signal.SIGTERM); server.wait(timeout=60)
finally:
    subprocess.run([CLUSTER, "destroy", cluster])
