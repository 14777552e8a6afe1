#!/usr/bin/env python3
"""A composed screen against the same rows flat, one server, same run.

    python3 Benchmarks/composition_bench.py BINARY [--rows N] [--carousels C] [--cards K] [--runs R]

The composed screen: a feed of N rows (default 10,000), of which C (default 100, evenly
spaced) each embed a carousel stack of K cards (default 20). The flat stack: the same
N + C·K rows in one stack (each carousel's cards right after its row). Both are asked, in
alternation, R times (default 15) each:
- the full layout (`GET …/layout?offset=Y`), and
- the visible window (`GET …/layout?window=visible&offset=Y`),
with Y drawn anew for each request (seed printed; the same Y for both stacks), so that no
answer comes from the answer cache. Prints the medians and p90 of the wall time of each
(the whole answer read), and composed / flat. Run it on the release build.
"""
import argparse, random, statistics, sys, time

from server_pair import request, start, stop


def timed(port, path):
    started = time.perf_counter()
    status, body = request(port, "GET", path)
    elapsed = time.perf_counter() - started
    assert status == 200, body[:300]
    return elapsed, len(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--carousels", type=int, default=100)
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=20261205)
    args = parser.parse_args()
    print(f"seed {args.seed}")
    rng = random.Random(args.seed)
    every = args.rows // args.carousels
    cards = lambda c: [{"id": f"c{c}-{k}", "view": {"type": "Card"}, "size": {"fixed": 240}} for k in range(args.cards)]
    (binary, process, port), = start([args.binary], 18870, prefix="composition-")
    try:
        for c in range(args.carousels):
            status, body = request(port, "POST", "/v1/stacks", {
                "id": f"carousel{c}", "axis": "horizontal", "viewport": {"width": 343, "height": 200}, "spacing": 12,
                "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0}, "rows": cards(c)})
            assert status == 201, body[:300]
        composed, flat = [], []
        for i in range(args.rows):
            if i % every == 0 and i // every < args.carousels:
                c = i // every
                composed.append({"id": f"r{i}", "stack": f"carousel{c}", "size": {"fixed": 200}})
                flat.append({"id": f"r{i}", "view": {"type": "Carousel"}, "size": {"fixed": 200}})
                flat.extend({**card, "size": {"fixed": 200}} for card in cards(c))
            else:
                row = {"id": f"r{i}", "view": {"type": "Text"}, "size": {"fixed": 44}}
                composed.append(row)
                flat.append(row)
        for name, rows in (("composed", composed), ("flat", flat)):
            status, body = request(port, "POST", "/v1/stacks", {"id": name, "viewport": {"width": 375, "height": 667}, "rows": rows})
            assert status == 201, body[:300]
        times = {(name, query): [] for name in ("composed", "flat") for query in ("full", "window")}
        sizes = {}
        for _ in range(args.runs):
            y = rng.randrange(0, 400_000)
            for query, path in (("full", f"layout?offset={y}"), ("window", f"layout?window=visible&offset={y}")):
                for name in ("composed", "flat"):
                    elapsed, size = timed(port, f"/v1/stacks/{name}/{path}")
                    times[(name, query)].append(elapsed)
                    sizes[(name, query)] = size
        rows_flat = len(flat)
        print(f"composed: {args.rows} rows, {args.carousels} of them embedding a carousel of {args.cards} cards; "
              f"flat: the same {rows_flat} rows in one stack; {args.runs} runs each")
        for query in ("full", "window"):
            medians = {}
            for name in ("composed", "flat"):
                t = sorted(times[(name, query)])
                medians[name] = statistics.median(t)
                p90 = t[min(len(t) - 1, int(0.9 * len(t)))]
                print(f"  {query:6} {name:8}: median {medians[name] * 1000:8.2f} ms, p90 {p90 * 1000:8.2f} ms, {sizes[(name, query)]:>9} bytes")
            print(f"  {query:6} composed / flat: {medians['composed'] / medians['flat']:.2f}x")
    finally:
        stop([(binary, process, port)])


if __name__ == "__main__":
    sys.exit(main())
