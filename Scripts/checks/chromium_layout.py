#!/usr/bin/env python3
"""Checks the service's content measurement against Chromium.

Generates random content trees from a seed (printed), lays each out twice: once with the
real scrollstackd (`POST /v1/layout?content=frames`, one fit row per case) and once as the
HTML/CSS that Docs/Semantics.md says the measuring model is equivalent to, in Debian's
headless chromium driven by Playwright. Every node's box, and for text every line's box (read
as Docs/Semantics.md "Line boxes as Chromium breaks them" explains: Range.getClientRects per
line across, a line-box probe per text style along), must agree: each length within 1/64 px
(Chromium's LayoutUnit; plus 1e-6 for the service's JSON rounding). With --thresholds, text
cases on both sides of each width where the service's line count changes are added. Used by
Scripts/checks/40-chromium-layout.sh (fixed seed) and Benchmarks/chromium_agreement.sh
(random seed, more cases).
"""
import argparse, html, http.client, json, os, random, re, subprocess, sys, tempfile, threading

TOLERANCE = 1 / 64 + 1e-6
RATIOS = [1, 2, 0.5, 1.5, 0.75, 4 / 3, 16 / 9, 3, 0.25, 1.25]


class Generator:
    """Random content trees: boxes, aspect-ratio boxes, nested groups with padding, spacing and
    min/max; text nodes when `text` is given (a TextGenerator)."""

    def __init__(self, rng, text=None):
        self.rng = rng
        self.text = text

    def length(self, low=0, high=120):
        # Quarter points: exact in binary and in LayoutUnit (1/64).
        return self.rng.randint(low * 4, high * 4) / 4

    def clamps(self, node):
        r = self.rng
        for name in ["minWidth", "maxWidth", "minHeight", "maxHeight"]:
            if r.random() < 0.12:
                node[name] = self.length(0, 200)
        return node

    def node(self, depth):
        r = self.rng
        roll = r.random()
        if depth < 3 and roll < 0.3:
            group = {"stack": r.choice(["vertical", "horizontal"]), "children": [self.node(depth + 1) for _ in range(r.randint(0, 4))]}
            if r.random() < 0.6:
                group["spacing"] = self.length(0, 20)
            if r.random() < 0.6:
                group["padding"] = {side: self.length(0, 30) for side in ["top", "left", "bottom", "right"] if r.random() < 0.7}
            return self.clamps(group)
        if self.text and roll < 0.65:
            return self.clamps(self.text.node(r)) if r.random() < 0.3 else self.text.node(r)
        if roll < 0.8:
            return self.clamps({"aspectRatio": r.choice(RATIOS)})
        box = {}
        if r.random() < 0.6:
            box["width"] = self.length(0, 200)
        if r.random() < 0.7:
            box["height"] = self.length(0, 120)
        return self.clamps(box)

    def case(self):
        r = self.rng
        axis = r.choice(["vertical", "horizontal"])
        cross = self.length(0, 500) if r.random() < 0.95 else 0
        return {"axis": axis, "cross": cross, "content": self.node(0)}


# The CSS of Docs/Semantics.md, "The measuring model as CSS".

def px(v):
    return f"{v!r}px"


def explicit(node, axis):
    """A box's fixed extent along `axis` (vertical: height), or None."""
    if "stack" in node or "aspectRatio" in node or "text" in node:
        return None
    return node.get("height" if axis == "vertical" else "width")


def text_style_key(text_css, node):
    """The declarations of a text node's CSS that place its lines vertically (font and line
    height): nodes with the same key share a line box probe."""
    return ";".join(d for d in text_css(node, "vertical") if d.startswith(("font-", "line-height")))


def probe_html(key):
    """Two lines in one style: the first line box starts at the probe's top, so the first
    text fragment's offset from it, and the distance between the two fragments, are where a
    line box starts above its text and how tall it is."""
    return f'<div class="probe" data-style="{html.escape(key)}" style="{html.escape(key)};white-space:pre">x\nx</div>'


