// Test helper (not part of the public surface): Debian's chromium run headless on a page, the
// console lines it logged, and what it drew. A screenshot's PNG is decoded (IHDR, inflated IDAT,
// the five scanline filters) and its clearly coloured pixels counted, so a test can tell a page
// with charts from one without.
import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import puppeteer, { type Browser } from "puppeteer-core";

/** Debian's chromium binary, or `undefined` when it is not installed. */
export const CHROMIUM: string | undefined = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((p) => {
    try {
      return Deno.statSync(p).isFile;
    } catch {
      return false;
    }
  });

/** Runs headless Chromium (a fresh profile folder, logging to stderr) with `args`. */
export async function chromium(args: string[], profile: string) {
  const out = await new Deno.Command(CHROMIUM!, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      "--enable-logging=stderr",
      "--v=0",
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Console messages Chromium logged (`INFO:CONSOLE` lines: console.*, uncaught errors, failed loads). */
export const consoleLines = (stderr: string): string[] =>
  stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l));

/**
 * Decodes an 8-bit RGB/RGBA PNG (what Chromium writes) and counts pixels that are clearly
 * coloured (max − min channel > 60), i.e. not text, grid or background greys.
 */
export function colouredPixels(
  png: Uint8Array,
): { width: number; height: number; coloured: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let pos = 8;
  let width = 0, height = 0, channels = 0;
  const idat: Uint8Array[] = [];
  while (pos < png.length) {
    const len = view.getUint32(pos);
    const type = new TextDecoder().decode(png.subarray(pos + 4, pos + 8));
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === "IHDR") {
      width = view.getUint32(pos + 8);
      height = view.getUint32(pos + 12);
      assert.equal(data[8], 8, "bit depth 8");
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      assert.ok(channels > 0, `colour type ${data[9]}`);
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(new Uint8Array(idat.flatMap((d) => [...d])));
  const stride = width * channels;
  let prev = new Uint8Array(stride);
  let coloured = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = filter === 0
        ? 0
        : filter === 1
        ? a
        : filter === 2
        ? b
        : filter === 3
        ? (a + b) >> 1
        : pa <= pb && pa <= pc
        ? a
        : pb <= pc
        ? b
        : c;
      cur[i] = (line[i] + pred) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const r = cur[x * channels], g = cur[x * channels + 1], bl = cur[x * channels + 2];
      if (Math.max(r, g, bl) - Math.min(r, g, bl) > 60) coloured++;
    }
    prev = cur;
  }
  return { width, height, coloured };
}

/** Debian's chromium driven by puppeteer-core: headless, no sandbox, GPU or network chatter. */
export async function launchChromium(profile: string): Promise<Browser> {
  return await puppeteer.launch({
    executablePath: CHROMIUM!,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      `--user-data-dir=${profile}`,
    ],
  });
}
