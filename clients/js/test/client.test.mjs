// The JavaScript client against a real daemon, over both of its transports: the Unix socket
// (Node's net) and the WebSocket listener (the runtime's WebSocket, as in a browser).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

import {
  connect, DisconnectedError, encode, ForbiddenError, InvalidValueError, NotRunningError, ScrolldError, TimeoutError,
  TooLargeError, UnknownContainerError, UnsupportedError,
} from "../scrolld.js";
import { Daemon, freePort, waitFor } from "../testing/daemon.mjs";

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
      // ping() resolves only once the daemon's reply came back (an error or none rejects): a
      // round trip of some time, in milliseconds.
      const rtt = await client.ping();
      assert.ok(typeof rtt === "number" && rtt > 0, `ping: ${rtt}`);
      await client.configure("list", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const state = await client.get("list");
      // The state itself (docs/clients.md), as Python's get gives: not the reply's type and id.
      assert.equal(state.container, "list");
      assert.ok(!("type" in state) && !("id" in state), `get: ${JSON.stringify(state)}`);
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
      // The same shape as get's (the first state is the subscribe's reply: its id stays out).
      assert.ok(!("type" in firstState) && !("id" in firstState), `first state: ${JSON.stringify(firstState)}`);
      await client.scrollTo("sub", { y: 420, animation: "none" });
      const moved = await first(states, (s) => s.contentOffset.y === 420);
      assert.equal(moved.resumed, false);
      assert.ok(!("type" in moved), `a later state: ${JSON.stringify(moved)}`);
      await states.close();
      assert.deepEqual(await states.next(), { value: undefined, done: true });
      client.close();
    });

    test("poll() alone subscribes: a draw loop that only polls gets the states", async () => {
      const client = await connect(target(daemon));
      await client.configure("polled", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const states = client.subscribe("polled");
      // Never iterated nor started: the first poll sends the subscription, as a frame callback would.
      const initial = await waitFor(() => states.poll(), "a first polled state", 5_000);
      assert.equal(initial.container, "polled");
      await client.scrollTo("polled", { y: 240, animation: "none" });
      await waitFor(() => states.poll()?.contentOffset.y === 240, "y = 240 polled", 5_000);
      // A refused subscription ends the stream; the poll after it throws the daemon's error.
      const missing = client.subscribe("no-such-container");
      assert.equal(missing.poll(), undefined);
      await waitFor(() => missing.ended, "the refusal", 5_000);
      assert.throws(() => missing.poll(), UnknownContainerError);
      // So does a second subscription at another rate, refused by the client itself at once.
      const otherRate = client.subscribe("polled", { rate: 10 });
      assert.throws(() => otherRate.poll(), InvalidValueError);
      assert.equal(otherRate.ended, true);
      // A stream closed before it started is not started by a poll.
      const closed = client.subscribe("polled-closed");
      await closed.close();
      assert.equal(closed.poll(), undefined);
      assert.equal(closed.started, null);
      await states.close();
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
      // An option the client sets itself, or one these requests do not know (the daemon passes
      // over unknown members here), is refused before anything is sent: `{ op: "remove" }` in a
      // scrollTo's options removed the container (a user's trial), a misspelt `animaton` animated.
      const refused = (message) => (error) => error instanceof InvalidValueError && error.message === message;
      await assert.rejects(client.scrollTo("list", { op: "remove" }), refused('scrollTo: "op" is not an option (the client sets it)'));
      await assert.rejects(client.scrollBy("list", { container: "other", dy: 1 }), refused('scrollBy: "container" is not an option (the client sets it)'));
      await assert.rejects(client.scrollTo("list", { y: 1, animaton: "none" }),
        refused('unknown option "animaton" for scrollTo (expected one of: x, y, row, anchor, edge, animation)'));
      await assert.rejects(client.configure("list", "hello"), refused('configure: expected an object of options, got "hello"'));
      await assert.rejects(client.scrollTo("list", { y: 10n }), refused("scrollTo: y is 10n, a BigInt, which JSON cannot carry (use a number)"));
      assert.throws(() => client.subscribe("list", { signal: {} }), refused('unknown option "signal" for subscribe (expected one of: rate, wait)'));
      assert.throws(() => client.observe("list", "phase", { op: "x" }), refused('observe: "op" is not an option (the client sets it)'));
      assert.equal((await client.get("list")).container, "list");  // still there
      // The connection is still there.
      const rtt = await client.ping();
      assert.ok(typeof rtt === "number" && rtt > 0, `ping: ${rtt}`);
      client.close();
    });
  });
}