def node_html(node, measured, parent, ids, text_css):
    """`measured`: the scroll axis; `parent`: the direction of the parent group, or None for
    the root. Returns HTML; appends the node to `ids` in pre-order."""
    ids.append(node)
    index = len(ids) - 1
    style = ["box-sizing:border-box",
             f"min-width:{px(node.get('minWidth', 0))}", f"min-height:{px(node.get('minHeight', 0))}"]
    if "maxWidth" in node:
        style.append(f"max-width:{px(node['maxWidth'])}")
    if "maxHeight" in node:
        style.append(f"max-height:{px(node['maxHeight'])}")
    if parent is None or parent == measured or explicit(node, parent) is not None:
        style.append("flex:none")
    else:
        style.append("flex:1 1 0")
    inner = ""
    if "stack" in node:
        direction = node["stack"]
        # Along the scroll axis is the block axis (a column), across it the inline axis (a row).
        style += ["display:flex", "flex-direction:" + ("column" if direction == measured else "row"),
                  "gap:" + px(node.get("spacing", 0)),
                  "align-items:" + ("stretch" if direction == measured else "flex-start")]
        pad = node.get("padding", {})
        style.append("padding:" + " ".join(px(pad.get(s, 0)) for s in ["top", "right", "bottom", "left"]))
        inner = "".join(node_html(c, measured, direction, ids, text_css) for c in node.get("children", []))
    elif "aspectRatio" in node:
        style.append(f"aspect-ratio:{node['aspectRatio']!r}")
    elif "text" in node:
        style += text_css(node, measured)
        inner = html.escape(node["text"])
        marker = f' data-text="" data-style="{html.escape(text_style_key(text_css, node))}"'
        if any(ord(c) >= 0x2190 for c in node["text"]):
            # Characters the node's font may lack: its lines may be taller than the probe's.
            marker += ' data-fallback=""'

    else:
        if "width" in node:
            style.append("width:" + px(node["width"]))
        if "height" in node:
            style.append("height:" + px(node["height"]))
    if "text" not in node:
        marker = ""
    return f'<div data-n="{index}"{marker} style="{";".join(style)}">{inner}</div>'


def case_html(i, case, nodes, text_css):
    measured = case["axis"]
    # Measuring widths is measuring heights transposed: a vertical-lr writing mode makes the
    # block axis horizontal (physical widths, heights, padding and aspect ratios stay as given).
    if measured == "vertical":
        container = f"display:flex;flex-direction:column;align-items:stretch;width:{px(case['cross'])}"
    else:
        container = f"writing-mode:vertical-lr;display:flex;flex-direction:column;align-items:stretch;height:{px(case['cross'])}"
    body = node_html(case["content"], measured, None, nodes, text_css)
    return f'<div class="case" id="c{i}" style="{container}">{body}</div>'


READ_BACK = """() => {
  // Lines of a text with characters in fallback fonts: with line-height normal a line is as
  // tall as the fonts on it need, and neither its text fragment (as tall as the node's own
  // font) nor a probe shows which fonts shaping picked in context; so only where each line
  // starts across and how wide it is are read (the node's height still counts every line).
  function fallbackLines(byTop, o) {
    return [...byTop.keys()].sort((a, b) => a - b).map(key => {
      const all = byTop.get(key);
      const inked = all.filter(q => q.width > 0);
      const qs = inked.length ? inked : all;
      const left = Math.min(...qs.map(q => q.left)), right = Math.max(...qs.map(q => q.right));
      return [left - o.left, null, right - left, null];
    });
  }

  // Where a line box starts above its text and how tall it is, per text style: read from a
  // two-line probe in that style (its first line box starts at the probe's top).
  const probes = {};
  for (const p of document.querySelectorAll('.probe')) {
    const top = p.getBoundingClientRect().top;
    const range = document.createRange();
    range.selectNodeContents(p);
    const tops = [...new Set([...range.getClientRects()].map(q => q.top))].sort((a, b) => a - b);
    probes[p.dataset.style] = [tops[0] - top, tops[1] - tops[0]];
  }
  return [...document.querySelectorAll('.case')].map(c => {
    const o = c.getBoundingClientRect();
    return [...c.querySelectorAll('[data-n]')].map(e => {
      const r = e.getBoundingClientRect();
      let lines = null;
      if (e.dataset.text !== undefined) {
        // Every text fragment of the node, grouped into lines by their top (one font: every
        // fragment of a line has the same top); a line spans its fragments' union across.
        const range = document.createRange();
        range.selectNodeContents(e);
        const byTop = new Map();
        for (const q of range.getClientRects()) {
          if (q.width === 0 && q.height === 0) continue;
          const key = Math.round(q.top * 64);
          if (!byTop.has(key)) byTop.set(key, []);
          byTop.get(key).push(q);
        }
        const [offset, pitch] = probes[e.dataset.style];
        if (e.dataset.fallback !== undefined) {
          lines = fallbackLines(byTop, o);
          return [r.left - o.left, r.top - o.top, r.width, r.height, lines];
        }
        lines = [...byTop.keys()].sort((a, b) => a - b).map(key => {
          const all = byTop.get(key);
          const inked = all.filter(q => q.width > 0);
          const qs = inked.length ? inked : all;
          const left = Math.min(...qs.map(q => q.left)), right = Math.max(...qs.map(q => q.right));
          return [left - o.left, all[0].top - offset - o.top, right - left, pitch];
        });
      }
      return [r.left - o.left, r.top - o.top, r.width, r.height, lines];
    });
  });
}"""


