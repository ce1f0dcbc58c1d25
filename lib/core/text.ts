/**
 * One-line messages: what every layer puts in a record or a warning when something failed.
 *
 * @module
 */

/**
 * An error's message on one line, at most `max` characters.
 *
 * @param error Anything thrown.
 * @param max Maximum length in characters (default 300).
 * @returns A single-line description.
 */
export function oneLine(error: unknown, max = 300): string {
  const text = error instanceof Error ? error.message : String(error);
  return clip(text.replace(/\s+/g, " ").trim(), max);
}

/**
 * Cuts a string to at most `max` characters, marking the cut with `...`.
 *
 * @param text Any string.
 * @param max Maximum length in characters (≥ 3).
 * @returns `text` or its clipped form.
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/**
 * A count with its noun, singular for exactly one: `counted(1, "tool")` is `"1 tool"`,
 * `counted(3, "query", "queries")` is `"3 queries"`. The number is written as given (no
 * grouping), so a console line reads the same as before for every other count.
 *
 * @param n The count.
 * @param singular The noun for one.
 * @param plural The noun for any other count (default: `singular` + "s").
 * @returns `"<n> <noun>"`.
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * A duration in the unit that fits it: whole milliseconds under a second, seconds under a
 * minute, minutes under an hour, else hours, one decimal (`38 ms`, `12.3 s`, `4.5 min`, `2.0 h`).
 *
 * @param ms Duration in milliseconds (≥ 0).
 * @returns The text.
 */
export function duration(ms: number): string {
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_597_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/**
 * A line with its control characters written as `\xHH`, for a terminal: text that comes from
 * outside (a server's tool names, a config's keys) could otherwise drive the terminal with an
 * escape sequence (clear it, recolour or hide lines), and a line break would split the line.
 *
 * @param line Any text.
 * @returns The text with every C0 and C1 control character escaped.
 *
 * @example Usage
 * ```ts
 * import { printable } from "./text.ts";
 * if (printable("a\u001b[2Jb\n") !== "a\\x1b[2Jb\\x0a") throw new Error(printable("a\u001b[2Jb\n"));
 * ```
 */
export function printable(line: string): string {
  return line.replace(
    // deno-lint-ignore no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}
