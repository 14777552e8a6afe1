#!/usr/bin/env python3
"""The full layout of a big stack, uncached, from two scrollstackd binaries asked in turn:
each binary gets the same stack (ROWS rows of 44 points, in memory), then the two are asked
ROUNDS times each, alternating, every ask with a new `Accept` parameter so that no answer is
ever served from kept bytes (laid out, encoded and streamed every time). Prints each binary's
median time to the last byte (curl, body discarded) and its server CPU per answer (its
threads' time on a CPU over all its asks, `server_cpu.cpu_seconds`), then the ratio of the
medians. Alternating the asks one by one keeps a noisy machine's changes of speed out of
the ratio.

    python3 Benchmarks/big_layout_ab.py CANDIDATE BASELINE [--rows 100000] [--rounds 40] [--repeated]

`--repeated` asks the same `Accept` every time instead: from the third ask on, the answer
comes from the bytes the answer cache kept."""
import argparse, json, statistics, subprocess, urllib.request

from server_cpu import cpu_seconds, start_server, stop_servers


def request(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                               headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(r, timeout=120) as answer:
        return answer.read()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("candidate")
    p.add_argument("baseline")
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--repeated", action="store_true", help="the same Accept every time (kept bytes from the third ask)")
    args = p.parse_args()

    binaries = [args.candidate, args.baseline]
    servers, ports = [], []
    try:
        for binary in binaries:
            server, port = start_server(binary)
            servers.append(server)
            ports.append(port)
        answers = []
        for port in ports:
            request(port, "POST", "/v1/stacks", {"id": "big", "viewport": {"width": 375, "height": 667}})
            for first in range(0, args.rows, 10_000):
                rows = [{"id": f"b{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(first, min(args.rows, first + 10_000))]
                request(port, "POST", "/v1/stacks/big/rows", {"rows": rows})
            answers.append(request(port, "GET", "/v1/stacks/big/layout"))
        if answers[0] != answers[1]:
            raise SystemExit("the two binaries' full layouts differ")
        times = [[], []]
        cpu = [0.0, 0.0]
        ask = 0
        for _ in range(args.rounds):
            for i, port in enumerate(ports):
                ask += 1
                accept = "application/json" if args.repeated else f"application/json;n={ask}"
                before = cpu_seconds(servers[i].pid)
                out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{time_total}", "-H", f"Accept: {accept}",
                                      f"http://127.0.0.1:{port}/v1/stacks/big/layout"], capture_output=True, text=True, check=True).stdout
                cpu[i] += cpu_seconds(servers[i].pid) - before
                times[i].append(float(out) * 1000)
        kind = "repeated (kept bytes)" if args.repeated else "uncached"
        print(f"full layout of {args.rows} rows ({len(answers[0])} bytes), {kind}, {args.rounds} alternating asks each")
        for i, name in enumerate(["candidate", "baseline"]):
            print(f"{name:9} {binaries[i]}: time to last byte median {statistics.median(times[i]):.1f} ms "
                  f"(min {min(times[i]):.1f}, max {max(times[i]):.1f}), server CPU {1000 * cpu[i] / args.rounds:.1f} ms per answer")
        print(f"ratio of medians (candidate / baseline): {statistics.median(times[0]) / statistics.median(times[1]):.2f}; "
              f"of CPU: {cpu[0] / cpu[1]:.2f}")
    finally:
        stop_servers(servers)


if __name__ == "__main__":
    main()
