// scrolld's JavaScript client (docs/clients.md): an ES module without a build step, for
// browsers (WebSocket, docs/design.md §24) and Node ≥ 18 (the Unix socket). The Python
// client's shape: every request as an async method, subscriptions and observations as async
// iterators, reconnection that waits for containers (§20), typed errors.
//
//   import { connect } from "./scrolld.js";
//   const client = await connect({ url: "ws://127.0.0.1:8765/scrolld" });
//   for await (const state of client.subscribe("main")) render(state.contentOffset.y);

import { Memory } from "./memory.js";
import { DisconnectedError, ScrolldError, errorOf } from "./errors.js";
import { MAX_LINE, defaultSocket, openTransport } from "./transport.js";
import { Stream } from "./stream.js";

export * from "./errors.js";
export { defaultSocket, MAX_LINE } from "./transport.js";
export { BACKLOG } from "./stream.js";

/** The first and the longest wait between two reconnection attempts, in seconds. */
export const FIRST_RETRY = 0.05;
export const LAST_RETRY = 2.0;

/**
 * Connects: `{ url }` for a WebSocket (ws://127.0.0.1:PORT/scrolld), else `{ socket }` (a
 * path; default where scrollctl looks) in Node. `reconnect`: keep going across daemon
 * restarts (containers, pauses, focus, subscriptions and observations come back);
 * `restoreOffsets`: a new daemon gets each container back at its last resting offset;
 * `timeout`: seconds to wait for a connection or a reply. Rejects with NotRunningError when no
 * daemon answers (at a WebSocket URL: with the HTTP status of a refused handshake, in Node; in
 * a page, which cannot learn it, with the causes to check and the page's origin),
 * ForbiddenError when it refuses this uid, TimeoutError when `timeout` runs out, and
 * UnsupportedError for a URL in a runtime without WebSocket.
 */
export async function connect(options = {}) {
  const client = new Client(options);
  await client._start();
  return client;
}

// The members the client knows of an options object (the daemon ignores a member it does not
// know in these requests, so a misspelt one would pass unnoticed); null: the daemon checks them.
const CONNECT_OPTIONS = ["url", "socket", "WebSocket", "reconnect", "restoreOffsets", "timeout"];
const SCROLL_TO_OPTIONS = ["x", "y", "row", "anchor", "edge", "animation"];
const SCROLL_BY_OPTIONS = ["dx", "dy", "animation"];
const SUBSCRIBE_OPTIONS = ["rate", "wait"];
// What the client sets itself: an option of this name would change the request's kind, its
// container or its reply's id.
const RESERVED = new Set(["op", "container", "id", "of"]);

function shown(value) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  return value === null || typeof value !== "object" ? String(value) : Array.isArray(value) ? "an array" : "an object";
}

/** `options` when it is a plain object of known members, none of them `reserved`: else
 *  InvalidValueError, naming the member (`unknown option "animaton" for scrollTo`) or what was
 *  given instead of an object. */
