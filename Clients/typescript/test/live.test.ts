// The client against a live scrollstackd with tokens (started by
// Scripts/checks/70-typescript-client.sh, which sets SCROLLSTACK_URL, SCROLLSTACK_WRITE_TOKEN and
// SCROLLSTACK_READ_TOKEN). Each test uses stacks of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ScrollStackClient, ScrollStackError, operations } from "../src/client.js";
import type { Layout, MutationResult, Stack } from "../src/client.js";

const baseURL = process.env.SCROLLSTACK_URL ?? "http://127.0.0.1:8080";
const client = new ScrollStackClient({ baseURL, token: process.env.SCROLLSTACK_WRITE_TOKEN });
const reader = new ScrollStackClient({ baseURL, token: process.env.SCROLLSTACK_READ_TOKEN });

/** Fails the test instead of waiting forever. */
function deadline<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test("create a stack, insert with If-Match, read the typed layout", async () => {
  const created = await client.createStack({
    body: {
      id: "ts-home",
      viewport: { width: 375, height: 667 },
      rowInsets: { top: 0, left: 0, bottom: 0, right: 0 },
      rows: [
        { id: "welcome", controller: { type: "WelcomeVC" }, size: { fixed: 120 } },
        { id: "gallery", controller: { type: "GalleryVC" }, size: { fixed: 500 } },
      ],
    },
  });
  assert.equal(created.status, 201);
  assert.equal(created.etag, '"1"');
  const inserted = await client.insertRows({
    path: { stack: "ts-home" },
    headers: { "If-Match": created.etag ?? undefined },
    body: { at: "top", rows: [{ id: "banner", view: { type: "Banner" }, size: { fixed: 44 } }] },
  });
  assert.ok("events" in inserted.body, "a full answer unless Prefer: return=minimal");
  const result: MutationResult = inserted.body;
  assert.equal(result.revision, 2);
  const layout = await reader.getLayout({ path: { stack: "ts-home" } });
  const answer = layout.body as Layout;
  assert.deepEqual(answer.rows.map((row) => [row.id, row.frame.y, row.frame.height]), [["banner", 0, 44], ["welcome", 44, 120], ["gallery", 164, 500]]);
  assert.deepEqual(answer.contentSize, { width: 375, height: 664 });
  assert.equal(layout.etag, '"2"');
});

test("a refused request throws ScrollStackError with the service's code and field", async () => {
  await client.createStack({ body: { id: "ts-refusals", viewport: { width: 320, height: 480 }, rows: [] } });
  await assert.rejects(
    client.insertRows({ path: { stack: "ts-refusals" }, headers: { "If-Match": '"7"' }, body: { rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: 10 } }] } }),
    (error: ScrollStackError) => error instanceof ScrollStackError && error.status === 412 && error.code === "precondition_failed",
  );
  await assert.rejects(
    client.insertRows({ path: { stack: "ts-refusals" }, body: { rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: -1 } }] } }),
    (error: ScrollStackError) => error.status === 422 && error.field === "rows[0].size.fixed",
  );
  await assert.rejects(
    reader.insertRows({ path: { stack: "ts-refusals" }, body: { rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: 10 } }] } }),
    (error: ScrollStackError) => error.status === 403 && error.code === "insufficient_scope",
  );
  const anonymous = new ScrollStackClient({ baseURL });
  await assert.rejects(anonymous.listStacks(), (error: ScrollStackError) => error.status === 401);
});

test("pictures: the layout as SVG, and the stateless layout", async () => {
  await client.createStack({ body: { id: "ts-picture", viewport: { width: 200, height: 300 }, rows: [{ id: "only", view: { type: "Card" }, size: { fixed: 100 } }] } });
  const svg = await reader.getLayoutSVG({ path: { stack: "ts-picture" } });
  assert.equal(typeof svg.body, "string");
  assert.match(svg.body, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg.body, /<g class="row entire" data-id="only"/);
  const stateless = await reader.statelessLayout({ body: { viewport: { width: 100, height: 100 }, rowInsets: { top: 0, left: 0, bottom: 0, right: 0 }, rows: [{ id: "x", view: { type: "Cell" }, size: { fixed: 30 } }] } });
  const layout = stateless.body as Layout;
  assert.deepEqual(layout.rows.map((row) => row.frame), [{ x: 0, y: 0, width: 100, height: 30 }]);
  assert.equal(layout.revision, undefined);
});

test("follow: live events in order, resumed with Last-Event-ID after a reconnection", async () => {
  await client.createStack({ body: { id: "ts-live", viewport: { width: 320, height: 480 }, rows: [] } });
  const stop = new AbortController();
  const seen: number[] = [];
  const reading = (async () => {
    for await (const message of reader.follow("ts-live", { after: 1, signal: stop.signal, retryMilliseconds: 50 })) {
      seen.push(message.revision);
      assert.ok(Array.isArray(message.events) && message.events.length > 0);
      if (seen.length === 3) stop.abort();
    }
  })();
  for (const id of ["a", "b", "c"]) {
    await client.insertRows({ path: { stack: "ts-live" }, body: { rows: [{ id, view: { type: "Cell" }, size: { fixed: 10 } }] } });
  }
  await deadline(reading, 10_000, "three live messages");
  assert.deepEqual(seen, [2, 3, 4]);
  // Resuming after revision 3 gives revision 4 again and nothing before it.
  const again = new AbortController();
  const resumed: number[] = [];
  await deadline((async () => {
    for await (const message of reader.follow("ts-live", { after: 3, signal: again.signal })) {
      resumed.push(message.revision);
      again.abort();
    }
  })(), 10_000, "the resumed stream");
  assert.deepEqual(resumed, [4]);
});

test("piles, revisions, tickets and the rest of the surface", async () => {
  const pile = await client.createPile({ body: { id: "ts-nav", bounds: { width: 375, height: 667 }, views: [{ id: "inbox", controller: { type: "InboxVC" } }] } });
  assert.equal(pile.status, 201);
  const pushed = await client.pushView({ path: { pile: "ts-nav" }, body: { id: "message", controller: { type: "MessageVC" } } });
  assert.equal((pushed.body as { revision: number }).revision, 2);
  await client.createStack({ body: { id: "ts-history", viewport: { width: 320, height: 480 }, rows: [{ id: "a", view: { type: "Cell" }, size: { fixed: 10 } }] } });
  await client.patchRow({ path: { stack: "ts-history", row: "a" }, body: { hidden: true } });
  const past = await reader.getStack({ path: { stack: "ts-history" }, query: { revision: 1 } });
  const state = past.body as Stack;
  assert.equal(state.revision, 1);
  const history = await reader.eventHistory({ path: { stack: "ts-history" }, query: { after: 1 } });
  assert.ok(JSON.stringify(history.body).includes("rowHidden"));
  const ticket = await reader.createEventTicket();
  assert.match((ticket.body as { ticket: string }).ticket, /^et1\./);
  const listed = await reader.listStacks();
  assert.ok(JSON.stringify(listed.body).includes("ts-history"));
  const removed = await client.deleteStack({ path: { stack: "ts-history" } });
  assert.ok(removed.status === 200 || removed.status === 204);
  await assert.rejects(reader.getStack({ path: { stack: "ts-history" } }), (error: ScrollStackError) => error.status === 404 && error.code === "stack_not_found");
  // Every operation of the contract is a method of the client.
  for (const id of Object.keys(operations)) {
    assert.equal(typeof (client as unknown as Record<string, unknown>)[id], "function", id);
  }
});
