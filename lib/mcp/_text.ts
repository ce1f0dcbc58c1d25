/**
 * Small text helpers for messages (private to lib/mcp).
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
 * Keeps the last `maxChars` characters of a growing text (a stderr tail).
 */
export class TailBuffer {
  #text = "";
  #dropped = 0;
  readonly #max: number;

  /** @param maxChars How many trailing characters to keep. */
  constructor(maxChars: number) {
    this.#max = maxChars;
  }

  /** Appends a chunk, dropping the oldest characters beyond the limit. */
  push(chunk: string): void {
    this.#text += chunk;
    if (this.#text.length > this.#max) {
      this.#dropped += this.#text.length - this.#max;
      this.#text = this.#text.slice(this.#text.length - this.#max);
    }
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
}
