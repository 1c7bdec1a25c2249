// The web demo: one container ("web") the size of the window, with a collapsing header and a
// list of rows; every state the daemon publishes is drawn as it is. Wheel, touchpad and
// touchscreen input reach the daemon from libinput, not from the page; the page asks for
// positions (`scrollTo` a row) and draws. Each row's stripe encodes its index in its colour
// (red = index % 256, green = index / 256), which the screenshot test reads back.

import { connect } from "../../clients/js/scrolld.js";

export const HEADER_MIN = 56;
export const HEADER_MAX = 160;
export const ROW = 48;
export const ROWS = 500;

const params = new URLSearchParams(location.search);
const url = params.get("ws") ?? "ws://127.0.0.1:8765/scrolld";
const header = document.getElementById("header");
const rowsBox = document.getElementById("rows");
const status = document.getElementById("status");
const pool = new Map();  // row index -> element, only the rows on screen

function rowElement(index) {
  let element = pool.get(index);
  if (!element) {
    element = document.createElement("div");
    element.className = "row";
    element.style.height = `${ROW}px`;
    element.style.background = index % 2 ? "#ffffff" : "#f2f4f8";
    const stripe = document.createElement("div");
    stripe.className = "stripe";
    stripe.style.background = `rgb(${index % 256}, ${Math.floor(index / 256)}, 128)`;
    element.append(stripe, `Message ${index + 1}`);
    rowsBox.append(element);
    pool.set(index, element);
  }
  return element;
}

/** Draws a state: the header at its published height, the rows at their content positions. */
function draw(state) {
  const y = state.contentOffset.y;
  const headerHeight = state.header?.height ?? HEADER_MAX;
  header.style.height = `${headerHeight}px`;
  const first = Math.max(0, Math.floor((y - HEADER_MAX) / ROW));
  const last = Math.min(ROWS - 1, Math.floor((y + innerHeight - HEADER_MAX) / ROW));
  for (const [index, element] of pool) {
    if (index < first || index > last) {
      element.remove();
      pool.delete(index);
    }
  }
  for (let index = first; index <= last; index++) {
    rowElement(index).style.transform = `translateY(${HEADER_MAX + index * ROW - y}px)`;
  }
  // What is on screen, for a test (or a curious reader of the console).
  window.shown = { y, header: headerHeight, phase: state.phase, seq: state.seq };
  status.textContent = `${state.phase} · y ${y.toFixed(1)}`;
}

// A page that cannot connect says why where it would draw, not only in the console (the
// error's message names what to check: the listener, the path, this page's origin).
const client = await connect({ url, reconnect: true }).catch((error) => {
  status.textContent = `not connected: ${error.message}`;
  window.failure = { name: error.name, code: error.code, message: error.message };
  throw error;
});
window.scrolld = client;
await client.configure("web", {
  containerSize: { width: innerWidth, height: innerHeight },
  contentSize: { width: innerWidth, height: HEADER_MAX + ROWS * ROW },
  header: { minHeight: HEADER_MIN, maxHeight: HEADER_MAX },
  rows: { count: ROWS, height: ROW, top: HEADER_MAX },
});
/** Scrolls so that row `index` sits right under the collapsed header (docs/design.md §12). */
window.scrollToRow = (index, animation) =>
  client.scrollTo("web", { row: index, anchor: "top", ...(animation ? { animation } : {}) });
addEventListener("keydown", (event) => {
  if (event.key === "Home") client.scrollTo("web", { edge: "top" });
  if (event.key === "End") client.scrollTo("web", { edge: "bottom" });
});
for await (const state of client.subscribe("web")) draw(state);
