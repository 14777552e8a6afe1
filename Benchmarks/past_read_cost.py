#!/usr/bin/env python3
"""What a read of a past revision replays, two scrollstackd binaries side by side.

    python3 Benchmarks/past_read_cost.py BASELINE_BINARY CANDIDATE_BINARY [--rows N] [--patches P] [--runs K]

Both serve a data dir of their own. Each builds the same stack: N text rows sized to fit
(default 2,000; Inter 15, a sentence each), then P PATCHes of the viewport width (default
240), each of which re-measures every row. Then K alternating rounds (default 5) read
`GET …/layout?revision=R&window=visible` from each, R = P, P − 1, … (a state before the
last PATCH, rebuilt from the journal; another each round, so no answer is cached). Prints, per binary, the server CPU
(utime + stime from /proc/PID/stat) of the P PATCHes (snapshots included: the CPU is read
once it has been still for 0.5 s, 30 s at most) and the median CPU of one read, with
candidate / baseline. Counting revisions alone for snapshots, this read took 11.7 s.
"""
import argparse, statistics, sys, time

from server_pair import request, start, stop, ticks


def settled_ticks(pid):
    """The CPU once it has not moved for 0.5 s (background snapshots done), 30 s at most."""
    deadline, last = time.time() + 30, ticks(pid)
    while time.time() < deadline:
        time.sleep(0.5)  # sampling a counter, not synchronizing: bounded by the deadline
        now = ticks(pid)
        if now == last:
            return now
        last = now
    return last


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("candidate")
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--patches", type=int, default=240)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    font = {"family": "Inter", "size": 15}
    rows = [{"id": f"t{i}", "view": {"type": "L"}, "size": "fit",
             "content": {"text": f"Row {i}: the quick brown fox jumps over the lazy dog, again and again.", "font": font}}
            for i in range(args.rows)]
    servers = start([args.baseline, args.candidate], 18990, durable=True, prefix="past-read-")
    try:
        writes = {}
        for binary, process, port in servers:
            status, body = request(port, "POST", "/v1/stacks", {"id": "s", "viewport": {"width": 375, "height": 667}, "rows": rows})
            assert status == 201, body[:300]
            before = settled_ticks(process.pid)
            for p in range(args.patches):
                status, body = request(port, "PATCH", "/v1/stacks/s", {"viewport": {"width": 300 + p % 150, "height": 667}})
                assert status == 200, body[:300]
            writes[binary] = settled_ticks(process.pid) - before
        reads = {binary: [] for binary, _, _ in servers}
        answers = {}
        for round in range(args.runs):
            for binary, process, port in servers:
                before = ticks(process.pid)
                status, body = request(port, "GET", f"/v1/stacks/s/layout?revision={args.patches - round}&window=visible")
                reads[binary].append(ticks(process.pid) - before)
                assert status == 200, body[:300]
                answers[binary] = body
        same = answers[args.baseline] == answers[args.candidate]
        print(f"{args.rows} fit text rows, {args.patches} viewport PATCHes, then GET ?revision={args.patches}…{args.patches - args.runs + 1}&window=visible, "
              f"{args.runs} rounds (last answers identical: {same})")
        for binary, _, _ in servers:
            print(f"  {binary}: the PATCHes {writes[binary]:.2f} s CPU; one read {statistics.median(reads[binary]):.3f} s CPU "
                  f"(median; {', '.join(f'{r:.2f}' for r in reads[binary])})")
        base, cand = statistics.median(reads[args.baseline]), statistics.median(reads[args.candidate])
        print(f"  read: candidate / baseline = {cand / base:.3f}" if base > 0 else "  read: baseline too fast to compare")
        print(f"  PATCHes: candidate / baseline = {writes[args.candidate] / writes[args.baseline]:.3f}")
    finally:
        stop(servers)

if __name__ == "__main__":
    main()
