/**
 * The one layout of every `deno task NAME --help`: a usage line, a one-line purpose, what the
 * task does in more words (optional), its options, its exit codes, then notes (examples,
 * rules). One function writes it, so the tasks cannot drift apart; `tasks/permissions_test.ts`
 * checks every task's printed help against {@linkcode HELP_LAYOUT}.
 *
 * @example Usage
 * ```ts
 * import { helpText } from "./help.ts";
 * const text = helpText({
 *   usage: "synth --tools N [options]",
 *   purpose: "A synthetic tool catalog drawn from the reference corpus.",
 *   options: "  --tools N   number of tools (required)",
 *   exitCodes: "0 written, 2 bad input",
 * });
 * if (!text.startsWith("Usage: deno task synth --tools N [options]\n\nA synthetic")) {
 *   throw new Error(text);
 * }
 * ```
 *
 * @module
 */

/** What a task's help says; each part is plain text, options already aligned. */
export interface HelpParts {
  /** After `deno task `: `bench [options]`; several lines for several forms. */
  readonly usage: string | readonly string[];
  /** What the task is for, in one line. */
  readonly purpose: string;
  /** More about what it does and writes (paragraphs). */
  readonly about?: string;
  /** Option lines, each flag indented by two spaces; `-h, --help` is added at the end. */
  readonly options: string;
  /** E.g. `0 written, 1 nothing measured, 2 bad input (a flag, a file)`. */
  readonly exitCodes: string;
  /** Examples, rules and other notes, last. */
  readonly notes?: string;
}

/**
 * The help line every task ends its options with, its words in the column most of the task's
 * option lines use (at least two spaces after the flag).
 *
 * @param options The task's option lines.
 * @returns `  -h, --help` and `show this help`, aligned.
 */
export function helpOption(options: string): string {
  const flag = "  -h, --help";
  const uses = new Map<number, number>();
  for (const line of options.split("\n")) {
    const lead = /^( {2}-\S.*? {2,})\S/.exec(line)?.[1].length;
    if (lead !== undefined) uses.set(lead, (uses.get(lead) ?? 0) + 1);
  }
  let column = flag.length + 2;
  let most = 0;
  for (const [at, n] of [...uses].sort((a, b) => a[0] - b[0])) {
    if (n > most) [column, most] = [Math.max(at, flag.length + 2), n];
  }
  return `${flag.padEnd(column)}show this help`;
}

/**
 * What every help text matches: `Usage: deno task NAME`, a blank line, one line of purpose, and
 * later an `Options:` block and an `Exit codes:` line.
 */
export const HELP_LAYOUT: RegExp =
  /^Usage: deno task [a-z:-]+[^\n]*\n(?: {7}deno task [^\n]+\n)*\n[^\n]+\n\n(?:[^]*\n)?Options:\n[^]*\n {2}-h, --help +show this help\n\nExit codes: [^]+$/;

/**
 * Writes a task's help in the shared layout.
 *
 * @param parts What it says.
 * @returns The text (no newline at the end: `console.log` adds it).
 * @throws {Error} When the purpose is not one line, or a part that must not be empty is.
 */
export function helpText(parts: HelpParts): string {
  const usage = typeof parts.usage === "string" ? [parts.usage] : parts.usage;
  if (usage.length === 0 || /\n/.test(parts.purpose) || parts.purpose.trim() === "") {
    throw new Error("a task's help needs a usage line and a one-line purpose");
  }
  const blocks = [
    usage.map((u, i) => `${i === 0 ? "Usage: " : "       "}deno task ${u}`).join("\n"),
    parts.purpose,
    ...(parts.about ? [parts.about.trim()] : []),
    `Options:\n${parts.options.replace(/\n+$/, "")}\n${helpOption(parts.options)}`,
    `Exit codes: ${parts.exitCodes.trim()}`,
    ...(parts.notes ? [parts.notes.trim()] : []),
  ];
  return blocks.join("\n\n");
}
