#!/usr/bin/env python3
"""GET /metrics read by Prometheus's own Python client: starts scrollstackd --metrics (with
tokens, in memory), makes traffic, and parses every scrape with prometheus_client's text
parser (the exposition format 0.0.4). Checks the families and their types, that histograms
are consistent (cumulative buckets, +Inf equal to _count), that counters move by exactly the
requests made, that no label holds an id a client chose, and that the gzip answer is the same
text. Every wait has a deadline. Prints "N passed, N failed" last.
    python3 Scripts/checks/metrics_check.py BINARY
"""
import gzip, json, os, re, subprocess, sys, time, urllib.error, urllib.request
from prometheus_client.parser import text_string_to_metric_families

READ, WRITE = "r-check-0123456789abcdef", "w-check-0123456789abcdef"
results = []

def check(name, ok, detail=""):
    results.append(bool(ok))
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok or not detail else f": {detail}"))

def start(binary):
    env = dict(os.environ, SCROLLSTACK_TOKENS=f"{WRITE} write,{READ} read", SCROLLSTACK_METRICS="true")
    server = subprocess.Popen([binary, "--port", "0", "--in-memory", "--log-level", "notice"], env=env,
                              stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        line = server.stderr.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if match:
            return server, int(match.group(1))
        if not line and server.poll() is not None:
            break
    server.kill()
    sys.exit("the server did not start")

def call(port, method, path, body=None, token=WRITE, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if data:
        request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()

def scrape(port, **kwargs):
    status, headers, body = call(port, "GET", "/metrics", token=READ, **kwargs)
    assert status == 200, status
    return headers, body

def samples(text):
    families = {family.name: family for family in text_string_to_metric_families(text)}
    values = {}
    for family in families.values():
        for sample in family.samples:
            values[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return families, values

def value(values, name, **labels):
    return values.get((name, tuple(sorted(labels.items()))))

def main():
    server, port = start(sys.argv[1])
    try:
        rows = [{"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": 44}} for i in range(50)]
        call(port, "POST", "/v1/stacks", {"id": "secret-id", "viewport": {"width": 375, "height": 667}, "rows": rows})
        call(port, "POST", "/v1/stacks/secret-id/rows", {"rows": [{"id": "extra", "view": {"type": "Cell"}, "size": {"fixed": 44}}]})
        call(port, "GET", "/v1/stacks/secret-id/layout?window=visible")
        call(port, "GET", "/v1/stacks/no-such-stack")
        call(port, "GET", "/hidden/path/of/a/client")
        call(port, "POST", "/v1/piles", {"id": "nav", "bounds": {"width": 375, "height": 667},
                                         "views": [{"id": "inbox", "controller": {"type": "InboxVC"}}]})

        check("without a token /metrics is 401", call(port, "GET", "/metrics", token=None)[0] == 401)
        headers, body = scrape(port)
        check("Content-Type is the text format 0.0.4", headers.get("Content-Type") == "text/plain; version=0.0.4; charset=utf-8",
              headers.get("Content-Type"))
        text = body.decode()
        try:
            families, values = samples(text)
            check("prometheus_client parses the exposition", True)
        except Exception as error:  # the parser's own errors name the line
            check("prometheus_client parses the exposition", False, repr(error))
            return
        expected = {
            "scrollstack_http_requests": "counter", "scrollstack_http_request_duration_seconds": "histogram",
            "scrollstack_http_open_connections": "gauge", "scrollstack_http_requests_in_flight": "gauge",
            "scrollstack_event_streams_open": "gauge", "scrollstack_stacks": "gauge", "scrollstack_stacks_unavailable": "gauge",
            "scrollstack_rows": "gauge", "scrollstack_piles": "gauge", "scrollstack_journal_snapshots_pending": "gauge",
            "scrollstack_journal_commit_duration_seconds": "histogram", "scrollstack_journal_commit_writes": "histogram",
            "scrollstack_restore_duration_seconds": "gauge", "scrollstack_restored_stacks": "gauge",
            "process_resident_memory_bytes": "gauge",
        }
        wrong = {name: families[name].type if name in families else None for name, kind in expected.items()
                 if name not in families or families[name].type != kind}
        check("every family is there with its type", not wrong, wrong)
        check("no family is untyped", all(f.type != "unknown" for f in families.values()),
              [f.name for f in families.values() if f.type == "unknown"])

        consistent = True
        for family in families.values():
            if family.type != "histogram":
                continue
            series = {}
            for sample in family.samples:
                labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
                series.setdefault(labels, {"buckets": [], "count": None})
                if sample.name.endswith("_bucket"):
                    series[labels]["buckets"].append((float(sample.labels["le"]), sample.value))
                elif sample.name.endswith("_count"):
                    series[labels]["count"] = sample.value
            for labels, s in series.items():
                buckets = sorted(s["buckets"])
                counts = [c for _, c in buckets]
                if counts != sorted(counts) or not buckets or buckets[-1][0] != float("inf") or buckets[-1][1] != s["count"]:
                    consistent = False
                    print("  inconsistent histogram", family.name, labels, buckets, s["count"])
        check("histograms: cumulative buckets, +Inf equal to _count", consistent)

        labels = {v for family in families.values() for sample in family.samples for v in sample.labels.values()}
        check("no label holds a client's ids or paths", not any(re.search("secret|no-such|hidden|inbox|nav", v) for v in labels),
              sorted(labels))
        check("the stack, its 51 rows and the pile are counted",
              (value(values, "scrollstack_stacks"), value(values, "scrollstack_rows"), value(values, "scrollstack_piles")) == (1, 51, 1))
        check("unknown paths count as route=unmatched",
              value(values, "scrollstack_http_requests_total", route="unmatched", method="GET", status="404") == 1)
        check("the insert's journal commit is timed", (value(values, "scrollstack_journal_commit_duration_seconds_count") or 0) >= 1)

        route = dict(route="/v1/stacks/{stack}/layout", method="GET", status="200")
        before = value(values, "scrollstack_http_requests_total", **route)
        for _ in range(7):
            call(port, "GET", "/v1/stacks/secret-id/layout?window=visible", token=READ)
        _, values = samples(scrape(port)[1].decode())
        after = value(values, "scrollstack_http_requests_total", **route)
        check("seven more layouts move the counter by seven", (before, after) == (1, 8), (before, after))
        check("and the scrape before is counted under /metrics",
              value(values, "scrollstack_http_requests_total", route="/metrics", method="GET", status="200") == 1)

        headers, packed = scrape(port, headers={"Accept-Encoding": "gzip"})
        unpacked = gzip.decompress(packed).decode() if headers.get("Content-Encoding") == "gzip" else ""
        check("gzip for scrapers that accept it, the same families", unpacked and
              {f.name for f in text_string_to_metric_families(unpacked)} == set(families))
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()

if __name__ == "__main__":
    try:
        main()
    finally:
        print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    sys.exit(0 if results and all(results) else 1)