describe("connecting", () => {
  test("options that are not what connect takes are refused before connecting", async () => {
    const refused = (message) => (error) => error instanceof InvalidValueError && error.message === message;
    await assert.rejects(connect(null), refused("connect: expected an object of options, got null"));
    for (const timeout of [NaN, -1, 0, Infinity, "5"]) {
      await assert.rejects(connect({ socket: "/tmp/sdjs-nobody-here.sock", timeout }),
        refused(`connect: timeout must be a finite number of seconds above 0, got ${typeof timeout === "string" ? `"${timeout}"` : timeout}`));
    }
    await assert.rejects(connect({ sockt: "/tmp/x.sock" }),
      refused('unknown option "sockt" for connect (expected one of: url, socket, WebSocket, reconnect, restoreOffsets, timeout)'));
    class Refusing { constructor(url) { throw new SyntaxError(`Invalid URL: ${url}`); } }
    await assert.rejects(connect({ url: "not a url", WebSocket: Refusing }),
      refused('connect: "not a url" is no WebSocket URL (Invalid URL: not a url)'));
  });

  test("no daemon: NotRunningError", async () => {
    await assert.rejects(connect({ socket: "/tmp/sdjs-nobody-here.sock", timeout: 5 }), NotRunningError);
  });

  test("a wrong WebSocket path: the HTTP status and the daemon's reason", { skip: hasWebSocket ? false : "no WebSocket" }, async (t) => {
    const daemon = await Daemon.start();
    t.after(() => daemon.cleanup());
    const url = `ws://127.0.0.1:${daemon.port}/wrong`;
    await assert.rejects(connect({ url, timeout: 10 }), (error) => {
      assert.ok(error instanceof NotRunningError, `${error.name}: ${error.message}`);
      assert.match(error.message, /HTTP 404 Not Found/);
      assert.match(error.message, /scrolld serves its protocol at \/scrolld only/);
      assert.ok(error.message.includes(url), error.message);
      return true;
    });
    // Nothing at all at the port: still NotRunningError, saying so.
    const nobody = `ws://127.0.0.1:${await freePort()}/scrolld`;
    await assert.rejects(connect({ url: nobody, timeout: 10 }), (error) =>
      error instanceof NotRunningError && /nothing listens \(ECONNREFUSED\)/.test(error.message));
  });

  test("a connect that times out is a TimeoutError", { skip: hasWebSocket ? false : "no WebSocket" }, async (t) => {
    // A listener that accepts and never answers: the handshake (WebSocket) or the welcome
    // (Unix socket) never comes.
    const held = [];
    const hold = (socket) => held.push(socket);
    const port = await freePort();
    const tcp = net.createServer(hold);
    await new Promise((resolve) => tcp.listen(port, "127.0.0.1", resolve));
    const daemon = await Daemon.start();
    const unix = net.createServer(hold);
    const silent = `${daemon.socket}.silent`;
    await new Promise((resolve) => unix.listen(silent, resolve));
    t.after(async () => {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => tcp.close(resolve));
      await new Promise((resolve) => unix.close(resolve));
      await daemon.cleanup();
    });
    await assert.rejects(connect({ url: `ws://127.0.0.1:${port}/scrolld`, timeout: 0.2 }), TimeoutError);
    await assert.rejects(connect({ socket: silent, timeout: 0.2 }), TimeoutError);
    // Too short for a real daemon's handshake: connected, or timed out, never "not running".
    for (let i = 0; i < 5; i++) {
      const client = await connect({ url: daemon.url, timeout: 0.001 }).catch((error) => {
        assert.ok(error instanceof TimeoutError, `${error.name}: ${error.message}`);
        return null;
      });
      client?.close();
    }
  });

  test("a line that is not a message fails the request waiting at once with bad_reply", async (t) => {
    // A stand-in that welcomes as scrolld does, then answers each request with what it is given.
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "scrolld-lying-"));
    const answers = ["this is not JSON", "[1,2]", '{"id":1}'];
    const servers = [];
    t.after(async () => {
      for (const server of servers) await new Promise((resolve) => server.close(resolve));
      fs.rmSync(directory, { recursive: true, force: true });
    });
    for (const [index, answer] of answers.entries()) {
      const socket = path.join(directory, `lying${index}.sock`);
      const server = net.createServer((socket) => {
        socket.write('{"type":"welcome","protocol":1,"server":"scrolld 0.1.0","containers":["main"]}\n');
        socket.once("data", () => socket.write(`${answer}\n`));
        socket.on("error", () => {});
      });
      servers.push(server);
      await new Promise((resolve) => server.listen(socket, resolve));
      // A minute's timeout: the answer must come from the line, not from the clock.
      const client = await connect({ socket, timeout: 60 });
      await assert.rejects(client.ping(), (error) =>
        error instanceof ScrolldError && error.code === "bad_reply" && error.message.includes(answer), `${answer}`);
      client.close();
    }
  });

  test("no WebSocket in this runtime: an UnsupportedError that says what to do", async (t) => {
    const saved = globalThis.WebSocket;
    globalThis.WebSocket = undefined;
    t.after(() => { globalThis.WebSocket = saved; });
    await assert.rejects(connect({ url: "ws://127.0.0.1:1/scrolld" }), (error) => {
      assert.ok(error instanceof UnsupportedError && error instanceof ScrolldError, `${error.name}: ${error.message}`);
      assert.ok(!(error instanceof NotRunningError));
      assert.equal(error.code, "unsupported");
      assert.match(error.message, /--experimental-websocket/);
      return true;
    });
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

/** Runs `body` once per transport (as a subtest of `t`), each against a daemon of its own. */
async function eachTransport(t, body) {
  for (const [name, target, options = {}] of transports) {
    if (options.skip) continue;
    await t.test(name, async () => {
      const daemon = await Daemon.start();
      try {
        await body(daemon, target);
      } finally {
        await daemon.cleanup();
      }
    });
  }
}

describe("reconnection", () => {
  test("after a restart, containers come back at their offset and the subscription resumes", { timeout: 120_000 }, async (t) => {
    await eachTransport(t, async (daemon, target) => {
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
    });
  });
});

describe("reconnecting over WebSocket", { skip: hasWebSocket ? false : "no WebSocket" }, () => {
  // A failed attempt is one connection, as a browser's: the handshake is not asked again over
  // HTTP for its reason (that is for connect(), which reports it). The HTTP asking is told apart
  // by its key, RFC 6455's sample; a WebSocket's key is random.
  test("a failed attempt is one connection", { timeout: 120_000 }, async (t) => {
    const daemon = await Daemon.start();
    const http = await import("node:http");
    const keys = [];
    const server = http.createServer((request, response) => response.writeHead(404).end());
    server.on("upgrade", (request, socket) => {
      keys.push(request.headers["sec-websocket-key"]);
      socket.end("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
    t.after(async () => {
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      await daemon.cleanup();
    });
    const client = await connect({ url: daemon.url, reconnect: true });
    await daemon.kill();
    // The daemon's port now answers every handshake with 404: each attempt fails there.
    await new Promise((resolve) => server.listen(daemon.port, "127.0.0.1", resolve));
    await waitFor(() => keys.length >= 3, "three reconnection attempts");
    client.close();
    assert.ok(keys.every((key) => key !== "dGhlIHNhbXBsZSBub25jZQ=="), `keys: ${keys.join(", ")}`);
  });
});

describe("where a container comes back", () => {
  // As the Python client, the Swift client and libscrolld put it back (docs/decisions.md,
  // "Where a client puts a container back"): where the client's own scroll was going, without a
  // subscription; a bottom-anchored log following its end at its new end.
  test("a scroll on its way comes back where it was going; a log following its end, at its end", { timeout: 120_000 }, async () => {
    const daemon = await Daemon.start();
    try {
      const client = await connect({ socket: daemon.socket, reconnect: true });
      await client.configure("far", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 30000 }, owned: true });
      await client.scrollTo("far", { y: 15000, animation: { spring: { duration: 10, bounce: 0 } } });
      assert.notEqual((await client.get("far")).phase, "idle");
      await client.configure("log", { containerSize: { width: 420, height: 720 }, rows: { count: 60, height: 24 }, anchor: "bottom", owned: true });
      await client.scrollTo("log", { y: 0, animation: "none" });
      const log = client.subscribe("log");
      await first(log, (s) => s.phase === "idle" && s.contentOffset.y === 0);
      // By a distance, not to its edge: where it goes is known from its states alone.
      await client.scrollBy("log", { dy: 10000, animation: { spring: { duration: 10, bounce: 0 } } });
      await client.configure("log", { rows: { insert: { at: 60, count: 1 } } });
      await first(log, (s) => s.phase !== "idle" && s.contentOffset.y > 0);
      await daemon.kill();
      await daemon.start();
      await waitFor(() => client.connected, "the client to reconnect");
      const far = await client.get("far");
      assert.equal(far.contentOffset.y, 15000);
      assert.equal(far.phase, "idle");
      const back = await first(log, (s) => s.resumed || s.contentSize.height === 61 * 24);
      const atEnd = back.phase === "idle" && back.contentSize.height === 61 * 24 ? back : await first(log, (s) => s.phase === "idle" && s.contentSize.height === 61 * 24);
      assert.equal(atEnd.contentOffset.y, 61 * 24 - 720);
      client.close();
    } finally {
      await daemon.cleanup();
    }
  });
});

describe("a lost connection", () => {
  test("without reconnect, iterators throw DisconnectedError when the daemon dies", { timeout: 120_000 }, async (t) => {
    await eachTransport(t, async (daemon, target) => {
      const client = await connect(target(daemon));
      await client.configure("lost", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const states = client.subscribe("lost");
      const changes = client.observe("lost", "contentOffset.y");
      assert.equal((await states.next()).value.container, "lost");
      assert.equal((await changes.next()).value.new, 0);
      // How each ends: "ended quietly" or what it threw.
      const outcome = (promise) => promise.then(() => "ended quietly", (error) => error);
      const statesEnd = outcome((async () => { for await (const _ of states); })());
      const changesEnd = outcome((async () => { for await (const _ of changes); })());
      const waiting = client.subscribe("lost-later", { wait: true });
      await waiting.start();
      const waitingEnd = outcome(waiting.next());
      await daemon.kill();
      for (const [what, end] of [["subscribe", statesEnd], ["observe", changesEnd], ["subscribe with wait", waitingEnd]]) {
        const result = await end;
        assert.ok(result instanceof DisconnectedError, `${what}: ${result}`);
        assert.match(result.message, /went away/);
      }
      // Once ended with the error, they stay so; later requests fail the same way.
      await assert.rejects(states.next(), DisconnectedError);
      assert.throws(() => changes.poll(), DisconnectedError);
      await assert.rejects(client.ping(), DisconnectedError);
      await assert.rejects(client.subscribe("lost").next(), DisconnectedError);
      client.close();
    });
  });

  test("iterators the user ends (close, break, client.close) end quietly", async (t) => {
    await eachTransport(t, async (daemon, target) => {
      const client = await connect(target(daemon));
      await client.configure("quiet", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      for await (const state of client.subscribe("quiet")) {
        assert.equal(state.container, "quiet");
        break;
      }
      const closed = client.observe("quiet", "phase");
      await closed.next();
      const closedEnd = (async () => { for await (const _ of closed); })();
      await closed.close();
      await closedEnd;
      const states = client.subscribe("quiet");
      const changes = client.observe("quiet", "contentOffset.y");
      await states.next();
      await changes.next();
      const statesEnd = (async () => { for await (const _ of states); })();
      const changesEnd = (async () => { for await (const _ of changes); })();
      client.close();
      await statesEnd;
      await changesEnd;
      assert.deepEqual(await states.next(), { value: undefined, done: true });
      assert.equal(changes.poll(), undefined);
    });
  });

  test("with reconnect, a lost connection ends no iterator", { timeout: 120_000 }, async (t) => {
    await eachTransport(t, async (daemon, target) => {
      const client = await connect({ ...target(daemon), reconnect: true });
      await client.configure("back", { containerSize: { width: 400, height: 300 }, contentSize: { width: 400, height: 3000 } });
      const changes = client.observe("back", "contentOffset.y");
      assert.equal((await changes.next()).value.new, 0);
      await daemon.kill();
      await waitFor(() => !client.connected, "the client to see the daemon gone");
      await daemon.start();
      const resumed = await first(changes, (c) => c.resumed);
      assert.equal(resumed.new, 0);
      client.close();
      assert.deepEqual(await changes.next(), { value: undefined, done: true });
    });
  });
});
