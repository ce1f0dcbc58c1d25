/**
 * PDF and PNG export by headless Chromium (Debian `chromium`, driven with `puppeteer-core`):
 * a page is loaded from a file, printed to A4 with its print CSS (light colours, charts never cut
 * across pages), or its charts screenshotted one by one. Process edge of lib/report.
 *
 * @module
 */
// puppeteer-core is loaded on first use only: it pulls in `ws`, which reads environment
// variables at load time, and tasks that import lib/report/io.ts without exporting anything
// (gate, report without --pdf/--png) must not need that permission.
import type { Browser } from "puppeteer-core";

/** Where Debian and most distributions install Chromium. */
export const CHROMIUM_PATHS: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

/** The launch flags: headless, no sandbox (containers), no network chatter of its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Chromium is not installed (the message says how to install it). */
export class ChromiumMissingError extends Error {
  /**
   * Builds the one-line message.
   *
   * @param tried Paths looked at.
   */
  constructor(tried: readonly string[]) {
    super(
      `Cannot export a PDF or PNG: no Chromium at ${
        tried.join(", ")
      } (Debian: apt-get install -y chromium, or set CHROMIUM_PATH)`,
    );
    this.name = "ChromiumMissingError";
  }
}

/**
 * The Chromium executable: `CHROMIUM_PATH` when set (and only it), else the first of
 * {@linkcode CHROMIUM_PATHS} that exists.
 *
 * @param env Environment lookup. @default Deno.env.get (when permitted)
 * @returns The path, or `null` when none exists.
 */
export function findChromium(
  env: (name: string) => string | undefined = (n) => {
    try {
      return Deno.env.get(n);
    } catch {
      return undefined;
    }
  },
): string | null {
  // An explicit CHROMIUM_PATH is the only candidate: the user asked for that binary.
  const chosen = env("CHROMIUM_PATH");
  const candidates = chosen ? [chosen] : CHROMIUM_PATHS;
  for (const p of candidates) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* next */ }
  }
  return null;
}

async function withBrowser<T>(fn: (b: Browser) => Promise<T>, executable?: string): Promise<T> {
  const path = executable ?? findChromium();
  if (path === null) {
    let chosen: string | undefined;
    try {
      chosen = Deno.env.get("CHROMIUM_PATH");
    } catch { /* no env permission */ }
    throw new ChromiumMissingError(chosen ? [chosen] : CHROMIUM_PATHS);
  }
  const profile = await Deno.makeTempDir({ prefix: "mcpmeter-chromium-" });
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({
    executablePath: path,
    headless: true,
    pipe: true,
    args: [...CHROMIUM_ARGS, `--user-data-dir=${profile}`],
  });
  try {
    return await fn(browser);
  } finally {
    await browser.close().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** Options of {@linkcode printPdf}. */
export interface PrintPdfOptions {
  /** The page: a `file://` or `http://127.0.0.1` URL. */
  readonly url: string;
  /** PDF file to write. */
  readonly out: string;
  /** Chromium executable. @default findChromium() */
  readonly chromium?: string;
  /** Extra HTTP headers for the page request (e.g. a workbench token). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Prints a page to an A4 PDF with the page's print CSS (`@page`, `break-inside: avoid`),
 * backgrounds included, after the page has loaded and its fonts are ready.
 *
 * @param options URL, output file, Chromium path.
 * @returns Bytes written.
 * @throws {ChromiumMissingError} when Chromium is not installed; Chromium's own errors otherwise.
 */
export async function printPdf(options: PrintPdfOptions): Promise<number> {
  return await withBrowser(async (browser) => {
    const page = await browser.newPage();
    if (options.headers) await page.setExtraHTTPHeaders({ ...options.headers });
    await page.goto(options.url, { waitUntil: "load" });
    await page.emulateMediaType("print");
    await page.evaluate(() => document.fonts.ready);
    const bytes = await page.pdf({
      format: "A4",
      printBackground: true,
      preferCSSPageSize: true,
      displayHeaderFooter: true,
      headerTemplate: "<span></span>",
      footerTemplate:
        `<div style="font:8px system-ui,sans-serif;color:#777;width:100%;text-align:center"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`,
      margin: { top: "12mm", bottom: "14mm", left: "12mm", right: "12mm" },
    });
    await Deno.writeFile(options.out, bytes);
    return bytes.length;
  }, options.chromium);
}

/**
 * Screenshots every chart and table of a rendered page (`figure.viz` with a `data-name`) to
 * `<dir>/<name>.png` at 2× scale on a white background.
 *
 * @param options Page URL, output folder, Chromium path.
 * @returns The names written, in page order.
 * @throws {ChromiumMissingError} when Chromium is not installed.
 */
export async function screenshotFigures(
  options: { readonly url: string; readonly dir: string; readonly chromium?: string },
): Promise<string[]> {
  return await withBrowser(async (browser) => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 2 });
    await page.goto(options.url, { waitUntil: "load" });
    await page.addStyleTag({ content: ".export { display: none !important; }" });
    const figures = await page.$$("figure.viz:not(.note)[data-name]");
    const names: string[] = [];
    for (const f of figures) {
      const name = await f.evaluate((el) => (el as HTMLElement).dataset.name ?? "figure");
      const bytes = await f.screenshot({ type: "png", omitBackground: false });
      await Deno.writeFile(`${options.dir}/${name}.png`, bytes);
      names.push(name);
    }
    return names;
  }, options.chromium);
}
