#!/usr/bin/env python3
"""Pictures and text layout: scrollstackd against headless Chromium, in the same run.

Two cases, each measured on both sides in every run (`--runs N`, default 5; each run prints
its p50 and p99, the table gives the median over runs of those):

1. picture: a 40-row text screen (375 pt wide, Inter at 13–28 px, weights 400–800, rows fit
   their text with 8/16 pt insets). The service: `POST /v1/layout.png` (scale 1), `--requests`
   requests after warm-up on one kept-alive connection, timed at the client from sending the
   request to the last byte of the PNG. Chromium: the same rows as HTML/CSS (the CSS of
   Scripts/checks/chromium_text.py, so the same font files), `page.set_content` +
   `document.fonts.ready` + a full-page `page.screenshot` (PNG), `--screenshots` times.
   The service's picture also draws its wireframe decorations (heading, viewport frame);
   Chromium's draws the text rows only.
2. cold text layout: 1,000 text rows whose words are fresh random letters in every sample,
   so neither side has measured them before. The service: `POST /v1/layout` of the stack,
   round trip at the client (JSON in, JSON out). Chromium: in the page (fonts loaded
   beforehand), performance.now() around inserting the rows' HTML into the document and
   forcing layout with `document.body.getBoundingClientRect()`.

Targets: the service's PNG ≥ 10× faster than Chromium's screenshot, with p99 ≤ 50 ms;
the cold layout ≥ 10× faster than Chromium's.

    Scripts/pip-install.sh   # playwright, freetype-py
    python3 Benchmarks/pictures_vs_chromium.py --binary .build/release/scrollstackd [--runs 5] [--seed S]
"""
import argparse, html, http.client, json, os, random, shutil, statistics, string, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts", "checks"))
import chromium_layout  # noqa: E402  (Daemon: the real scrollstackd on an ephemeral port)
import chromium_text  # noqa: E402  (the font files' @font-face rules and a text node's CSS)

WIDTH, SCREEN_HEIGHT = 375, 812
INSETS = {"top": 8, "left": 16, "bottom": 8, "right": 16}
SIZES = [13, 15, 17, 20, 28]
WEIGHTS = [400, 500, 600, 800]
WORDS = ("settings notifications privacy general display brightness wallpaper sounds focus "
         "screen time battery storage keyboard language region date passwords accounts mail "
         "contacts calendar notes reminders messages").split()


def percentile(samples, p):
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered))) - 1))]


def text_node(rng, words):
    return {"text": " ".join(rng.choice(words) for _ in range(rng.randint(1, 9))),
            "font": {"family": "Inter", "size": rng.choice(SIZES), "weight": rng.choice(WEIGHTS)}}


def fresh_word(rng):
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 10)))


def stack(nodes):
    return {"viewport": {"width": WIDTH, "height": SCREEN_HEIGHT}, "rowInsets": INSETS,
            "separator": {"hidden": True},
            "rows": [{"id": f"r{i}", "view": {"type": "Label"}, "content": node} for i, node in enumerate(nodes)]}


def rows_html(nodes):
    """The rows as HTML: a block per row with the row insets as padding, the text node inside
    with chromium_text's CSS (wrapping at the content width, as along a vertical stack)."""
    pad = f"padding:{INSETS['top']}px {INSETS['right']}px {INSETS['bottom']}px {INSETS['left']}px"
    return "".join(f'<div style="{pad}"><div style="{";".join(chromium_text.css(n, "vertical"))}">{html.escape(n["text"])}</div></div>'
                   for n in nodes)


def document(body):
    return (f"<!doctype html><html><head><meta charset=utf-8><style>body{{margin:0;width:{WIDTH}px;background:#fff}}"
            f"{chromium_text.font_faces()}</style></head><body>{body}</body></html>")


