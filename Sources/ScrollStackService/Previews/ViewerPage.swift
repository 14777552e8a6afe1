/// The viewer: one self-contained HTML page (inline CSS and script, system fonts, nothing
/// fetched but the API) served at `/view/` (the stacks) and `/view/{stack}` (one stack).
///
/// The stack page draws the visible window at its own offset, which starts at the stack's, as
/// the SVG picture draws it (`GET …/layout.svg?window=visible&offset=`, shown as an image, its
/// viewport at the stage's origin), with a box over each row for hovering: wheel, drag and keys
/// move that offset and ask `GET …/layout?window=visible&offset=` and the picture for the rows
/// there (the stack itself is never scrolled); one request is in flight at a time and the
/// latest offset wins. A row that embeds a stack shows it in a clipped box of its viewport;
/// the wheel over that box, a drag that starts in it, and the keys after a press in it scroll
/// that stack in the page only (`GET` of its own layout at the page's offset, in the row's
/// viewport); Escape or a press outside gives the keys back to the stack. From the first layout's revision on, it follows `GET …/events` as a
/// stream (read with `fetch`, so a token can go in `Authorization`; reconnecting with
/// `Last-Event-ID` when the server ends it) and redraws after every revision; a `didScroll` moves the
/// page to the stack's new offset. A revision of an embedded stack (relayed by the stream)
/// redraws it as it is now, dropping the page's own scrolling of it. A token is taken from the address's fragment
/// (`#token=…`), which browsers never send to the server, and kept for the tab's session.
enum ViewerPage {
    /// The base64 SHA-256 of the page's one inline script, as its Content Security Policy names
    /// it (`script-src 'sha256-…'`): no other script can run on the page.
    static let scriptDigest: String = {
        let text = Array(html.utf8)
        let open = Array("<script>".utf8), close = Array("</script>".utf8)
        guard let start = text.firstRange(of: open)?.upperBound, let end = text[start...].firstRange(of: close)?.lowerBound else {
            preconditionFailure("the viewer page has an inline script")
        }
        return SHA256.base64(SHA256.digest(Array(text[start..<end])))
    }()

