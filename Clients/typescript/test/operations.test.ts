// Every operation of the client, called against a live scrollstackd (started by
// Scripts/checks/70-typescript-client.sh, which sets SCROLLSTACK_URL, SCROLLSTACK_WRITE_TOKEN and
// SCROLLSTACK_READ_TOKEN), each with an assertion on what it answers. The clients record every
// operation they send, and the last test fails when an operation of the contract (every
// operationId but the CORS preflights) was never called here: coverage cannot drift.
// Each test uses stacks and piles of its own (ids `ts-ops-…`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { ScrollStackClient, ScrollStackError, operations } from "../src/client.js";
import type { ClientOptions, OperationID, Reply, ScrollStackOperations } from "../src/client.js";

const baseURL = process.env.SCROLLSTACK_URL ?? "http://127.0.0.1:8080";
const writeToken = process.env.SCROLLSTACK_WRITE_TOKEN;
const readToken = process.env.SCROLLSTACK_READ_TOKEN;

/** Every operation any client of this file sent (answered or refused). */
const called = new Set<string>();

/** The client, recording each operation it sends. */
class RecordingClient extends ScrollStackClient {
  constructor(options: ClientOptions) {
    super(options);
  }

  protected call(id: OperationID, args: Parameters<ScrollStackOperations["call"]>[1]): Promise<Reply<unknown>> {
    called.add(id);
    return super.call(id, args);
  }
}

const client = new RecordingClient({ baseURL, token: writeToken });
const reader = new RecordingClient({ baseURL, token: readToken });
const anonymous = new RecordingClient({ baseURL });

/** An answer's body as loose JSON, to read the members the assertions look at. */
function json(reply: Reply<unknown>): any {
  return reply.body;
}