class Client:
    """One kept-alive connection to the daemon; `post` answers (seconds, body)."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def post(self, path, body_bytes):
        start = time.perf_counter()
        self.connection.request("POST", path, body=body_bytes, headers={"Content-Type": "application/json", "Host": "127.0.0.1"})
        response = self.connection.getresponse()
        answer = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            raise SystemExit(f"POST {path}: {response.status} {answer[:300]!r}")
        return elapsed, answer


def picture_run(client, page, nodes, requests, screenshots):
    body = json.dumps(stack(nodes)).encode()
    for _ in range(10):
        client.post("/v1/layout.png", body)
    service = []
    for _ in range(requests):
        elapsed, png = client.post("/v1/layout.png", body)
        service.append(elapsed)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    content = document(rows_html(nodes))
    chromium = []
    for i in range(screenshots + 3):
        start = time.perf_counter()
        page.set_content(content)
        page.evaluate("document.fonts.ready.then(() => true)")
        shot = page.screenshot(full_page=True, type="png")
        if i >= 3:
            chromium.append(time.perf_counter() - start)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    return service, chromium


COLD_LAYOUT = """html => {
  const host = document.getElementById('host');
  host.textContent = '';
  const start = performance.now();
  host.innerHTML = html;
  const height = document.body.getBoundingClientRect().height;
  return [performance.now() - start, height];
}"""


def cold_run(client, page, rng, rows, samples):
    service, chromium = [], []
    for _ in range(samples):
        nodes = [text_node(rng, [fresh_word(rng) for _ in range(12)]) for _ in range(rows)]
        elapsed, answer = client.post("/v1/layout", json.dumps(stack(nodes)).encode())
        service.append(elapsed)
        ours = json.loads(answer)["contentSize"]["height"]
        nodes = [text_node(rng, [fresh_word(rng) for _ in range(12)]) for _ in range(rows)]
        ms, theirs = page.evaluate(COLD_LAYOUT, rows_html(nodes))
        chromium.append(ms / 1000)
        assert ours > rows * 16 and theirs > rows * 16, (ours, theirs)
    return service, chromium


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, help="scrollstackd (release or debug)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--requests", type=int, default=200, help="service PNGs per run")
    parser.add_argument("--screenshots", type=int, default=50, help="Chromium screenshots per run")
    parser.add_argument("--rows", type=int, default=1000, help="rows of the cold layout")
    parser.add_argument("--cold-samples", type=int, default=10, help="cold layouts per run and side")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    print(f"seed {seed}  binary {args.binary}  runs {args.runs}")
    print("command: python3 Benchmarks/pictures_vs_chromium.py " + " ".join(sys.argv[1:]) +
          ("" if args.seed is not None else f" --seed {seed}"))
    from playwright.sync_api import sync_playwright
    daemon = chromium_layout.Daemon(args.binary)
    results = {"picture": [], "cold": []}
    work = tempfile.mkdtemp(prefix="pictures-vs-chromium-")
    try:
        client = Client(daemon.port)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": SCREEN_HEIGHT}, device_scale_factor=1)
            page.set_default_timeout(60_000)
            base = os.path.join(work, "base.html")
            # A file:// page, so that the @font-face file:// sources load; every face used once.
            warm = "".join(f'<div style="font-family:\'ss-{f}\';font-weight:{w};font-style:{s}">x</div>'
                           for f, _, w, s in chromium_text.FACES)
            with open(base, "w") as f:
                f.write(document(warm + '<div id="host"></div>'))
            for run in range(args.runs):
                nodes = [text_node(rng, WORDS) for _ in range(40)]
                page.goto("file://" + base)
                page.evaluate("document.fonts.ready.then(() => true)")
                picture = picture_run(client, page, nodes, args.requests, args.screenshots)
                page.goto("file://" + base)
                page.evaluate("document.fonts.ready.then(() => true)")
                page.evaluate(COLD_LAYOUT, rows_html([text_node(rng, WORDS) for _ in range(50)]))
                cold = cold_run(client, page, rng, args.rows, args.cold_samples)
                for name, (ours, theirs) in [("picture", picture), ("cold", cold)]:
                    figures = [percentile(ours, 50), percentile(ours, 99), percentile(theirs, 50), percentile(theirs, 99)]
                    results[name].append(figures)
                    print(f"run {run + 1} {name:8} service p50 {figures[0] * 1000:8.2f} ms p99 {figures[1] * 1000:8.2f} ms"
                          f"   chromium p50 {figures[2] * 1000:8.2f} ms p99 {figures[3] * 1000:8.2f} ms   ratio {figures[2] / figures[0]:7.2f}×")
            browser.close()
    finally:
        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(f"median over {args.runs} runs of each run's p50 and p99; ratio = Chromium p50 / service p50")
    print(f"{'case':44} {'service p50':>12} {'p99':>9} {'chromium p50':>13} {'p99':>9} {'ratio':>7}  target")
    labels = {"picture": f"40-row text screen PNG ({args.requests} / {args.screenshots})",
              "cold": f"{args.rows} cold text rows layout ({args.cold_samples} / {args.cold_samples})"}
    for name, runs in results.items():
        s50, s99, c50, c99 = (statistics.median(r[i] for r in runs) for i in range(4))
        ratio = c50 / s50
        met = ratio >= 10 and (name != "picture" or s99 <= 0.050)
        target = "≥ 10×, p99 ≤ 50 ms" if name == "picture" else "≥ 10×"
        print(f"{labels[name]:44} {s50 * 1000:9.2f} ms {s99 * 1000:6.2f} ms {c50 * 1000:10.2f} ms {c99 * 1000:6.2f} ms {ratio:7.2f}×"
              f"  {target}: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
