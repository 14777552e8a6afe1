#!/usr/bin/env python3
"""Requests whose answers multiply their size, two scrollstackd binaries side by side.

    python3 Benchmarks/amplified_answer_cost.py BASELINE_BINARY CANDIDATE_BINARY [--runs K]

Both serve --in-memory. Each of K alternating rounds (default 3) sends to each binary:
  frames×16   POST /v1/layout?content=frames&devices=<all 9 built-in, then 7 again> with 4 text
              rows of 100,000 newlines each (Inter 1 pt; a 0.8 MB body): the devices answer's cost;
  svg×16      GET …/layout.svg?devices=<16> of a stack of 20,000 fixed rows: its drawing.
Prints, per kind and binary, the status, the answer's size and the median server CPU (utime +
stime from /proc/PID/stat around the request), and candidate / baseline.
"""
import argparse, statistics

from server_pair import request, start, stop, ticks

DEVICES = ["iphone-se", "iphone-mini", "iphone-15", "iphone-15-plus", "iphone-15-pro-max", "ipad-mini", "ipad", "ipad-pro-11",
           "ipad-pro-13", "iphone-se", "iphone-mini", "iphone-15", "iphone-15-plus", "iphone-15-pro-max", "ipad-mini", "ipad"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("candidate")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text_rows = [{"id": f"t{i}", "view": {"type": "L"}, "size": "fit",
                  "content": {"text": "\n" * 100_000, "font": {"family": "Inter", "size": 1}}} for i in range(4)]
    stateless = {"viewport": {"width": 375, "height": 600}, "rows": text_rows}
    rows = [{"id": f"r{i}", "view": {"type": "V"}, "size": {"fixed": 40}} for i in range(20_000)]
    names = ",".join(DEVICES)
    kinds = [("frames×16", "POST", f"/v1/layout?content=frames&devices={names}", stateless),
             ("svg×16", "GET", f"/v1/stacks/big/layout.svg?devices={names}", None)]
    servers = start([args.baseline, args.candidate], 18995)
    try:
        for _, _, port in servers:
            # Two requests: 20,000 rows are more than a body may hold (1 MiB).
            status, body = request(port, "POST", "/v1/stacks", {"id": "big", "rows": rows[:10_000]})
            assert status == 201, body[:300]
            status, body = request(port, "POST", "/v1/stacks/big/rows", {"rows": rows[10_000:]})
            assert status == 200, body[:300]
        cpu = {(kind, binary): [] for kind, *_ in kinds for binary, _, _ in servers}
        seen = {}
        for _ in range(args.runs):
            for kind, method, path, body in kinds:
                for binary, process, port in servers:
                    before = ticks(process.pid)
                    status, answer = request(port, method, path, body)
                    cpu[(kind, binary)].append(ticks(process.pid) - before)
                    seen[(kind, binary)] = (status, len(answer))
        print(f"server CPU s per request, median of {args.runs}")
        print(f"{'kind':10} {'baseline':>26} {'candidate':>26} {'ratio':>7}")
        for kind, *_ in kinds:
            cells = []
            for binary, _, _ in servers:
                status, size = seen[(kind, binary)]
                cells.append(f"{status} {size / 1e6:8.1f} MB {statistics.median(cpu[(kind, binary)]):6.2f} s")
            base, cand = (statistics.median(cpu[(kind, b)]) for b, _, _ in servers)
            print(f"{kind:10} {cells[0]:>26} {cells[1]:>26} {cand / base if base else float('nan'):7.3f}")
    finally:
        stop(servers)

if __name__ == "__main__":
    main()