/** Fails the test instead of waiting forever. */
function deadline<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Asserts a PNG (its signature, then an IHDR chunk) and answers its width and height in pixels. */
function png(reply: Reply<Uint8Array>): { width: number; height: number } {
  const bytes = reply.body;
  assert.ok(bytes instanceof Uint8Array, "a PNG answer is bytes");
  assert.deepEqual(Array.from(bytes.slice(0, 8)), pngSignature, "the PNG signature");
  assert.equal(String.fromCharCode(...bytes.slice(12, 16)), "IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const noInsets = { top: 0, left: 0, bottom: 0, right: 0 };

/** A refusal with this status and code. */
function refusal(status: number, code: string): (error: ScrollStackError) => boolean {
  return (error) => {
    assert.ok(error instanceof ScrollStackError, String(error));
    assert.equal(error.status, status, error.message);
    assert.equal(error.code, code, error.message);
    return true;
  };
}

let servedContract: { paths: Record<string, Record<string, { operationId?: string }>> } | undefined;

test("discovery: the index, the contract (YAML and JSON), health, fonts, devices", async () => {
  const index = await anonymous.index();
  assert.equal(index.status, 200);
  assert.equal(index.body.name, "ScrollStack Server");
  assert.deepEqual(index.body.links, { docs: "/openapi.yaml", contract: "/openapi.json", viewer: "/view", health: "/healthz" });

  const yaml = await anonymous.contractYAML();
  assert.equal(yaml.status, 200);
  assert.equal(typeof yaml.body, "string");
  assert.match(yaml.body, /^openapi: 3\.1/);
  assert.match(yaml.body, /operationId: createStack\b/);
  assert.match(yaml.etag ?? "", /^"[0-9a-f]{32}"$/);

  const contract = await anonymous.contractJSON();
  assert.equal(contract.status, 200);
  servedContract = json(contract);
  assert.equal(servedContract?.paths["/v1/stacks"]?.post?.operationId, "createStack");
  assert.equal(json(contract).info.version, index.body.version);

  const health = await anonymous.health();
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { status: "ok" });
  const detailed = await reader.detailedHealth();
  assert.deepEqual(detailed.body, { status: "ok", unavailableStacks: [] });
  await assert.rejects(anonymous.detailedHealth(), (error: ScrollStackError) => error.status === 401);

  const fonts = await reader.listFonts();
  const families = json(fonts).families as { family: string; faces: { weight: number; style: string }[] }[];
  const inter = families.find((family) => family.family === "Inter");
  assert.ok(inter, "Inter is built in");
  assert.ok(inter.faces.some((face) => face.weight === 400 && face.style === "normal"));
  assert.ok(json(fonts).aliases.some((alias: { alias: string; family: string }) => alias.alias === "DejaVu" && alias.family === "DejaVu Sans"));

  const devices = await reader.listDevices();
  const list = json(devices).devices as { name: string; width: number; height: number; safeArea: unknown }[];
  const se = list.find((device) => device.name === "iphone-se");
  assert.ok(se, "iphone-se is built in");
  assert.equal(se.width, 375);
  assert.equal(se.height, 667);
  const turned = list.find((device) => device.name === "iphone-se-landscape");
  assert.ok(turned && turned.width === 667 && turned.height === 375, "each device also exists turned");
});

test("metrics: off on this server (404 route_not_found); counted by a server started with --metrics", async () => {
  await assert.rejects(reader.metrics(), refusal(404, "route_not_found"));

  // A second server of the same binary, with --metrics and the same tokens, started here.
  const binary = process.env.SCROLLSTACKD ?? ".build/debug/scrollstackd";
  const tokens = `${writeToken} write,${readToken} read`;
  const child = spawn(binary, ["--port", "0", "--in-memory", "--metrics", "--log-level", "notice"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SCROLLSTACK_TOKENS: tokens },
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const port = await deadline(new Promise<string>((resolve, reject) => {
      let log = "";
      child.stderr.on("data", (chunk: unknown) => {
        log += String(chunk);
        const found = /listening on http:\/\/127\.0\.0\.1:([0-9]+)/.exec(log);
        if (found) resolve(found[1]);
      });
      child.on("error", reject);
      child.on("exit", (code: number | null) => reject(new Error(`scrollstackd --metrics ended (${code}): ${log}`)));
    }), 10_000, "scrollstackd --metrics listening");
    const measured = new RecordingClient({ baseURL: `http://127.0.0.1:${port}`, token: readToken });
    await measured.listStacks();
    await measured.listStacks();
    const metrics = await measured.metrics();
    assert.equal(metrics.status, 200);
    assert.equal(typeof metrics.body, "string");
    assert.match(metrics.headers.get("Content-Type") ?? "", /^text\/plain; version=0\.0\.4/);
    assert.match(metrics.body, /^scrollstack_http_requests_total\{route="\/v1\/stacks",method="GET",status="200"\} 2$/m);
    assert.match(metrics.body, /^# TYPE scrollstack_stacks gauge$/m);
    // It needs a token like /v1.
    await assert.rejects(new RecordingClient({ baseURL: `http://127.0.0.1:${port}` }).metrics(), (error: ScrollStackError) => error.status === 401);
  } finally {
    child.kill();
  }
});

test("fonts: upload (then the same bytes again), get, list, deletion refused while text uses it, delete", async () => {
  const bytes = readFileSync("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf");
  await assert.rejects(reader.uploadFont({ body: bytes }), (error: ScrollStackError) => error.status === 403);
  const uploaded = await client.uploadFont({ body: bytes });
  assert.equal(uploaded.status, 201);
  const font = json(uploaded);
  assert.match(font.id, /^[0-9a-f]{16}$/);
  assert.equal(uploaded.headers.get("Location"), `/v1/fonts/${font.id}`);
  assert.deepEqual(font.faces, [{ family: "Liberation Serif", weight: 400, style: "normal", width: 5 }]);
  assert.equal((await client.uploadFont({ body: bytes })).status, 200);
  assert.deepEqual(json(await reader.getFont({ path: { font: font.id } })), font);
  const families = json(await reader.listFonts()).families as { family: string; faces: { id?: string }[] }[];
  assert.equal(families.find((family) => family.family === "Liberation Serif")?.faces[0]?.id, font.id);
  await client.createStack({ body: { id: "ts-ops-serif", rows: [{ id: "t", view: { type: "Label" }, size: "fit",
    content: { text: "Serif", font: { family: "Liberation Serif", size: 16 } } }] } });
  await assert.rejects(client.deleteFont({ path: { font: font.id } }),
    (error: ScrollStackError) => error.status === 409 && error.code === "font_in_use");
  await client.deleteStack({ path: { stack: "ts-ops-serif" } });
  assert.equal((await client.deleteFont({ path: { font: font.id } })).status, 204);
  await assert.rejects(reader.getFont({ path: { font: font.id } }), (error: ScrollStackError) => error.status === 404);
});

test("the viewer: its list of stacks and one stack's page", async () => {
  await client.createStack({ body: { id: "ts-ops-viewed", rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: 44 } }] } });
  const list = await anonymous.viewerIndex();
  assert.equal(list.status, 200);
  assert.match(list.headers.get("Content-Type") ?? "", /^text\/html/);
  assert.match(list.body, /^<!DOCTYPE html>/);
  assert.match(list.body, /<title>ScrollStack viewer<\/title>/);
  const page = await anonymous.viewer({ path: { stack: "ts-ops-viewed" } });
  assert.equal(page.status, 200);
  assert.match(page.headers.get("Content-Type") ?? "", /^text\/html/);
  assert.match(page.headers.get("Content-Security-Policy") ?? "", /default-src 'none'/);
  assert.match(page.body, /<title>ScrollStack viewer<\/title>/);
});

