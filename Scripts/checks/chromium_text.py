"""Text for chromium_layout.py: random text nodes, and the CSS and @font-face rules that
make Chromium lay them out with exactly the font files scrollstackd uses (Inter and DejaVu
Sans from Debian's packages, matched by weight and style as FontCatalog reads them; what they
lack comes from the system's fonts in Chromium and from the fallback chain in the service)."""
import glob, struct

import freetype

DIRECTORIES = ["/usr/share/fonts/opentype/inter", "/usr/share/fonts/truetype/dejavu"]
FAMILIES = ["Inter", "DejaVu Sans"]
LATIN = ("the quick brown fox jumps over a lazy dog settings notifications privacy office affluent "
         "fluffy waffle first flight AVATAR Toyota Wavy Yellow LT. 1234 7:45 pm, “quoted” (aside) "
         "e-mail well-known co-operate naïve café résumé").split()
CYRILLIC = "привет мир настройки уведомления Съешь же ещё этих мягких булок".split()
GREEK = "καλημέρα κόσμε ρυθμίσεις Ξεσκεπάζω την ψυχοφθόρα".split()
# Words neither Inter nor DejaVu Sans has every character of: drawn in the fallback faces
# (Noto Sans CJK JP, Noto Color Emoji, DejaVu Sans), by Chromium's system fallback (fontconfig
# on the same machine) and by the service's chain.
FALLBACK = "日本語の 設定 通知 한국어 简体中文 東京タワー キャッシュ 🎉 👍🏽 ❤️ 🚀 ☃ ✈ 雪☃だるま".split()
# Right-to-left words (Arabic and Hebrew, which only DejaVu Sans of the faces here has, in both
# Chromium's fallback and the service's): shaped right to left in runs of their own within
# left-to-right paragraphs, digits and Latin among them.
RIGHT_TO_LEFT = "مرحبا بالعالم الإعدادات الإشعارات الخصوصية لا إله ١٢٣ 45 שלום עולם הגדרות התראות פרטיות (שלום) 2024".split()


def faces():
    """(family, path, weight, style) of every face the catalog would match, per family."""
    found = []
    for directory in DIRECTORIES:
        for path in sorted(glob.glob(directory + "/*")):
            if not path.lower().endswith((".ttf", ".otf", ".ttc", ".otc")):
                continue
            face = freetype.Face(path)
            family = face.family_name.decode()
            if family not in FAMILIES:
                continue
            weight, width = os2_weight_width(path)
            if width != 5:
                continue
            italic = bool(face.style_flags & freetype.FT_STYLE_FLAG_ITALIC)
            found.append((family, path, weight, "italic" if italic else "normal"))
    return found


def os2_weight_width(path):
    """usWeightClass and usWidthClass from the OS/2 table of a single-face sfnt file."""
    with open(path, "rb") as f:
        data = f.read()
    tables = struct.unpack(">H", data[4:6])[0]
    for i in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        if tag == b"OS/2":
            return struct.unpack(">HH", data[offset + 4:offset + 8])
    return 400, 5


FACES = faces()


def font_faces():
    return "".join(f"@font-face{{font-family:'ss-{family}';src:url(file://{path});font-weight:{weight};font-style:{style}}}"
                   for family, path, weight, style in FACES)


class TextGenerator:
    def node(self, r):
        family = r.choice(FAMILIES)
        words = LATIN + (CYRILLIC + GREEK if r.random() < 0.5 else []) + (FALLBACK * 3 if r.random() < 0.25 else []) \
            + (RIGHT_TO_LEFT * 3 if r.random() < 0.2 else [])
        count = r.choice([0, 1, 1, 2, 3, 5, 8, 12, 20]) if r.random() < 0.97 else 0
        parts = []
        for i in range(count):
            parts.append(r.choice(words))
            if i + 1 < count:
                roll = r.random()
                parts.append("\n" if roll < 0.06 else "  " if roll < 0.1 else " ")
        text = "".join(parts)
        if r.random() < 0.05:
            text = " " + text + r.choice([" ", "\n", "\n\n"])
        weights = [100, 200, 300, 400, 500, 600, 700, 800, 900] if family == "Inter" else [300, 400, 500, 600, 700]
        node = {"text": text, "font": {"family": r.choice([family, "DejaVu"]) if family == "DejaVu Sans" else family,
                                       "size": r.choice([10, 11, 12, 13, 13.5, 14, 15, 15.25, 16, 17, 18, 20, 24, 28, 34, 13.3, 11.1, 17.7]),
                                       "weight": r.choice(weights), "style": r.choice(["normal", "normal", "italic"])}}
        if r.random() < 0.3:
            node["lineHeight"] = r.randint(40, 160) / 4
        if r.random() < 0.2:
            node["letterSpacing"] = r.randint(-4, 12) / 4
        if r.random() < 0.2:
            node["maxLines"] = r.randint(1, 4)
        if r.random() < 0.3:
            node["align"] = r.choice(["start", "center", "end"])
        return node


def family_of(node):
    name = node["font"]["family"]
    return "DejaVu Sans" if name == "DejaVu" else name


def css(node, measured):
    """The text node's CSS: pre-line white space when it wraps (measuring heights), preserved
    breaks without wrapping when it doesn't (measuring widths: its own horizontal writing
    mode inside the transposed tree, as wide as its widest line)."""
    font = node["font"]
    style = [f"font-family:'ss-{family_of(node)}'", f"font-size:{font['size']!r}px", f"font-weight:{font.get('weight', 400)}",
             f"font-style:{font.get('style', 'normal')}", "font-synthesis:none", "overflow-wrap:normal",
             "line-height:" + (f"{node['lineHeight']!r}px" if "lineHeight" in node else "normal"),
             f"letter-spacing:{node.get('letterSpacing', 0)!r}px", f"text-align:{node.get('align', 'start')}"]
    if measured == "vertical":
        style.append("white-space:pre-line")
    else:
        style += ["writing-mode:horizontal-tb", "white-space-collapse:preserve-breaks", "text-wrap-mode:nowrap"]
    if "maxLines" in node:
        style += ["display:-webkit-box", "-webkit-box-orient:vertical", f"-webkit-line-clamp:{node['maxLines']}", "overflow:hidden"]
    return style
