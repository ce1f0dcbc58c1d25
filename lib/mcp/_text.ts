/**
 * Bounded text collectors for capture records (private to lib/mcp).
 *
 * @module
 */

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
