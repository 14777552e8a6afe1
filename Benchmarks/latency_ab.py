#!/usr/bin/env python3
"""Median latency of one insert (in the middle of a 10,000-row stack) and one visible-window
GET, on one keep-alive connection, for each scrollstackd binary given, alternating binaries
for --rounds rounds. Compares builds (e.g. a branch against main) in the same machine state:
    python3 Benchmarks/latency_ab.py [--rounds K] BINARY...
"""
import argparse
import http.client, json, subprocess, time, re, statistics
def run(binary, n=400):
    p = subprocess.Popen([binary, "--port", "0", "--in-memory", "--log-level", "notice"], stderr=subprocess.PIPE, text=True)
    port=None
    while port is None:
        line=p.stderr.readline()
        m=re.search(r"127\.0\.0\.1:(\d+)", line)
        if m: port=int(m.group(1))
    c=http.client.HTTPConnection("127.0.0.1", port)
    rows=[{"id": f"r{i}", "controller": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(10000)]
    c.request("POST","/v1/stacks",json.dumps({"id":"b","viewport":{"width":375,"height":667},"rows":rows}),{"Content-Type":"application/json"}); c.getresponse().read()
    body=json.dumps({"rows":[{"view":{"type":"Cell"},"size":{"fixed":44}}],"at":{"index":5000}})
    times=[]
    for i in range(n):
        t=time.perf_counter(); c.request("POST","/v1/stacks/b/rows",body,{"Content-Type":"application/json"}); r=c.getresponse(); r.read(); times.append(time.perf_counter()-t)
    gtimes=[]
    for i in range(n):
        t=time.perf_counter(); c.request("GET","/v1/stacks/b/layout?window=visible"); r=c.getresponse(); r.read(); gtimes.append(time.perf_counter()-t)
    p.terminate(); p.wait()
    return statistics.median(times)*1e6, statistics.median(gtimes)*1e6
parser = argparse.ArgumentParser()
parser.add_argument("--rounds", type=int, default=2)
parser.add_argument("binaries", nargs="+")
args = parser.parse_args()
print("median µs over 400 requests each: POST one row at index 5000 of a 10,000-row stack; GET layout?window=visible")
for rnd in range(args.rounds):
    for b in args.binaries:
        ins, get = run(b)
        print(f"round {rnd + 1}  {b:60s} insert {ins:8.1f}   GET {get:8.1f}")
