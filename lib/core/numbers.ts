/**
 * The one rule for numbers that come from outside (config files, request bodies, run records,
 * provider replies, HTTP headers): a number is usable when it is finite and its magnitude is at
 * most {@linkcode MAX_INPUT_NUMBER}, and, where the field says so, at least a minimum and whole.
 * `JSON.parse` turns `1e999` into `Infinity`, which `JSON.stringify` writes back as `null`, and a
 * finite `1e308` overflows the first sum it enters; both are refused on the field that holds
 * them, with the value as given.
 *
 * @module
 */

/**
 * Largest magnitude of a number read from input: 2^53 − 1, the largest integer a double holds
 * exactly. Past it, counts lose whole units and sums of them can overflow to `Infinity`.
 */
export const MAX_INPUT_NUMBER: number = Number.MAX_SAFE_INTEGER;

/** What a field demands of its number beyond the common rule. */
export interface NumberRule {
  /** Smallest allowed value (inclusive). */
  readonly min?: number;
  /** Largest allowed value (inclusive); never above {@linkcode MAX_INPUT_NUMBER}. */
  readonly max?: number;
  /** Whole numbers only (counts). */
  readonly integer?: boolean;
}

/** A count: a whole number from 0 to {@linkcode MAX_INPUT_NUMBER} (tokens, calls, bytes). */
export const COUNT: NumberRule = { min: 0, integer: true };

/**
 * Why `value` is not a usable number under `rule`, or `undefined` when it is one.
 *
 * @param value Anything (a number read from input).
 * @param rule Extra bounds and whole-ness. @default {{}}
 * @returns One phrase (e.g. `is not finite`, `is below 0`), or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { COUNT, numberProblem } from "./numbers.ts";
 * if (numberProblem(12, COUNT) !== undefined) throw new Error("a count");
 * if (numberProblem(-5, COUNT) === undefined) throw new Error("negative");
 * if (numberProblem(Infinity) === undefined) throw new Error("not finite");
 * if (numberProblem(1e308) === undefined) throw new Error("out of range");
 * ```
 */
export function numberProblem(value: unknown, rule: NumberRule = {}): string | undefined {
  if (typeof value !== "number") return "is not a number";
  if (!Number.isFinite(value)) return "is not finite";
  const max = Math.min(rule.max ?? MAX_INPUT_NUMBER, MAX_INPUT_NUMBER);
  if (Math.abs(value) > MAX_INPUT_NUMBER) {
    return `is out of range (magnitude above ${MAX_INPUT_NUMBER})`;
  }
  if (rule.min !== undefined && value < rule.min) return `is below ${rule.min}`;
  if (value > max) return `is above ${max}`;
  if (rule.integer && !Number.isInteger(value)) return "is not a whole number";
  return undefined;
}

/** A number of a document that breaks the rule: where it is, what it is, and why. */
export interface BadNumber {
  /** Dotted path (`models[2].pricing.inputUsdPerMTok`); `""` for the document itself. */
  readonly field: string;
  /** The value as parsed (`Infinity` for `1e999`). */
  readonly value: number;
  /** Why it is refused ({@linkcode numberProblem}'s phrase). */
  readonly problem: string;
}

/**
 * The first number anywhere in a parsed JSON document that is not finite or is out of range
 * ({@linkcode numberProblem} with no extra bound), in document order; field bounds (a minimum, a
 * whole number) are the document's schema's to check.
 *
 * @param value A parsed JSON value.
 * @returns The offending number, or `undefined` when every number is usable.
 *
 * @example Usage
 * ```ts
 * import { badNumberIn } from "./numbers.ts";
 * const bad = badNumberIn(JSON.parse('{"a": [1, {"b": 1e999}]}'));
 * if (bad?.field !== "a[1].b" || bad.value !== Infinity) throw new Error("unexpected");
 * ```
 */
export function badNumberIn(value: unknown): BadNumber | undefined {
  const walk = (v: unknown, field: string): BadNumber | undefined => {
    if (typeof v === "number") {
      const problem = numberProblem(v);
      return problem === undefined ? undefined : { field, value: v, problem };
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const bad = walk(v[i], `${field}[${i}]`);
        if (bad) return bad;
      }
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        const bad = walk(x, field === "" ? k : `${field}.${k}`);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  return walk(value, "");
}

/**
 * A delay in seconds as HTTP headers give it (RFC 9110 §10.2.3 `delay-seconds`: digits; a
 * decimal fraction is read too, as servers send one) in milliseconds; `undefined` for anything
 * else (`-5`, `1e3`, `Infinity`, `soon`, empty) or past {@linkcode MAX_INPUT_NUMBER} ms.
 *
 * @param text The header value.
 * @returns Milliseconds, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { delaySecondsMs } from "./numbers.ts";
 * if (delaySecondsMs("2") !== 2000 || delaySecondsMs("-5") !== undefined) throw new Error();
 * ```
 */
export function delaySecondsMs(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return undefined;
  const ms = Number(t) * 1000;
  return numberProblem(ms, { min: 0 }) === undefined ? ms : undefined;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/**
 * An HTTP-date in the form servers send (RFC 9110 §5.6.7 IMF-fixdate,
 * `Sun, 06 Nov 1994 08:49:37 GMT`) as epoch ms. `Date.parse` is not used: it reads `-5` as a
 * day in 2001. The two obsolete forms are not read (a caller treats them as absent).
 *
 * @param text The header value.
 * @returns Epoch ms, or `undefined` when it is not such a date (or names no real day and time).
 *
 * @example Usage
 * ```ts
 * import { httpDateMs } from "./numbers.ts";
 * if (httpDateMs("Sun, 06 Nov 1994 08:49:37 GMT") !== 784111777000) throw new Error();
 * if (httpDateMs("-5") !== undefined) throw new Error();
 * ```
 */
export function httpDateMs(text: string): number | undefined {
  const m = IMF_FIXDATE.exec(text.trim());
  if (m === null) return undefined;
  const [day, month, year, h, min, s] = [+m[1], MONTHS.indexOf(m[2]), +m[3], +m[4], +m[5], +m[6]];
  if (h > 23 || min > 59 || s > 60) return undefined;
  const ms = Date.UTC(year, month, day, h, min, s);
  // 31 Feb rolls over in Date.UTC: such a date is not one.
  return new Date(ms).getUTCDate() === day ? ms : undefined;
}
