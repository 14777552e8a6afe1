#!/usr/bin/env python3
"""What sampling a spring costs, and whether two builds sample it alike: for each binary (the
baseline first), a pile whose push has an hour-long, lightly damped spring (duration 3600 s,
damping 0.402: about 9,900 s to rest), read back 7 times at 1 fps (about 9,900 keyframes), and
a 30-row stack with one animated insert read back at 120 fps. Prints the median wall time of
the pile reads, then, for both answers, how many numbers differ between the two builds.

    Benchmarks/spring_sampling_bench.py BASELINE BINARY
"""
import json, socket, statistics, subprocess, sys, time, urllib.request


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


def run(binary):
    port = free_port()
    server = subprocess.Popen([binary, "--in-memory", "--port", str(port), "--log-level", "warning"])
    base = f"http://127.0.0.1:{port}"

    def request(method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        r = urllib.request.Request(base + path, method=method, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(r, timeout=60) as answer:
            return answer.read()

    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                request("GET", "/healthz"); break
            except OSError:
                if time.monotonic() > deadline: raise
                time.sleep(0.05)
        request("POST", "/v1/piles", {"id": "p1", "bounds": {"width": 320, "height": 480}, "views": [{"id": "h", "view": {"type": "H"}}]})
        request("POST", "/v1/piles/p1/push", {"id": "f", "view": {"type": "D"}, "animation": {"duration": 3600, "damping": 0.402}, "fps": 1})
        times = []
        for _ in range(7):
            started = time.perf_counter(); pile = request("GET", "/v1/piles/p1/transitions/2?fps=1"); times.append(time.perf_counter() - started)
        request("POST", "/v1/stacks", {"id": "s", "rows": [{"id": f"r{i}", "view": {"type": "X"}, "size": {"fixed": 44}} for i in range(30)]})
        request("POST", "/v1/stacks/s/rows", {"rows": [{"id": "n", "view": {"type": "X"}, "size": {"fixed": 80}}], "at": "top",
                                              "animation": {"duration": 0.5, "damping": 0.7}})
        stack = request("GET", "/v1/stacks/s/transitions/2?fps=120")
    finally:
        server.terminate(); server.wait(timeout=10)
    print(f"{binary}: pile transition, 3600 s spring at 1 fps ({len(pile):,} bytes): median {statistics.median(times) * 1000:.1f} ms over 7 reads")
    return pile, stack


def numbers(value, path=""):
    if isinstance(value, dict):
        for key, member in value.items(): yield from numbers(member, f"{path}.{key}")
    elif isinstance(value, list):
        for i, member in enumerate(value): yield from numbers(member, f"{path}[{i}]")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


baseline, build = run(sys.argv[1]), run(sys.argv[2])
for name, a, b in (("pile, 3600 s at 1 fps", baseline[0], build[0]), ("stack insert, 0.5 s at 120 fps", baseline[1], build[1])):
    na, nb = list(numbers(json.loads(a))), list(numbers(json.loads(b)))
    differ = [abs(x - y) for (_, x), (_, y) in zip(na, nb) if x != y]
    same_shape = [p for p, _ in na] == [p for p, _ in nb]
    print(f"{name}: {len(na):,} numbers, {len(differ)} differ (largest by {max(differ, default=0):.3g}); same members: {same_shape}")