test("stacks: create, conditional get, patch, put replaces, past revisions, copy, revert, list, delete", async () => {
  const created = await client.createStack({
    body: {
      id: "ts-ops-stack", viewport: { width: 320, height: 480 }, rowInsets: noInsets,
      rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: 44 } }, { id: "b", view: { type: "Cell" }, size: { fixed: 60 } }],
    },
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get("Location"), "/v1/stacks/ts-ops-stack");

  const stack = await reader.getStack({ path: { stack: "ts-ops-stack" } });
  assert.equal(stack.etag, '"1"');
  assert.deepEqual(json(stack).rows.map((row: { id: string; index: number }) => [row.id, row.index]), [["a", 0], ["b", 1]]);
  assert.deepEqual(json(stack).contentSize, { width: 320, height: 104 });
  const unchanged = await reader.getStack({ path: { stack: "ts-ops-stack" }, headers: { "If-None-Match": '"1"' } });
  assert.equal(unchanged.status, 304);
  assert.equal(unchanged.body, undefined);

  const patched = await client.patchStack({ path: { stack: "ts-ops-stack" }, headers: { "If-Match": '"1"' }, body: { spacing: 8 } });
  assert.equal(json(patched).revision, 2);
  assert.ok(json(patched).events.some((event: { type: string; to?: { height: number } }) => event.type === "contentSizeChanged" && event.to?.height === 112));

  // PUT replaces the whole stack: what the body leaves out takes its default (spacing 0).
  const replaced = await client.putStack({
    path: { stack: "ts-ops-stack" }, headers: { "If-Match": '"2"' },
    body: { viewport: { width: 320, height: 480 }, rowInsets: noInsets, rows: [{ id: "c", view: { type: "Row" }, size: { fixed: 30 } }] },
  });
  assert.equal(replaced.status, 200);
  assert.equal(json(replaced).revision, 3);
  assert.equal(replaced.etag, '"3"');
  const now = json(await reader.getStack({ path: { stack: "ts-ops-stack" } }));
  assert.deepEqual(now.rows.map((row: { id: string }) => row.id), ["c"]);
  assert.equal(now.spacing, 0);
  const before = json(await reader.getStack({ path: { stack: "ts-ops-stack" }, query: { revision: 2 } }));
  assert.equal(before.revision, 2);
  assert.equal(before.spacing, 8);
  assert.deepEqual(before.rows.map((row: { id: string }) => row.id), ["a", "b"]);
  // PUT creates with If-None-Match: *, and refuses to once the stack exists.
  const made = await client.putStack({ path: { stack: "ts-ops-put" }, headers: { "If-None-Match": "*" }, body: { rows: [{ id: "x", view: { type: "Row" }, size: { fixed: 44 } }] } });
  assert.equal(made.status, 201);
  assert.equal(json(made).revision, 1);
  await assert.rejects(
    client.putStack({ path: { stack: "ts-ops-put" }, headers: { "If-None-Match": "*" }, body: { rows: [] } }),
    refusal(412, "precondition_failed"),
  );

  // A copy of revision 2 has its rows and settings, and a history of its own.
  const copy = await client.copyStack({ path: { stack: "ts-ops-stack" }, body: { id: "ts-ops-stack-v2", revision: 2 } });
  assert.equal(copy.status, 201);
  assert.equal(copy.headers.get("Location"), "/v1/stacks/ts-ops-stack-v2");
  assert.equal(json(copy).id, "ts-ops-stack-v2");
  assert.equal(json(copy).revision, 1);
  assert.equal(json(copy).spacing, 8);
  assert.deepEqual(json(copy).rows.map((row: { id: string }) => row.id), ["a", "b"]);
  await assert.rejects(client.copyStack({ path: { stack: "ts-ops-stack" }, body: { revision: 99 } }), refusal(404, "revision_not_found"));

  // Revert goes back to revision 2's rows and settings as revision 4.
  const reverted = await client.revert({ path: { stack: "ts-ops-stack" }, headers: { "If-Match": '"3"' }, body: { to: 2 } });
  assert.equal(json(reverted).revision, 4);
  assert.deepEqual(json(reverted).changed, []);
  const back = json(await reader.getStack({ path: { stack: "ts-ops-stack" } }));
  assert.equal(back.revision, 4);
  assert.equal(back.spacing, 8);
  assert.deepEqual(back.rows.map((row: { id: string }) => row.id), ["a", "b"]);

  const listed = json(await reader.listStacks()) as { id: string; revision: number; rowCount: number }[];
  assert.deepEqual(listed.find((entry) => entry.id === "ts-ops-stack"), { id: "ts-ops-stack", revision: 4, rowCount: 2 });
  assert.deepEqual(listed.find((entry) => entry.id === "ts-ops-stack-v2"), { id: "ts-ops-stack-v2", revision: 1, rowCount: 2 });

  const removed = await client.deleteStack({ path: { stack: "ts-ops-stack-v2" } });
  assert.equal(removed.status, 204);
  await assert.rejects(reader.getStack({ path: { stack: "ts-ops-stack-v2" } }), refusal(404, "stack_not_found"));
});

