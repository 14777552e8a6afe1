#!/usr/bin/env python3
"""Two scrollstackd binaries answer the same seeded random requests: each SEED starts both
(--in-memory), creates a 40-row stack with rows using most members (controllers with props
and instances, views, sizes, content, insets, separators, titles), then sends 300 random
requests to both: inserts (1-2 rows, with and without ids, every `at` form, some animated,
some with an unknown key, several Content-Type spellings, malformed and invalid bodies),
removes, moves, PATCHes, PUTs, scrolls, layouts and transitions, then the events and the
stack. Every answer's status, ETag and body must be equal; prints the statuses seen and the
number of differences (the first few shown).

    python3 Benchmarks/answer_diff.py BASELINE CANDIDATE SEED..."""
import http.client, json, random, socket, subprocess, sys, time, tempfile, os
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
def start(binary):
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--in-memory", "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try: socket.create_connection(("127.0.0.1", port), timeout=0.5).close(); break
        except OSError: time.sleep(0.1)
    return process, port
def req(port, method, path, body=None, ctype="application/json"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    h = {"Content-Type": ctype.encode("utf-8")} if body is not None and ctype else {}
    c.request(method, path, body=body, headers=h)
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, r.getheader("ETag"), data
def row(rnd, i):
    r = {"id": f"r{i}"} if rnd.random() < 0.8 else {}
    if rnd.random() < 0.5: r["controller"] = {"type": "Cell", **({"instance": f"c{i}"} if rnd.random() < .5 else {}), **({"props": {"n": i, "x": rnd.random(), "s": "é\"\n"}} if rnd.random() < .5 else {})}
    else: r["view"] = {"type": "V", **({"props": [1.5, "p"]} if rnd.random() < .3 else {})}
    k = rnd.randrange(4)
    if k == 0: r["size"] = {"fixed": rnd.choice([44, 20.5, 100/3])}
    elif k == 1: r["content"] = {"aspectRatio": rnd.choice([1.5, 1/7])}
    elif k == 2: r["size"] = {"vertical": {"fixed": 30}, "horizontal": {"fixed": 10.25}}
    else: r["size"] = "fit"; r["content"] = {"height": 33.3}
    if rnd.random() < .3: r["insets"] = {"top": 1, "left": 2.5, "bottom": 0, "right": 1/3}
    if rnd.random() < .3: r["separator"] = {"color": "#ff0000", "thickness": 0.5}
    if rnd.random() < .2: r["hidden"] = True
    if rnd.random() < .2: r["title"] = "T"
    if rnd.random() < .2: r["tappable"] = False
    return r
def script(seed):
    rnd = random.Random(seed); out = []; n = 1000
    out.append(("POST", "/v1/stacks", json.dumps({"id": "s", "viewport": {"width": 375, "height": 667}, "rows": [row(rnd, i) for i in range(40)]}), "application/json"))
    for step in range(300):
        k = rnd.randrange(12); rid = f"r{rnd.randrange(40)}"
        if k <= 3:
            at = rnd.choice(["top", "bottom", {"index": rnd.randrange(50)}, {"after": rid}, {"before": rid}, 5, "nowhere"])
            rows = [row(rnd, n + j) for j in range(rnd.randrange(1, 3))]; n += 3
            body = {"rows": rows, "at": at}
            if rnd.random() < .1: body["animation"] = True
            if rnd.random() < .05: body["extra"] = 1
            out.append(("POST", "/v1/stacks/s/rows", json.dumps(body), rnd.choice(["application/json"] * 6 + ["application/json; charset=utf-8", " Application/JSON ;x", ";application/json", "text/plain", "application/json\u0301"])))
        elif k == 4: out.append(("DELETE", f"/v1/stacks/s/rows/{rid}", None, None))
        elif k == 5: out.append(("POST", f"/v1/stacks/s/rows/{rid}/move", json.dumps({"to": rnd.randrange(-2, 60)}), "application/json"))
        elif k == 6: out.append(("PATCH", f"/v1/stacks/s/rows/{rid}", json.dumps(rnd.choice([{"hidden": rnd.random() < .5}, {"size": {"fixed": rnd.randrange(1, 300) / 3}}, {"hidden": "x"}, {}])), "application/json"))
        elif k == 7: out.append(("POST", "/v1/stacks/s/scroll", json.dumps({"row": rid, "position": rnd.choice(["automatic", "top", "bottom"])}), "application/json"))
        elif k == 8: out.append(("POST", "/v1/stacks/s/rows", rnd.choice(['{"rows": [', '{"rows": 1}', '[]', '{"rows": [{"id": 5}]}', '{"rows": [{"view": {"type": "V"}, "size": {"fixed": -1}}]}', '']), "application/json"))
        elif k == 9: out.append(("PUT", f"/v1/stacks/s/rows/{rid}", json.dumps(row(rnd, 9999)), "application/json"))
        elif k == 10: out.append(("GET", "/v1/stacks/s/layout?window=visible", None, None))
        else: out.append(("GET", f"/v1/stacks/s/transitions/{rnd.randrange(2, step + 3)}", None, None))
    out.append(("GET", "/v1/stacks/s/events", None, None)); out.append(("GET", "/v1/stacks/s", None, None))
    return out
if len(sys.argv) < 4:
    sys.exit(__doc__)
a, b = sys.argv[1], sys.argv[2]
diffs = total = 0
stats = {}
for seed in [int(x) for x in sys.argv[3:]]:
    pa, porta = start(a); pb, portb = start(b)
    try:
        for (m, path, body, ct) in script(seed):
            ra = req(porta, m, path, body.encode() if body is not None else None, ct)
            rb = req(portb, m, path, body.encode() if body is not None else None, ct)
            total += 1
            stats[(m, ra[0])] = stats.get((m, ra[0]), 0) + 1
            if ra != rb:
                diffs += 1
                if diffs < 5: print("DIFF", seed, m, path, body[:100] if body else None, ra[:2], rb[:2], ra[2][:300], rb[2][:300])
    finally:
        pa.terminate(); pb.terminate(); pa.wait(); pb.wait()
print(sorted(stats.items()))
print(f"seeds {sys.argv[3:]}: {total} requests, {diffs} differences")
