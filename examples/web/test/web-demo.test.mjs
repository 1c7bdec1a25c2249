// The web demo (examples/web) in headless Chromium against a real daemon, checked on
// screenshots as the windowed demo is: the header as tall as the published state says, and
// the row under any pixel the one the published offset puts there (each row's stripe encodes
// its index in its colour). Chromium comes from apt (`make test-js` installs it when missing).
import assert from "node:assert/strict";
import { createReadStream, existsSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";

import { connect } from "../../../clients/js/scrolld.js";
import { Daemon, freePort, waitFor } from "../../../clients/js/testing/daemon.mjs";
import { Chromium, chromiumBinary } from "../testing/chromium.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const [WIDTH, HEIGHT] = [480, 640];
const [HEADER_MIN, HEADER_MAX, ROW] = [56, 160, 48];
const HEADER_BLUE = [40, 90, 200];
const STRIPE_X = 3;

const skip = typeof WebSocket !== "function" ? "no WebSocket in this Node (--experimental-websocket, or Node ≥ 22)"
  : !chromiumBinary() ? "no chromium (make test-js installs it)" : false;

/** The repository's files over HTTP, as a page's origin (GET only, nothing outside the tree). */
function serveRepository(port) {
  const types = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript" };
  const server = createServer((request, response) => {
    const file = path.join(repo, decodeURIComponent(new URL(request.url, "http://x").pathname));
    if (!file.startsWith(repo + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": types[path.extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

/** Checks a screenshot against a state at offset `y`; the header's measured height. */
function check(image, y) {
  let header = 0;
  while (header < image.height && image.pixel(WIDTH - 10, header).join() === HEADER_BLUE.join()) header++;
  assert.equal(header, Math.round(Math.max(HEADER_MIN, HEADER_MAX - y)), `the header at y = ${y}`);
  // The middle of every row on screen below the header shows that row's stripe.
  const first = Math.floor((header + y - HEADER_MAX) / ROW) + 1;
  for (let index = first; HEADER_MAX + index * ROW - y + ROW / 2 < HEIGHT; index++) {
    const middle = Math.round(HEADER_MAX + index * ROW - y + ROW / 2);
    assert.deepEqual(image.pixel(STRIPE_X, middle), [index % 256, Math.floor(index / 256), 128], `row ${index} at ${middle}`);
  }
  return header;
}

function keep(image, name) {
  const directory = process.env.SCROLLD_SCREENSHOTS;
  if (directory) writeFileSync(path.join(directory, name), image.png);
}

let daemon, server, browser, page;
before(async () => {
  if (skip) return;
  const httpPort = await freePort();
  page = `http://127.0.0.1:${httpPort}`;
  daemon = await Daemon.start({ origins: [page] });
  server = await serveRepository(httpPort);
  browser = await Chromium.launch({ width: WIDTH, height: HEIGHT });
  await browser.send("Emulation.setDeviceMetricsOverride", { width: WIDTH, height: HEIGHT, deviceScaleFactor: 1, mobile: false });
});
after(async () => {
  await browser?.close();
  server?.close();
  await daemon?.cleanup();
});

async function shown(condition, what) {
  return waitFor(async () => {
    const state = await browser.evaluate("window.shown ?? null");
    if (!state || !condition(state)) return null;
    // Two frames: what was drawn is painted.
    await browser.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    return state;
  }, what);
}

test("the page draws the published states: header, rows, scroll to a row", { skip, timeout: 120_000 }, async () => {
  await browser.send("Page.navigate", { url: `${page}/examples/web/index.html?ws=${encodeURIComponent(daemon.url)}` });
  await shown((s) => s.y === 0 && s.phase === "idle", "the page's first state");
  let image = await browser.screenshot();
  assert.equal(check(image, 0), HEADER_MAX);

  // Another client moves the list: the page follows the daemon's state.
  const other = await connect({ socket: daemon.socket });
  await other.scrollTo("web", { y: 300, animation: "none" });
  await shown((s) => s.y === 300, "y = 300 on the page");
  image = await browser.screenshot();
  assert.equal(check(image, 300), HEADER_MIN);
  keep(image, "web-demo.png");

  // The page scrolls to a row: row 40 right under the collapsed header (docs/design.md §12).
  await browser.evaluate("scrollToRow(40, 'none')");
  const target = HEADER_MAX + 40 * ROW - HEADER_MIN;
  await shown((s) => s.y === target, `row 40 at the top (y = ${target})`);
  image = await browser.screenshot();
  check(image, target);
  assert.deepEqual(image.pixel(STRIPE_X, HEADER_MIN + 1), [40, 0, 128]);
  other.close();
});

test("a page from an origin not in web.origins cannot connect", { skip, timeout: 120_000 }, async () => {
  // The same files from another origin (localhost instead of 127.0.0.1: another origin).
  const elsewhere = page.replace("127.0.0.1", "localhost");
  await browser.send("Page.navigate", { url: `${elsewhere}/examples/web/index.html?ws=none` });
  await waitFor(() => browser.evaluate("document.readyState === 'complete'"), "the page to load");
  const outcome = await browser.evaluate(`new Promise((resolve) => {
    const socket = new WebSocket(${JSON.stringify(daemon.url)});
    socket.onopen = () => resolve("open");
    socket.onerror = () => resolve("refused");
  })`);
  assert.equal(outcome, "refused");
  const origin = elsewhere;
  await waitFor(() => daemon.stderr().includes(`origin ${origin} is not in web.origins`), "the refusal in the daemon's log");
});

test("a page that cannot connect says why: the client's error names its origin, the demo shows it", { skip, timeout: 120_000 }, async () => {
  // A browser hides why a handshake failed (a 403 for an origin not listed looks like nothing
  // listening); the client's message lists the causes with the page's own origin.
  const elsewhere = page.replace("127.0.0.1", "localhost");
  await browser.send("Page.navigate", { url: `${elsewhere}/examples/web/index.html?ws=${encodeURIComponent(daemon.url)}` });
  await waitFor(() => browser.evaluate("document.readyState === 'complete'"), "the page to load");
  const tryConnect = (url) => browser.evaluate(`import("/clients/js/scrolld.js")
    .then((m) => m.connect({ url: ${JSON.stringify(url)}, timeout: 10 }))
    .then((client) => { client.close(); return "connected"; }, (error) => error.name + ": " + error.message)`);
  const refused = await tryConnect(daemon.url);
  assert.match(refused, /^NotRunningError: cannot connect to ws:/);
  assert.ok(refused.includes(`this page's origin ${elsewhere} is not in [web] origins`), refused);
  assert.ok(refused.includes("the path is not /scrolld") && refused.includes("[web] listen"), refused);

  // The demo itself: not "connecting…" for ever, but the reason where it draws.
  const failure = await waitFor(() => browser.evaluate("window.failure ?? null"), "the demo to give up", 10_000);
  assert.equal(failure.name, "NotRunningError");
  const status = await browser.evaluate("document.getElementById('status').textContent");
  assert.ok(status.startsWith("not connected: cannot connect to") && status.includes(elsewhere), status);
});