test("rows: insert, list and filter, get, replace, patch, batch, move, remove (by id and by index)", async () => {
  const stack = "ts-ops-rows";
  await client.createStack({
    body: {
      id: stack, viewport: { width: 320, height: 480 }, rowInsets: noInsets,
      rows: [
        { id: "r0", controller: { type: "ListVC" }, size: { fixed: 40 } },
        { id: "r1", view: { type: "Cell" }, size: { fixed: 50 } },
        { id: "r2", controller: { type: "ListVC", instance: "second" }, size: { fixed: 60 } },
      ],
    },
  });
  const ids = async (): Promise<string[]> => json(await reader.listRows({ path: { stack } })).rows.map((row: { id: string }) => row.id);

  const inserted = await client.insertRows({ path: { stack }, body: { at: { after: "r0" }, rows: [{ id: "ins", view: { type: "Cell" }, size: { fixed: 10 } }] } });
  assert.equal(json(inserted).revision, 2);
  assert.deepEqual(json(inserted).events[0], { type: "rowAdded", id: "ins", index: 1 });
  assert.deepEqual(await ids(), ["r0", "ins", "r1", "r2"]);

  const byController = json(await reader.listRows({ path: { stack }, query: { controller: "ListVC" } }));
  assert.equal(byController.revision, 2);
  assert.deepEqual(byController.rows.map((row: { id: string; index: number }) => [row.id, row.index]), [["r0", 0], ["r2", 3]]);
  const first = json(await reader.listRows({ path: { stack }, query: { controller: "ListVC", first: "true" } }));
  assert.deepEqual(first.rows.map((row: { id: string }) => row.id), ["r0"]);
  const instance = json(await reader.listRows({ path: { stack }, query: { instance: "second" } }));
  assert.deepEqual(instance.rows.map((row: { id: string }) => row.id), ["r2"]);

  const row = await reader.getRow({ path: { stack, row: "r1" } });
  assert.equal(row.etag, '"2"');
  assert.equal(json(row).index, 2);
  assert.deepEqual(json(row).frame, { x: 0, y: 50, width: 320, height: 50 });
  assert.equal(json(row).visibility, "entire");
  const at = await reader.getRowAt({ path: { stack, index: 0 } });
  assert.equal(json(at).id, "r0");
  assert.deepEqual(json(at).frame, { x: 0, y: 0, width: 320, height: 40 });
  await assert.rejects(reader.getRowAt({ path: { stack, index: 9 } }), refusal(404, "row_not_found"));

  const replaced = await client.replaceRow({ path: { stack, row: "r1" }, body: { view: { type: "Wide" }, size: { fixed: 70 } } });
  assert.equal(json(replaced).revision, 3);
  assert.equal(json(replaced).changed[0].id, "r1");
  assert.deepEqual(json(replaced).changed[0].view, { type: "Wide" });
  assert.deepEqual(json(replaced).removed[0].size, { fixed: 50 });
  assert.deepEqual(json(replaced).events.slice(0, 2), [{ type: "rowRemoved", id: "r1", index: 2 }, { type: "rowAdded", id: "r1", index: 2 }]);

  const replacedAt = await client.replaceRowAt({ path: { stack, index: 1 }, body: { id: "ins2", view: { type: "Cell" }, size: { fixed: 15 } } });
  assert.equal(json(replacedAt).changed[0].id, "ins2");
  assert.equal(json(replacedAt).removed[0].id, "ins");
  assert.deepEqual(await ids(), ["r0", "ins2", "r1", "r2"]);

  const patchedAt = await client.patchRowAt({ path: { stack, index: 0 }, body: { tappable: true } });
  assert.equal(json(patchedAt).changed[0].id, "r0");
  assert.equal(json(patchedAt).changed[0].tappable, true);

  const hidden = await client.patchRow({ path: { stack, row: "r2" }, body: { hidden: true } });
  assert.equal(json(hidden).changed[0].hidden, true);
  assert.deepEqual(json(hidden).events[0], { type: "rowHidden", id: "r2", index: 3 });

  const shown = await client.batchRows({ path: { stack }, body: { op: "show", rows: ["r2"] } });
  assert.equal(json(shown).changed[0].hidden, false);
  assert.deepEqual(json(shown).events[0], { type: "rowShown", id: "r2", index: 3 });

  const moved = await client.moveRow({ path: { stack, row: "r2" }, body: { to: 0 } });
  assert.deepEqual(json(moved).events[0], { type: "rowMoved", id: "r2", from: 3, to: 0 });
  assert.deepEqual(await ids(), ["r2", "r0", "ins2", "r1"]);
  const movedAt = await client.moveRowAt({ path: { stack, index: 3 }, body: { to: 1 } });
  assert.deepEqual(json(movedAt).events[0], { type: "rowMoved", id: "r1", from: 3, to: 1 });
  assert.deepEqual(await ids(), ["r2", "r1", "r0", "ins2"]);

  const removed = await client.removeRow({ path: { stack, row: "ins2" } });
  assert.equal(json(removed).removed[0].id, "ins2");
  assert.equal(json(removed).removed[0].index, 3);
  const removedAt = await client.removeRowAt({ path: { stack, index: 0 } });
  assert.equal(json(removedAt).removed[0].id, "r2");
  assert.deepEqual(await ids(), ["r1", "r0"]);

  const emptied = await client.removeAllRows({ path: { stack } });
  assert.deepEqual(json(emptied).removed.map((row: { id: string; index: number }) => [row.id, row.index]), [["r1", 0], ["r0", 1]]);
  assert.equal(json(emptied).revision, 12);
  assert.deepEqual(await ids(), []);
});

