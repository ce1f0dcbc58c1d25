/**
 * The catalog loader's fast path over a file's bytes: `JSON.parse`'s value of the whole file,
 * built from `JSON.parse` of its pieces, so the file's text never exists as one string.
 *
 * A large catalog's text is as big as its file, twice that with one character past U+00FF (the
 * string is then two bytes a character), and the whole-text path holds it beside the parsed
 * value and the file's bytes; here only the bytes and the value are held, and one piece's text
 * at a time. A container (object or array) of more than `chunkBytes` bytes is split: its
 * structure (brackets, commas, colons, whitespace) is checked here and each member's value
 * parsed the same way, each key with `JSON.parse`; anything smaller (a whole server, a whole
 * tool) is decoded and parsed in one call. `JSON.parse` is compositional (a value's parse is
 * the parse of its members' texts, put together in order), so the result is the value of
 * `JSON.parse` of the whole text: same keys in the same order (integer-like keys first, as
 * property creation orders them), same strings, same numbers.
 *
 * The path answers only where the whole-text fast path (`parseJsonPlain`) would: every piece
 * passes its check (number literals as `JSON.stringify` writes them, no repeated key, counted
 * per piece and checked per split object), and the bytes are valid UTF-8 and valid JSON.
 * Otherwise it answers undefined, and the caller decodes the text and takes the whole-text
 * path, which gives the same value or the same error as before.
 *
 * @module
 */
import { countKeys, scanJsonText } from "./_plain_json.ts";
import type { JsonValue } from "./types.ts";

/** Containers of more bytes than this are split into their members. */
export const CHUNK_BYTES = 1 << 18;

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c, MINUS = 0x2d;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

/** Thrown inside the parser when the bytes do not take this path. */
class NotPlain extends Error {}

/**
 * `JSON.parse`'s value of the UTF-8 `bytes` (a leading byte order mark skipped, as
 * `TextDecoder` does), parsed piece by piece, when the bytes are valid UTF-8, valid JSON,
 * repeat no key and hold only number literals that `JSON.stringify` writes back the same;
 * else undefined.
 *
 * @param bytes The file's bytes.
 * @param chunkBytes Containers of more bytes than this are split. @default {CHUNK_BYTES}
 * @returns The value, or undefined (then decode the text and parse it whole).
 */
export function parseJsonPlainBytes(
  bytes: Uint8Array,
  chunkBytes: number = CHUNK_BYTES,
): JsonValue | undefined {
  const parser = new PieceParser(bytes, chunkBytes);
  try {
    let start = 0;
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    start = parser.space(start);
    // The root's size is the file's: no scan to learn whether it is small.
    const [value, end] = parser.value(start, bytes.length - start > chunkBytes);
    if (parser.space(end) !== bytes.length) return undefined;
    return value;
  } catch (e) {
    // Invalid UTF-8 (TypeError), invalid JSON (SyntaxError), a piece the check refuses, or
    // split containers nested past the stack (RangeError; the whole-text path reads them).
    if (
      e instanceof NotPlain || e instanceof SyntaxError || e instanceof TypeError ||
      e instanceof RangeError
    ) {
      return undefined;
    }
    throw e;
  }
}

class PieceParser {
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  /** Members (object keys) of the container the last `valueEnd` closed. */
  members = 0;
  constructor(readonly bytes: Uint8Array, readonly chunkBytes: number) {}

