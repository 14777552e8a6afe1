#!/usr/bin/env python3
"""Checks the keyframes of pile 3D transforms against Chromium's matrix interpolation.

For each of --pairs seeded random piles (the seed is printed), the leading, active and
trailing metrics get random 3D `transform`s (perspective, rotations about random axes,
translations, scales), or, for every third pile and some metrics of the others, 2D ones
(turns about z, moves and scales in the plane, some mirrored); a second push with a `linear` curve and `?fps=` answers two motions
(leading → active and active → trailing), each a pair of matrices `from`, `to`. In Debian's
headless chromium (Playwright), an element is animated with the Web Animations API from
`matrix3d(from)` to `matrix3d(to)`, `easing: "linear"`, paused; for each keyframe its
`currentTime` is set to progress × duration and `getComputedStyle(el).transform` is read back.
Every one of the 16 numbers must agree within 1e-4 relative to the size of its row's
(translation's, perspective column's) members, plus 1e-6 absolute for the service's rounding
to 10⁻⁶; matrices are compared divided by their m44 (the interpolation normalises them, as
the spec's decomposition does: the same transform). A first case checks
the conventions: CATransform3D member order equals matrix3d()'s argument order (a rotation
about y, a perspective), and the service's order (first operation applied first) is CSS's
list read right to left. Used by Scripts/checks/42-chromium-transforms.sh; prints
"N passed, N failed" last.
"""
import argparse, json, os, queue, random, re, subprocess, sys, tempfile, threading, time, traceback, urllib.request

RELATIVE = 1e-4
ABSOLUTE = 1e-6
WAIT_MS = 10_000


