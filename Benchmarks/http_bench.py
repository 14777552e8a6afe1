#!/usr/bin/env python3
"""HTTP benchmark: wrk on loopback against scrollstackd and, in the same run, against nginx
serving the very same response bytes as a static file (the ceiling). Prints medians of
requests/s and p50/p99 latency over several runs, the ratio to nginx, and each server's CPU
per request (user + system from /proc, its workers' for nginx): less noisy than the rates on
a shared machine. With `--baseline
BINARY`, a second scrollstackd (another build) serves the same stacks and is measured in the
same runs, alternating with the two others; `--cases` picks which endpoints are measured.
With `--floor`, libmicrohttpd alone (Benchmarks/mhd_floor.c, built with cc, run as
scrollstackd runs it) sends the cached answer's bytes and header fields in the same runs of
the cached case: what the HTTP library costs without the service's code; and in the runs of
the insert case, it receives the POST body and sends the insert's answer, once as it is and
once with jansson parsing the body first (`mhd_floor --parse`): the ceiling of any write that
reads its JSON with jansson, printed against the cached GET's rate."""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def wait_port(port, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on {port}")

def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req) as r:
        return r.status, r.read()

UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}

def cpu_seconds(pids):
    """The CPU the processes used so far, user + system (/proc/PID/stat), in seconds."""
    total = 0
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")

def wrk(url, seconds, connections, threads, script=None, pids=()):
    """(requests/s, p50 ms, p99 ms, CPU µs per request of `pids`: the server's processes)."""
    cmd = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        cmd += ["-s", script]
    before = cpu_seconds(pids)
    out = subprocess.run(cmd + [url], capture_output=True, text=True, check=True).stdout
    used = cpu_seconds(pids) - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        lat[pct] = float(m.group(1)) * UNITS[m.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"wrk saw {errors.group(1)} error responses from {url}:\n{out}")
    return rps, lat["50"], lat["99"], used * 1e6 / max(1, requests)

