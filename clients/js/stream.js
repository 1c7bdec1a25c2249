// A subscription's states or an observation's changes, as an async iterator. States beyond
// BACKLOG push the oldest out (the daemon's own latest-wins rule: a gap in `seq` shows it).

/** States a subscription keeps for a consumer that falls behind. */
export const BACKLOG = 1024;

export class Stream {
  #items = [];
  #waiters = [];
  #error = null;

  constructor(client, kind, request) {
    this.client = client;
    this.kind = kind;         // "subscribe" or "observe"
    this.request = request;   // sent again, with wait, after a reconnection
    this.ended = false;
    this.resuming = false;
    this.lastValue = null;
    this.started = null;      // the promise of the request, once sent
  }

  get container() { return this.request.container; }

  /** Sends the request (once): resolves when the daemon accepted it, rejects with its error. */
  start() {
    this.started ??= this.client._openStream(this);
    return this.started;
  }

  /** Unsubscribes (or unobserves); iteration then ends. */
  async close() {
    if (!this.ended) await this.client._closeStream(this);
  }

  deliver(message) {
    if (this.ended) return;
    let item;
    if (this.kind === "subscribe") {
      const { type, id, ...state } = message;  // the state, as get gives it
      item = { ...state, resumed: this.resuming };
    } else {
      item = {
        old: this.resuming ? this.lastValue : message.old ?? null,
        new: message.new, seq: message.seq, t: message.t,
        container: message.container, of: message.of, resumed: this.resuming,
      };
      this.lastValue = item.new;
    }
    this.resuming = false;
    const waiter = this.#waiters.shift();
    if (waiter) {
      waiter.resolve({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    if (this.kind === "subscribe" && this.#items.length > BACKLOG) this.#items.shift();
  }

  end(error = null) {
    if (this.ended) return;
    this.ended = true;
    this.#error = error;
    for (const waiter of this.#waiters.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }

  /** The newest item waiting, the others dropped; undefined when nothing waits. The first
   *  call sends the request, as iterating does (a draw loop may only ever poll); a refusal ends
   *  the stream, and the next poll throws it. */
  poll() {
    if (this.started === null && !this.ended) this.start().catch(() => {});
    const item = this.#items.at(-1);
    this.#items.length = 0;
    if (item === undefined && this.ended && this.#error) throw this.#error;
    return item;
  }

  async next() {
    await this.start();
    if (this.#items.length) return { value: this.#items.shift(), done: false };
    if (this.ended) {
      if (this.#error) throw this.#error;
      return { value: undefined, done: true };
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  async return() {
    await this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() { return this; }
}
