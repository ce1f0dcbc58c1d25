/**
 * Display helpers for the Deno Jupyter kernel: wrap a Plot chart or a table so
 * that a notebook cell shows it as SVG or HTML. Outside Jupyter they are inert
 * objects.
 *
 * The kernel calls an object's `Symbol.for("Jupyter.display")` method and
 * shows the returned MIME bundle (Deno manual, "Jupyter kernel", rich display).
 *
 * @module
 */
import * as aq from "arquero";

/** A value the Deno Jupyter kernel renders through its MIME bundle. */
export interface Displayable {
  /** Returns the MIME bundle, e.g. `{ "image/svg+xml": "<svg…" }`. */
  [key: symbol]: () => Record<string, string>;
}

const DISPLAY = Symbol.for("Jupyter.display");

/**
 * Shows a Plot element in a notebook: as `image/svg+xml` when it is a bare
 * SVG, else (a titled `<figure>`) as `text/html`.
 *
 * @param element What a Plot function returned.
 * @returns A displayable object.
 */
export function showPlot(element: Element): Displayable {
  const markup = element.outerHTML;
  return {
    [DISPLAY]: (): Record<string, string> => ({
      [markup.startsWith("<svg") ? "image/svg+xml" : "text/html"]: markup,
    }),
  };
}

/**
 * Shows rows as an HTML table (arquero's `toHTML`), with optional per-column
 * formats.
 *
 * @param rows Row objects; columns come from the first row's keys.
 * @param format Column name → formatter.
 * @returns A displayable object.
 */
export function showTable(
  rows: readonly Record<string, unknown>[],
  format: Record<string, (value: never) => string> = {},
): Displayable {
  const html = aq.from(rows as Record<string, unknown>[]).toHTML({ format: format as never });
  return { [DISPLAY]: () => ({ "text/html": html }) };
}

/** The part of the Deno kernel's `Deno.jupyter` namespace that {@linkcode display} uses. */
export interface JupyterDisplay {
  /** Sends a MIME bundle (with `raw: true`) as a `display_data` message. */
  display(bundle: Record<string, string>, options: { raw: boolean }): Promise<void>;
}

/**
 * Wait after sending output, in ms, before a cell may finish. The Deno kernel
 * can report a cell idle before its queued output is sent, and `nbconvert`
 * then stores no output for it; a short pause lets the queue flush (observed:
 * 1 in 3 headless runs lost a cell's output without it, none in 5 with it).
 */
export const JUPYTER_FLUSH_MS = 30;

/**
 * Shows a chart, table or text in the notebook that runs this code: sends it as
 * `display_data` through the Deno kernel and waits {@linkcode JUPYTER_FLUSH_MS}
 * so the output cannot be lost. Outside Jupyter it does nothing. Notebooks end
 * each cell with `await display(...)`.
 *
 * @param value A {@linkcode Displayable} (from {@linkcode showPlot} or
 *   {@linkcode showTable}) or text.
 * @param jupyter The kernel's display API. @default {Deno.jupyter inside the kernel, else none}
 * @returns When the output was sent (immediately outside Jupyter).
 *
 * @example Usage
 * ```ts
 * import { display, showTable } from "./notebook.ts";
 * const sent: Record<string, string>[] = [];
 * await display(showTable([{ a: 1 }]), { display: async (bundle) => { sent.push(bundle); } });
 * if (!sent[0]["text/html"].includes("<table>")) throw new Error("no table sent");
 * ```
 */
export async function display(
  value: Displayable | string,
  jupyter: JupyterDisplay | undefined = kernelDisplay(),
): Promise<void> {
  if (jupyter === undefined) return;
  const bundle = typeof value === "string" ? { "text/plain": value } : value[DISPLAY]();
  await jupyter.display(bundle, { raw: true });
  await new Promise((resolve) => setTimeout(resolve, JUPYTER_FLUSH_MS));
}

/** `Deno.jupyter` inside the Deno kernel; `undefined` elsewhere (where its getter throws). */
function kernelDisplay(): JupyterDisplay | undefined {
  try {
    return (Deno as unknown as { jupyter?: JupyterDisplay }).jupyter;
  } catch {
    return undefined;
  }
}
