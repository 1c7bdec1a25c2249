#!/usr/bin/env node
// `make bench`: the latency from an input event to its state's message, at a WebSocket client
// (what a page gets, docs/design.md §24) beside a Unix socket client, in the same run of
// `scrolld run --replay` and for the same states: a log of 1 kHz two-finger drags
// (drag-log.py), both clients subscribed to `main`, each state's arrival (CLOCK_MONOTONIC,
// process.hrtime) minus its `t` (the input event's instant, on the same clock).
//
//   node --experimental-websocket Benchmarks/scripts/web-latency.mjs SCROLLD [DRAGS]
//
// Prints a markdown table: per transport, the input states received and their latency's
// median, 99th percentile and maximum, in µs. Node's own JSON parsing is in both figures.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [binary, dragsText = "10"] = process.argv.slice(2);
if (!binary || typeof WebSocket !== "function") {
  console.error("usage: node --experimental-websocket web-latency.mjs SCROLLD [DRAGS]");
  process.exit(2);
}
const drags = Number(dragsText);
const here = path.dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), "web-latency-"));
const leadMs = 2000;

const log = path.join(work, "drags.scrolllog");
writeFileSync(log, execFileSync("python3", [path.join(here, "drag-log.py"), String(drags), String(leadMs)]));
const port = await new Promise((resolve) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const config = path.join(work, "scrolld.toml");
writeFileSync(config, `[web]\nlisten = "127.0.0.1:${port}"\n`);
const socketPath = path.join(work, "s.sock");
const daemon = spawn(binary, ["run", "--replay", log, "--socket", socketPath, "--config", config], { stdio: ["ignore", "ignore", "pipe"] });
let daemonLog = "";
daemon.stderr.on("data", (chunk) => { daemonLog += chunk; });
while (!daemonLog.includes("listening for WebSocket")) {
  if (daemon.exitCode !== null) throw new Error(`scrolld exited: ${daemonLog}`);
  await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Latencies (ns) of the input states (phase interacting) one client received. */
function recorder() {
  const latencies = [];
  return {
    latencies,
    line(text) {
      const arrival = process.hrtime.bigint();
      const message = JSON.parse(text);
      if (message.type === "state" && message.phase === "interacting") {
        latencies.push(Number(arrival - BigInt(message.t) * 1000n));
      }
    },
  };
}

const unix = recorder();
const socket = net.createConnection({ path: socketPath });
socket.setEncoding("utf8");
let buffered = "";
socket.on("data", (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf("\n")) >= 0) {
    unix.line(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
  }
});
socket.write('{"op":"subscribe","container":"main","id":1}\n');

const web = recorder();
const ws = new WebSocket(`ws://127.0.0.1:${port}/scrolld`);
await new Promise((resolve) => { ws.onopen = resolve; });
ws.onmessage = (event) => web.line(event.data);
ws.send('{"op":"subscribe","container":"main","id":1}');

// The drags (500 ms each, 500 ms apart) after the lead-in, then their flings' rest.
await new Promise((resolve) => setTimeout(resolve, leadMs + drags * 1000 + 3000));
socket.destroy();
ws.close();
daemon.kill("SIGTERM");
rmSync(work, { recursive: true, force: true });

function row(name, latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1000).toFixed(0);
  return `| ${name} | ${sorted.length} | ${at(0.5)} | ${at(0.99)} | ${(sorted.at(-1) / 1000).toFixed(0)} |`;
}
console.log("| client | input states | median µs | p99 µs | max µs |");
console.log("|---|---|---|---|---|");
console.log(row("Unix socket (JSON lines)", unix.latencies));
console.log(row("WebSocket (`[web] listen`)", web.latencies));