    static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ScrollStack viewer</title>
<style>
  body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1c1c1e; background: #e5e5ea; }
  header { padding: 10px 16px; background: #fff; border-bottom: 1px solid #c7c7cc; display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; }
  header h1 { font-size: 15px; margin: 0; }
  main { display: flex; gap: 24px; padding: 16px; align-items: flex-start; }
  #frame { flex: none; transform-origin: 0 0; }
  #stage { position: relative; overflow: hidden; background: #f2f2f7; outline: 2px solid #ff3b30; touch-action: none; cursor: grab; user-select: none; }
  #stage:focus { outline-color: #007aff; }
  .picture { position: absolute; max-width: none; pointer-events: none; }
  .row { position: absolute; box-sizing: border-box; }
  .row:hover { outline: 2px solid #007aff; z-index: 1; }
  .embedded { position: absolute; overflow: hidden; outline: 1px solid #007aff; }
  .embedded.focused { outline: 2px solid #007aff; }
  aside { min-width: 280px; background: #fff; border: 1px solid #c7c7cc; padding: 10px 12px; }
  aside dt { font-weight: 600; margin-top: 6px; }
  aside dd { margin: 0; font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
  #error { color: #c00; }
  ul { background: #fff; margin: 16px; padding: 12px 32px; border: 1px solid #c7c7cc; }
  li { margin: 4px 0; }
  /* A plug-in's side panel (320–420 px wide): the stage above the details, both full width. */
  @media (max-width: 600px) {
    header { padding: 8px 10px; }
    main { flex-direction: column; gap: 12px; padding: 10px; }
    aside { min-width: 0; align-self: stretch; }
    ul { margin: 10px; padding: 10px 24px; }
  }
</style>
</head>
<body>
<header><h1 id="title">ScrollStack</h1><span id="status">loading…</span><span id="error"></span></header>
<main id="main"></main>
<script>
"use strict";
(function () {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) sessionStorage.setItem("scrollstack-token", hash.get("token"));
  const token = sessionStorage.getItem("scrollstack-token");
  const auth = token ? { "Authorization": "Bearer " + token } : {};
  const main = document.getElementById("main");
  const statusLine = document.getElementById("status");
  const errorLine = document.getElementById("error");
  const parts = location.pathname.split("/").filter(Boolean);
  const stackId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
  const api = (path) => fetch(path, { cache: "no-store", headers: Object.assign({ "Accept": "application/json" }, auth) }).then(async (r) => {
    const body = await r.json();
    if (!r.ok) throw new Error(body.error ? body.error.status + " " + body.error.code + ": " + body.error.message : String(r.status));
    return body;
  });
  const fail = (e) => { errorLine.textContent = String(e.message || e); };
  // A stack's window as the SVG draws it (its rows' styles and text): an image placed so that
  // the stack's viewport sits at its box's origin (the box clips the rest of the drawing).
  const picture = (path) => fetch(path, { cache: "no-store", headers: Object.assign({ "Accept": "image/svg+xml" }, auth) }).then(async (r) => {
    const svg = await r.text();
    if (!r.ok) throw new Error("picture: " + r.status);
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const viewport = doc.getElementById("viewport");
    let x = Number(viewport.getAttribute("x")), y = Number(viewport.getAttribute("y"));
    for (let node = viewport.parentElement; node; node = node.parentElement) {
      const moved = /translate\(([-0-9.e]+),([-0-9.e]+)\)/.exec(node.getAttribute("transform") || "");
      if (moved) { x += Number(moved[1]); y += Number(moved[2]); }
    }
    const img = document.createElement("img");
    img.className = "picture";
    img.alt = "";
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
    img.style.left = -x + "px";
    img.style.top = -y + "px";
    img.style.width = doc.documentElement.getAttribute("width") + "px";
    img.style.height = doc.documentElement.getAttribute("height") + "px";
    return img;
  });

  if (!stackId) {
    document.getElementById("title").textContent = "ScrollStack stacks";
    api("/v1/stacks").then((stacks) => {
      statusLine.textContent = stacks.length + " stacks";
      const list = document.createElement("ul");
      list.id = "stacks";
      for (const s of stacks) {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = "/view/" + encodeURIComponent(s.id);
        link.textContent = s.id;
        item.append(link, " — " + s.rowCount + " rows, revision " + s.revision);
        list.append(item);
      }
      main.replaceWith(list);
    }).catch(fail);
    return;
  }

  document.getElementById("title").textContent = "stack " + stackId;
  document.title = "ScrollStack · " + stackId;
  const base = "/v1/stacks/" + encodeURIComponent(stackId);
  const frame = document.createElement("div");
  frame.id = "frame";
  const stage = document.createElement("div");
  stage.id = "stage";
  stage.tabIndex = 0;
  frame.append(stage);
  const info = document.createElement("aside");
  info.innerHTML = "<dl><dt>row</dt><dd id='info-row'>hover a row</dd><dt>visibility</dt><dd id='info-visibility'>–</dd>" +
    "<dt>frame</dt><dd id='info-frame'>–</dd><dt>visible rows</dt><dd id='info-visible'>–</dd></dl>";
  main.append(frame, info);

  let layout = null;      // the last layout drawn
  let drawing = null;     // its picture (an <img> of the SVG)
  let offset = null;      // this page's offset along the scroll axis
  let inFlight = false;
  let again = false;
  let scale = 1;
  let lastEventId = null; // the last revision heard of, for Last-Event-ID

  const along = () => (layout && layout.axis === "horizontal" ? "x" : "y");
  const length = () => (along() === "x" ? "width" : "height");
  const maxOffset = () => Math.max(0, layout.contentSize[length()] - layout.viewport[length()]);
  const clamp = (v) => (layout ? Math.min(Math.max(v, 0), maxOffset()) : v);

  function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    const query = offset === null ? "" : "&offset=" + encodeURIComponent(String(offset));
    Promise.all([api(base + "/layout?window=visible" + query), picture(base + "/layout.svg?window=visible" + query)]).then(([answer, drawn]) => {
      layout = answer;
      drawing = drawn;
      if (offset === null) {
        // The first layout: follow the events after its revision, so no change is missed.
        offset = answer.offset[along()];
        lastEventId = String(answer.revision);
        follow();
      }
      draw();
      errorLine.textContent = "";
    }).catch(fail).finally(() => {
      inFlight = false;
      if (again) { again = false; refresh(); }
    });
  }

  function draw() {
    const vw = layout.viewport.width, vh = layout.viewport.height;
    // Side by side, the details take 280 px and the gaps, and the stage fits the height left
    // under the header; in a narrow panel the details go below and the stage takes the width
    // (less the padding and its 2 px outline), the page scrolling down to the details.
    const narrow = matchMedia("(max-width: 600px)").matches;
    const room = narrow ? innerWidth - 24 : innerWidth - 340;
    const tall = narrow ? Infinity : (innerHeight - document.querySelector("header").offsetHeight - 40) / Math.max(vh, 1);
    scale = Math.min(1, tall, room / Math.max(vw, 1));
    stage.style.width = vw + "px";
    stage.style.height = vh + "px";
    frame.style.transform = scale < 1 ? "scale(" + scale + ")" : "";
    frame.style.width = vw * scale + "px";
    frame.style.height = vh * scale + "px";
    stage.replaceChildren(drawing, ...level(layout, layout.offset.x, layout.offset.y));
    document.body.dataset.revision = layout.revision;
    document.body.dataset.offset = layout.offset[along()];
    statusLine.textContent = "revision " + layout.revision + " · offset " + layout.offset[along()] + " of " + maxOffset() +
      " · " + layout.contentSize.width + "×" + layout.contentSize.height + " content";
    document.getElementById("info-visible").textContent = layout.visibleRows.join(", ") || "none";
  }

  // One stack's rows over its picture, placed at their frame less (ox, oy): the root's
  // offset, or the viewport's origin of an embedded stack (whose frames are the root's
  // coordinates). A row is a box for hovering (the picture shows it). A row that embeds a
  // stack gets a box of that stack's viewport, clipped, holding its rows: as the answer gives
  // them (the picture above draws them), or as this page scrolled that stack (`nested`),
  // over that stack's own picture at the page's offset.
  function level(answer, ox, oy) {
    const nodes = [];
    const boxes = [];
    for (const row of answer.rows) {
      const div = document.createElement("div");
      div.className = "row " + row.visibility;
      div.dataset.id = row.id;
      div.dataset.index = row.index;
      div.dataset.visibility = row.visibility;
      place(div, row.frame, ox, oy);
      div.addEventListener("mouseenter", () => describe(row));
      nodes.push(div);
      if (row.stack && row.stack.rows) boxes.push(embeddedBox(row.stack, ox, oy));
    }
    return nodes.concat(boxes);
  }

  // Puts an absolutely positioned element at frame `f` less (ox, oy).
  function place(element, f, ox, oy) {
    element.style.left = (f.x - ox) + "px";
    element.style.top = (f.y - oy) + "px";
    element.style.width = f.width + "px";
    element.style.height = f.height + "px";
  }

  const nested = new Map(); // embedded stack id → { offset, answer } once this page scrolled it
  let focused = null;       // the embedded stack the keys scroll (the last one pressed on), or null

  function embeddedBox(child, ox, oy) {
    const box = document.createElement("div");
    box.className = "embedded";
    box.dataset.stack = child.id;
    const f = child.frame;
    place(box, f, ox, oy);
    const mine = nested.get(child.id);
    const shown = mine && mine.answer ? mine.answer : child;
    box.dataset.offset = shown.offset[axisOf(shown)];
    box.child = child;
    if (focused && focused.id === child.id) { box.classList.add("focused"); focused = child; }
    box.replaceChildren(...(mine && mine.answer ? [mine.picture, ...level(mine.answer, mine.answer.offset.x, mine.answer.offset.y)] : level(child, f.x, f.y)));
    box.addEventListener("wheel", (e) => {
      e.preventDefault();
      e.stopPropagation();
      const along = axisOf(child), unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? child.viewport[along === "x" ? "width" : "height"] : 1;
      scrollNested(child, ((along === "x" && e.deltaX === 0) ? e.deltaY : (along === "x" ? e.deltaX : e.deltaY)) * unit);
    }, { passive: false });
    return box;
  }

  const axisOf = (answer) => (answer.axis === "horizontal" ? "x" : "y");

  // Scrolls an embedded stack in this page only: its layout at the new offset, in the
  // viewport its row gives it (the stack itself is never scrolled).
  function scrollNested(child, delta) {
    const along = axisOf(child), side = along === "x" ? "width" : "height";
    const mine = nested.get(child.id) || { offset: child.offset[along], answer: null };
    const next = Math.min(Math.max(mine.offset + delta, 0), Math.max(0, child.contentSize[side] - child.viewport[side]));
    if (next === mine.offset && mine.answer) return;
    mine.offset = next;
    nested.set(child.id, mine);
    const query = "?window=visible&offset=" + encodeURIComponent(String(next)) + "&width=" + child.viewport.width + "&height=" + child.viewport.height;
    const path = "/v1/stacks/" + encodeURIComponent(child.id);
    Promise.all([api(path + "/layout" + query), picture(path + "/layout.svg" + query)]).then(([answer, drawn]) => {
      if (mine.offset !== next) return;
      mine.answer = answer;
      mine.picture = drawn;
      draw();
    }).catch(fail);
  }

  function describe(row) {
    const f = row.frame;
    document.getElementById("info-row").textContent = row.id + " (index " + row.index + ")";
    document.getElementById("info-visibility").textContent = row.visibility + " " + Math.round(row.visibleFraction * 100) + " %";
    document.getElementById("info-frame").textContent = "x " + f.x + " y " + f.y + " · " + f.width + "×" + f.height;
  }

  function scrollBy(delta) {
    if (!layout) return;
    const next = clamp(offset + delta);
    if (next === offset) return;
    offset = next;
    refresh();
  }

  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? layout.viewport[length()] : 1;
    scrollBy(((along() === "x" && e.deltaX === 0) ? e.deltaY : (along() === "x" ? e.deltaX : e.deltaY)) * unit);
  }, { passive: false });

  // A drag that starts on an embedded stack's box scrolls that stack, and the keys then
  // scroll it too (until a press outside every box, or Escape).
  let drag = null;
  stage.addEventListener("pointerdown", (e) => {
    const box = e.target.closest ? e.target.closest(".embedded") : null;
    focused = box ? box.child : null;
    for (const b of stage.querySelectorAll(".embedded")) b.classList.toggle("focused", b === box);
    drag = { x: e.clientX, y: e.clientY, child: focused };
    stage.setPointerCapture(e.pointerId);
    stage.focus();
  });
  stage.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const horizontal = drag.child ? axisOf(drag.child) === "x" : along() === "x";
    const d = horizontal ? drag.x - e.clientX : drag.y - e.clientY;
    drag = { x: e.clientX, y: e.clientY, child: drag.child };
    if (drag.child) scrollNested(drag.child, d / scale); else scrollBy(d / scale);
  });
  const endDrag = () => { drag = null; };
  stage.addEventListener("pointerup", endDrag);
  stage.addEventListener("pointercancel", endDrag);

  stage.addEventListener("keydown", (e) => {
    if (!layout) return;
    if (e.key === "Escape" && focused) {
      focused = null;
      for (const b of stage.querySelectorAll(".embedded")) b.classList.remove("focused");
      return;
    }
    const target = focused;
    const viewportLength = target ? target.viewport[axisOf(target) === "x" ? "width" : "height"] : layout.viewport[length()];
    const page = viewportLength * 0.9;
    const move = target ? (d) => scrollNested(target, d) : scrollBy;
    const step = { ArrowDown: 40, ArrowRight: 40, ArrowUp: -40, ArrowLeft: -40, PageDown: page, " ": page, PageUp: -page }[e.key];
    if (step !== undefined) { e.preventDefault(); move(step); }
    else if (e.key === "Home") { e.preventDefault(); move(-Infinity); }
    else if (e.key === "End") { e.preventDefault(); move(Infinity); }
  });

  // Live events: every revision redraws; a didScroll follows the stack.
  async function follow() {
    try {
      const headers = Object.assign({ "Accept": "text/event-stream" }, auth);
      if (lastEventId !== null) headers["Last-Event-ID"] = lastEventId;
      const response = await fetch(base + "/events", { cache: "no-store", headers });
      if (!response.ok) throw new Error("events: " + response.status);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      document.body.dataset.live = "yes";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let data = "", name = "";
          for (const line of message.split("\n")) {
            if (line.startsWith("id:")) lastEventId = line.slice(3).trim();
            if (line.startsWith("event:")) name = line.slice(6).trim();
            if (line.startsWith("data:")) data += line.slice(5).trim();
          }
          if (!data) continue;
          const parsed = JSON.parse(data);
          if (name === "embedded") {
            // A stack of the tree changed: show it as it is now.
            nested.delete(parsed.stack);
          } else {
            for (const event of (parsed.events || [])) {
              if (event.type === "didScroll" && event.to) offset = event.to[along()];
            }
          }
          refresh();
        }
      }
    } catch (e) {
      fail(e);
    }
    document.body.dataset.live = "no";
    setTimeout(follow, 1000);
  }

  addEventListener("resize", () => layout && draw());
  refresh();
})();
</script>
</body>
</html>
"""#
}