def flatten(frame, out):
    out.append(frame)
    for child in frame.get("children", []):
        flatten(child, out)
    return out


class Daemon:
    """The real scrollstackd, in memory, on an ephemeral port (read from its log)."""

    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "--in-memory", "--port", "0", "--log-level", "notice"],
                                        stderr=subprocess.PIPE, text=True)
        found = {}
        ready = threading.Event()

        def read():
            for line in self.process.stderr:
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
                if m and not ready.is_set():
                    found["port"] = int(m.group(1))
                    ready.set()
            ready.set()  # the daemon exited: stop waiting
        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(timeout=30) or "port" not in found:
            self.stop()
            raise SystemExit("scrollstackd did not start within 30 s")
        self.port = found["port"]
        self.connection = None

    def post(self, path, body):
        # One kept-alive connection (threshold_cases asks thousands of small layouts).
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            self.connection.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            response = self.connection.getresponse()
            answer = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection = None
            raise
        if not 200 <= response.status < 300:
            raise RuntimeError(f"POST {path}: {response.status} {answer[:300]!r}")
        return json.loads(answer)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def service_frames(daemon, case):
    axis = case["axis"]
    viewport = {"width": case["cross"], "height": 800} if axis == "vertical" else {"width": 800, "height": case["cross"]}
    body = {"axis": axis, "viewport": viewport, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
            "rows": [{"id": "case", "view": {"type": "Case"}, "size": "fit", "content": case["content"]}]}
    row = daemon.post("/v1/layout?content=frames", body)["rows"][0]
    origin = row["contentFrame"]
    frames = flatten(row["content"], [])
    def relative(r):
        return (r["x"] - origin["x"], r["y"] - origin["y"], r["width"], r["height"])
    return [relative(f["frame"]) + ([relative(line) for line in f.get("lines", [])] if "text" in node else None,)
            for node, f in zip(flatten_nodes(case["content"], []), frames)]


def flatten_nodes(node, out):
    out.append(node)
    for child in node.get("children", []):
        flatten_nodes(child, out)
    return out


def threshold_cases(daemon, generator, count):
    """Pairs of cases on either side of a width where the service's line count changes: a
    random text node (no maxLines, so every line counts) at a random width, then the
    smallest width (in 1/64) at which the service still answers that many lines, found by
    bisection over the public API, and 1/64 less. Random widths rarely land on such a
    threshold; these make every one of them a test of where a line breaks."""
    def line_count(node, width):
        case = {"axis": "vertical", "cross": width, "content": node}
        return len(service_frames(daemon, case)[0][4])
    cases = []
    while len(cases) < 2 * count:
        node = generator.text.node(generator.rng)
        node.pop("maxLines", None)
        width = generator.length(20, 300)
        lines = line_count(node, width)
        low, high = 0, int(width * 64)  # in 1/64: count(high) <= lines
        while low < high:
            middle = (low + high) // 2
            if line_count(node, middle / 64) <= lines:
                high = middle
            else:
                low = middle + 1
        if high == 0:
            continue  # no wrap opportunity decides anything here
        cases += [{"axis": "vertical", "cross": high / 64, "content": node},
                  {"axis": "vertical", "cross": (high - 1) / 64, "content": node}]
    return cases


