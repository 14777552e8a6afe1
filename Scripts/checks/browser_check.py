"""The layout SVG and the viewer page in headless chromium (run by 40-browser.sh).

Starts scrollstackd (in memory, ephemeral loopback port), builds stacks over the API, and
checks in the browser what a person would see. Waits use Playwright's own waits with
timeouts; nothing sleeps to synchronize. Prints one line per case and "N passed, N failed".
"""
import base64
import json
import queue
import re
import subprocess
import sys
import tempfile
import threading
import traceback
import urllib.request

from playwright.sync_api import sync_playwright

BINARY = sys.argv[1]
WAIT_MS = 10_000
WRITE = "w-browsercheck-0123456789"
READ = "r-browsercheck-0123456789"


class Server:
    """scrollstackd on a free port; `call` speaks JSON to it."""

    def __init__(self, *arguments, environment=None):
        self.process = subprocess.Popen([BINARY, "--in-memory", "--port", "0", *arguments],
                                        stderr=subprocess.PIPE, text=True, env=environment)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(l) for l in self.process.stderr], daemon=True).start()
        self.port = None
        while self.port is None:
            line = lines.get(timeout=20)  # raises queue.Empty after 20 s
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    def call(self, method, path, body=None, token=None):
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def rows(count, length=100, extra=None):
    extra = extra or {}
    result = []
    for i in range(count):
        row = {"id": f"r{i}", "view": {"type": "Cell"}, "size": {"fixed": length}}
        row.update(extra.get(i, {}))
        result.append(row)
    return result


results = []


def case(name):
    def run(body):
        try:
            body()
            results.append(True)
            print("ok  ", name, flush=True)
        except Exception:
            results.append(False)
            print("FAIL", name, flush=True)
            traceback.print_exc()
    return run


def pixel(page, x, y):
    """The RGB of the page's pixel at (x, y), read back through a canvas of a screenshot."""
    shot = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    return page.evaluate("""async (bytes) => {
        const blob = new Blob([new Uint8Array(bytes)], {type: 'image/png'});
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(1, 1);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        return Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3));
    }""", list(shot))


