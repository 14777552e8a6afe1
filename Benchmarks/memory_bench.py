#!/usr/bin/env python3
"""Memory of big answers: the server's RSS (from /proc) while it serves the full layout and
the whole model of an N-row stack (1,000,000 by default), and what is left once the stack is
deleted. The model's own share is the RSS after building the stack minus the RSS before.

Prints: RSS at start, with the model, the peak while a client reads the full layout (and, in
further passes, the stack and the rows list), and after DELETE; the peak's excess over the model against the
target (64 MiB), and the time to the last byte of each answer."""
import argparse, json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=600) as r:
        return r.status, r.read()

def read_peak(port, path, pid):
    """Reads the answer to the end, discarding it, while sampling RSS every 5 ms."""
    peak = [rss_kib(pid)]
    done = threading.Event()
    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.005)
    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.time()
    size = 0
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=600) as r:
        while True:
            piece = r.read(1 << 20)
            if not piece:
                break
            size += len(piece)
    elapsed = time.time() - started
    done.set()
    sampler.join()
    return peak[0], size, elapsed

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--batch", type=int, default=20_000)
    p.add_argument("--durable", action="store_true", help="journal to a data dir on disk instead of --in-memory "
                   "(whose SQLite database holds every request body in the process)")
    args = p.parse_args()
    port = free_port()
    work = tempfile.mkdtemp(prefix="ssmem-")
    storage = ["--data-dir", os.path.join(work, "data")] if args.durable else ["--in-memory"]
    server = subprocess.Popen([args.binary, "--port", str(port), "--log-level", "warning",
                               "--max-body-bytes", str(16 << 20)] + storage)
    try:
        deadline = time.time() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("the server did not start")
                time.sleep(0.05)
        start = rss_kib(server.pid)
        request(port, "POST", "/v1/stacks", {"id": "big", "viewport": {"width": 375, "height": 667}})
        for first in range(0, args.rows, args.batch):
            rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(first, min(args.rows, first + args.batch))]
            request(port, "POST", "/v1/stacks/big/rows", {"rows": rows})
        model = rss_kib(server.pid)
        layout_peak, layout_bytes, layout_s = read_peak(port, "/v1/stacks/big/layout", server.pid)
        stack_peak, stack_bytes, stack_s = read_peak(port, "/v1/stacks/big", server.pid)
        rows_peak, rows_bytes, rows_s = read_peak(port, "/v1/stacks/big/rows", server.pid)
        request(port, "DELETE", "/v1/stacks/big")
        after = rss_kib(server.pid)
        mib = lambda kib: kib / 1024
        print(f"{args.rows} rows, {'journal on disk' if args.durable else 'in memory'}; RSS in MiB (from /proc/PID/status, sampled every 5 ms while reading)")
        print(f"  at start                         {mib(start):8.1f}")
        print(f"  with the stack (model)           {mib(model):8.1f}   model {mib(model - start):.1f} MiB, {(model - start) * 1024 / args.rows:.0f} B/row")
        print(f"  peak serving the full layout     {mib(layout_peak):8.1f}   model + {mib(layout_peak - model):.1f} MiB (target <= model + 64), "
              f"{layout_bytes / 1e6:.1f} MB in {layout_s:.2f} s")
        print(f"  peak serving the stack           {mib(stack_peak):8.1f}   model + {mib(stack_peak - model):.1f} MiB, "
              f"{stack_bytes / 1e6:.1f} MB in {stack_s:.2f} s")
        print(f"  peak serving the rows list       {mib(rows_peak):8.1f}   model + {mib(rows_peak - model):.1f} MiB, "
              f"{rows_bytes / 1e6:.1f} MB in {rows_s:.2f} s")
        print(f"  after DELETE                     {mib(after):8.1f}   start + {mib(after - start):.1f} MiB")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
