// What a reconnection restores (docs/design.md §20), kept from the requests the daemon
// accepted: per container this client configured, its current description and last resting
// offset, and the pauses and the focus it holds. Bounded: one description per container,
// whatever the number of calls.

import { Description } from "./description.js";

export class Memory {
  descriptions = new Map();  // container -> Description, in the order first configured
  offsets = new Map();       // container -> last resting contentOffset, or where it was sent
  following = new Set();     // bottom-anchored containers last seen following their end
  owned = new Set();
  paused = new Set();
  focus = null;

  /** Notes a request the daemon accepted. */
  record({ op, request }) {
    const container = request.container;
    if (op === "configure") {
      if (request.owned) this.owned.add(container);
      if (!this.descriptions.has(container)) this.descriptions.set(container, new Description(container));
      this.descriptions.get(container).fold(request);
    } else if (op === "pause") {
      this.paused.add(container);
    } else if (op === "resume") {
      this.paused.delete(container);
    } else if (op === "focus") {
      this.focus = container;
    } else if (op === "remove") {
      this.forget(container);
    } else if (op === "scrollTo") {
      this.#aimed(request);
    }
  }

  /** A scrollTo of this client's rests where it aims, known before it gets there and without a
   *  subscription (as the Python client takes it): an offset on either axis (the daemon clamps
   *  it again when it is put back), or a bottom-anchored container's bottom edge: its end,
   *  following. Where a row or another edge puts it is known from its states only. */
  #aimed(request) {
    const { container } = request;
    if (!this.descriptions.has(container)) return;
    if (request.edge === "bottom" && this.#anchoredAtBottom(container)) {
      this.following.add(container);
      return;
    }
    if ("row" in request || "edge" in request) return;
    const offset = { x: 0, y: 0, ...this.offsets.get(container) };
    for (const axis of ["x", "y"]) if (typeof request[axis] === "number") offset[axis] = request[axis];
    this.offsets.set(container, offset);
    this.following.delete(container);
  }

  #anchoredAtBottom(container) {
    return this.descriptions.get(container)?.settings.anchor === "bottom";
  }

  /** Notes a state: a container of this client's at rest is put back there after a restart;
   *  a bottom-anchored one following its end (within 0.5 px of it, beyond it, or moving towards
   *  it: a log whose rows arrive faster than it settles may never rest) is put back at its new
   *  end, where the daemon's anchor puts it; one moving away from the end still follows until
   *  it rests elsewhere (docs/decisions.md, "Where a client puts a container back"). */
  noteState(message) {
    const { container } = message;
    if (!this.descriptions.has(container)) return;
    if (this.#anchoredAtBottom(container)) {
      if (followsItsEnd(message)) {
        this.following.add(container);
        return;
      }
      if (message.phase !== "idle" && this.following.has(container)) return;
      this.following.delete(container);
    }
    if (message.phase === "idle") this.offsets.set(container, message.contentOffset);
  }

  /** A removed container is not created again by a reconnection. */
  forget(container) {
    this.descriptions.delete(container);
    this.offsets.delete(container);
    this.following.delete(container);
    this.owned.delete(container);
    this.paused.delete(container);
    if (this.focus === container) this.focus = null;
  }

  /** The requests (with the op their reply is taken for) that put a new connection where the
   *  old one was: every container when the daemon is a new one (else the owned ones, which went
   *  with the old connection), at its resting offset unless `restoreOffsets` is off, then the
   *  pauses, and the focus when nobody holds it now. */
  requests(welcome, newDaemon, restoreOffsets) {
    const requests = [];
    for (const [container, description] of this.descriptions) {
      if (!newDaemon && !this.owned.has(container)) continue;
      for (const request of description.lines()) requests.push({ request, op: "restore" });
      const offset = this.offsets.get(container);
      if (restoreOffsets && offset && !this.following.has(container)) {
        requests.push({ request: { op: "scrollTo", container, x: offset.x ?? 0, y: offset.y ?? 0, animation: "none" }, op: "restore" });
      }
    }
    for (const container of [...this.paused].sort()) requests.push({ request: { op: "pause", container }, op: "pause" });
    if (this.focus !== null && welcome.focus == null) requests.push({ request: { op: "focus", container: this.focus }, op: "restore" });
    return requests;
  }
}

/** Whether a bottom-anchored container's state shows it following its end: within 0.5 px of
 *  `hi` or beyond it (a bounce back comes to rest there), or moving towards it. */
function followsItsEnd(state) {
  const insets = state.contentInsets ?? {};
  const lo = -(insets.top ?? 0);
  const hi = Math.max(lo, (state.contentSize?.height ?? 0) + (insets.bottom ?? 0) - (state.containerSize?.height ?? 0));
  const y = state.contentOffset?.y ?? 0;
  return y >= hi - 0.5 || (state.phase !== "idle" && (state.velocity?.y ?? 0) > 0);
}
