/**
 * Bounded text collectors for capture records (private to lib/mcp).
 *
 * @module
 */

import { clip } from "../core/text.ts";

/** Lines of a stderr tail that say nothing on their own: stack frames, Node's version, brackets. */
const NOISE_LINE = /^(?:at\s|Node\.js v\d|\^+$|[\s{}[\](),;]*$|\.\.\.$)/;
/** A line naming an error: "Error: ...", "TypeError ...", "fatal error: ...", "... Exception". */
const ERROR_LINE = /error|exception/i;
/** A line saying that something is missing or refused, without the word "error". */
const PROBLEM_LINE =
  /\b(?:cannot|can't|could not|couldn't|unable|failed|not found|not set|missing|refused|denied|invalid|requires?)\b/i;

/**
 * Keeps the last `maxChars` characters of a growing text (a stderr tail), and the last whole
 * line naming an error, which may have scrolled out of the tail (a long list of paths after it).
 */
export class TailBuffer {
  #text = "";
  #dropped = 0;
  #line = "";
  #errorLine: string | undefined;
  readonly #max: number;

  /** @param maxChars How many trailing characters to keep. */
  constructor(maxChars: number) {
    this.#max = maxChars;
  }

  /** Appends a chunk, dropping the oldest characters beyond the limit. */
  push(chunk: string): void {
    const lines = (this.#line + chunk).split("\n");
    // The unfinished line waits for its end; one without an end for long is cut.
    this.#line = lines.pop()!.slice(0, 1_000);
    for (const l of lines) {
      const line = l.replace(/\s+/g, " ").trim();
      if (ERROR_LINE.test(line) && !NOISE_LINE.test(line)) this.#errorLine = clip(line, 1_000);
    }
    this.#text += chunk;
    if (this.#text.length > this.#max) {
      this.#dropped += this.#text.length - this.#max;
      this.#text = this.#text.slice(this.#text.length - this.#max);
    }
  }

  /** The last whole line pushed that names an error ({@linkcode stderrGist}'s first choice). */
  get errorLine(): string | undefined {
    return this.#errorLine;
  }

  /** The kept text, prefixed with `...` when older text was dropped. */
  toString(): string {
    return this.#dropped > 0 ? `...${this.#text}` : this.#text;
  }
}

/**
 * Collects warnings up to a limit, then counts the rest.
 */
export class WarningSink {
  readonly #items: string[] = [];
  #suppressed = 0;
  readonly #max: number;

  /** @param max How many warnings to keep verbatim. */
  constructor(max: number) {
    this.#max = max;
  }

  /** Adds one warning (kept while under the limit, counted otherwise). */
  add(message: string): void {
    if (this.#items.length < this.#max) this.#items.push(message);
    else this.#suppressed += 1;
  }

  /** The kept warnings, plus one line counting the suppressed ones. */
  list(): string[] {
    return this.#suppressed === 0
      ? [...this.#items]
      : [...this.#items, `${this.#suppressed} more warning(s) not shown`];
  }

  readonly #notes = new Set<string>();

  /** Adds a note: mcpmeter's own text about the capture, no fault of the server (kept once). */
  note(message: string): void {
    this.#notes.add(message);
  }

  /** `{ notes }` when there are any, else `{}` (a record's optional field). */
  notesField(): { notes?: string[] } {
    return this.#notes.size === 0 ? {} : { notes: [...this.#notes] };
  }
}

/**
 * The line of a failed server's stderr that best says why it failed: the last line naming an
 * error (in the tail, else `earlierError`, one that scrolled out of it), else the tail's last
 * line saying something is missing or refused, else its last line with content; stack frames,
 * Node's version banner and lone brackets are passed over.
 *
 * @param tail The kept end of the server's stderr.
 * @param earlierError The last line naming an error seen before the tail ({@linkcode TailBuffer}).
 * @param max Maximum length in characters. @default {200}
 * @returns One line, or `""` when there is no line with content.
 */
export function stderrGist(tail: string, earlierError?: string, max = 200): string {
  const lines = tail.split(/\r?\n/).map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l !== "" && !NOISE_LINE.test(l));
  const line = lines.findLast((l) => ERROR_LINE.test(l)) ?? earlierError ??
    lines.findLast((l) => PROBLEM_LINE.test(l)) ?? lines.at(-1) ?? "";
  return clip(line, max);
}
