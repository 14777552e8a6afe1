#!/usr/bin/env python3
"""Full layout of a flat column: ScrollStackCore against Taffy and Yoga, in the same run.

The column: N rows 44 pt high in a 375 pt wide viewport, 8 pt apart (ScrollStack spacing 8;
flexbox `margin-bottom: 8`), every 7th row hidden (`display: none`). Taffy is driven through
PyPI `stretchable`, Yoga through PyPI `poga` (its C API bindings); only their layout
computation is timed, on a freshly built (dirty) tree each sample, never the tree building.
The engine's figure comes from `core-benchmark --flat-column N` (a full `layout()` of the
same column, the streamed `forEachRowLayout`, and `layout(into:)` writing a reused
`LayoutBuffer`, the engine's full layout without building `RowLayout` values).

    pip install -r Benchmarks/requirements-bench.txt
    swift build -c release --product core-benchmark
    python3 Benchmarks/engine_vs_flexbox.py [--rows 100000 1000000] [--samples 3] [--cpu-time]
"""
import argparse
import re
import statistics
import subprocess
import time

import stretchable
from stretchable.style import Display, FlexDirection
from poga import libpoga_capi as yoga

WIDTH, HEIGHT, GAP = 375.0, 44.0, 8.0


def clock(cpu):
    return time.thread_time_ns if cpu else time.perf_counter_ns


def taffy_ns(n, cpu):
    rows = [stretchable.Node(style=stretchable.Style(
        size=(stretchable.style.AUTO, HEIGHT), margin=(0, 0, GAP, 0),
        display=Display.NONE if i % 7 == 6 else Display.FLEX)) for i in range(n)]
    root = stretchable.Node(*rows, style=stretchable.Style(flex_direction=FlexDirection.COLUMN, size=(WIDTH, stretchable.style.AUTO)))
    now = clock(cpu)
    start = now()
    root.compute_layout()
    elapsed = now() - start
    check = rows[-1].get_box().y if n % 7 != 0 else rows[-2].get_box().y
    return elapsed, check


def yoga_ns(n, cpu):
    root = yoga.YGNodeNew()
    yoga.YGNodeStyleSetFlexDirection(root, yoga.YGFlexDirection.Column)
    yoga.YGNodeStyleSetWidth(root, WIDTH)
    for i in range(n):
        row = yoga.YGNodeNew()
        yoga.YGNodeStyleSetHeight(row, HEIGHT)
        yoga.YGNodeStyleSetMargin(row, yoga.YGEdge.Bottom, GAP)
        if i % 7 == 6:
            yoga.YGNodeStyleSetDisplay(row, yoga.YGDisplay.DisplayNone)
        yoga.YGNodeInsertChild(root, row, i)
    now = clock(cpu)
    start = now()
    yoga.YGNodeCalculateLayout(root, WIDTH, yoga.YGUndefined, yoga.YGDirection.LTR)
    elapsed = now() - start
    last = n - 1 if n % 7 != 0 else n - 2
    check = yoga.YGNodeLayoutGetTop(yoga.YGNodeGetChild(root, last))
    yoga.YGNodeFreeRecursive(root)
    return elapsed, check


def engine(binary, n, samples, cpu):
    command = [binary] + (["--cpu-time"] if cpu else []) + ["--flat-column", str(n), "--samples", str(samples)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    m = re.search(r"layout_ns_per_row=([\d.]+) streamed_ns_per_row=([\d.]+) buffer_ns_per_row=([\d.]+)", out)
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def last_top(n):
    """Where the last shown row starts: 52 pt per shown row before it."""
    return sum(1 for i in range(n - 1 if n % 7 != 0 else n - 2) if i % 7 != 6) * (HEIGHT + GAP)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--binary", default=".build/release/core-benchmark")
    parser.add_argument("--cpu-time", action="store_true", help="time thread CPU instead of wall time")
    parser.add_argument("--taffy-rows", type=int, default=4000,
                        help="largest column given to Taffy: through stretchable, a 10,000-row tree took minutes to build and free")
    args = parser.parse_args()
    print(f"flat column, rows {HEIGHT:g} pt + {GAP:g} apart, every 7th hidden; median of {args.samples} ns per row "
          f"({'thread CPU' if args.cpu_time else 'wall'} time)")
    print(f"{'rows':>9} {'layout()':>9} {'streamed':>9} {'buffer':>9} {'Taffy':>9} {'Yoga':>9} "
          f"{'faster/layout()':>16} {'faster/streamed':>16} {'faster/buffer':>14}")
    for n in args.rows:
        taffy_n = min(n, args.taffy_rows)
        taffy = [taffy_ns(taffy_n, args.cpu_time) for _ in range(args.samples)]
        yogas = [yoga_ns(n, args.cpu_time) for _ in range(args.samples)]
        # Both engines must place the last shown row where ScrollStack does: 52 pt per shown row before it.
        assert taffy[0][1] == last_top(taffy_n) and yogas[0][1] == last_top(n), (taffy[0][1], yogas[0][1])
        t = statistics.median(x for x, _ in taffy) / taffy_n
        y = statistics.median(x for x, _ in yogas) / n
        array, streamed, buffer = engine(args.binary, n, args.samples, args.cpu_time)
        faster = min(t, y)
        print(f"{n:>9} {array:>9.2f} {streamed:>9.2f} {buffer:>9.2f} {t:>9.2f} {y:>9.2f} "
              f"{faster / array:>15.1f}× {faster / streamed:>15.1f}× {faster / buffer:>13.1f}×"
              + (f"   (Taffy at {taffy_n} rows)" if taffy_n < n else ""))


if __name__ == "__main__":
    main()
