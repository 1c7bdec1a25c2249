// The JavaScript client against a real daemon, over both of its transports: the Unix socket
// (Node's net) and the WebSocket listener (the runtime's WebSocket, as in a browser).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import {
  connect, encode, ForbiddenError, InvalidValueError, NotRunningError, ScrolldError, TooLargeError, UnknownContainerError,
} from "../scrolld.js";
import { Daemon, waitFor } from "../testing/daemon.mjs";

const hasWebSocket = typeof globalThis.WebSocket === "function";
const transports = [
  ["the Unix socket", (daemon) => ({ socket: daemon.socket })],
  ["WebSocket", (daemon) => ({ url: daemon.url }), hasWebSocket ? {} : { skip: "no WebSocket in this Node (run with --experimental-websocket, or Node ≥ 22)" }],
];

/** The next item of `iterator` that satisfies `condition`. */
async function first(iterator, condition) {
  for (;;) {
    const { value, done } = await iterator.next();
    assert.ok(!done, "the iterator ended");
    if (condition(value)) return value;
  }
}

for (const [name, target, options = {}] of transports) {
  describe(`over ${name}`, options, () => {
    let daemon;
    before(async () => { daemon = await Daemon.start(); });
    after(async () => { await daemon.cleanup(); });

    test("welcome, ping, configure, get", async () => {
      const client = await connect(target(daemon));
      assert.ok(client.features.includes("observe"));
      assert.ok(client.features.includes("web"));
      assert.ok(await client.ping() >= 0);
      await client.configure("list", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const state = await client.get("list");
      assert.equal(state.type, "state");
      assert.deepEqual(state.contentSize, { width: 400, height: 3000 });
      assert.equal(state.contentOffset.y, 0);
      client.close();
    });

    test("a subscription is an async iterator of states", async () => {
      const client = await connect(target(daemon));
      await client.configure("sub", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const states = client.subscribe("sub");
      const firstState = (await states.next()).value;
      assert.equal(firstState.container, "sub");
      await client.scrollTo("sub", { y: 420, animation: "none" });
      const moved = await first(states, (s) => s.contentOffset.y === 420);
      assert.equal(moved.resumed, false);
      await states.close();
      assert.deepEqual(await states.next(), { value: undefined, done: true });
      client.close();
    });

    test("an observation is an async iterator of changes with old and new", async () => {
      const client = await connect(target(daemon));
      await client.configure("obs", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const changes = client.observe("obs", "contentOffset.y");
      const initial = (await changes.next()).value;
      assert.equal(initial.old, null);
      assert.equal(initial.new, 0);
      await client.scrollTo("obs", { y: 100, animation: "none" });
      const change = await first(changes, (c) => c.new === 100);
      assert.equal(change.of, "contentOffset.y");
      await changes.close();
      client.close();
    });

    test("errors are typed with the daemon's code and message", async () => {
      const client = await connect(target(daemon));
      await assert.rejects(client.scrollTo("nope", { y: 1 }), (error) =>
        error instanceof UnknownContainerError && error instanceof ScrolldError && error.code === "unknown_container");
      await assert.rejects(client.scrollBy("list", { dy: 1e300 }), (error) =>
        error instanceof InvalidValueError && error.message === 'invalid "dy": expected a number between -1e9 and 1e9, got 1e+300');
      await assert.rejects(client.scrollBy("list", { dy: NaN }), InvalidValueError);
      await assert.rejects(client.configure("list", { padding: "x".repeat(70000) }), TooLargeError);
      const missing = client.subscribe("missing");
      await assert.rejects(missing.next(), UnknownContainerError);
      // The connection is still there.
      assert.ok(await client.ping() >= 0);
      client.close();
    });
  });
}

describe("connecting", () => {
  test("no daemon: NotRunningError", async () => {
    await assert.rejects(connect({ socket: "/tmp/sdjs-nobody-here.sock", timeout: 5 }), NotRunningError);
  });

  test("encode refuses what JSON cannot carry before sending", () => {
    assert.throws(() => encode({ op: "scrollBy", dy: Infinity }), InvalidValueError);
  });

  test("a client without an Origin (not a browser) is served whatever web.origins lists", { skip: hasWebSocket ? false : "no WebSocket" }, async (t) => {
    // Node's WebSocket sends no Origin (it is no browser); a listed origin is the page's own
    // business, checked in headless Chromium by the web example's test.
    const daemon = await Daemon.start({ origins: ["http://127.0.0.1:1"] });
    t.after(() => daemon.cleanup());
    const client = await connect({ url: daemon.url });
    assert.ok(client.features.includes("web"));
    client.close();
  });
});

describe("reconnection", () => {
  test("after a restart, containers come back at their offset and the subscription resumes", { timeout: 120_000 }, async (t) => {
    for (const [name, target, options = {}] of transports) {
      if (options.skip) continue;
      await t.test(name, async () => {
        const daemon = await Daemon.start();
        try {
          const client = await connect({ ...target(daemon), reconnect: true });
          await client.configure("kept", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
          await client.scrollTo("kept", { y: 250, animation: "none" });
          const states = client.subscribe("kept");
          await first(states, (s) => s.contentOffset.y === 250 && s.phase === "idle");
          await daemon.kill();
          await daemon.start();
          // A new daemon: the container is created again as described, at its resting offset,
          // and the subscription's first state is marked resumed.
          const resumed = await first(states, (s) => s.resumed);
          assert.equal(resumed.container, "kept");
          assert.equal(resumed.contentSize.height, 3000);
          const back = resumed.contentOffset.y === 250 ? resumed : await first(states, (s) => s.contentOffset.y === 250);
          assert.equal(back.contentOffset.y, 250);
          await waitFor(() => client.connected, "the client to reconnect");
          assert.equal((await client.get("kept")).contentOffset.y, 250);
          client.close();
        } finally {
          await daemon.cleanup();
        }
      });
    }
  });
});