def compare(case, nodes, ours, theirs):
    """The differences between our frames and Chromium's, as readable lines."""
    problems = []
    if len(ours) != len(theirs):
        return [f"{len(ours)} nodes answered, {len(theirs)} in the page"]
    for i, (node, a, b) in enumerate(zip(nodes, ours, theirs)):
        for name, x, y in zip(["x", "y", "width", "height"], a[:4], b[:4]):
            if abs(x - y) > TOLERANCE:
                problems.append(f"node {i} {name}: service {x!r}, chromium {y!r}")
        if a[4] is not None and b[4] is not None:
            # Chromium lays out the clamped lines too (hidden); the service answers the shown ones.
            shown = b[4][:node["maxLines"]] if "maxLines" in node else b[4]
            if len(a[4]) != len(shown):
                problems.append(f"node {i} lines: service {len(a[4])}, chromium {len(shown)}")
                continue
            for k, (ours_line, their_line) in enumerate(zip(a[4], shown)):
                for name, x, y in zip(["x", "y", "width", "height"], ours_line, their_line):
                    if y is not None and abs(x - y) > TOLERANCE:
                        problems.append(f"node {i} line {k} {name}: service {x!r}, chromium {y!r}")
    return problems


def run(args, generator, text_css, page_head):
    from playwright.sync_api import sync_playwright
    rng_cases = [generator.case() for _ in range(args.cases)]
    daemon = Daemon(args.binary)
    passed = failed = 0
    shown = 0
    try:
        if args.thresholds:
            rng_cases += threshold_cases(daemon, generator, args.thresholds)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            page.set_default_timeout(60_000)
            work = tempfile.mkdtemp(prefix="chromium-layout-")
            for start in range(0, len(rng_cases), args.batch):
                batch = rng_cases[start:start + args.batch]
                node_lists = []
                parts = []
                for i, case in enumerate(batch):
                    nodes = []
                    parts.append(case_html(i, case, nodes, text_css))
                    node_lists.append(nodes)
                styles = sorted({text_style_key(text_css, n) for nodes in node_lists for n in nodes if "text" in n})
                parts += [probe_html(key) for key in styles]
                document = f"<!doctype html><html><head><meta charset=utf-8><style>body{{margin:0}}.case{{margin-bottom:7px}}{page_head}</style></head><body>{''.join(parts)}</body></html>"
                path = os.path.join(work, f"batch{start}.html")
                with open(path, "w") as f:
                    f.write(document)
                page.goto("file://" + path)
                page.evaluate("document.fonts.ready.then(() => true)")
                measured = page.evaluate(READ_BACK)
                for case, nodes, theirs in zip(batch, node_lists, measured):
                    ours = service_frames(daemon, case)
                    problems = compare(case, nodes, ours, theirs)
                    if problems:
                        failed += 1
                        if shown < args.show:
                            shown += 1
                            print("MISMATCH", json.dumps(case))
                            for line in problems[:8]:
                                print("   ", line)
                    else:
                        passed += 1
            browser.close()
    finally:
        daemon.stop()
    return passed, failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--show", type=int, default=10, help="mismatches printed in full")
    parser.add_argument("--text", action="store_true", help="include text nodes")
    parser.add_argument("--thresholds", type=int, default=0,
                        help="with --text: pairs of text cases on either side of a line-count threshold (threshold_cases)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    if not args.text:
        args.thresholds = 0
    print(f"seed {seed} ({args.cases} cases{', with text' if args.text else ''}"
          f"{f', and {args.thresholds} threshold pairs' if args.thresholds else ''})")
    rng = random.Random(seed)
    text = None
    text_css = lambda node, measured: []
    page_head = ""
    if args.text:
        import chromium_text
        text = chromium_text.TextGenerator()
        text_css, page_head = chromium_text.css, chromium_text.font_faces()
    passed, failed = run(args, Generator(rng, text), text_css, page_head)
    print(f"{passed + failed} cases, {failed} mismatches (seed {seed})")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
