// What a reconnection restores (docs/design.md §20), kept from the requests the daemon
// accepted: per container this client configured, its current description and last resting
// offset, and the pauses and the focus it holds. Bounded: one description per container,
// whatever the number of calls.

import { Description } from "./description.js";

export class Memory {
  descriptions = new Map();  // container -> Description, in the order first configured
  offsets = new Map();       // container -> last resting contentOffset
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
    }
  }

  /** Notes a state: a container of this client's at rest is put back there after a restart. */
  noteState(message) {
    if (message.phase === "idle" && this.descriptions.has(message.container)) {
      this.offsets.set(message.container, message.contentOffset);
    }
  }

  /** A removed container is not created again by a reconnection. */
  forget(container) {
    this.descriptions.delete(container);
    this.offsets.delete(container);
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
      if (restoreOffsets && offset) {
        requests.push({ request: { op: "scrollTo", container, x: offset.x ?? 0, y: offset.y ?? 0, animation: "none" }, op: "restore" });
      }
    }
    for (const container of [...this.paused].sort()) requests.push({ request: { op: "pause", container }, op: "pause" });
    if (this.focus !== null && welcome.focus == null) requests.push({ request: { op: "focus", container: this.focus }, op: "restore" });
    return requests;
  }
}
