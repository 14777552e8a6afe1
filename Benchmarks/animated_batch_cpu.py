#!/usr/bin/env python3
"""Server CPU of one animated batch change over many rows, two scrollstackd binaries side by side.

    python3 Benchmarks/animated_batch_cpu.py BASELINE_BINARY CANDIDATE_BINARY [--rows N] [--runs K] [--durable]

Both serve --in-memory (with --durable: a data dir of their own) a stack of N rows (default 20,000; fixed height 1, all given in the
stack's order); each of K alternating rounds (default 3) sends, to each binary, two batches over
every row with `"animation": true` (the answer carries the whole plan): `insets` with a top
inset of 1, then of 2 (every row changes: the plan's `update` rows), then `hide` and `show`.
Prints the median server CPU (utime + stime from /proc/PID/stat around each request) per kind
and binary, and candidate / baseline. With --durable, each round also reads back
(`GET …/transitions/{r}`) the plan the last `insets` batch kept whole ("read kept"), and that
of an `insets` batch sent without animation, which keeps a recipe ("read recipe").
"""
import argparse, json

from server_pair import request, start, stop, ticks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("baseline")
    parser.add_argument("candidate")
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--durable", action="store_true")
    args = parser.parse_args()
    servers = start([args.baseline, args.candidate], 18980, durable=args.durable, prefix="animated-")
    try:
        for _, _, port in servers:
            request(port, "POST", "/v1/stacks", {"id": "s"})
            for first in range(0, args.rows, 5000):  # under the 1 MiB body limit
                rows = [{"id": f"r{k}", "view": {"type": "V"}, "size": {"fixed": 1}}
                        for k in range(first, min(args.rows, first + 5000))]
                status, body = request(port, "POST", "/v1/stacks/s/rows", {"rows": rows})
                assert status == 200, (status, body[:200])
        every = list(range(args.rows))
        kinds = {
            "insets": [{"op": "insets", "insets": {"top": top}} for top in (1, 2)],
            "hide/show": [{"op": op} for op in ("hide", "show")],
        }
        reads = ["read kept", "read recipe"] if args.durable else []
        cpu = {(kind, binary): [] for kind in [*kinds, *reads] for binary, _, _ in servers}
        kept = {}  # binary → the revision of its last animated insets batch (a plan kept whole)

        def measure(kind, binary, process, port, method, path, body=None):
            before = ticks(process.pid)
            status, answer = request(port, method, path, body)
            cpu[(kind, binary)].append(ticks(process.pid) - before)
            assert status == 200, (status, answer[:200])
            return answer

        for _ in range(args.runs):
            for kind, bodies in kinds.items():
                for body in bodies:
                    for binary, process, port in servers:
                        answer = measure(kind, binary, process, port, "POST", "/v1/stacks/s/rows/batch",
                                         dict(body, rows=every, animation=True))
                        if kind == "insets":
                            kept[binary] = json.loads(answer)["revision"]
            for binary, process, port in servers if args.durable else []:
                status, answer = request(port, "POST", "/v1/stacks/s/rows/batch",
                                         {"op": "insets", "insets": {"top": 3}, "rows": every})
                assert status == 200, (status, answer[:200])
                recipe = json.loads(answer)["revision"]
                measure("read kept", binary, process, port, "GET", f"/v1/stacks/s/transitions/{kept[binary]}")
                measure("read recipe", binary, process, port, "GET", f"/v1/stacks/s/transitions/{recipe}")
        median = lambda values: sorted(values)[len(values) // 2]
        print(f"animated batch over {args.rows} rows ({'durable' if args.durable else 'in memory'}), server CPU s per request, "
              f"median of {2 * args.runs} (reads: of {args.runs})")
        print(f"{'kind':12} {'baseline':>10} {'candidate':>10} {'ratio':>7}")
        for kind in [*kinds, *reads]:
            b, c = median(cpu[(kind, args.baseline)]), median(cpu[(kind, args.candidate)])
            print(f"{kind:12} {b:10.2f} {c:10.2f} {c / b:7.2f}")
    finally:
        stop(servers)

if __name__ == "__main__":
    main()