test("layout, hit test and scroll: the scroll moves the offset and the hit test follows it", async () => {
  const stack = "ts-ops-scroll";
  await client.createStack({
    body: {
      id: stack, viewport: { width: 320, height: 100 }, rowInsets: noInsets,
      rows: [
        { id: "a", view: { type: "Cell" }, size: { fixed: 44 }, tappable: true },
        { id: "b", view: { type: "Cell" }, size: { fixed: 60 } },
        { id: "c", view: { type: "Cell" }, size: { fixed: 80 } },
      ],
    },
  });
  const layout = json(await reader.getLayout({ path: { stack }, query: { window: "visible" } }));
  assert.deepEqual(layout.offset, { x: 0, y: 0 });
  assert.deepEqual(layout.visibleRows, ["a", "b"]);
  assert.deepEqual(layout.entirelyVisibleRows, ["a"]);

  const hit = json(await reader.hitTest({ path: { stack }, query: { x: 10, y: 20 } }));
  assert.equal(hit.revision, 1);
  assert.equal(hit.row.id, "a");
  assert.equal(hit.row.tappable, true);
  assert.equal(json(await reader.hitTest({ path: { stack }, query: { x: 10, y: 50 } })).row.id, "b");

  const dry = json(await client.scroll({ path: { stack }, body: { to: "bottom", dryRun: true } }));
  assert.equal(dry.dryRun, true);
  assert.equal(dry.revision, 1);
  assert.deepEqual(dry.offset, { x: 0, y: 84 });

  const scrolled = await client.scroll({ path: { stack }, headers: { "If-Match": '"1"' }, body: { offset: { x: 0, y: 50 } } });
  assert.equal(json(scrolled).revision, 2);
  assert.ok(json(scrolled).events.some((event: { type: string; to?: unknown }) => event.type === "didScroll" && JSON.stringify(event.to) === JSON.stringify({ x: 0, y: 50 })));
  assert.deepEqual(json(scrolled).window.offset, { x: 0, y: 50 });
  const after = json(await reader.getLayout({ path: { stack }, query: { window: "visible" } }));
  assert.deepEqual(after.offset, { x: 0, y: 50 });
  assert.deepEqual(after.visibleRows, ["b", "c"]);
  // The point 20 pt down the viewport is now 70 pt down the content: row b.
  assert.equal(json(await reader.hitTest({ path: { stack }, query: { x: 10, y: 20 } })).row.id, "b");
  const past = json(await reader.getLayout({ path: { stack }, query: { revision: 1, window: "visible" } }));
  assert.deepEqual(past.offset, { x: 0, y: 0 });
});