  /** The first index at or after `i` that is not JSON whitespace. */
  space(i: number): number {
    const b = this.bytes;
    while (i < b.length) {
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    return i;
  }

  /** The index after the string opening at `i` (its closing quote is the next unescaped one). */
  stringEnd(i: number): number {
    const b = this.bytes;
    const n = b.length;
    // A loop, not Uint8Array indexOf: most strings are a few bytes, shorter than its call.
    let close = i + 1;
    while (true) {
      while (close < n && b[close] !== QUOTE) close++;
      if (close >= n) throw new NotPlain();
      let slashes = 0;
      while (b[close - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) return close + 1;
      close++;
    }
  }

  /**
   * The index after the value starting at `i`: a string's closing quote, a container's matching
   * bracket (by depth, strings skipped), or a scalar's first delimiter; -1 when a container
   * does not close within `limit` bytes. Valid JSON gives its exact bounds; other bytes some
   * bounds whose pieces the checks then refuse. A container's scan also does the check of
   * `scanJsonText` (lib/catalog/_plain_json.ts) on its bytes: it throws at a number literal
   * that `JSON.stringify` writes otherwise, and leaves the container's member count (strings
   * followed by `:`) in {@linkcode PieceParser.members}.
   */
  valueEnd(i: number, limit: number = Infinity): number {
    const b = this.bytes;
    const c = b[i];
    if (c === QUOTE) return this.stringEnd(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      let depth = 0;
      let members = 0;
      const stop = Math.min(b.length, i + limit);
      for (let j = i; j < stop;) {
        const d = b[j];
        if (d === QUOTE) {
          j = this.space(this.stringEnd(j));
          if (b[j] === COLON) members++;
          continue;
        }
        if (d === MINUS || (d >= 0x30 && d <= 0x39)) {
          let k = j + 1;
          let digitsOnly = true;
          while (k < b.length) {
            const e = b[k];
            if (e >= 0x30 && e <= 0x39) k++;
            // ".", "e", "E", "+", "-": in valid JSON, the run is one literal.
            else if (e === 0x2e || e === 0x65 || e === 0x45 || e === 0x2b || e === MINUS) {
              digitsOnly = false;
              k++;
            } else break;
          }
          // An integer of 1 to 15 digits without a leading zero is exact in a double and
          // written back digit for digit; any other literal is checked as scanJsonText does.
          const first = d === MINUS ? j + 1 : j;
          const digits = k - first;
          const plainInteger = digitsOnly && digits >= 1 && digits <= 15 &&
            (b[first] !== 0x30 || (digits === 1 && first === j));
          if (!plainInteger) {
            const literal = this.#decoder.decode(b.subarray(j, k));
            if (JSON.stringify(Number(literal)) !== literal) throw new NotPlain();
          }
          j = k;
          continue;
        }
        if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
        else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
          if (--depth === 0) {
            this.members = members;
            return j + 1;
          }
        }
        j++;
      }
      if (stop < b.length) return -1;
      throw new NotPlain();
    }
    let j = i;
    while (j < b.length) {
      const d = b[j];
      if (
        d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 0x20 || d === 0x0a ||
        d === 0x0d || d === 0x09
      ) break;
      j++;
    }
    if (j === i) throw new NotPlain();
    return j;
  }

  /**
   * One piece: decoded, parsed and checked as the whole-text path checks a whole text (its
   * number literals, and its key count against its member count, which differ on a repeated
   * key). A container's literals and members were read by `valueEnd`; a scalar's are read here.
   */
  piece(start: number, end: number, members?: number): JsonValue {
    const text = this.#decoder.decode(this.bytes.subarray(start, end));
    const value = JSON.parse(text) as JsonValue;
    if (members === undefined) members = scanJsonText(text, true).members;
    if (members < 0 || members !== countKeys(value)) throw new NotPlain();
    return value;
  }

  /**
   * The value starting at `start` and the index after it: one piece when it is a scalar or a
   * container of at most `chunkBytes` bytes (found by a scan that stops past them), else split
   * into its members, each read the same way, so every byte is scanned about once.
   */
  value(start: number, big = false): [JsonValue, number] {
    const b = this.bytes;
    const open = b[start];
    if (open !== OPEN_BRACE && open !== OPEN_BRACKET) {
      const end = this.valueEnd(start);
      return [this.piece(start, end), end];
    }
    const small = big ? -1 : this.valueEnd(start, this.chunkBytes + 1);
    if (small >= 0) return [this.piece(start, small, this.members), small];
    const close = open === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
    const items: JsonValue[] = [];
    const object: Record<string, JsonValue> = {};
    const out = open === OPEN_BRACE ? object : items;
    let i = this.space(start + 1);
    if (b[i] === close) return [out, i + 1];
    while (true) {
      let key = "";
      if (open === OPEN_BRACE) {
        if (b[i] !== QUOTE) throw new NotPlain();
        const keyEnd = this.stringEnd(i);
        key = JSON.parse(this.#decoder.decode(b.subarray(i, keyEnd))) as string;
        i = this.space(keyEnd);
        if (b[i] !== COLON) throw new NotPlain();
        i = this.space(i + 1);
      }
      if (i >= b.length) throw new NotPlain();
      const [value, valueEnd] = this.value(i);
      if (open === OPEN_BRACKET) items.push(value);
      else if (Object.hasOwn(object, key)) throw new NotPlain();
      else if (key === "__proto__") {
        // An own property, as JSON.parse makes it, not the prototype.
        Object.defineProperty(object, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else object[key] = value;
      i = this.space(valueEnd);
      if (b[i] === COMMA) {
        i = this.space(i + 1);
        continue;
      }
      if (b[i] === close) return [out, i + 1];
      throw new NotPlain();
    }
  }
}