export function checkedOptions(op, options, known, reserved = RESERVED) {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw errorOf("invalid_value", `${op}: expected an object of options, got ${shown(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (reserved.has(key)) {
      throw errorOf("invalid_value", `${op}: "${key}" is not an option (the client sets it)`);
    }
    if (known && !known.includes(key)) {
      throw errorOf("invalid_value", `unknown option "${key}" for ${op} (expected one of: ${known.join(", ")})`);
    }
  }
  return options;
}

/** The text of a request, or a typed error before anything is sent. */
export function encode(request) {
  let line;
  try {
    line = JSON.stringify(request, (key, value) => {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw errorOf("invalid_value", `${request.op}: ${key} is ${value}, which JSON cannot carry`);
      }
      if (typeof value === "bigint") {
        throw errorOf("invalid_value", `${request.op}: ${key} is ${value}n, a BigInt, which JSON cannot carry (use a number)`);
      }
      return value;
    });
  } catch (error) {
    // A cycle, or an object whose toJSON throws: still a value JSON cannot carry.
    if (error instanceof ScrolldError) throw error;
    throw errorOf("invalid_value", `${request.op}: a value JSON cannot carry (${error.message})`);
  }
  const length = new TextEncoder().encode(line).length;
  if (length > MAX_LINE) throw errorOf("too_large", `${request.op}: ${length} bytes, more than the ${MAX_LINE} a request may have`);
  return line;
}

export class Client {
  #transport = null;
  #ids = 1;
  #pending = new Map();       // id -> { op, request, stream, resolve, reject }
  #subscriptions = new Map(); // container -> [Stream]
  #observations = new Map();  // id -> Stream
  #memory = new Memory();     // what a reconnection restores
  #instance = null;
  #closing = false;

  constructor(options = {}) {
    const { url, socket, WebSocket, reconnect = false, restoreOffsets = true, timeout = 30 } = checkedOptions("connect", options, CONNECT_OPTIONS, new Set());
    if (typeof timeout !== "number" || !(timeout > 0 && Number.isFinite(timeout))) {
      throw errorOf("invalid_value", `connect: timeout must be a finite number of seconds above 0, got ${shown(timeout)}`);
    }
    this.target = { url, socket: url ? undefined : socket ?? defaultSocket(), WebSocket, timeout };
    this.reconnect = reconnect;
    this.restoreOffsets = restoreOffsets;
    this.timeout = timeout;
    this.welcome = {};
  }

  get features() { return [...(this.welcome.features ?? [])]; }
  get connected() { return this.#transport !== null; }

  // --- requests ----------------------------------------------------------------------------

  configure(container, settings = {}) { return this.#callWith("configure", container, settings, null); }
  scrollTo(container, target = {}) { return this.#callWith("scrollTo", container, target, SCROLL_TO_OPTIONS); }
  scrollBy(container, delta = {}) { return this.#callWith("scrollBy", container, delta, SCROLL_BY_OPTIONS); }
  pause(container) { return this.#call({ op: "pause", container }); }
  resume(container) { return this.#call({ op: "resume", container }); }
  focus(container) { return this.#call({ op: "focus", container }); }
  remove(container) { return this.#call({ op: "remove", container }); }
  /** The container's state (as a subscription yields it, without `resumed`). */
  async get(container) { return strip(await this.#call({ op: "get", container })); }
  async devices() { return strip(await this.#call({ op: "devices" })); }
  async reload() { return strip(await this.#call({ op: "reload" })); }

  /** The round trip of a ping, in milliseconds. */
  async ping() {
    const start = performance.now();
    await this.#call({ op: "ping" });
    return performance.now() - start;
  }

  /** A container's states, as an async iterator (`wait`: for a container not there yet). */
  subscribe(container, options = {}) {
    const { rate, wait } = checkedOptions("subscribe", options, SUBSCRIBE_OPTIONS);
    const request = { op: "subscribe", container };
    if (rate !== undefined) request.rate = rate;
    if (wait) request.wait = true;
    return new Stream(this, "subscribe", request);
  }

  /** Changes of a value (`of`: "contentOffset.y", "visibleRows"…), as an async iterator. */
  observe(container, of, options = {}) {
    const { wait, ...rest } = checkedOptions("observe", options, null);
    const request = { op: "observe", container, of, ...rest };
    if (wait) request.wait = true;
    return new Stream(this, "observe", request);
  }

  /** Ends the connection (and any reconnection); iterators end quietly. A connection lost
   *  otherwise, and not resumed (`reconnect` off), makes them throw DisconnectedError. */
  close() {
    this.#closing = true;
    const transport = this.#transport;
    this.#transport = null;
    transport?.close();
    this.#disconnected(null);
  }

  // --- streams (Stream calls these) --------------------------------------------------------

  async _openStream(stream) {
    if (stream.kind === "subscribe") {
      const others = this.#subscriptions.get(stream.container) ?? [];
      const other = others.find((s) => s.request.rate !== stream.request.rate);
      if (other) {
        // Ended here too, so that a draw loop that only polls meets the refusal.
        const error = errorOf("invalid_value", `${stream.container} is already followed on this client at rate ${other.request.rate} (one subscription per container and connection)`);
        stream.end(error);
        throw error;
      }
    }
    try {
      await this.#call(stream.request, stream);
    } catch (error) {
      this.#drop(stream);
      stream.end(error);
      throw error;
    }
  }

  async _closeStream(stream) {
    stream.end();
    if (stream.kind === "subscribe") {
      const streams = (this.#subscriptions.get(stream.container) ?? []).filter((s) => s !== stream);
      if (streams.length) {
        this.#subscriptions.set(stream.container, streams);
        return;
      }
      this.#subscriptions.delete(stream.container);
      if (this.connected) await this.#call({ op: "unsubscribe", container: stream.container }).catch(() => {});
    } else {
      const id = stream.request.id;
      this.#observations.delete(id);
      if (this.connected) {
        this.#transport.send(encode({ op: "unobserve", id }));
      }
    }
  }

  // --- the connection ----------------------------------------------------------------------

  async _start() {
    this.#adopt(...(await this.#open()));
  }

  /** A transport and its welcome (or the refusal's typed error, `explain`ed: see openTransport). */
  async #open(explain = true) {
    const transport = await openTransport({ ...this.target, explain });
    const welcome = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(errorOf("timeout", `no welcome within ${this.timeout} s`)), this.timeout * 1000);
      transport.onLine = (line) => {
        clearTimeout(timer);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          reject(errorOf("bad_reply", `not JSON: ${line.slice(0, 200)}`));
          return;
        }
        if (message.type === "error") reject(ScrolldError.from(message));
        else if (message.type !== "welcome") reject(errorOf("bad_reply", `expected a welcome, got ${message.type}`));
        else resolve(message);
      };
      transport.onClose = (error) => {
        clearTimeout(timer);
        reject(error ?? errorOf("disconnected", "scrolld closed the connection before its welcome"));
      };
    }).catch((error) => {
      transport.close();
      throw error;
    });
    return [transport, welcome];
  }

  #adopt(transport, welcome) {
    this.#transport = transport;
    this.welcome = welcome;
    this.#instance = welcome.instance ?? null;
    transport.onLine = (line) => this.#dispatchLine(line);
    transport.onClose = (error) => this.#lost(transport, error);
  }

  #lost(transport, error) {
    if (this.#transport !== transport) return;  // close() let this one go; its iterators ended quietly
    this.#transport = null;
    const reconnecting = this.reconnect && !this.#closing;
    // Not resumed: requests and iterators throw, as Python's raise `disconnected`.
    this.#disconnected(error ?? new DisconnectedError(`scrolld at ${this.target.url ?? this.target.socket} went away`), reconnecting);
    if (reconnecting) this.#reconnect();
  }

  async #reconnect() {
    let delay = FIRST_RETRY;
    while (!this.#closing) {
      await new Promise((resolve) => setTimeout(resolve, delay * 1000));
      delay = Math.min(delay * 2, LAST_RETRY);
      let opened;
      try {
        opened = await this.#open(false);
      } catch {
        continue;
      }
      if (this.#closing) {
        opened[0].close();
        return;
      }
      const [transport, welcome] = opened;
      const newDaemon = (welcome.instance ?? null) === null || welcome.instance !== this.#instance;
      this.#adopt(transport, welcome);
      for (const line of this.#restore(welcome, newDaemon)) transport.send(line);
      return;
    }
  }

  /** Fails what waits; streams end with `error` (quietly without), or wait for the new connection. */
  #disconnected(error, reconnecting = false) {
    const failure = error ?? new DisconnectedError("the connection to scrolld ended");
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of pending) entry.reject(failure);
    const streams = [...[...this.#subscriptions.values()].flat(), ...this.#observations.values()];
    if (reconnecting) {
      for (const stream of streams) stream.resuming = true;
      return;
    }
    this.#subscriptions.clear();
    this.#observations.clear();
    for (const stream of streams) stream.end(error);
  }

  /** The lines that bring a new connection where the old one was (docs/design.md §20). */
  #restore(welcome, newDaemon) {
    const lines = [];
    const ignore = () => {};
    const send = (request, op, stream) => lines.push(this.#register(request, { op, stream, resolve: ignore, reject: ignore }));
    for (const { request, op } of this.#memory.requests(welcome, newDaemon, this.restoreOffsets)) send(request, op);
    const wait = (welcome.features ?? []).includes("follow");
    const subscriptions = [...this.#subscriptions.values()].flat();
    this.#subscriptions.clear();
    for (const stream of subscriptions) {
      const { id, ...request } = stream.request;
      send(wait ? { ...request, wait: true } : request, "subscribe", stream);
    }
    const observations = [...this.#observations.values()];
    this.#observations.clear();
    for (const stream of observations) {
      const { id, ...request } = stream.request;
      send(wait ? { ...request, wait: true } : request, "observe", stream);
    }
    return lines;
  }

  /** A request of `op` with `options` as its members, checked first (`checkedOptions`): a
   *  refusal is a rejection, as the daemon's is. */
  #callWith(op, container, options, known) {
    try {
      return this.#call({ op, container, ...checkedOptions(op, options, known) });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #call(request, stream = null) {
    if (!this.#transport) return Promise.reject(new DisconnectedError("not connected to scrolld"));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(errorOf("timeout", `no reply to ${request.op} within ${this.timeout} s`)), this.timeout * 1000);
      const done = {
        op: request.op, stream,
        resolve: (reply) => { clearTimeout(timer); resolve(reply); },
        reject: (error) => { clearTimeout(timer); reject(error); },
      };
      try {
        this.#transport.send(this.#register(request, done));
      } catch (error) {
        done.reject(error);
      }
    });
  }

  /** Gives `request` an id, registers what waits for its reply, and returns its line. */
  #register(request, waiting) {
    const id = this.#ids++;
    const { id: _, ...rest } = request;
    // `id` first: the daemon finds it even in a line it then refuses to read further.
    const withId = { id, ...rest };
    const line = encode(withId);  // throws before anything is registered
    const stream = waiting.stream;
    if (stream) {
      stream.request = withId;
      if (stream.kind === "subscribe") {
        this.#subscriptions.set(stream.container, [...(this.#subscriptions.get(stream.container) ?? []), stream]);
      } else {
        this.#observations.set(id, stream);
      }
    }
    this.#pending.set(id, { ...waiting, request: withId });
    return line;
  }

  // --- messages ----------------------------------------------------------------------------

  #dispatchLine(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    // Not a message at all: no daemon this client can talk to. What waits fails at once with
    // `bad_reply`, as in the Python and C clients, rather than waiting out its timeout; a
    // message of a type this client does not know is passed over (a newer daemon may say more).
    if (message === null || typeof message !== "object" || Array.isArray(message) || typeof message.type !== "string") {
      const transport = this.#transport;
      this.#lost(transport, errorOf("bad_reply", `scrolld sent a line this client cannot read: ${line.slice(0, 200)}`));
      transport?.close();
      return;
    }
    this.#dispatch(message);
  }

  #dispatch(message) {
    const { type, id } = message;
    if (type === "observation") {
      const pending = this.#pending.get(id);
      if (pending?.op === "observe") {
        this.#pending.delete(id);
        pending.resolve(message);
      }
      this.#observations.get(id)?.deliver(message);
      return;
    }
    if (type === "state") this.#memory.noteState(message);
    if (type === "state" && id === undefined) {
      for (const stream of this.#subscriptions.get(message.container) ?? []) stream.deliver(message);
      return;
    }
    if (type === "removed") {
      this.#removed(message.container);
      return;
    }
    if (type === "error" && id === undefined) {
      // A line the daemon could not read as far as its id (too long): the oldest request's.
      const [oldest] = this.#pending.keys();
      if (message.code === "too_large" && oldest !== undefined) this.#fail(oldest, ScrolldError.from(message));
      return;
    }
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (type === "error") {
      this.#pending.set(id, pending);
      this.#fail(id, ScrolldError.from(message));
      return;
    }
    if (type === "state" && pending.op === "subscribe") pending.stream?.deliver(message);
    this.#memory.record(pending);
    pending.resolve(message);
  }

  #fail(id, error) {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (pending.stream) {
      this.#drop(pending.stream);
      pending.stream.end(error);
    }
    pending.reject(error);
  }

  #removed(container) {
    const streams = this.#subscriptions.get(container) ?? [];
    const waiting = streams.filter((s) => s.request.wait);
    if (waiting.length) this.#subscriptions.set(container, waiting);
    else this.#subscriptions.delete(container);
    for (const stream of streams) if (!stream.request.wait) stream.end();
    for (const [id, stream] of this.#observations) {
      if (stream.container === container && !stream.request.wait) {
        this.#observations.delete(id);
        stream.end();
      }
    }
    this.#memory.forget(container);
  }

  #drop(stream) {
    if (stream.kind === "subscribe") {
      const streams = (this.#subscriptions.get(stream.container) ?? []).filter((s) => s !== stream);
      if (streams.length) this.#subscriptions.set(stream.container, streams);
      else this.#subscriptions.delete(stream.container);
    } else {
      this.#observations.delete(stream.request.id);
    }
  }
}

function strip(reply) {
  const { type, id, ...rest } = reply;
  return rest;
}
