/**
 * Reads a Markdown table between `<!-- registry:NAME -->` and `<!-- /registry:NAME -->`, so a
 * test can check a README table against the registry it documents (cells compared, not
 * padding, since `deno fmt` aligns columns).
 *
 * @module
 */

/**
 * The body rows of the table inside the named markers, cells trimmed.
 *
 * @param markdown Document text.
 * @param name Marker name, e.g. `retrievers`.
 * @returns One array of cells per body row (header and separator left out).
 * @throws {RangeError} When the markers are missing.
 *
 * @example Usage
 * ```ts
 * import { readmeTable } from "./readme_table.ts";
 * const md = "<!-- registry:x -->\n| a | b |\n| - | - |\n| 1 | 2 |\n<!-- /registry:x -->";
 * if (readmeTable(md, "x")[0].join() !== "1,2") throw new Error();
 * ```
 */
export function readmeTable(markdown: string, name: string): string[][] {
  const open = `<!-- registry:${name} -->`;
  const close = `<!-- /registry:${name} -->`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start === -1 || end === -1 || end < start) {
    throw new RangeError(`Cannot find the "${name}" table: expected ${open} ... ${close}`);
  }
  const lines = markdown.slice(start + open.length, end).split("\n")
    .map((l) => l.trim()).filter((l) => l.startsWith("|"));
  return lines.slice(2).map((l) =>
    l.slice(1, l.endsWith("|") ? -1 : undefined).split(/(?<!\\)\|/).map((c) => c.trim())
  );
}