def post_bytes(path, body):
    """The raw answer to a POST of `body` (JSON) to `path`."""
    request = urllib.request.Request(server.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


# The SVG and the PNG draw one picture: Chromium (Skia) drawing the SVG and Cairo drawing the
# PNG must agree pixel by pixel, but for anti-aliasing. Both rasterize the same shapes (the
# glyphs are the same outlines, from the same font file, at the same fractional positions)
# with coverage anti-aliasing, computed differently: Skia's analytic coverage and Cairo's
# (pixman's) sampled coverage give an edge pixel a different blend, by up to about half the
# contrast across the edge, and curves (glyphs, round corners, dots) are flattened into
# different segments. Flat areas and straight pixel-aligned edges match exactly. Measured on
# these pictures: about 97 % of pixels within 1 of each other, over 99 % within 8 and under
# 0.1 % apart by more than 32. The tolerance below leaves some room above that.
PICTURE_CLOSE = 8          # per-pixel delta (the largest of R, G, B) counted as close
PICTURE_CLOSE_SHARE = 0.985
PICTURE_FAR = 32           # a pixel further than this is an edge drawn differently
PICTURE_FAR_SHARE = 0.002
# CJK ideographs are mostly long horizontal stems at fractional heights. Cairo fills glyph
# outlines with its scan converter, which samples coverage in 15 rows per pixel (exactly across
# them), so the edge pixel of a horizontal stem is off by up to half a step, 1/30 of the
# contrast (8.5 levels), where Skia computes it exactly: along each stem, a row of edge pixels
# lands just beyond PICTURE_CLOSE. A line of ideographs at 24 px measured 98.2 % within 8 (the
# color emoji's images, resampled by both, all within 8), hence its own share:
IDEOGRAPH_CLOSE_SHARE = 0.975


def compare_pictures(page, first, second):
    """Both PNGs decoded in the page: their sizes, and the share of pixels within
    PICTURE_CLOSE and beyond PICTURE_FAR."""
    return page.evaluate("""async ([a, b, close, far]) => {
        async function pixels(bytes) {
            const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], {type: 'image/png'}));
            const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
            context.drawImage(bitmap, 0, 0);
            return [bitmap.width, bitmap.height, context.getImageData(0, 0, bitmap.width, bitmap.height).data];
        }
        const [w1, h1, p1] = await pixels(a), [w2, h2, p2] = await pixels(b);
        if (w1 != w2 || h1 != h2) return {sizes: [w1, h1, w2, h2]};
        let near = 0, distant = 0;
        for (let i = 0; i < p1.length; i += 4) {
            let d = 0;
            for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(p1[i + k] - p2[i + k]));
            if (d <= close) near++;
            if (d > far) distant++;
        }
        return {sizes: [w1, h1], close: near / (w1 * h1), far: distant / (w1 * h1)};
    }""", [list(first), list(second), PICTURE_CLOSE, PICTURE_FAR])


def assert_drawn_alike(name, svg, png, scale, close_share=PICTURE_CLOSE_SHARE):
    """The SVG drawn by chromium at `scale` and the PNG the server drew at that scale agree
    but for anti-aliasing (the tolerances above); prints the shares."""
    shot_page = browser.new_page(viewport={"width": 1200, "height": 1200}, device_scale_factor=scale)
    shot_page.set_content("<!DOCTYPE html><body style='margin:0'><img id='picture' src='data:image/svg+xml;base64,"
                          + base64.b64encode(svg).decode() + "'></body>")
    shot_page.wait_for_function("document.getElementById('picture').complete")
    box = shot_page.locator("#picture").bounding_box()
    shot = shot_page.screenshot(clip={"x": 0, "y": 0, "width": box["width"], "height": box["height"]})
    result = compare_pictures(shot_page, shot, png)
    shot_page.close()
    assert len(result["sizes"]) == 2, (name, scale, "sizes differ", result["sizes"])
    print(f"     {name} at scale {scale}: {result['close']:.2%} within {PICTURE_CLOSE}, {result['far']:.3%} beyond {PICTURE_FAR}")
    assert result["close"] >= close_share, (name, scale, result)
    assert result["far"] <= PICTURE_FAR_SHARE, (name, scale, result)


server = Server()
# 30 rows of 100 pt + 24 pt default insets = 124 pt each; r3 hidden; r2's separator red.
server.call("POST", "/v1/stacks", {
    "id": "demo", "viewport": {"width": 375, "height": 667}, "offset": {"x": 0, "y": 200},
    "rows": rows(30, extra={3: {"hidden": True}, 2: {"separator": {"color": "#FF0000"}}}),
})
layout = server.call("GET", "/v1/stacks/demo/layout")
frames = {row["id"]: row for row in layout["rows"]}

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(WAIT_MS)

    @case("the SVG is well-formed SVG 1.1 that rsvg-convert renders")
    def _():
        with urllib.request.urlopen(server.base + "/v1/stacks/demo/layout.svg", timeout=10) as response:
            assert response.headers["Content-Type"].startswith("image/svg+xml")
            svg = response.read()
        import xml.dom.minidom
        root = xml.dom.minidom.parseString(svg).documentElement
        assert root.tagName == "svg" and root.getAttribute("version") == "1.1"
        assert root.getAttribute("xmlns") == "http://www.w3.org/2000/svg"
        with tempfile.TemporaryDirectory() as scratch:
            with open(scratch + "/layout.svg", "wb") as f:
                f.write(svg)
            subprocess.run(["rsvg-convert", scratch + "/layout.svg", "-o", scratch + "/layout.png"], check=True, timeout=30)
            with open(scratch + "/layout.png", "rb") as f:
                png = f.read()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000

    @case("the SVG in chromium: rows where the layout says, coloured by visibility, hidden left out")
    def _():
        # Tall enough to show the whole drawing, so every pixel read is on screen.
        page = browser.new_page(viewport={"width": 800, "height": 4000})
        page.goto(server.base + "/v1/stacks/demo/layout.svg")
        top = page.locator("svg").bounding_box()
        content = page.locator("rect.content").bounding_box()
        assert page.locator('g.row[data-id="r3"]').count() == 0, "a hidden row is not drawn"
        for row_id in ["r0", "r1", "r2", "r6", "r20"]:
            box = page.locator(f'g.row[data-id="{row_id}"] > rect').first.bounding_box()
            frame = frames[row_id]["frame"]
            assert abs(box["y"] - content["y"] - frame["y"]) < 1.5, (row_id, box, frame)
            assert abs(box["height"] - frame["height"]) < 1.5, (row_id, box, frame)
            assert abs(box["width"] - frame["width"]) < 1.5, (row_id, box, frame)
        assert page.locator('g.row[data-id="r1"]').get_attribute("data-visibility") == "partial"
        assert page.locator('g.row[data-id="r4"]').get_attribute("data-visibility") == "entire"
        assert page.locator('g.row[data-id="r20"]').get_attribute("data-visibility") == "offscreen"
        viewport = page.locator("#viewport").bounding_box()
        assert abs(viewport["y"] - content["y"] - 200) < 1.5 and abs(viewport["height"] - 667) < 2.5, viewport
        def at(row_id):
            frame = frames[row_id]["frame"]
            return pixel(page, content["x"] + frame["x"] + frame["width"] - 30, content["y"] + frame["y"] + frame["height"] / 2)
        entire, partial, offscreen = at("r4"), at("r1"), at("r20")
        assert entire[1] > entire[0] + 40, ("entire rows are green", entire)
        assert partial[0] > partial[2] + 60 and partial[0] > partial[1], ("partial rows are orange", partial)
        assert max(offscreen) - min(offscreen) < 20, ("offscreen rows are grey", offscreen)
        separator = frames["r2"]["separatorFrame"]
        red = pixel(page, content["x"] + separator["x"] + 100, content["y"] + separator["y"] + 0.5)
        assert red[0] > 200 and red[1] < 90 and red[2] < 90, ("r2's separator is red", red)
        assert top["width"] > 375
        page.close()

    @case("an <img> of the layout URL gets SVG by Accept; devices draw side by side")
    def _():
        # A page of the server's own origin (loopback may not be loaded from about:blank).
        page.goto(server.base + "/view/")
        page.set_content(f'<img id="one" src="{server.base}/v1/stacks/demo/layout?window=visible">'
                         f'<img id="three" src="{server.base}/v1/stacks/demo/layout.svg?devices=iphone-se,iphone-15,ipad&window=visible">')
        page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)", timeout=WAIT_MS)
        one = page.evaluate("document.getElementById('one').naturalWidth")
        three = page.evaluate("document.getElementById('three').naturalWidth")
        assert 375 <= one < 500, one
        assert three > 375 + 393 + 820, three

    @case("bold and slant are synthesized where Chromium synthesizes them, and measure as Chromium does")
    def _():
        # Chromium's default font-synthesis against the service, over two families: DejaVu Math
        # TeX Gyre (one upright 400 face) and DejaVu Sans (bold and oblique faces), each face
        # declared by @font-face with its own weight and style. A side synthesized a case when
        # its drawing of it differs from its drawing of the matched face's own weight and style
        # (Chromium's screenshot; the service's SVG glyph outlines). This Chromium keeps
        # synthesizing bold under font-synthesis: none, so that is no reference.
        faces = {"DejaVu Math TeX Gyre": [("DejaVuMathTeXGyre.ttf", 400, "normal")],
                 "DejaVu Sans": [("DejaVuSans.ttf", 400, "normal"), ("DejaVuSans-Bold.ttf", 700, "normal"),
                                 ("DejaVuSans-Oblique.ttf", 400, "italic"), ("DejaVuSans-BoldOblique.ttf", 700, "italic")]}
        # The page is a file, so that the file:// fonts load; the families are renamed, so
        # that a font that did not load cannot pass for the system's font of that name.
        rules = "".join(f"@font-face{{font-family:'ss-{family}';src:url(file:///usr/share/fonts/truetype/dejavu/{file});"
                        f"font-weight:{weight};font-style:{style}}}" for family, list_ in faces.items() for file, weight, style in list_)
        cases = [(family, weight, style) for family in faces for weight in (400, 599, 600, 700, 900) for style in ("normal", "italic", "oblique")]
        spans = "".join(f"<div><span id='c{i}' style=\"font-family:'ss-{family}';font-weight:{weight};font-style:{style}\">Hamburgefonts</span></div>"
                        for i, (family, weight, style) in enumerate(cases))
        probe = browser.new_page(viewport={"width": 400, "height": 1300})
        scratch = tempfile.TemporaryDirectory()
        with open(scratch.name + "/synthesis.html", "w") as f:
            f.write(f"<!DOCTYPE html><style>{rules} body{{margin:0}} div{{height:40px}} span{{font-size:24px;white-space:pre}}</style>{spans}")
        probe.goto("file://" + scratch.name + "/synthesis.html")
        statuses = probe.evaluate("document.fonts.ready.then(() => [...document.fonts].map(f => f.status))")
        assert statuses == ["loaded"] * 5, statuses

        def outlines(family, weight, style):
            body = {"viewport": {"width": 320, "height": 80}, "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit",
                    "content": {"text": "Hamburgefonts", "font": {"family": family, "size": 24, "weight": weight, "style": style}}}]}
            return set(re.findall(r'<path id="g\d+" d="([^"]+)"', post_bytes("/v1/layout.svg", body).decode()))

        def face_of(family, weight, style):
            """The declared face CSS font matching picks: style first, then weight (these
            families have one width)."""
            italic = style != "normal"
            candidates = [f for f in faces[family] if (f[2] != "normal") == italic] or faces[family]
            ascending = sorted(candidates, key=lambda f: f[1])
            descending = ascending[::-1]
            if 400 <= weight <= 500:
                order = [f for f in ascending if weight <= f[1] <= 500] + [f for f in descending if f[1] < weight] + [f for f in ascending if f[1] > 500]
            elif weight < 400:
                order = [f for f in descending if f[1] <= weight] + [f for f in ascending if f[1] > weight]
            else:
                order = [f for f in ascending if f[1] >= weight] + [f for f in descending if f[1] < weight]
            return order[0]

        mismatches, synthesized = [], 0
        for i, (family, weight, style) in enumerate(cases):
            _, face_weight, face_style = face_of(family, weight, style)
            reference = cases.index((family, face_weight, face_style))
            chromium = probe.locator(f"#c{i}").screenshot() != probe.locator(f"#c{reference}").screenshot()
            width = probe.locator(f"#c{i}").bounding_box()["width"]
            ours = outlines(family, weight, style) != outlines(family, face_weight, face_style)
            frames = json.loads(post_bytes("/v1/layout?content=frames", {"viewport": {"width": 320, "height": 80}, "rows": [
                {"id": "t", "view": {"type": "Label"}, "size": "fit",
                 "content": {"text": "Hamburgefonts", "font": {"family": family, "size": 24, "weight": weight, "style": style}}}]}))
            measured = frames["rows"][0]["content"]["lines"][0]["width"]
            synthesized += chromium and ours
            if chromium != ours or abs(measured - width) > 1 / 64:
                mismatches.append((family, weight, style, "chromium synthesized" if chromium else "chromium did not", "ours" if ours else "not ours", width, measured))
        probe.close()
        scratch.cleanup()
        print(f"     {len(cases)} cases, {synthesized} of them synthesized by both")
        assert not mismatches, mismatches
        # The SVG and the PNG draw the synthesized glyphs alike.
        drawn = {"viewport": {"width": 320, "height": 200}, "rows": [
            {"id": f"t{k}", "view": {"type": "Label"}, "size": "fit",
             "content": {"text": "Hamburgefonts", "font": {"family": "DejaVu Math TeX Gyre", "size": 24, "weight": weight, "style": style}}}
            for k, (weight, style) in enumerate([(400, "normal"), (700, "normal"), (400, "italic"), (900, "oblique")])]}
        for scale in (1, 2):
            assert_drawn_alike("synthesized text", post_bytes("/v1/layout.svg", drawn), post_bytes(f"/v1/layout.png?scale={scale}", drawn), scale)

    @case("fallback faces: CJK, symbols and color emoji drawn where measured, the SVG (emoji as images) as the PNG, and as Chromium draws them")
    def _():
        text = "Hi 日本語 ☃ 🎉👍🏽 ❤️ ok"
        body = {"viewport": {"width": 360, "height": 120}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit", "style": {"background": "#FFFFFF"},
                          "content": {"text": text, "font": {"family": "Inter", "size": 24}}}]}
        svg = post_bytes("/v1/layout.svg", body)
        assert svg.count(b"<image ") == 3, "three color glyphs (🎉, 👍🏽, ❤️) drawn as images"
        assert b"data:image/png;base64," in svg
        for scale in (1, 2):
            assert_drawn_alike("fallback text", svg, post_bytes(f"/v1/layout.png?scale={scale}", body), scale, IDEOGRAPH_CLOSE_SHARE)
        # Chromium draws the same line with the same fonts: the emoji's pixels are where ours are.
        measured = server.call("POST", "/v1/layout?content=frames", body)
        line = measured["rows"][0]["content"]["lines"][0]
        chromium = browser.new_page(viewport={"width": 400, "height": 100})
        with tempfile.TemporaryDirectory() as scratch:
            # A page from a file, so that the file:// font loads (about:blank may not load it).
            with open(scratch + "/text.html", "w") as f:
                f.write("<!DOCTYPE html><meta charset=utf-8><style>@font-face{font-family:'ss-Inter';"
                        "src:url(file:///usr/share/fonts/opentype/inter/Inter-Regular.otf)}</style>"
                        f"<body style='margin:0'><span id=t style=\"font-family:'ss-Inter';font-size:24px;white-space:pre\">{text}</span></body>")
            chromium.goto("file://" + scratch + "/text.html")
            assert chromium.evaluate("document.fonts.ready.then(() => [...document.fonts].every(f => f.status == 'loaded'))")
        width = chromium.evaluate("(() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('t')); return r.getBoundingClientRect().width })()")
        assert abs(width - line["width"]) <= 1 / 64, (width, line["width"])
        chromium.close()

    @case("right-to-left text drawn in visual order as Chromium draws it: Arabic and Hebrew right to left, digits and Latin left to right")
    def _():
        import chromium_text
        text = "ab مرحبا بالعالم שלום 12 עולם cd"
        node = {"text": text, "font": {"family": "DejaVu Sans", "size": 24}}
        body = {"viewport": {"width": 440, "height": 60}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                "rows": [{"id": "t", "view": {"type": "Label"}, "size": "fit", "style": {"background": "#FFFFFF"}, "content": node}]}
        line = server.call("POST", "/v1/layout?content=frames", body)["rows"][0]["content"]["lines"][0]
        png = post_bytes("/v1/layout.png", body)
        # The line in the picture: the panel's content starts 16 pt in and 40 pt down (margin, heading).
        x, y = 16 + line["x"], 40 + line["y"]
        chromium = browser.new_page(viewport={"width": 600, "height": 200})
        with tempfile.TemporaryDirectory() as scratch:
            style = ";".join(["position:absolute", f"left:{x}px", f"top:{y}px"] + chromium_text.css(node, "horizontal"))
            with open(scratch + "/rtl.html", "w") as f:
                f.write("<!DOCTYPE html><meta charset=utf-8><style>body{margin:0;background:#fff}" + chromium_text.font_faces()
                        + f'</style><div id=t style="{style}">{text}</div>')
            chromium.goto("file://" + scratch + "/rtl.html")
            chromium.evaluate("document.fonts.ready.then(() => true)")
        width = chromium.evaluate("document.getElementById('t').getBoundingClientRect().width")
        assert abs(width - line["width"]) <= 1 / 64, (width, line["width"])
        shot = chromium.screenshot(clip={"x": 0, "y": 0, "width": 600, "height": 200})
        # Inside the line's box, the pixels either picture inks (green below 160): the share
        # where both agree within 96 levels. Glyph edges differ by anti-aliasing and Skia's
        # quarter-pixel placement (this text: about 88 % agree); the same text drawn in logical
        # order, as before bidi reordering, agreed on about 18 %.
        share = chromium.evaluate("""async ([a, b, box]) => {
            async function pixels(bytes) {
                const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], {type: 'image/png'}));
                const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
                context.drawImage(bitmap, 0, 0);
                return context.getImageData(0, 0, bitmap.width, bitmap.height);
            }
            const [A, B] = [await pixels(a), await pixels(b)];
            let ink = 0, agree = 0;
            for (let y = box[1]; y < box[3]; y++) for (let x = box[0]; x < box[2]; x++) {
                const ga = A.data[(y * A.width + x) * 4 + 1], gb = B.data[(y * B.width + x) * 4 + 1];
                if (ga < 160 || gb < 160) { ink++; if (Math.abs(ga - gb) <= 96) agree++; }
            }
            return agree / ink;
        }""", [list(png), list(shot), [int(x) + 1, int(y) + 1, int(x + line["width"]) - 1, int(y + line["height"]) - 1]])
        chromium.close()
        print(f"     {share:.1%} of the inked pixels agree")
        assert share >= 0.75, share

    @case("the SVG drawn by chromium equals the PNG drawn by Cairo but for anti-aliasing (styles, text, dots, menu; scale 1 and 2)")
    def _():
        with open("Docs/images/layout-preview.json") as f:
            feed = json.load(f)
        carousel = {"axis": "horizontal", "viewport": {"width": 375, "height": 300},
                    "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
                    "paging": {"size": {"fraction": 1}}, "pageIndicator": True,
                    "menu": {"itemSize": {"fixed": {"width": 100, "height": 40}}},
                    "rows": [{"id": f"p{i}", "view": {"type": "Page"}, "size": {"fixed": 375}, "title": title,
                              "style": {"background": color, "cornerRadius": 24},
                              "content": {"text": f"Page {title}", "font": {"family": "Inter", "size": 28, "weight": 700}},
                              "insets": {"top": 40, "left": 24, "bottom": 0, "right": 24}}
                             for i, (title, color) in enumerate([("One", "#FF9500"), ("Two", "#5856D6"), ("Three", "#34C759")])]}
        for name, body, query in [("feed", feed, ""), ("carousel", carousel, "?offset=375&window=visible")]:
            svg = post_bytes("/v1/layout.svg" + query, body)
            for scale in [1, 2]:
                png = post_bytes("/v1/layout.png" + (query + "&" if query else "?") + f"scale={scale}", body)
                assert_drawn_alike(name, svg, png, scale)

    @case("a composed screen's picture in chromium: each embedded stack drawn in its row at its own offset, clipped to it; the PNG draws the same")
    def _():
        # A 300-wide shelf of 240-pt cards scrolled by 100, in a screen's 224-pt row (content frame
        # 343 × 224 at 16, 136): k1 shows 140 of its 240 points, cut at the row's content edge.
        server.call("POST", "/v1/stacks", {
            "id": "shelf", "axis": "horizontal", "viewport": {"width": 300, "height": 200}, "spacing": 12,
            "offset": {"x": 100, "y": 0}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
            "pageIndicator": {}, "paging": {"size": {"absolute": 252}},
            "rows": [{"id": f"k{i}", "view": {"type": "Card"}, "size": {"fixed": 240},
                      "style": {"background": color}} for i, color in [(1, "#5856D6"), (2, "#FF2D55"), (3, "#34C759")]]})
        server.call("POST", "/v1/stacks", {
            "id": "screen", "viewport": {"width": 375, "height": 600},
            "rows": [{"id": "title", "view": {"type": "Header"}, "size": {"fixed": 100}},
                     {"id": "cards", "stack": "shelf", "size": {"fixed": 224}}]})
        composed = server.call("GET", "/v1/stacks/screen/layout")
        nested = {row["id"]: row for row in composed["rows"][1]["stack"]["rows"]}
        shot_page = browser.new_page(viewport={"width": 800, "height": 1000})
        shot_page.goto(server.base + "/v1/stacks/screen/layout.svg")
        content = shot_page.locator("g.content-space > rect.content").first.bounding_box()
        def drawn_at(x, y):
            """The data-id of the innermost row drawn at (x, y) of the root's content."""
            return shot_page.evaluate("""([x, y]) => {
                const hit = document.elementFromPoint(x, y);
                const row = hit && hit.closest('g.row');
                return row ? row.dataset.id : null;
            }""", [content["x"] + x, content["y"] + y])
        k1, k2 = nested["k1"]["frame"], nested["k2"]["frame"]
        assert k1["x"] == -84 and k2["x"] == 168, (k1, k2)
        assert drawn_at(100, 250) == "k1", drawn_at(100, 250)
        assert drawn_at(200, 250) == "k2", drawn_at(200, 250)
        # k1 spans −84…156 but the shelf shows only 16…359: left of 16 is the host's row;
        # k3 (420…660) is not drawn at all, k2 is cut at 359.
        assert drawn_at(8, 250) == "cards", drawn_at(8, 250)
        assert drawn_at(367, 250) == "cards", drawn_at(367, 250)
        assert shot_page.locator('g.embedded[data-stack="shelf"] g.row[data-id="k3"]').count() == 0
        assert shot_page.locator('g.embedded[data-stack="shelf"] g.row[data-id="k1"]').get_attribute("data-visibility") == "partial"
        purple = pixel(shot_page, content["x"] + 100, content["y"] + 250)
        assert purple[2] > 180 and purple[1] < 120, ("k1 in its style's purple", purple)
        assert shot_page.locator('g.embedded[data-stack="shelf"] circle.dot').count() == 3, "the shelf's page indicator is drawn"
        shot_page.close()
        # Scrolling the shelf alone changes the screen's picture.
        server.call("POST", "/v1/stacks/shelf/scroll", {"offset": {"x": 0, "y": 0}})
        shot_page = browser.new_page(viewport={"width": 800, "height": 1000})
        shot_page.goto(server.base + "/v1/stacks/screen/layout.svg")
        content = shot_page.locator("g.content-space > rect.content").first.bounding_box()
        assert drawn_at(20, 250) == "k1", drawn_at(20, 250)
        shot_page.close()
        with urllib.request.urlopen(server.base + "/v1/stacks/screen/layout.svg", timeout=30) as response:
            svg = response.read()
        for scale in [1, 2]:
            with urllib.request.urlopen(server.base + f"/v1/stacks/screen/layout.png?scale={scale}", timeout=30) as response:
                assert_drawn_alike("composed screen", svg, response.read(), scale)
        server.call("DELETE", "/v1/stacks/screen")
        server.call("DELETE", "/v1/stacks/shelf")

    @case("the viewer draws the visible rows where the layout puts them, frame on hover")
    def _():
        page.goto(server.base + "/view/demo")
        page.wait_for_selector('#stage .row[data-id="r2"]')
        stage = page.locator("#stage").bounding_box()
        window = server.call("GET", "/v1/stacks/demo/layout?window=visible")
        drawn = page.eval_on_selector_all("#stage .row", "nodes => nodes.map(n => n.dataset.id)")
        assert drawn == window["visibleRows"], (drawn, window["visibleRows"])
        for row in window["rows"]:
            box = page.locator(f'#stage .row[data-id="{row["id"]}"]').bounding_box()
            assert abs(box["y"] - stage["y"] - (row["frame"]["y"] - 200)) < 1.5, (row["id"], box)
        page.hover('#stage .row[data-id="r4"]')
        page.wait_for_function("() => document.getElementById('info-row').textContent.startsWith('r4')")
        text = page.text_content("#info-frame")
        assert text == "x 0 y %s · 375×124" % frames["r4"]["frame"]["y"], text
        assert page.text_content("#info-visibility").startswith("entire")

    @case("the viewer draws each embedded stack in its row's clipped box and scrolls it with the wheel, a drag and the keys, in the page only")
    def _():
        server.call("POST", "/v1/stacks", {
            "id": "vshelf", "axis": "horizontal", "viewport": {"width": 300, "height": 200}, "spacing": 12,
            "offset": {"x": 100, "y": 0}, "rowInsets": {"top": 0, "left": 0, "bottom": 0, "right": 0},
            "rows": [{"id": f"k{i}", "view": {"type": "Card"}, "size": {"fixed": 240}} for i in (1, 2, 3)]})
        server.call("POST", "/v1/stacks", {
            "id": "vscreen", "viewport": {"width": 375, "height": 600},
            "rows": [{"id": "title", "view": {"type": "Header"}, "size": {"fixed": 100}},
                     {"id": "cards", "stack": "vshelf", "size": {"fixed": 224}}]})
        viewer = browser.new_page(viewport={"width": 1280, "height": 900})
        viewer.set_default_timeout(WAIT_MS)
        viewer.goto(server.base + "/view/vscreen")
        viewer.wait_for_selector('#stage .embedded[data-stack="vshelf"] .row[data-id="k1"]')
        stage = viewer.locator("#stage").bounding_box()
        box = viewer.locator('.embedded[data-stack="vshelf"]').bounding_box()
        # The shelf's viewport is the row's content frame (343 × 224 at 16, 136).
        assert abs(box["x"] - stage["x"] - 16) < 1.5 and abs(box["y"] - stage["y"] - 136) < 1.5, (box, stage)
        assert abs(box["width"] - 343) < 1.5 and abs(box["height"] - 224) < 1.5, box
        def card_x(card):
            return viewer.locator(f'.embedded[data-stack="vshelf"] .row[data-id="{card}"]').bounding_box()["x"] - box["x"]
        # At the shelf's own offset 100: k1 at 0 − 100, k2 at 252 − 100; k3 (504…744) is not visible.
        assert abs(card_x("k1") + 100) < 1.5 and abs(card_x("k2") - 152) < 1.5, (card_x("k1"), card_x("k2"))
        assert viewer.locator('.embedded[data-stack="vshelf"] .row[data-id="k3"]').count() == 0
        visible_area = viewer.evaluate("""() => {
            const b = document.querySelector('.embedded[data-stack="vshelf"]');
            return getComputedStyle(b).overflow;
        }""")
        assert visible_area == "hidden", visible_area
        viewer.mouse.move(box["x"] + 100, box["y"] + 100)
        viewer.mouse.wheel(0, 100)
        viewer.wait_for_function("""() => {
            const b = document.querySelector('.embedded[data-stack="vshelf"]');
            return b && b.dataset.offset === "200";
        }""")
        assert abs(card_x("k1") + 200) < 1.5 and abs(card_x("k3") - 304) < 1.5, (card_x("k1"), card_x("k3"))
        def wait_nested_offset(value):
            viewer.wait_for_function("""(value) => {
                const b = document.querySelector('.embedded[data-stack="vshelf"]');
                return b && b.dataset.offset === value;
            }""", arg=value)
        # A drag that starts on the shelf scrolls the shelf (100 px left: 100 pt on).
        viewer.mouse.move(box["x"] + 200, box["y"] + 100)
        viewer.mouse.down()
        viewer.mouse.move(box["x"] + 150, box["y"] + 100, steps=5)
        viewer.mouse.move(box["x"] + 100, box["y"] + 100, steps=5)
        viewer.mouse.up()
        wait_nested_offset("300")
        # The keys now scroll the shelf: → 40 pt, End to its end (744 − 343).
        viewer.keyboard.press("ArrowRight")
        wait_nested_offset("340")
        viewer.keyboard.press("End")
        wait_nested_offset("401")
        assert viewer.locator('.embedded[data-stack="vshelf"].focused').count() == 1
        viewer.keyboard.press("Escape")
        assert viewer.locator('.embedded[data-stack="vshelf"].focused').count() == 0
        assert viewer.evaluate("document.body.dataset.offset") == "0", "the screen did not scroll"
        # A change of the shelf alone reaches the screen's page live (relayed by its stream):
        # the shelf is drawn as it is now, at its own offset 100; k1 now 100 wide, so k2
        # starts at 112 − 100 = 12 in the box.
        viewer.wait_for_function("() => document.body.dataset.live === 'yes'")
        server.call("PATCH", "/v1/stacks/vshelf/rows/k1", {"size": {"fixed": 100}})
        wait_nested_offset("100")
        viewer.wait_for_function("""() => {
            const box = document.querySelector('.embedded[data-stack="vshelf"]');
            const k2 = box && box.querySelector('.row[data-id="k2"]');
            return k2 && Math.abs(k2.getBoundingClientRect().x - box.getBoundingClientRect().x - 12) < 1.5;
        }""")
        assert server.call("GET", "/v1/stacks/vshelf/layout")["offset"]["x"] == 100, "the shelf itself was not scrolled"
        viewer.close()
        server.call("DELETE", "/v1/stacks/vscreen")
        server.call("DELETE", "/v1/stacks/vshelf")

    def open_viewer(stack, width, height):
        """A page of the viewer of `stack` in a window of width × height."""
        viewer = browser.new_page(viewport={"width": width, "height": height})
        viewer.set_default_timeout(WAIT_MS)
        viewer.goto(server.base + "/view/" + stack)
        return viewer

    def check_viewer_pictures(colours):
        """In the viewer of stack vpics, at two window sizes: each row's background colour and
        dark glyph pixels on its text's line."""
        frames_ = server.call("GET", "/v1/stacks/vpics/layout?content=frames")["rows"]
        for width, height in [(1280, 900), (360, 640)]:
            viewer = open_viewer("vpics", width, height)
            viewer.wait_for_function("() => { const i = document.querySelector('#stage img.picture'); return i && i.complete && i.naturalWidth > 0; }")
            stage = viewer.locator("#stage").bounding_box()
            scale = stage["width"] / 375
            for row, (_, rgb) in zip(frames_, colours):
                f = row["frame"]
                # Inside the row, away from its text: the style's background.
                got = pixel(viewer, stage["x"] + (f["x"] + 6) * scale, stage["y"] + (f["y"] + f["height"] - 6) * scale)
                assert max(abs(a - b) for a, b in zip(got, rgb)) <= 2, (width, row["id"], got, rgb)
                # On the text's line: dark glyph pixels among the background.
                line = row["content"]["lines"][0]
                samples = [pixel(viewer, stage["x"] + (line["x"] + line["width"] * k / 24) * scale,
                                 stage["y"] + (line["y"] + line["height"] * 0.6) * scale) for k in range(1, 24)]
                assert any(sum(p) < 150 for p in samples), (width, row["id"], "no glyph drawn on the line", samples)
            viewer.close()

    @case("the viewer shows the stack as the SVG draws it (row styles and text), at 1280 px and in a 360 px panel")
    def _():
        colours = [("#FF9500", (0xFF, 0x95, 0x00)), ("#5856D6", (0x58, 0x56, 0xD6)), ("#34C759", (0x34, 0xC7, 0x59))]
        server.call("POST", "/v1/stacks", {
            "id": "vpics", "viewport": {"width": 375, "height": 500}, "separator": {"hidden": True},
            "rows": [{"id": f"c{i}", "view": {"type": "Card"}, "size": "fit", "style": {"background": hex_},
                      "insets": {"top": 20, "left": 16, "bottom": 60, "right": 16},
                      "content": {"text": f"Card {i}", "font": {"family": "Inter", "size": 40, "weight": 800}}}
                     for i, (hex_, _) in enumerate(colours)]})
        try:
            check_viewer_pictures(colours)
        finally:
            server.call("DELETE", "/v1/stacks/vpics")

    @case("the viewer fits a plug-in's 360 px panel (stage scaled to the width, details below, nothing wider) and keeps its side panel at 1280 px")
    def _():
        for width, height in [(360, 640), (1280, 900)]:
            panel = open_viewer("demo", width, height)
            panel.wait_for_selector('#stage .row[data-id="r2"]')
            # The stage as drawn (its frame's box is scaled once more by the frame's own transform).
            frame = panel.locator("#stage").bounding_box()
            aside = panel.locator("aside").bounding_box()
            overflow = panel.evaluate("document.documentElement.scrollWidth")
            assert overflow <= width, (width, "the page is wider than the panel", overflow)
            assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width, (width, frame)
            if width < 600:
                assert frame["width"] > 0.85 * width, (width, "the stage takes the width", frame)
                assert abs(frame["height"] - 667 * frame["width"] / 375) < 1.5, (width, "the stage keeps the viewport's shape", frame)
                assert aside["y"] >= frame["y"] + frame["height"], (width, "the details sit below", aside, frame)
                assert aside["x"] + aside["width"] <= width, (width, aside)
            else:
                assert abs(frame["width"] - 375) < 1, (width, "unscaled when there is room", frame)
                assert aside["x"] >= frame["x"] + frame["width"], (width, "the details sit beside", aside, frame)
            # Rows sit where the layout puts them, at the stage's scale.
            scale = frame["width"] / 375
            stage = panel.locator("#stage").bounding_box()
            box = panel.locator('#stage .row[data-id="r4"]').bounding_box()
            assert abs(box["y"] - stage["y"] - (frames["r4"]["frame"]["y"] - 200) * scale) < 1.5, (width, box, stage)
            assert abs(box["width"] - 375 * scale) < 1.5, (width, box)
            panel.close()

    def wait_offset(value):
        page.wait_for_function(f"() => document.body.dataset.offset === '{value}'", timeout=WAIT_MS)

    def drawn_rows():
        return page.eval_on_selector_all("#stage .row", "nodes => nodes.map(n => n.dataset.id)")

    revision = server.call("GET", "/v1/stacks/demo/layout?window=visible")["revision"]

    @case("the viewer scrolls with wheel, keys and drag and shows the rows there; the stack does not move")
    def _():
        stage = page.locator("#stage").bounding_box()
        page.mouse.move(stage["x"] + 100, stage["y"] + 300)
        page.mouse.wheel(0, 500)
        wait_offset(700)
        expected = server.call("GET", "/v1/stacks/demo/layout?window=visible&offset=700")["visibleRows"]
        page.wait_for_function(f"() => [...document.querySelectorAll('#stage .row')].map(n => n.dataset.id).join() === {json.dumps(','.join(expected))}")
        page.focus("#stage")
        page.keyboard.press("End")
        bottom = layout["contentSize"]["height"] - 667
        wait_offset(bottom)
        assert drawn_rows()[-1] == "r29", drawn_rows()
        page.keyboard.press("Home")
        wait_offset(0)
        assert drawn_rows()[0] == "r0", drawn_rows()
        page.keyboard.press("ArrowDown")
        wait_offset(40)
        page.mouse.move(stage["x"] + 100, stage["y"] + 500)
        page.mouse.down()
        page.mouse.move(stage["x"] + 100, stage["y"] + 400, steps=5)
        page.mouse.up()
        wait_offset(140)
        after = server.call("GET", "/v1/stacks/demo/layout?window=visible")
        assert after["revision"] == revision and after["offset"]["y"] == 200, "viewing never changes the stack"

    @case("the viewer follows live changes: a new row, a hidden row, a scroll")
    def _():
        page.wait_for_function("() => document.body.dataset.live === 'yes'")
        server.call("POST", "/v1/stacks/demo/rows", {"at": {"after": "r4"}, "rows": [{"id": "fresh", "view": {"type": "New"}, "size": {"fixed": 60}}]})
        page.wait_for_selector('#stage .row[data-id="fresh"]')
        page.wait_for_function(f"() => document.body.dataset.revision === '{revision + 1}'")
        server.call("PATCH", "/v1/stacks/demo/rows/fresh", {"hidden": True})
        page.wait_for_selector('#stage .row[data-id="fresh"]', state="detached")
        server.call("POST", "/v1/stacks/demo/scroll", {"row": "r20", "position": "initial"})
        target = server.call("GET", "/v1/stacks/demo/layout?window=visible")
        wait_offset(target["offset"]["y"])
        page.wait_for_function("() => document.querySelector('#stage .row').dataset.id === 'r20'")
        assert drawn_rows() == target["visibleRows"], (drawn_rows(), target["visibleRows"])

    @case("/view/ lists the stacks with links to their viewers")
    def _():
        server.call("POST", "/v1/stacks", {"id": "second"})
        page.goto(server.base + "/view/")
        page.wait_for_selector("#stacks li")
        links = page.eval_on_selector_all("#stacks a", "nodes => nodes.map(n => n.getAttribute('href'))")
        assert links == ["/view/demo", "/view/second"], links

    @case("with tokens the viewer reads with the token from its address, and says 401 without")
    def _():
        import os
        environment = dict(os.environ, SCROLLSTACK_TOKENS=f"{WRITE} write,{READ} read")
        locked = Server(environment=environment)
        try:
            locked.call("POST", "/v1/stacks", {"id": "private", "rows": rows(5)}, token=WRITE)
            fresh = browser.new_page(viewport={"width": 1280, "height": 900})
            fresh.goto(locked.base + "/view/private")
            fresh.wait_for_function("() => document.getElementById('error').textContent.includes('401')", timeout=WAIT_MS)
            fresh.goto(locked.base + f"/view/private#token={READ}")
            fresh.reload()
            fresh.wait_for_selector('#stage .row[data-id="r0"]', timeout=WAIT_MS)
            fresh.wait_for_function("() => document.body.dataset.live === 'yes'", timeout=WAIT_MS)
            locked.call("POST", "/v1/stacks/private/rows", {"at": "top", "rows": [{"id": "late", "view": {"type": "V"}, "size": {"fixed": 50}}]}, token=WRITE)
            fresh.wait_for_selector('#stage .row[data-id="late"]', timeout=WAIT_MS)
            fresh.close()
        finally:
            locked.stop()

    browser.close()

server.stop()
passed = results.count(True)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
