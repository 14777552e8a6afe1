#!/usr/bin/env python3
"""Makes this fixture: a data dir written by the journal of format 1 (JSON snapshots, the
requests as journaled, with transition plans and piles: main at af834b7, 2026-11-23), and
`expected.json`, the answers main gives for it. `JournalFormat1FixtureTests` opens a copy
with the current code and checks every answer is byte for byte the same.

    make.py --binary OLD              writes the data dir with OLD (done with af834b7), then
                                      records OLD's answers
    make.py --binary MAIN --answers-only
                                      records MAIN's answers for the data dir as it is (done
                                      with main at e71433a: later features, such as the
                                      menu's fonts, add members to some answers; then with
                                      main at b5acbd1, the last to journal requests, adding
                                      every revision, event page and plan: `REVISIONS`; then with main after 9a79792,
                                      when reals began to be written with up to 17 digits
                                      where 15 would change them: 1/3 and 4/3 in 10 answers)"""
import argparse, json, os, shutil, signal, socket, subprocess, tempfile, time, urllib.request

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--answers-only", action="store_true")
    args = p.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="ssfixture-")
    if args.answers_only:
        shutil.copy(os.path.join(here, "scrollstack.sqlite"), os.path.join(work, "scrollstack.sqlite"))
    port = free_port()
    server = subprocess.Popen([args.binary, "--port", str(port), "--data-dir", work, "--log-level", "warning"])
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)  # polling for the port to open (no event); bounded: 200 tries
        def ok(method, path, body=None, status=200):
            got, answer = call(port, method, path, body)
            assert got == status, (method, path, got, answer)
        if not args.answers_only:
            write(ok)
        expected = {}
        for path in PATHS + REVISIONS:
            status, body = call(port, "GET", path)
            assert status == 200, (path, status, body)
            expected[path] = body.decode()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    if not args.answers_only:
        assert not os.path.exists(os.path.join(work, "scrollstack.sqlite-wal")) or os.path.getsize(os.path.join(work, "scrollstack.sqlite-wal")) == 0
        shutil.copy(os.path.join(work, "scrollstack.sqlite"), os.path.join(here, "scrollstack.sqlite"))
    with open(os.path.join(here, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    shutil.rmtree(work, ignore_errors=True)

def write(ok):
    """The requests that make the data dir."""
    rows = [{"id": "a", "controller": {"type": "Cell", "instance": "c-1", "props": {"n": 1, "s": "é\u2028", "l": [1.5, None, True]}}, "size": {"fixed": 44}},
            {"view": {"type": "Text", "props": {"text": "generated id"}}, "content": {"stack": "vertical", "spacing": 4, "padding": {"top": 1, "left": 2, "bottom": 3, "right": 4},
             "children": [{"height": 20.5, "minWidth": 3}, {"aspectRatio": 1.3333333333333333}]}, "size": "fit"},
            {"id": "c", "view": {"type": "Box"}, "size": {"vertical": {"fixed": 0.1}, "horizontal": "fit"}, "content": {"width": 10, "height": 30}},
            {"id": "d", "view": {"type": "Box"}, "size": {"fixed": 61}, "insets": {"top": 0, "left": 1, "bottom": 2, "right": 3},
             "separator": {"hidden": False, "thickness": 0.5, "color": "#ff000080"}, "hidden": True, "tappable": True, "highlightable": True}]
    ok("POST", "/v1/stacks", {"id": "mixed", "viewport": {"width": 320.25, "height": 480}, "spacing": 1 / 3,
                              "rowInsets": {"top": 5, "left": 6, "bottom": 7, "right": 8}, "rows": rows}, 201)
    ok("POST", "/v1/stacks/mixed/rows", {"rows": [{"view": {"type": "X"}, "size": {"fixed": 12}}, {"view": {"type": "Y"}, "size": {"fixed": 13}}], "at": {"index": 1}})
    ok("PATCH", "/v1/stacks/mixed/rows/a", {"hidden": True, "separator": {"thickness": 2},
                                            "transition": {"hide": {"alpha": 0.5, "translate": {"x": -10, "y": 0}, "scale": 0.75}}})
    ok("POST", "/v1/stacks/mixed/rows/c/move", {"to": 0})
    ok("POST", "/v1/stacks/mixed/scroll", {"offset": {"x": 0, "y": 17.125}})
    ok("PATCH", "/v1/stacks/mixed", {"axis": "horizontal", "viewport": {"width": 200, "height": 100}})
    ok("POST", "/v1/stacks/mixed/rows/batch", {"op": "insets", "rows": ["c", 2], "insets": {"top": 9, "left": 9, "bottom": 9, "right": 9}})
    ok("POST", "/v1/stacks/mixed/revert", {"to": 3})
    ok("DELETE", "/v1/stacks/mixed/rows/d")
    # Past the 100-revision snapshot interval, so the journal holds a later snapshot too.
    ok("POST", "/v1/stacks", {"id": "long", "viewport": {"width": 100, "height": 60}, "rows": [{"id": f"r{i}", "view": {"type": "Cell", "props": {"i": i}}, "size": {"fixed": 40 + i % 7}} for i in range(20)]}, 201)
    for i in range(105):
        ok("POST", "/v1/stacks/long/rows", {"rows": [{"view": {"type": "New", "props": {"k": i}}, "size": {"fixed": 20.5}}], "at": {"index": (i * 7) % 20}})
        if i % 10 == 0:
            ok("POST", "/v1/stacks/long/scroll", {"to": "bottom" if i % 20 else "top"})
    ok("POST", "/v1/stacks", {"id": "pages", "axis": "horizontal", "viewport": {"width": 375, "height": 600},
                              "paging": {"size": {"fraction": 1}}, "pageIndicator": {"hidesForSinglePage": True},
                              "menu": {"itemSize": {"fixed": {"width": 120, "height": 44}}},
                              "rows": [{"id": n, "view": {"type": "Page"}, "size": {"fixed": 375}, "title": n.title()} for n in ["home", "news", "sport"]]}, 201)
    ok("POST", "/v1/stacks/pages/scroll", {"offset": {"x": 400, "y": 0}})
    ok("POST", "/v1/piles", {"id": "nav", "bounds": {"width": 320, "height": 480}, "views": [{"id": "home", "controller": {"type": "HomeVC"}}]}, 201)
    ok("POST", "/v1/piles/nav/push", {"id": "detail", "controller": {"type": "DetailVC"}, "animation": True})
    ok("POST", "/v1/piles/nav/push", {"id": "more", "view": {"type": "MoreView"}})
    ok("POST", "/v1/piles/nav/pop", {})
    ok("POST", "/v1/stacks", {"id": "gone", "rows": []}, 201)
    ok("DELETE", "/v1/stacks/gone", status=204)

PATHS = ["/v1/stacks", "/v1/stacks/mixed", "/v1/stacks/mixed/layout", "/v1/stacks/mixed/events?limit=1000", "/v1/stacks/mixed?revision=4",
         "/v1/stacks/mixed?revision=9", "/v1/stacks/long", "/v1/stacks/long/layout?window=visible", "/v1/stacks/long/events?limit=1000",
         "/v1/stacks/long?revision=77", "/v1/stacks/long?revision=110", "/v1/stacks/pages", "/v1/stacks/pages/layout", "/v1/stacks/pages/events",
         "/v1/stacks/mixed/transitions/3", "/v1/stacks/long/transitions/110", "/v1/piles", "/v1/piles/nav", "/v1/piles/nav/events",
         "/v1/piles/nav/transitions/2"]

# Every revision of every stack, every plan, and the events one revision at a time: what
# the migration to operation records must keep byte for byte.
REVISIONS = [f"/v1/stacks/{stack}?revision={r}" for stack, last in [("mixed", 9), ("long", 117), ("pages", 2)] for r in range(1, last + 1)] \
    + [f"/v1/stacks/{stack}/transitions/{r}" for stack, last in [("mixed", 9), ("long", 117), ("pages", 2)] for r in range(2, last + 1)] \
    + [f"/v1/stacks/{stack}/events?after={r}&limit=1" for stack, last in [("mixed", 9), ("long", 117), ("pages", 2)] for r in range(0, last)] \
    + [f"/v1/piles/nav/transitions/{r}" for r in range(2, 5)] + [f"/v1/piles/nav/events?after={r}&limit=1" for r in range(0, 4)]

if __name__ == "__main__":
    main()