test("pictures: SVG and PNG of a stack, of a stateless stack, and of a diff; the diff and a transition plan", async () => {
  const stack = "ts-ops-review";
  await client.createStack({
    body: {
      id: stack, viewport: { width: 375, height: 300 },
      rows: ["a", "b", "c"].map((id) => ({ id, view: { type: id.toUpperCase() }, size: { fixed: 40 } })),
    },
  });
  await client.patchRow({ path: { stack, row: "b" }, body: { size: { fixed: 80 } } });
  await client.insertRows({ path: { stack }, body: { at: "top", rows: [{ id: "d", view: { type: "D" }, size: { fixed: 40 } }] } });

  const svg = await reader.getLayoutSVG({ path: { stack } });
  assert.match(svg.body, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.body, /data-id="d"/);
  const one = png(await reader.getLayoutPNG({ path: { stack } }));
  const two = png(await reader.getLayoutPNG({ path: { stack }, query: { scale: 2 } }));
  assert.ok(one.width > 0 && one.height > 0);
  assert.equal(two.width, one.width * 2);
  assert.equal(two.height, one.height * 2);

  const diff = json(await reader.getLayoutDiff({ path: { stack }, query: { from: 1 } }));
  assert.equal(diff.from, 1);
  assert.equal(diff.to, 3);
  assert.deepEqual(diff.inserted, ["d"]);
  assert.deepEqual(diff.removed, []);
  assert.deepEqual(diff.moved, [{ id: "a", from: 0, to: 1 }, { id: "b", from: 1, to: 2 }, { id: "c", from: 2, to: 3 }]);
  assert.deepEqual(diff.resized, [{ id: "b", before: { x: 0, y: 64, width: 375, height: 64 }, after: { x: 0, y: 128, width: 375, height: 104 } }]);
  const diffSVG = await reader.getLayoutDiffSVG({ path: { stack }, query: { from: 1, to: 3 } });
  assert.match(diffSVG.body, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(diffSVG.body, /<title>stack ts-ops-review: revision 1 \| revision 3<\/title>/);
  assert.match(diffSVG.body, /<rect class="change" data-change="inserted" data-id="d"/);
  assert.match(diffSVG.body, /<g class="row [a-z]+" data-id="b" [^>]*data-change="moved resized"/);
  const diffOne = png(await reader.getLayoutDiffPNG({ path: { stack }, query: { from: 1 } }));
  const diffTwo = png(await reader.getLayoutDiffPNG({ path: { stack }, query: { from: 1, scale: 2 } }));
  assert.equal(diffTwo.width, diffOne.width * 2);

  const plan = json(await reader.stackTransition({ path: { stack, revision: 2 }, query: { fps: 30 } }));
  assert.equal(plan.revision, 2);
  assert.equal(plan.fps, 30);
  assert.ok(plan.rows.some((row: { id: string }) => row.id === "b"), "the plan names the resized row");
  assert.ok(plan.keyframes.length >= 2);
  assert.equal(plan.keyframes[0].progress, 0);
  assert.equal(plan.keyframes[plan.keyframes.length - 1].progress, 1);
  await assert.rejects(reader.stackTransition({ path: { stack, revision: 1 } }), refusal(404, "transition_not_found"));

  const body = {
    axis: "horizontal" as const, viewport: { width: 200, height: 80 },
    rows: [{ id: "a", view: { type: "Chip" }, size: { fixed: 60 } }, { id: "b", view: { type: "Chip" }, content: { width: 150 } }],
  };
  const stateless = json(await reader.statelessLayout({ body }));
  assert.deepEqual(stateless.contentSize, { width: 274, height: 80 });
  assert.deepEqual(stateless.visibleRows, ["a", "b"]);
  assert.equal(stateless.revision, undefined);
  // Only POST /v1/layout takes a read token; its drawings, like every other POST, need a write one (API.md).
  const statelessSVG = await client.statelessLayoutSVG({ body });
  assert.match(statelessSVG.body, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(statelessSVG.body, /data-id="b"/);
  const statelessOne = png(await client.statelessLayoutPNG({ body }));
  const statelessThree = png(await client.statelessLayoutPNG({ body, query: { scale: 3 } }));
  assert.equal(statelessThree.width, statelessOne.width * 3);
});

test("carousels: settle snaps a flick to a page, the menu window, selecting a menu item", async () => {
  const stack = "ts-ops-carousel";
  await client.createStack({
    body: {
      id: stack, axis: "horizontal", viewport: { width: 375, height: 600 }, rowInsets: noInsets,
      paging: { size: { fraction: 1 } },
      pageIndicator: { hidesForSinglePage: true },
      menu: { itemSize: { fixed: { width: 120, height: 44 } } },
      rows: ["Home", "News", "Sport", "Music", "Films"].map((title) => ({ id: title.toLowerCase(), view: { type: "Page" }, size: { fixed: 375 }, title })),
    },
  });
  const dry = json(await client.settle({ path: { stack }, body: { velocity: -300, offset: 1000, dryRun: true, fps: 10 } }));
  assert.equal(dry.dryRun, true);
  assert.equal(dry.revision, 1);
  assert.deepEqual(dry.target, { x: 1125, y: 0 });
  assert.equal(dry.page, 3);

  const settled = json(await client.settle({ path: { stack }, body: { velocity: 900, offset: 60, fps: 20 } }));
  assert.equal(settled.revision, 2);
  assert.deepEqual(settled.release, { x: 60, y: 0 });
  assert.deepEqual(settled.target, { x: 375, y: 0 });
  assert.equal(settled.page, 1);
  assert.equal(settled.motion, "spring");
  assert.deepEqual(settled.curve[settled.curve.length - 1].offset, 375);
  const layout = json(await reader.getLayout({ path: { stack }, query: { window: "visible" } }));
  assert.deepEqual(layout.offset, { x: 375, y: 0 });
  assert.equal(layout.paging.currentPage, 1);
  assert.equal(layout.menu.selected.id, "news");

  const window = json(await reader.menuWindow({ path: { stack }, query: { around: "films", width: 375 } }));
  assert.equal(window.revision, 2);
  assert.deepEqual(window.around, { id: "films", index: 4, rowIndex: 4, width: 120 });
  assert.deepEqual(window.before.map((item: { id: string }) => item.id), ["home", "news", "sport", "music"]);
  assert.deepEqual(window.after, []);
  assert.deepEqual(window.missingAfter, { width: 270, items: 3 });

  const selected = json(await client.menuSelect({ path: { stack }, body: { row: "music" } }));
  assert.equal(selected.revision, 3);
  assert.equal(selected.paging.currentPage, 3);
  assert.deepEqual(selected.menu.selected, { index: 3, id: "music", rowIndex: 3 });
  assert.ok(selected.events.some((event: { type: string; to?: { x: number } }) => event.type === "didScroll" && event.to?.x === 1125));
});

test("history and tickets: the events after a revision, and a ticket that opens them without a token", async () => {
  const stack = "ts-ops-history";
  await client.createStack({ body: { id: stack, rows: [] } });
  for (const id of ["a", "b", "c"]) {
    await client.insertRows({ path: { stack }, body: { rows: [{ id, view: { type: "Cell" }, size: { fixed: 10 } }] } });
  }
  const page = json(await reader.eventHistory({ path: { stack }, query: { after: 1, limit: 1 } }));
  assert.equal(page.revision, 4);
  assert.ok(page.events.length > 0);
  assert.ok(page.events.every((event: { revision: number }) => event.revision === 2), "one revision per page of limit 1");
  assert.deepEqual(page.events[0].type, "rowAdded");
  assert.equal(page.events[0].id, "a");
  assert.match(page.events[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(typeof page.next, "string", "a page that stops before the current revision links the next");

  const ticket = await reader.createEventTicket();
  assert.equal(ticket.status, 201);
  assert.match(json(ticket).ticket, /^et1\./);
  assert.equal(json(ticket).expiresIn, 600);
  const opened = json(await anonymous.eventHistory({ path: { stack }, query: { ticket: json(ticket).ticket, after: 3 } }));
  assert.equal(opened.revision, 4);
  assert.ok(opened.events.some((event: { type: string; id?: string }) => event.type === "rowAdded" && event.id === "c"));
  await assert.rejects(anonymous.eventHistory({ path: { stack }, query: { ticket: "et1.forged" } }), refusal(401, "invalid_token"));
});

test("piles: create, push, pop, set, update, get, list, history, plans, delete", async () => {
  const pile = "ts-ops-pile";
  const created = await client.createPile({ body: { id: pile, bounds: { width: 320, height: 480 }, views: [{ id: "home", controller: { type: "HomeVC" } }] } });
  assert.equal(created.status, 201);
  assert.equal(json(created).active, "home");
  assert.deepEqual(json(created).views[0].frame, { x: 0, y: 0, width: 320, height: 480 });

  const pushed = json(await client.pushView({ path: { pile }, body: { id: "detail", controller: { type: "DetailVC" }, animation: true } }));
  assert.equal(pushed.revision, 2);
  assert.equal(pushed.pile.active, "detail");
  assert.deepEqual(pushed.pile.views.map((view: { id: string }) => view.id), ["home", "detail"]);
  assert.deepEqual(pushed.events, [{ type: "viewPushed", id: "detail", index: 1 }, { type: "activeChanged", from: "home", to: "detail" }]);

  const popped = json(await client.popView({ path: { pile }, headers: { "If-Match": '"2"' }, body: { animation: { duration: 0.3 }, fps: 10 } }));
  assert.equal(popped.revision, 3);
  assert.equal(popped.pile.active, "home");
  assert.deepEqual(popped.events[0], { type: "viewPopped", id: "detail", index: 1 });
  assert.equal(popped.transition.fps, 10);
  assert.equal(popped.transition.keyframes[popped.transition.keyframes.length - 1].progress, 1);
  await assert.rejects(client.popView({ path: { pile } }), refusal(409, "pile_last_view"));

  const set = json(await client.setViews({ path: { pile }, body: { views: [{ id: "list", view: { type: "List" } }, { id: "card", view: { type: "Card" } }] } }));
  assert.equal(set.revision, 4);
  assert.equal(set.pile.active, "card");
  assert.deepEqual(set.events, [{ type: "viewsSet", count: 2 }, { type: "activeChanged", from: "home", to: "card" }]);

  const updated = json(await client.updateView({ path: { pile }, body: { id: "list", view: { type: "Grid" } } }));
  assert.equal(updated.revision, 5);
  assert.deepEqual(updated.pile.views[0].view, { type: "Grid" });
  assert.deepEqual(updated.events, [{ type: "viewUpdated", id: "list", index: 0 }]);

  const got = await reader.getPile({ path: { pile } });
  assert.equal(got.etag, '"5"');
  assert.equal(json(got).active, "card");
  assert.equal((await reader.getPile({ path: { pile }, headers: { "If-None-Match": '"5"' } })).status, 304);
  const piles = json(await reader.listPiles()) as { id: string }[];
  assert.deepEqual(piles.find((entry) => entry.id === pile), { id: pile, revision: 5, viewCount: 2, active: "card" });

  const history = json(await reader.pileEvents({ path: { pile } }));
  assert.equal(history.revision, 5);
  assert.deepEqual(history.events.map((event: { type: string; revision: number }) => [event.type, event.revision]).slice(0, 3),
    [["viewPushed", 2], ["activeChanged", 2], ["viewPopped", 3]]);
  assert.deepEqual(history.events[history.events.length - 1].type, "viewUpdated");

  const plan = json(await reader.pileTransition({ path: { pile, revision: 2 } }));
  assert.equal(plan.revision, 2);
  assert.equal(plan.animated, true);
  assert.deepEqual(plan.views.map((view: { id: string; role: string }) => [view.id, view.role]), [["home", "exit"], ["detail", "enter"]]);

  const removed = await client.deletePile({ path: { pile } });
  assert.equal(removed.status, 204);
  await assert.rejects(reader.getPile({ path: { pile } }), refusal(404, "pile_not_found"));
});

test("follow a pile: its live events, as a stack's", async () => {
  const pile = "ts-ops-pile-live";
  await client.createPile({ body: { id: pile, bounds: { width: 320, height: 480 }, views: [{ id: "home", view: { type: "Home" } }] } });
  const stop = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const message of reader.followPile(pile, { after: 1, signal: stop.signal, retryMilliseconds: 50 })) {
      seen.push(message.revision);
      if (seen.length === 2) stop.abort();
    }
  })();
  await client.pushView({ path: { pile }, body: { id: "one", view: { type: "One" } } });
  await client.pushView({ path: { pile }, body: { id: "two", view: { type: "Two" } } });
  await deadline(reading, 10_000, "two live pile messages");
  assert.deepEqual(seen, [2, 3]);
});

// Last: every operation of the contract was called above. The operations are those of the
// generated client (which the check proves equal to Docs/openapi.yaml) and those of the contract
// the server serves, CORS preflights (OPTIONS) excepted.
test("coverage: every operation of the contract was called by these tests", () => {
  assert.ok(servedContract, "the discovery test read the served contract");
  const contractIDs: string[] = [];
  for (const methods of Object.values(servedContract.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (method === "options" || typeof operation !== "object" || operation === null || !operation.operationId) continue;
      contractIDs.push(operation.operationId);
    }
  }
  const clientIDs = Object.keys(operations);
  assert.ok(contractIDs.length >= 50, `the served contract has ${contractIDs.length} operations`);
  assert.deepEqual([...new Set(contractIDs)].sort(), [...clientIDs].sort(), "the client has one method per operation of the served contract");
  const never = [...new Set([...clientIDs, ...contractIDs])].filter((id) => !called.has(id)).sort();
  assert.deepEqual(never, [], `operations no test calls: ${never.join(", ")}`);
});
