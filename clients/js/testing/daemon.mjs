// A real scrolld for the tests: a private directory, socket and config (the WebSocket
// listener on a free loopback port), started, killed and started again on the same socket.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** A deadline that only catches a hang. */
export const DEADLINE = 30_000;

export function scrolldBin() {
  return process.env.SCROLLD_BIN || path.join(repo, ".build", "debug", "scrolld");
}

export async function waitFor(condition, what, deadline = DEADLINE) {
  const end = Date.now() + deadline;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${deadline} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export class Daemon {
  static async start(options = {}) {
    const daemon = new Daemon(options);
    daemon.port = await freePort();
    await daemon.start();
    return daemon;
  }

  constructor({ origins = [] } = {}) {
    this.directory = mkdtempSync(path.join(tmpdir(), "sdjs-"));
    this.socket = path.join(this.directory, "s.sock");
    this.origins = origins;
    this.log = path.join(this.directory, "quiet.scrolllog");
    const header = { format: "scrolld-events", version: 1, created: "2026-11-27T00:00:00Z", source: "js client tests" };
    const device = { t: 1000000, dev: 1, type: "device_added", name: "Test Wheel", caps: ["wheel"] };
    writeFileSync(this.log, JSON.stringify(header) + "\n" + JSON.stringify(device) + "\n");
    this.starts = 0;
  }

  get url() { return `ws://127.0.0.1:${this.port}/scrolld`; }

  async start() {
    const binary = scrolldBin();
    if (!existsSync(binary)) throw new Error(`no scrolld at ${binary}: build it (make test does) or set SCROLLD_BIN`);
    this.starts += 1;
    this.config = path.join(this.directory, "scrolld.toml");
    const origins = this.origins.map((o) => JSON.stringify(o)).join(", ");
    writeFileSync(this.config, `[web]\nlisten = "127.0.0.1:${this.port}"\norigins = [${origins}]\n`);
    this.stderrPath = path.join(this.directory, `scrolld-${this.starts}.stderr`);
    const stderr = openSync(this.stderrPath, "w");
    this.process = spawn(binary, ["run", "--replay", this.log, "--socket", this.socket, "--config", this.config,
      "--set", "daemon.realtime_priority=0"], { stdio: ["ignore", "ignore", stderr] });
    this.exited = new Promise((resolve) => this.process.on("exit", resolve));
    await waitFor(() => this.#accepts(), `scrolld to listen on ${this.socket} and ${this.url}`);
  }

  stderr() { return readFileSync(this.stderrPath, "utf8"); }

  #accepts() {
    if (this.process.exitCode !== null) throw new Error(`scrolld exited: ${this.stderr()}`);
    return new Promise((resolve) => {
      const probe = net.createConnection({ port: this.port, host: "127.0.0.1" });
      probe.on("connect", () => { probe.destroy(); resolve(this.stderr().includes("listening for WebSocket")); });
      probe.on("error", () => resolve(false));
    });
  }

  async kill() {
    this.process.kill("SIGKILL");
    await this.exited;
  }

  async stop() {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill("SIGTERM");
      await this.exited;
    }
    return this.process.exitCode;
  }

  async cleanup() {
    await this.stop();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
