// How the client reaches the daemon: a browser's WebSocket (docs/design.md §24: one protocol
// line per text message) or, in Node ≥ 18, the Unix socket (JSON Lines, §7). Both hand the
// client whole lines and take whole lines; everything else is the client's (scrolld.js).

import { errorOf } from "./errors.js";

/** The longest request the daemon reads (a longer one closes the connection). */
export const MAX_LINE = 64 * 1024;

/** The default Unix socket: `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`, else `/tmp/scrolld-UID/…`. */
export function defaultSocket() {
  const env = globalThis.process?.env ?? {};
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR}/scrolld/scrolld.sock`;
  return `/tmp/scrolld-${globalThis.process?.getuid?.() ?? 0}/scrolld.sock`;
}

/**
 * Opens a transport: `{ url }` (ws://127.0.0.1:PORT/scrolld) over WebSocket, else
 * `{ socket }` (a path, default `defaultSocket()`) over the Unix socket. Resolves once it is
 * open, with an object `{ send(line), close(), onLine, onClose }` whose callbacks the client sets.
 * `explain`: a refused WebSocket handshake is asked again over HTTP for its reason
 * (`handshakeAnswer`); a reconnection, which only needs to know it failed, does not ask.
 */
export function openTransport({ url, socket, WebSocket: Constructor, timeout = 5, explain = true }) {
  if (url) return openWebSocket(url, Constructor ?? globalThis.WebSocket, timeout, explain);
  return openUnixSocket(socket ?? defaultSocket(), timeout);
}

function openWebSocket(url, Constructor, timeout, explain) {
  if (typeof Constructor !== "function") {
    return Promise.reject(errorOf("unsupported", "no WebSocket in this runtime (Node ≥ 22, or node --experimental-websocket; or pass { WebSocket })"));
  }
  return new Promise((resolve, reject) => {
    let ws;
    try {
      ws = new Constructor(url);
    } catch (error) {
      // A URL the WebSocket refuses outright (not a URL, not ws: or wss:): the caller's value.
      reject(errorOf("invalid_value", `connect: ${JSON.stringify(String(url))} is no WebSocket URL (${error.message})`));
      return;
    }
    let opened = false;
    let settled = false;
    // The first outcome wins: closing a socket that times out reports an error of its own.
    const fail = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const refused = async (detail) => {
      if (settled) return;
      const answer = explain ? await handshakeAnswer(url, timeout).catch(() => null) : null;
      fail(errorOf("not_running", answer ? `no scrolld at ${url}: ${answer}` : `cannot connect to ${url}${detail}${pageHint()}`));
    };
    const timer = setTimeout(() => {
      fail(errorOf("timeout", `cannot connect to ${url} within ${timeout} s`));
      ws.close();
    }, timeout * 1000);
    const transport = {
      onLine: () => {},
      onClose: () => {},
      send(line) { ws.send(line); },
      close() { ws.close(1000); },
    };
    ws.onopen = () => {
      if (settled) {
        ws.close(1000);
        return;
      }
      opened = settled = true;
      clearTimeout(timer);
      resolve(transport);
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") transport.onLine(event.data);
    };
    ws.onclose = (event) => {
      if (!opened) {
        refused(` (closed with ${event.code}${event.reason ? `: ${event.reason}` : ""})`);
        return;
      }
      transport.onClose(event.code === 1008 ? errorOf("forbidden", `scrolld refused the connection (1008)`) : null);
    };
    // A connection that fails before it opens may report only an error (Node's WebSocket does).
    ws.onerror = () => {
      if (!opened) refused("");
    };
  });
}

/**
 * What a page can do about a refused connection, which a browser does not explain (a 403 for an
 * origin not listed, a 404 for a path other than /scrolld and no listener at all look the same
 * to a page): the causes, with the page's own origin, to check against the daemon's log. Empty
 * outside a page (Node asks the handshake again instead: handshakeAnswer).
 */
function pageHint() {
  const origin = globalThis.location?.origin;
  if (typeof origin !== "string" || globalThis.process?.versions?.node) return "";
  const page = origin === "null"
    ? `this page has no origin a daemon can allow (opened from a file? serve it over http and list that origin in [web] origins)`
    : `this page's origin ${origin} is not in [web] origins`;
  return `; the browser does not say why: either no scrolld listens there ([web] listen, read at start), ` +
    `the path is not /scrolld, or ${page}; the daemon's log names a refused origin`;
}

/**
 * Why a WebSocket handshake failed, which the WebSocket API does not tell: the same handshake
 * again over node:http(s), answered "HTTP 404 Not Found: <the daemon's reason>" or "nothing
 * listens (ECONNREFUSED)"; null outside Node (a browser's page may not ask) or when it opens.
 */
async function handshakeAnswer(url, timeout) {
  if (!globalThis.process?.versions?.node) return null;
  let http;
  try {
    http = await import(url.startsWith("wss:") ? "node:https" : "node:http");
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    const headers = {
      Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",  // RFC 6455's sample: nothing is sent after it
    };
    let request;
    try {
      request = http.request(url.replace(/^ws/, "http"), { headers, timeout: timeout * 1000 });
    } catch {
      resolve(null);
      return;
    }
    request.on("response", (response) => {
      let body = "";
      const answer = () => {
        const reason = body.trim().split("\n")[0].slice(0, 200);
        resolve(`HTTP ${response.statusCode} ${response.statusMessage}${reason ? ` (${reason})` : ""}`);
      };
      response.setEncoding("utf8");
      response.on("data", (chunk) => { if (body.length < 1000) body += chunk; });
      response.on("end", answer);
      response.on("error", answer);
    });
    request.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve(null);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", (error) => resolve(error.code === "ECONNREFUSED" ? `nothing listens (${error.code})` : null));
    request.end();
  });
}

async function openUnixSocket(path, timeout) {
  const net = await import("node:net");
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ path });
    let opened = false;
    let buffered = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(errorOf("timeout", `cannot connect to ${path} within ${timeout} s`));
    }, timeout * 1000);
    const transport = {
      onLine: () => {},
      onClose: () => {},
      send(line) { socket.write(line + "\n"); },
      close() { socket.end(); socket.destroy(); },
    };
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      opened = true;
      clearTimeout(timer);
      resolve(transport);
    });
    socket.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        transport.onLine(line);
      }
    });
    socket.on("error", (error) => {
      if (!opened) {
        clearTimeout(timer);
        reject(errorOf("not_running", `scrolld is not running (no daemon at ${path}: ${error.code ?? error.message})`));
      }
    });
    socket.on("close", () => {
      if (opened) transport.onClose(null);
    });
  });
}
