#!/usr/bin/env python3
"""What a plan costs to read: for each binary in turn, a stack of --rows rows in memory, --inserts
one-row inserts at its middle (not animated), then `GET …/transitions/{r}` of each, one at a
time on one connection. Prints the median wall time of the inserts and of the reads (and the
slowest read). A plan computed when read (`PlanRecipe`) costs a rebuild of the state before it.

    Benchmarks/plan_read_bench.py BINARY [BINARY …] [--rows N] [--inserts N]
"""
import http.client, json, subprocess, socket, sys, time, statistics, argparse
def free_port():
    s=socket.socket(); s.bind(("127.0.0.1",0)); p=s.getsockname()[1]; s.close(); return p
ap=argparse.ArgumentParser(); ap.add_argument("binaries", nargs="+"); ap.add_argument("--rows", type=int, default=10000); ap.add_argument("--inserts", type=int, default=60)
args=ap.parse_args()
for binary in args.binaries:
    port=free_port()
    p=subprocess.Popen([binary,"--port",str(port),"--log-level","warning","--in-memory"])
    try:
        for _ in range(300):
            try: socket.create_connection(("127.0.0.1",port),timeout=0.5).close(); break
            except OSError: time.sleep(0.1)
        c=http.client.HTTPConnection("127.0.0.1",port,timeout=120)
        def req(m,path,body=None):
            data=json.dumps(body).encode() if body is not None else None
            c.request(m,path,body=data,headers={"Content-Type":"application/json"} if data else {})
            r=c.getresponse(); b=r.read(); assert r.status<300,(r.status,b[:200]); return b
        req("POST","/v1/stacks",{"id":"s","viewport":{"width":375,"height":667},"rows":[{"id":f"r{i}","controller":{"type":"Cell"},"size":{"fixed":44}} for i in range(args.rows)]})
        ins=[]
        for i in range(args.inserts):
            t=time.perf_counter(); req("POST","/v1/stacks/s/rows",{"rows":[{"view":{"type":"Cell"},"size":{"fixed":44}}],"at":{"index":args.rows//2}}); ins.append(time.perf_counter()-t)
        reads=[]
        for r in range(2, args.inserts+2):
            t=time.perf_counter(); req("GET",f"/v1/stacks/s/transitions/{r}"); reads.append(time.perf_counter()-t)
        print(f"{binary:60} rows {args.rows:>7}: insert median {statistics.median(ins)*1000:7.2f} ms, GET transitions/r median {statistics.median(reads)*1000:7.2f} ms, max {max(reads)*1000:7.2f} ms")
    finally:
        p.terminate(); p.wait()
