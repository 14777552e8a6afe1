#!/usr/bin/env python3
"""Cold text layouts over HTTP: build B against build BASE, in the same run.

Each sample is a `POST /v1/layout` of --rows text rows whose words are fresh random letters
(so no paragraph was shaped before; the rows of Benchmarks/pictures_vs_chromium.py), timed
at the client from sending to the last byte. Two cases, each on both servers in alternating
rounds (--rounds), printing the median of each round's median and the ratio BASE / B:

1. one client: the latency of one cold stateless layout, and the server's CPU time for it
   (all its threads, from /proc/PID/stat); then the same layouts again, warm (every
   paragraph shaped already), whose latency preparing must not raise;
2. --clients clients at once, each on its own kept-alive connection, each creating stacks of
   the same kind of rows (`POST /v1/stacks`, `Prefer: return=minimal`, in memory): stacks
   per second, i.e. text measured for several requests at once. (Stateless layouts take
   one of the `--concurrent-layouts` slots, which is 1 on 2 cores, so they would queue.)

    python3 Benchmarks/text_layout_ab.py --binary B --baseline BASE [--rounds 3] [--samples 10] [--clients 2] [--seed S]
"""
import argparse, json, os, random, statistics, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts", "checks"))
import chromium_layout  # noqa: E402  (Daemon: the real scrollstackd on an ephemeral port)
import pictures_vs_chromium as pictures  # noqa: E402  (the rows, the stack and the client)


def bodies(rng, count, rows):
    return [json.dumps(pictures.stack([pictures.text_node(rng, [pictures.fresh_word(rng) for _ in range(12)])
                                       for _ in range(rows)])).encode() for _ in range(count)]


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_client(daemon, work):
    """The median latency of `work`'s layouts, the server's CPU seconds per layout, and the
    median latency of the same layouts again."""
    client = pictures.Client(daemon.port)
    before = cpu_seconds(daemon.process.pid)
    latency = statistics.median(client.post("/v1/layout", body)[0] for body in work)
    cpu = (cpu_seconds(daemon.process.pid) - before) / len(work)
    warm = statistics.median(client.post("/v1/layout", body)[0] for body in work)
    return latency, cpu, warm


def many_clients(port, work_per_client):
    done = []
    def run(work):
        client = pictures.Client(port)
        for body in work:
            client.connection.request("POST", "/v1/stacks", body=body,
                                      headers={"Content-Type": "application/json", "Prefer": "return=minimal"})
            response = client.connection.getresponse()
            answer = response.read()
            if response.status != 201:
                raise SystemExit(f"POST /v1/stacks: {response.status} {answer[:300]!r}")
            done.append(1)
    threads = [threading.Thread(target=run, args=(work,)) for work in work_per_client]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    return len(done) / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=10, help="layouts per client per round")
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261207)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"seed {args.seed}  rows {args.rows}  rounds {args.rounds}  samples {args.samples}  clients {args.clients}")
    servers = {"B": chromium_layout.Daemon(args.binary), "BASE": chromium_layout.Daemon(args.baseline)}
    latency = {name: [] for name in servers}
    cpu = {name: [] for name in servers}
    warm = {name: [] for name in servers}
    rate = {name: [] for name in servers}
    try:
        for daemon in servers.values():
            one_client(daemon, bodies(rng, 2, args.rows))  # warm-up: fonts set up, code paged in
        for round_number in range(args.rounds):
            order = list(servers.items()) if round_number % 2 == 0 else list(reversed(servers.items()))
            for name, daemon in order:
                elapsed, seconds, again = one_client(daemon, bodies(rng, args.samples, args.rows))
                latency[name].append(elapsed)
                cpu[name].append(seconds)
                warm[name].append(again)
                rate[name].append(many_clients(daemon.port, [bodies(rng, args.samples, args.rows) for _ in range(args.clients)]))
                print(f"round {round_number + 1} {name:4}  one client p50 {latency[name][-1] * 1000:7.2f} ms, CPU {cpu[name][-1] * 1000:6.1f} ms, warm {warm[name][-1] * 1000:6.2f} ms   "
                      f"{args.clients} clients {rate[name][-1]:6.1f} stacks/s", flush=True)
    finally:
        for daemon in servers.values():
            daemon.stop()
    b, base = statistics.median(latency["B"]), statistics.median(latency["BASE"])
    rb, rbase = statistics.median(rate["B"]), statistics.median(rate["BASE"])
    print()
    cb, cbase = statistics.median(cpu["B"]), statistics.median(cpu["BASE"])
    print(f"one client, {args.rows} cold text rows:  B {b * 1000:.2f} ms   BASE {base * 1000:.2f} ms   BASE / B {base / b:.2f}×")
    print(f"server CPU a layout:            B {cb * 1000:.1f} ms   BASE {cbase * 1000:.1f} ms   B / BASE {cb / cbase:.2f}×")
    wb, wbase = statistics.median(warm["B"]), statistics.median(warm["BASE"])
    print(f"the same layouts again, warm:   B {wb * 1000:.2f} ms   BASE {wbase * 1000:.2f} ms   BASE / B {wbase / wb:.2f}×")
    print(f"{args.clients} clients creating stacks:     B {rb:.1f} stacks/s   BASE {rbase:.1f} stacks/s   B / BASE {rb / rbase:.2f}×")


if __name__ == "__main__":
    main()