NGINX_CONF = """
worker_processes 2;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    default_type application/json;
    keepalive_requests 1000000;
    server {{
        listen 127.0.0.1:{port};
        root {dir}/www;
        # Static files answer POST too, so both endpoints are served from files.
        error_page 405 =200 $uri;
    }}
}}
"""

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--duration", type=int, default=5)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--durable", action="store_true", help="journal to a data dir (fsync per write) instead of --in-memory")
    p.add_argument("--big-rows", type=int, default=100_000, help="rows of the stack whose full layout is timed to the last byte (0: skip)")
    p.add_argument("--server-arg", action="append", default=[], help="an extra scrollstackd argument (repeatable)")
    p.add_argument("--baseline", help="another scrollstackd binary measured in the same runs")
    p.add_argument("--floor", action="store_true", help="also measure libmicrohttpd alone sending the cached answer, and (insert) "
                   "receiving the body and sending the insert's answer, without and with jansson parsing the body (mhd_floor.c)")
    p.add_argument("--cases", default="cached,uncached,insert", help="comma-separated: cached, uncached, insert (empty: none, only the full layout)")
    args = p.parse_args()

    work = tempfile.mkdtemp(prefix="ssbench-")
    os.chmod(work, 0o755)  # nginx's workers run as another user and must read the files
    port = free_port()
    storage = ["--data-dir", os.path.join(work, "data")] if args.durable else ["--in-memory"]
    server = subprocess.Popen([args.binary, "--port", str(port), "--log-level", "warning"] + storage + args.server_arg)
    servers = [server]
    base_port = None
    if args.baseline:
        base_port = free_port()
        base_storage = ["--data-dir", os.path.join(work, "base-data")] if args.durable else ["--in-memory"]
        servers.append(subprocess.Popen([args.baseline, "--port", str(base_port), "--log-level", "warning"] + base_storage + args.server_arg))
    ports = [port] + ([base_port] if base_port else [])
    nginx = None
    floor = None
    insert_floors = []  # (label, port, process): the insert's answer sent by libmicrohttpd alone, and after jansson's parse
    try:
        rows = [{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(args.rows)]
        for each in ports:
            wait_port(each)
            request(each, "POST", "/v1/stacks", {"id": "bench", "viewport": {"width": 375, "height": 667}, "rows": rows})
        insert_body = {"rows": [{"view": {"type": "Cell"}, "size": {"fixed": 44}}], "at": {"index": args.rows // 2}}
        # Every request with its own Accept parameter: the same answer, never from the answer cache.
        uncached_lua = os.path.join(work, "uncached.lua")
        with open(uncached_lua, "w") as f:
            f.write('counter = 0\nrequest = function()\n  counter = counter + 1\n'
                    '  return wrk.format(nil, nil, {["Accept"] = "application/json;n=" .. counter})\nend\n')
        lua = os.path.join(work, "insert.lua")
        with open(lua, "w") as f:
            f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
            f.write(f"wrk.body = {json.dumps(json.dumps(insert_body))}\n")

        # The same response bytes as static files for nginx.
        www = os.path.join(work, "www")
        os.makedirs(www, mode=0o755)
        _, layout_bytes = request(port, "GET", "/v1/stacks/bench/layout?window=visible")
        _, insert_bytes = request(port, "POST", "/v1/stacks/bench/rows", insert_body)
        if base_port:
            _, base_layout = request(base_port, "GET", "/v1/stacks/bench/layout?window=visible")
            _, base_insert = request(base_port, "POST", "/v1/stacks/bench/rows", insert_body)
            if base_layout != layout_bytes or base_insert != insert_bytes:
                raise SystemExit("the baseline's answers differ from the binary's")
        with open(os.path.join(www, "layout.json"), "wb") as f:
            f.write(layout_bytes)
        with open(os.path.join(www, "insert.json"), "wb") as f:
            f.write(insert_bytes)
        nginx_port = free_port()
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(dir=work, port=nginx_port))
        nginx_bin = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.access(nginx_bin, os.X_OK):
            raise SystemExit("nginx is not installed (apt-get install nginx-light): it is the baseline of every figure here")
        nginx = subprocess.Popen([nginx_bin, "-c", conf, "-g", "daemon off;"])
        wait_port(nginx_port)
        nginx_workers = [int(p) for p in subprocess.run(["pgrep", "-P", str(nginx.pid)], capture_output=True, text=True).stdout.split()]

        floor_port = None
        if args.floor:
            floor_port = free_port()
            floor = start_floor(work, floor_port, port, args, os.path.join(www, "layout.json"))
            if "insert" in args.cases.split(","):
                for label, parse in (("libmicrohttpd alone", False), ("  + jansson parses the body", True)):
                    each = free_port()
                    insert_floors.append((label, each, start_floor(work, each, port, args, os.path.join(www, "insert.json"), parse=parse)))
        all_cases = {
            "cached": ("GET layout?window=visible", "/v1/stacks/bench/layout?window=visible", None,
                       f"http://127.0.0.1:{nginx_port}/layout.json", len(layout_bytes)),
            "uncached": ("GET …, uncached", "/v1/stacks/bench/layout?window=visible", uncached_lua,
                         f"http://127.0.0.1:{nginx_port}/layout.json", len(layout_bytes)),
            "insert": ("POST rows (insert 1)", "/v1/stacks/bench/rows", lua,
                       f"http://127.0.0.1:{nginx_port}/insert.json", len(insert_bytes)),
        }
        cases = [all_cases[c] for c in args.cases.split(",") if c]
        print(f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, median of {args.runs} alternating runs; "
              f"stack of {args.rows} rows; {'durable (SQLite, synchronous=FULL)' if args.durable else 'in memory'}; "
              f"{os.cpu_count()} cores shared by wrk, the server and nginx")
        print(f"{'endpoint':28} {'bytes':>6} | {'scrollstackd req/s':>18} {'p50 ms':>7} {'p99 ms':>7} | {'nginx req/s':>11} {'p50 ms':>7} {'p99 ms':>7} | ratio")
        def row(name, size, x, t, tail):
            """One line of the table: x's rate and latencies against nginx's t, then `tail`."""
            print(f"{name:28} {size:>6} | {x[0]:>18.0f} {x[1]:>7.2f} {x[2]:>7.2f} | {t[0]:>11.0f} {t[1]:>7.2f} {t[2]:>7.2f} | {x[0] / t[0]:.2f}"
                  f" | {tail}")
        cached_rate = None  # the cached GET's, for the insert's floors
        for name, path, script, static_url, size in cases:
            ours, base, theirs, floors = [], [], [], []
            post_floors = {label: [] for label, _, _ in insert_floors} if script == lua else {}
            for _ in range(args.runs):
                ours.append(wrk(f"http://127.0.0.1:{port}{path}", args.duration, args.connections, args.threads, script, [server.pid]))
                if base_port:
                    base.append(wrk(f"http://127.0.0.1:{base_port}{path}", args.duration, args.connections, args.threads, script,
                                    [servers[1].pid]))
                if floor_port and path.endswith("window=visible") and not script:
                    floors.append(wrk(f"http://127.0.0.1:{floor_port}{path}", args.duration, args.connections, args.threads, None, [floor.pid]))
                for label, each, process in insert_floors if post_floors else ():
                    post_floors[label].append(wrk(f"http://127.0.0.1:{each}{path}", args.duration, args.connections, args.threads, script, [process.pid]))
                theirs.append(wrk(static_url, args.duration, args.connections, args.threads, script, nginx_workers))
            med = lambda xs, i: statistics.median(x[i] for x in xs)
            o = [med(ours, i) for i in range(4)]
            t = [med(theirs, i) for i in range(4)]
            row(name, size, o, t, f"CPU µs/request {o[3]:.1f} (nginx {t[3]:.1f})")
            if base:
                b = [med(base, i) for i in range(4)]
                row("  baseline, same runs", size, b, t, f"CPU µs/request {b[3]:.1f}")
            if floors:
                f = [med(floors, i) for i in range(4)]
                row("  libmicrohttpd alone", size, f, t, f"CPU µs/request {f[3]:.1f} (scrollstackd {o[0] / f[0]:.2f}× its rate)")
            if path.endswith("window=visible") and not script:
                cached_rate = o[0]
            for label, runs in post_floors.items():
                f = [med(runs, i) for i in range(4)]
                against = f"; {f[0] / cached_rate:.2f}× the cached GET's rate (scrollstackd {o[0] / cached_rate:.2f}×)" if cached_rate else ""
                row("  " + label, size, f, t, f"CPU µs/request {f[3]:.1f} (scrollstackd {o[0] / f[0]:.2f}× its rate{against})")
        _, info = request(port, "GET", "/v1/stacks")
        print("rows at the end:", {s["id"]: s["rowCount"] for s in json.loads(info)})
        if args.big_rows:
            big_time_to_last_byte(args, ports, nginx_port, www)
    finally:
        codes = []
        for each in servers:
            each.send_signal(signal.SIGTERM)
            codes.append(each.wait(timeout=30))
        for process in ([floor] if floor else []) + [process for _, _, process in insert_floors]:
            process.terminate()
            process.wait(timeout=10)
        if nginx:
            nginx.terminate()
            nginx.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
        if any(codes):
            sys.exit(f"scrollstackd exited with {codes} after SIGTERM")

def start_floor(work, floor_port, port, args, body_path, parse=False):
    """Builds Benchmarks/mhd_floor.c (once) and starts it on floor_port sending body_path's
    bytes with the header fields scrollstackd's cached answer has (but Date and
    Content-Length, which libmicrohttpd adds, and Connection: urllib asked to close), with
    scrollstackd's worker threads; with `parse`, each request's body is parsed by jansson
    first (`mhd_floor --parse`)."""
    binary = os.path.join(work, "mhd_floor")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mhd_floor.c")
    if not os.path.exists(binary):
        subprocess.run(["cc", "-O2", "-o", binary, source, "-lmicrohttpd", "-ljansson"], check=True)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/stacks/bench/layout?window=visible") as r:
        fields = [(k, v) for k, v in r.getheaders() if k.lower() not in ("date", "content-length", "connection")]
    threads = next((int(a.split("=", 1)[1]) for a in args.server_arg if a.startswith("--threads=")), min(2, os.cpu_count()))
    process = subprocess.Popen([binary] + (["--parse"] if parse else []) + [str(floor_port), str(threads), str(32 << 10), body_path]
                               + [x for kv in fields for x in kv])
    wait_port(floor_port)
    return process

def big_time_to_last_byte(args, ports, nginx_port, www):
    """The full layout of a big stack against nginx sending the same bytes: the median time to
    the last byte of one request at a time, curl discarding the body. "repeated" asks the same
    again and again, timed from the fourth ask (a server that keeps streamed answers sends the
    kept bytes from the third; the second and third are printed apart); "uncached"
    sends a new `Accept` parameter each time (the same answer, never kept: laid out, encoded
    and streamed every time). With a baseline, each line also has the baseline's time."""
    batch = 10_000
    for port in ports:
        request(port, "POST", "/v1/stacks", {"id": "big", "viewport": {"width": 375, "height": 667}})
        for first in range(0, args.big_rows, batch):
            rows = [{"id": f"b{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(first, min(args.big_rows, first + batch))]
            request(port, "POST", "/v1/stacks/big/rows", {"rows": rows})
    answers = [request(port, "GET", "/v1/stacks/big/layout")[1] for port in ports]
    big = answers[0]
    if any(a != big for a in answers):
        raise SystemExit("the baseline's full layout differs from the binary's")
    with open(os.path.join(www, "big.json"), "wb") as f:
        f.write(big)
    counter = [0]
    def ttlb(url, uncached=False):
        headers = []
        if uncached:
            counter[0] += 1
            headers = ["-H", f"Accept: application/json;n={counter[0]}"]
        out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total}"] + headers + [url],
                             capture_output=True, text=True, check=True).stdout
        return float(out) * 1000
    # The answer cache records a streamed answer on its second ask and serves the kept bytes
    # from the third: "repeated" is timed from the fourth ask on (the GET above was the
    # first); the second and third are timed apart and printed.
    warm = [[ttlb(f"http://127.0.0.1:{port}/v1/stacks/big/layout") for _ in range(2)] for port in ports]
    print(f"full layout of {args.big_rows} rows, its 2nd ask (recorded) and 3rd (the first from kept bytes): "
          + "; ".join(f"{'scrollstackd' if i == 0 else 'baseline'} {a:.1f} and {b:.1f} ms" for i, (a, b) in enumerate(warm)))
    for kind in ("repeated", "uncached"):
        servers = [[] for _ in ports]
        theirs = []
        for _ in range(max(5, args.runs)):
            for i, port in enumerate(ports):
                servers[i].append(ttlb(f"http://127.0.0.1:{port}/v1/stacks/big/layout", uncached=kind == "uncached"))
            theirs.append(ttlb(f"http://127.0.0.1:{nginx_port}/big.json"))
        t = statistics.median(theirs)
        o = statistics.median(servers[0])
        line = (f"full layout of {args.big_rows} rows, {kind}, {len(big)} bytes, time to last byte (median of {len(theirs)}, curl): "
                f"scrollstackd {o:.1f} ms, nginx {t:.1f} ms, ratio (nginx time / ours) {t / o:.2f}")
        if len(ports) > 1:
            b = statistics.median(servers[1])
            line += f"; baseline {b:.1f} ms, ratio {t / b:.2f}"
        print(line)

if __name__ == "__main__":
    main()
