"""The tail ellipsis against Chromium, pixel for pixel, all drawn by Chromium.

For random clamped texts with `"ellipsis": true`, scrollstackd answers each line's characters
(`utf16` ranges) and whether it added "…". Chromium draws two boxes with the same font files
(chromium_text.py): the text clamped by `-webkit-line-clamp` (its own truncation and
ellipsis), and the service's lines written out, one unwrapped line each, the last one's kept
characters followed by "…" placed absolutely where the service says it is (so it is shaped
apart from the text, as Chromium shapes its ellipsis). The two screenshots
must agree: same characters on every line, same cut, the ellipsis at the same place. Agree
means at most `TOLERANCE` pixels whose grey levels differ by more than `LEVELS`: the two boxes
are separate fragment trees (the written-out ellipsis is a box of its own), and Skia may
rasterize an edge pixel of an unchanged glyph a little differently between them; a glyph
kept or cut, or an ellipsis moved by a pixel, changes dozens of pixels by far more. Start-aligned text only (the cut does not depend on the
alignment; the placement of centred lines is the layout check's). Prints its seed.
"""
import argparse, base64, html, os, random, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
import chromium_text
from chromium_layout import Daemon
from playwright.sync_api import sync_playwright

TOLERANCE = 3
LEVELS = 96
DIFFER = """async ([a, b, levels]) => {
  async function pixels(png) {
    const image = new Image();
    image.src = 'data:image/png;base64,' + png;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return [image.width, image.height, context.getImageData(0, 0, image.width, image.height).data];
  }
  const [w, h, A] = await pixels(a), [w2, h2, B] = await pixels(b);
  if (w != w2 || h != h2) return 1e9;
  let count = 0;
  for (let i = 0; i < A.length; i += 4) if (Math.abs(A[i] - B[i]) > levels) count++;
  return count;
}"""


def case(r, generator):
    node = generator.node(r)
    words = chromium_text.LATIN + (chromium_text.CYRILLIC if r.random() < 0.3 else [])
    node["text"] = " ".join(r.choice(words) for _ in range(r.randint(4, 30)))
    node["maxLines"] = r.randint(1, 3)
    node["ellipsis"] = True
    node["align"] = "start"
    node.pop("lineHeight", None)
    node["lineHeight"] = round(node["font"]["size"] * 1.5)
    return node, r.randint(60, 320)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--cases", type=int, default=200)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed} ({args.cases} ellipsis cases)")
    r = random.Random(seed)
    generator = chromium_text.TextGenerator()
    daemon = Daemon(args.binary)
    failed = cut = 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page()
            work = tempfile.mkdtemp(prefix="chromium-ellipsis-")
            for i in range(args.cases):
                node, width = case(r, generator)
                answer = daemon.post("/v1/layout?content=frames", {
                    "viewport": {"width": width, "height": 2000}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                    "rows": [{"id": "t", "view": {"type": "T"}, "size": "fit", "content": node}]})
                content = answer["rows"][0]["content"]
                units = node["text"].encode("utf-16-le")
                lines = []
                for line in content["lines"]:
                    s, e = line["utf16"]["start"], line["utf16"]["end"]
                    lines.append(" ".join(units[2 * s:2 * e].decode("utf-16-le").split()))
                style = ";".join(chromium_text.css(node, "vertical")) + f";width:{width}px"
                plain = ";".join(s for s in chromium_text.css({k: v for k, v in node.items() if k != "maxLines"}, "vertical")
                                 if not s.startswith("white-space")) + f";width:{width}px;white-space:pre"
                ellipsis = ""
                if "ellipsis" in content:
                    left = content["ellipsis"]["x"] - content["frame"]["x"]
                    ellipsis = f"<span style=position:absolute;top:0;left:{left!r}px;letter-spacing:0>\u2026</span>"
                written = "".join(f"<div style=position:relative>{html.escape(text)}" + (ellipsis if k == len(lines) - 1 else "") + "</div>"
                                  for k, text in enumerate(lines))
                cut += "ellipsis" in content
                document = (f"<!doctype html><html><head><meta charset=utf-8><style>body{{margin:0;background:#fff}}"
                            f"div{{color:#000}}{chromium_text.font_faces()}</style></head><body>"
                            f"<div id=a style=\"{style}\">{html.escape(node['text'])}</div>"
                            f"<div id=b style=\"{plain}\">{written}</div></body></html>")
                path = os.path.join(work, "case.html")
                with open(path, "w") as f:
                    f.write(document)
                page.goto("file://" + path)
                page.evaluate("document.fonts.ready.then(() => true)")
                a = page.locator("#a").screenshot()
                b = page.locator("#b").screenshot()
                differing = 0 if a == b else page.evaluate(DIFFER, [base64.b64encode(a).decode(), base64.b64encode(b).decode(), LEVELS])
                if differing > TOLERANCE:
                    failed += 1
                    if failed <= 5:
                        print("MISMATCH", differing, "pixels", width, node, lines, content.get("ellipsis"), [l["width"] for l in content["lines"]])
            browser.close()
    finally:
        daemon.stop()
    print(f"{args.cases} cases ({cut} cut with an ellipsis), {failed} mismatches (seed {seed})")
    print(f"{args.cases - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