class Server:
    """scrollstackd on a free loopback port with a temporary data directory."""

    def __init__(self, binary, data_dir):
        # scrollstackd reads SCROLLSTACK_* variables as options: the seed is this script's.
        environment = {k: v for k, v in os.environ.items() if k != "SCROLLSTACK_SEED"}
        self.process = subprocess.Popen([binary, "--port", "0", "--data-dir", data_dir], stderr=subprocess.PIPE, text=True, env=environment)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in self.process.stderr], daemon=True).start()
        self.base = None
        deadline = time.monotonic() + 20
        try:
            while self.base is None:
                if self.process.poll() is not None:
                    raise RuntimeError(f"scrollstackd exited with status {self.process.returncode}")
                if time.monotonic() > deadline:
                    raise RuntimeError("scrollstackd did not listen within 20 s")
                try:
                    match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", lines.get(timeout=0.5))
                except queue.Empty:
                    continue
                if match:
                    self.base = match.group(1)
        except BaseException:
            self.stop()
            raise

    def call(self, method, path, body=None):
        request = urllib.request.Request(self.base + path, method=method, data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def random_transform(rng):
    """One to four operations, at least one of them 3D (a perspective or a turn off the z axis)."""
    def operation():
        kind = rng.choice(["perspective", "rotate", "rotate", "translate", "scale"])
        if kind == "perspective":
            return {"perspective": rng.uniform(300, 2000)}
        if kind == "rotate":
            return {"rotate": {"angle": rng.uniform(-180, 180), "x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1), "z": rng.uniform(-1, 1)}}
        if kind == "translate":
            return {"translate": {"x": rng.uniform(-200, 200), "y": rng.uniform(-200, 200), "z": rng.uniform(-100, 100)}}
        return {"scale": {"x": rng.uniform(0.5, 2), "y": rng.uniform(0.5, 2), "z": rng.uniform(0.5, 2)}}
    operations = [operation() for _ in range(rng.randint(0, 3))]
    three_d = rng.choice([{"perspective": rng.uniform(300, 2000)},
                          {"rotate": {"angle": rng.uniform(-180, 180), "x": rng.uniform(-1, 1), "y": rng.uniform(-1, 1), "z": 0.2}}])
    operations.insert(rng.randint(0, len(operations)), three_d)
    return operations


def random_2d_transform(rng):
    """One to four operations in the plane (turns about z, moves along x and y, scales of x and
    y, a quarter of them mirrored): 2D matrices, which browsers decompose by the 2D rule."""
    operations = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["rotate", "translate", "scale"])
        if kind == "rotate":
            operations.append({"rotate": {"angle": rng.uniform(-180, 180)}})
        elif kind == "translate":
            operations.append({"translate": {"x": rng.uniform(-200, 200), "y": rng.uniform(-200, 200)}})
        else:
            operations.append({"scale": {"x": rng.uniform(0.5, 2) * (-1 if rng.random() < 0.25 else 1), "y": rng.uniform(0.5, 2)}})
    return operations


def parse(text):
    """A computed `transform` as 16 numbers in matrix3d() order."""
    if text == "none":
        return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    numbers = [float(n) for n in re.findall(r"[-+0-9.eE]+", text.split("(", 1)[1])]
    if text.startswith("matrix3d("):
        return numbers
    a, b, c, d, e, f = numbers
    return [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, e, f, 0, 1]


def differences(service, browser):
    """The members (named m11…m44) where the two matrices, each divided by its m44, disagree.
    A member's tolerance is relative to the magnitude of what it is computed from: for m_i1…m_i3
    the largest of those three in either matrix (row 4: the translation), for m14…m44 the
    largest of that column; members that cancel to near 0 are not held to their own size."""
    s = [v / service[15] for v in service]
    b = [v / browser[15] for v in browser]
    def scale(i):
        row, column = divmod(i, 4)
        members = [row * 4 + k for k in range(3)] if column < 3 else [k * 4 + 3 for k in range(4)]
        return max(abs(m[k]) for m in (s, b) for k in members)
    return [f"m{i // 4 + 1}{i % 4 + 1}: {s[i]:.9g} vs {b[i]:.9g}" for i in range(16)
            if abs(s[i] - b[i]) > RELATIVE * scale(i) + ABSOLUTE]


SAMPLE = """([from, to, progresses]) => {
    const box = document.getElementById('box');
    const animation = box.animate([{transform: 'matrix3d(' + from.join(',') + ')'},
                                   {transform: 'matrix3d(' + to.join(',') + ')'}],
                                  {duration: 1000, easing: 'linear', fill: 'both'});
    animation.pause();
    const out = progresses.map(p => { animation.currentTime = p * 1000; return getComputedStyle(box).transform; });
    animation.cancel();
    return out;
}"""

COMPUTED = """(transform) => {
    const box = document.getElementById('box');
    box.style.transform = transform;
    const out = getComputedStyle(box).transform;
    box.style.transform = '';
    return out;
}"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SCROLLSTACK_SEED", "20261205")))
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--fps", type=int, default=12)
    args = parser.parse_args()
    print(f"seed {args.seed} (SCROLLSTACK_SEED overrides), {args.pairs} piles of two motions, {args.fps} fps", flush=True)
    rng = random.Random(args.seed)
    from playwright.sync_api import sync_playwright
    passed = failed = 0
    try:
        passed, failed = run(args, rng, sync_playwright)
    except Exception:
        # The server or the browser could not be started: one failure, and the reason.
        traceback.print_exc()
        failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def run(args, rng, sync_playwright):
    """The cases: (passed, failed)."""
    passed = failed = 0
    with tempfile.TemporaryDirectory() as data_dir, sync_playwright() as p:
        server = Server(args.binary, data_dir)
        browser = None
        try:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"], timeout=WAIT_MS * 3)
            page = browser.new_page()
            page.set_default_timeout(WAIT_MS)
            page.set_content('<div id="box" style="width:100px;height:100px"></div>')

            def matrix_of(operations):
                server.call("POST", "/v1/piles", {"id": "conventions", "bounds": {"width": 100, "height": 100},
                                                  "metrics": {"active": {"transform": operations}}, "views": [{"id": "a", "view": {"type": "V"}}]})
                answer = server.call("GET", "/v1/piles/conventions")
                server.call("DELETE", "/v1/piles/conventions")
                return answer["views"][0]["transform"]

            # The conventions: CA's member order is matrix3d()'s argument order; the service's
            # first operation is CSS's last function.
            try:
                for operations, css in [([{"rotate": {"angle": 30, "y": 1}}], "rotate3d(0, 1, 0, 30deg)"),
                                        ([{"perspective": 800}], "perspective(800px)"),
                                        ([{"translate": {"x": 10, "z": 5}}, {"rotate": {"angle": 90}}, {"scale": {"x": 2}}],
                                         "scale3d(2, 1, 1) rotate(90deg) translate3d(10px, 0, 5px)")]:
                    off = differences(matrix_of(operations), parse(page.evaluate(COMPUTED, css)))
                    assert not off, f"{operations} vs {css}: {off}"
                passed += 1
                print("ok   conventions (member order, rotation direction, perspective, composition order)", flush=True)
            except Exception:
                failed += 1
                print("FAIL conventions", flush=True)
                traceback.print_exc()

            for index in range(args.pairs):
                name = f"pile {index}"
                try:
                    # Every third pile is 2D throughout; the others mix 3D with an occasional 2D metric.
                    flat = index % 3 == 2
                    metrics = {position: {"transform": random_2d_transform(rng) if flat or rng.random() < 0.2 else random_transform(rng)}
                               for position in ["leading", "active", "trailing"]}
                    pile = f"t{index}"
                    server.call("POST", "/v1/piles", {"id": pile, "bounds": {"width": 320, "height": 480}, "metrics": metrics,
                                                      "views": [{"id": "a", "view": {"type": "V"}}]})
                    pushed = server.call("POST", f"/v1/piles/{pile}/push?fps={args.fps}",
                                         {"id": "b", "view": {"type": "V"}, "animation": {"curve": "linear", "duration": 1}})
                    transition = pushed["transition"]
                    keyframes = transition["keyframes"]
                    progresses = [frame["progress"] for frame in keyframes]
                    problems = []
                    for v, view in enumerate(transition["views"]):
                        sampled = page.evaluate(SAMPLE, [view["from"]["transform"], view["to"]["transform"], progresses])
                        for frame, text in zip(keyframes, sampled):
                            off = differences(frame["views"][v]["transform"], parse(text))
                            if off:
                                problems.append(f"{view['id']} at progress {frame['progress']}: {off}")
                    assert not problems, f"metrics {json.dumps(metrics)}\n" + "\n".join(problems[:4])
                    passed += 1
                    print(f"ok   {name}: {len(keyframes)} keyframes × 2 views", flush=True)
                except Exception:
                    failed += 1
                    print(f"FAIL {name}", flush=True)
                    traceback.print_exc()
        finally:
            if browser:
                browser.close()
            server.stop()
    return passed, failed


if __name__ == "__main__":
    main()
