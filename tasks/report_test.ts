// deno task report end to end: the dashboard written from synthetic runs opens in headless
// Chromium (Debian's chromium) with no console output, and its screenshot shows coloured chart
// marks. Skipped with a message when chromium is not installed (.ci/run installs it).
import assert from "node:assert/strict";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { writeSyntheticRun } from "../lib/report/_synthetic_runs.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});

async function chromium(args: string[], profile: string) {
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
const consoleLines = (stderr: string) => stderr.split("\n").filter((l) => /:CONSOLE[:(]/.test(l));

/**
 * Decodes an 8-bit RGB/RGBA PNG (what Chromium writes) and counts pixels that are clearly
 * coloured (max − min channel > 60), i.e. not text, grid or background greys.
 */
function colouredPixels(png: Uint8Array): { width: number; height: number; coloured: number } {
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

Deno.test({
  name: "report: the dashboard opens in headless Chromium without console output and draws charts",
  ignore: CHROMIUM === undefined,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "mcpmeter-report-" });
    try {
      for (const [i, day] of ["2025-03-01", "2025-03-02"].entries()) {
        await writeSyntheticRun(join(root, "runs"), {
          runId: `r${i}`,
          startedAt: `${day}T00:00:00Z`,
          cases: ["c1", "c2", "c3"],
          repetitions: 3,
          agents: ["a", "b"].map((id, k) => ({
            id,
            outcome: (c: number, r: number) => ({
              passed: (c + r + k + i) % 3 !== 0,
              costUsd: 0.001 * (k + 1),
              wallMs: 500 + 100 * c,
              tools: ["fs:read"],
            }),
          })),
        });
      }
      const out = join(root, "out", "dashboard.html");
      const r = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("./report.ts", import.meta.url).pathname,
          "--runs",
          join(root, "runs"),
          "--out",
          out,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(r.code, 0, new TextDecoder().decode(r.stderr));

      // Control: the console scan does see errors, so a clean result below means something.
      const bad = join(root, "bad.html");
      await Deno.writeTextFile(bad, "<!doctype html><script>console.error('x')</script>");
      const control = await chromium(["--dump-dom", `file://${bad}`], join(root, "p0"));
      assert.equal(consoleLines(control.stderr).length, 1, control.stderr);

      const dom = await chromium(["--dump-dom", `file://${out}`], join(root, "p1"));
      assert.equal(dom.code, 0, dom.stderr);
      assert.deepEqual(consoleLines(dom.stderr), []);
      // Plot's marks as the browser parsed them: dots, cells, lines and bars.
      for (const mark of ["dot", "cell", "line", "bar"]) {
        assert.ok(dom.stdout.includes(`aria-label="${mark}"`), `no ${mark} mark`);
      }
      assert.ok((dom.stdout.match(/<svg/g) ?? []).length >= 9);

      const shot = join(root, "shot.png");
      const s = await chromium(
        ["--window-size=1280,5000", `--screenshot=${shot}`, `file://${out}`],
        join(root, "p2"),
      );
      assert.equal(s.code, 0, s.stderr);
      assert.deepEqual(consoleLines(s.stderr), []);
      const png = colouredPixels(await Deno.readFile(shot));
      assert.equal(png.width, 1280);
      // Tables and text are grey or black; charts bring the colour (steelblue, the heatmap's
      // red–green scale, series colours). Control: the same page without its charts keeps only
      // the blue links (about 4,600 pixels here against about 35,000 with charts).
      assert.ok(png.coloured > 5000, `only ${png.coloured} coloured pixels`);
      const plain = join(root, "plain.html");
      await Deno.writeTextFile(
        plain,
        (await Deno.readTextFile(out)).replace(/<figure class="chart">[\s\S]*?<\/figure>\n/g, ""),
      );
      const plainShot = join(root, "plain.png");
      await chromium(
        ["--window-size=1280,5000", `--screenshot=${plainShot}`, `file://${plain}`],
        join(root, "p3"),
      );
      const none = colouredPixels(await Deno.readFile(plainShot));
      assert.ok(
        none.coloured * 4 < png.coloured,
        `tables-only page: ${none.coloured} vs ${png.coloured} coloured`,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

if (CHROMIUM === undefined) {
  console.warn("chromium not found (/usr/bin/chromium): dashboard browser test skipped");
}
