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
 */
export function openTransport({ url, socket, WebSocket: Constructor, timeout = 5 }) {
  if (url) return openWebSocket(url, Constructor ?? globalThis.WebSocket, timeout);
  return openUnixSocket(socket ?? defaultSocket(), timeout);
}

function openWebSocket(url, Constructor, timeout) {
  if (typeof Constructor !== "function") {
    return Promise.reject(errorOf("not_running", "no WebSocket in this runtime (Node ≥ 22, or node --experimental-websocket; or pass { WebSocket })"));
  }
  return new Promise((resolve, reject) => {
    const ws = new Constructor(url);
    let opened = false;
    const timer = setTimeout(() => {
      ws.close();
      reject(errorOf("timeout", `cannot connect to ${url} within ${timeout} s`));
    }, timeout * 1000);
    const transport = {
      onLine: () => {},
      onClose: () => {},
      send(line) { ws.send(line); },
      close() { ws.close(1000); },
    };
    ws.onopen = () => {
      opened = true;
      clearTimeout(timer);
      resolve(transport);
    };
    ws.onmessage = (event) => {
      if (typeof event.data === "string") transport.onLine(event.data);
    };
    ws.onclose = (event) => {
      clearTimeout(timer);
      if (!opened) {
        reject(errorOf("not_running", `cannot connect to ${url} (closed with ${event.code}${event.reason ? `: ${event.reason}` : ""})`));
        return;
      }
      transport.onClose(event.code === 1008 ? errorOf("forbidden", `scrolld refused the connection (1008)`) : null);
    };
    // A connection that fails before it opens may report only an error (Node's WebSocket does).
    ws.onerror = () => {
      if (opened) return;
      clearTimeout(timer);
      reject(errorOf("not_running", `cannot connect to ${url}`));
    };
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
