#!/usr/bin/env python3
"""What the design-tool answers cost, each against the plain JSON answer in the same run:
  1. the SVG of a 10k-row stack's visible window vs the JSON of the same window;
  2. the full layout of a 100k-row stack gzip'd vs plain JSON, and one page of it.
One server (in memory), one keep-alive connection; within each comparison the requests
alternate between its cases, so they see the same machine state, and the small answers are
measured apart from the 25 MB ones (whose buffers would otherwise weigh on them). Prints medians (ms per answer, server time + transfer on
loopback) and the bytes on the wire."""
import argparse, http.client, json, re, statistics, subprocess, time, zlib

def start(binary):
    process = subprocess.Popen([binary, "--in-memory", "--port", "0", "--log-level", "notice",
                                "--max-body-bytes", str(256 << 20)], stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if m:
            return process, int(m.group(1))
    raise SystemExit("the daemon did not start")

def create(connection, stack, rows):
    body = json.dumps({"id": stack, "viewport": {"width": 375, "height": 667}, "offset": {"x": 0, "y": 68 * rows // 2},
                       "rows": [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(rows)]})
    connection.request("POST", "/v1/stacks", body=body, headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    assert response.status == 201, response.status

def fetch(connection, path, headers):
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status == 200, (path, response.status)
    return elapsed, body, response.getheader("Content-Encoding")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--samples", type=int, default=11, help="samples of each 100k-row answer")
    parser.add_argument("--small-samples", type=int, default=201, help="samples of each 10k-row window")
    args = parser.parse_args()
    process, port = start(args.binary)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        create(connection, "ten-k", 10_000)
        create(connection, "hundred-k", 100_000)
        groups = [
            (args.small_samples, [
                ("10k rows: JSON window (baseline)", "/v1/stacks/ten-k/layout?window=visible", {}),
                ("10k rows: SVG window", "/v1/stacks/ten-k/layout.svg?window=visible", {}),
            ]),
            (args.samples, [
                ("100k rows: JSON full layout (baseline)", "/v1/stacks/hundred-k/layout", {}),
                ("100k rows: gzip'd full layout", "/v1/stacks/hundred-k/layout", {"Accept-Encoding": "gzip"}),
                ("100k rows: one page of 1000, JSON", "/v1/stacks/hundred-k/layout?from=50000&limit=1000", {}),
            ]),
        ]
        cases = [case for _, group in groups for case in group]
        times = {name: [] for name, _, _ in cases}
        sizes = {}
        plain = {}
        for samples, group in groups:
            for sample in range(samples):
                # Rotated each round, so every case follows every other equally often.
                for name, path, headers in group[sample % len(group):] + group[:sample % len(group)]:
                    elapsed, body, encoding = fetch(connection, path, headers)
                    times[name].append(elapsed)
                    sizes[name] = len(body)
                    if encoding == "gzip":
                        assert zlib.decompress(body, 16 + zlib.MAX_WBITS) == plain[path], "gzip body differs from the plain one"
                    else:
                        plain[path] = body
        print(f"scrollstackd design-tool answers: medians of {args.small_samples} (10k) and {args.samples} (100k) alternating samples, one keep-alive connection on loopback")
        print(f"{'answer':42} {'bytes':>11} {'median ms':>10} {'vs baseline':>12}")
        baseline = None
        for name, _, _ in cases:
            median = statistics.median(times[name])
            if "baseline" in name:
                baseline = (sizes[name], median)
                ratio = ""
            else:
                ratio = f"{sizes[name] / baseline[0]:5.2f}× bytes, {median / baseline[1]:5.2f}× time"
            print(f"{name:42} {sizes[name]:11d} {median:10.2f}   {ratio}")
    finally:
        process.terminate()
        process.wait(timeout=30)

if __name__ == "__main__":
    main()
