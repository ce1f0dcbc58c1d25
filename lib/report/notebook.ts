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
