// Headless Chromium driven over its DevTools protocol (a WebSocket), for the web demo's test:
// open a page, evaluate in it, take screenshots (PNG, decoded here: 8-bit RGB/RGBA).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";

export function chromiumBinary() {
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
}

export class Chromium {
  static async launch({ width, height }) {
    const browser = new Chromium();
    browser.profile = mkdtempSync(path.join(tmpdir(), "sdweb-chromium-"));
    browser.process = spawn(chromiumBinary(), [
      "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
      "--remote-debugging-port=0", `--user-data-dir=${browser.profile}`, `--window-size=${width},${height}`,
      "--force-device-scale-factor=1", "about:blank",
    ], { stdio: "ignore", detached: true });  // a process group of its own: close() ends its helpers too
    browser.exited = new Promise((resolve) => browser.process.on("exit", resolve));
    const portFile = path.join(browser.profile, "DevToolsActivePort");
    const end = Date.now() + 60_000;
    while (!existsSync(portFile) || readFileSync(portFile, "utf8").split("\n").length < 2) {
      if (Date.now() > end || browser.process.exitCode !== null) throw new Error("chromium did not start");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const port = readFileSync(portFile, "utf8").split("\n")[0];
    const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const page = targets.find((t) => t.type === "page");
    await browser.#attach(page.webSocketDebuggerUrl);
    return browser;
  }

  #socket;
  #ids = 1;
  #waiting = new Map();

  #attach(url) {
    return new Promise((resolve, reject) => {
      this.#socket = new WebSocket(url);
      this.#socket.onopen = resolve;
      this.#socket.onerror = () => reject(new Error(`cannot reach chromium at ${url}`));
      this.#socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        const waiter = this.#waiting.get(message.id);
        if (!waiter) return;
        this.#waiting.delete(message.id);
        if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
        else waiter.resolve(message.result);
      };
    });
  }

  send(method, params = {}) {
    const id = this.#ids++;
    this.#socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
  }

  async evaluate(expression) {
    const result = await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (result.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(result.exceptionDetails)}`);
    return result.result.value;
  }

  async screenshot() {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" });
    return { png: Buffer.from(data, "base64"), ...decodePNG(Buffer.from(data, "base64")) };
  }

  /** Ends the browser and every helper process it started (renderer, GPU, zygote: in its
   *  process group), then removes its profile; a helper may still be writing there as it dies,
   *  hence the retries (which rmSync makes on ENOTEMPTY). */
  async close() {
    this.#socket?.close();
    try {
      process.kill(-this.process.pid, "SIGKILL");
    } catch {
      this.process.kill("SIGKILL");
    }
    await this.exited;
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

/** An 8-bit, non-interlaced RGB or RGBA PNG as `{ width, height, pixel(x, y) -> [r, g, b] }`. */
export function decodePNG(buffer) {
  let offset = 8;
  let width, height, channels;
  const data = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString("ascii", offset + 4, offset + 8);
    const body = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("only 8-bit, non-interlaced PNGs");
      channels = { 2: 3, 6: 4 }[body[9]];
      if (!channels) throw new Error(`PNG colour type ${body[9]}`);
    } else if (type === "IDAT") {
      data.push(body);
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x];
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = a <= b && a <= c ? left : b <= c ? up : upLeft;
      }
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return {
    width, height,
    pixel(x, y) {
      const at = y * stride + x * channels;
      return [pixels[at], pixels[at + 1], pixels[at + 2]];
    },
  };
}
