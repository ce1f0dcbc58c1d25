// Flag parsing shared by the task entry points: strict parseArgs, integer and list flags, each
// failure a UsageError naming the flag.
import { parseArgs, type ParseArgsOptionDescriptor, type ParseArgsOptionsConfig } from "node:util";
import { UsageError, userPath } from "../lib/flows/io.ts";

/**
 * One flag's spec: `parseArgs`'s, plus `path` for a flag whose value is a file or folder the
 * user names (`true`, or `{ except }`: words such as `none` that are not paths). A relative
 * path typed means the folder the user ran the task from (lib/core/paths.ts); a default given
 * here stays relative to the repository.
 */
export type FlagSpec = ParseArgsOptionDescriptor & {
  readonly path?: true | { readonly except: readonly string[] };
};

/**
 * Parses command-line flags with `node:util`'s `parseArgs` (strict: unknown flags and missing
 * values are errors), turning a parse error into a {@linkcode UsageError} whose message ends
 * with "(see --help)".
 *
 * @param args The arguments (e.g. `Deno.args`).
 * @param options `parseArgs` option specs, each with `path` when it names a file or folder.
 * @param allowPositionals Accept non-flag arguments (returned as `positionals`); default false;
 *   `"paths"`: accept them as paths, resolved like a `path` flag's.
 * @returns `parseArgs`'s `{ values, positionals }`, each path the user typed resolved from the
 *   folder the task was run from (lib/core/paths.ts `userPath`).
 * A negative number after a string flag is its value (`--seed -1` is `--seed=-1`, so both
 * meet the same check); a string flag at the end, or followed by another flag, is a missing
 * value and says so.
 *
 * @throws {UsageError} On an unknown flag, a missing value, a value given to a boolean flag or
 *   an unexpected positional.
 */
export function parseFlags<
  const O extends Readonly<Record<string, FlagSpec>>,
  const P extends boolean | "paths" = false,
>(
  args: string[],
  options: O,
  allowPositionals?: P,
) {
  const given = withValues(args, options);
  const specs = Object.fromEntries(
    Object.entries(options).map(([name, { path: _, ...spec }]) => [name, spec]),
  ) as O & ParseArgsOptionsConfig;
  try {
    const parsed = parseArgs({
      args: given,
      options: specs,
      strict: true,
      allowPositionals: (allowPositionals !== undefined && allowPositionals !== false) as P extends
        false ? false : true,
    });
    if (allowPositionals === "paths") {
      parsed.positionals.splice(0, Infinity, ...parsed.positionals.map((p) => userPath(p)));
    }
    return parsed;
  } catch (error) {
    const message = (error as Error).message;
    // node:util's text for an unknown flag goes on about positionals: name the flag instead.
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    if (unknown) throw new UsageError(`unknown flag ${unknown[1]} (see --help)`);
    const positional = /^Unexpected argument '([^']+)'/.exec(message);
    if (positional) {
      throw new UsageError(
        `unexpected argument "${positional[1]}": this task takes flags only (see --help)`,
      );
    }
    const noValue = /^Option '(-[^' ]+)[^']*' does not take an argument/.exec(message);
    if (noValue) throw new UsageError(`${noValue[1]} takes no value (see --help)`);
    throw new UsageError(`${message} (see --help)`);
  }
}

/** A negative number: never a flag here (no task has a short flag that is a digit). */
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * The arguments with each `--flag VALUE` whose value is a negative number written
 * `--flag=VALUE`, so that `--seed -1` and `--seed=-1` reach the same check (parseArgs reads
 * `-1` as a flag); a string flag with no value after it is refused here, naming the flag. The
 * value of a `path` flag, in either form, is resolved from the user's folder.
 *
 * @throws {UsageError} `--golden needs a value (see --help)` when the flag ends the line or
 *   is followed by another flag, which is named.
 */
function withValues(args: string[], options: Readonly<Record<string, FlagSpec>>): string[] {
  const out: string[] = [];
  const value = (name: string, v: string) => {
    const path = options[name]?.path;
    return path === undefined || (path !== true && path.except.includes(v)) ? v : userPath(v);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const inline = /^--([^=]+)=(.*)$/s.exec(arg);
    if (inline) {
      out.push(`--${inline[1]}=${value(inline[1], inline[2])}`);
      continue;
    }
    const name = arg.startsWith("--") ? arg.slice(2) : undefined;
    if (name === undefined || options[name]?.type !== "string") {
      out.push(arg);
      continue;
    }
    const next = args[i + 1];
    if (next === undefined) throw new UsageError(`${arg} needs a value (see --help)`);
    if (next.startsWith("-") && next !== "-") {
      if (!NEGATIVE_NUMBER.test(next)) {
        throw new UsageError(
          next.startsWith("--")
            ? `${arg} needs a value, but the next argument is the flag ${next} (see --help)`
            : `${arg} needs a value, but the next argument "${next}" reads as a flag; ` +
              `a value that starts with "-" is written ${arg}=${next}`,
        );
      }
      out.push(`${arg}=${value(name, next)}`);
      i++;
      continue;
    }
    out.push(arg, value(name, next));
    i++;
  }
  return out;
}

/** An integer as people type it on a command line: an optional minus sign and decimal digits. */
const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Parses an integer flag value: decimal digits, optionally after a minus sign (and surrounding
 * blanks); `1e3`, `0x10`, `1.0` and `+5` are refused, though `Number()` reads them as integers.
 *
 * @param name The flag without dashes, for the message (e.g. `timeout-ms`).
 * @param value The raw value, `undefined` when the flag was not given.
 * @param fallback What an absent flag means (`undefined` to let the library default apply).
 * @param min Smallest allowed value (default 0).
 * @returns The integer.
 * @throws {UsageError} When the value is not a safe integer >= `min`, e.g.
 *   `--timeout-ms must be a positive integer, got "abc"`, or past 2^53 - 1
 *   (`--questions is too large: at most 9007199254740991, got "99999999999999999999"`).
 */
export function intFlag<F extends number | undefined>(
  name: string,
  value: string | undefined,
  fallback: F,
  min = 0,
): number | F {
  if (value === undefined) return fallback;
  // Decimal digits only: Number() would also take "1e3", "0x10", "0b1", "1.0" and "+5".
  const n = DECIMAL_INTEGER.test(value.trim()) ? Number(value) : NaN;
  if (Number.isFinite(n) && !Number.isSafeInteger(n) && n > 0) {
    // Digits, but past what a number holds exactly: say so rather than "not an integer".
    throw new UsageError(
      `--${name} is too large: at most ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(value)}`,
    );
  }
  if (!Number.isSafeInteger(n) || n < min) {
    const what = min === 0
      ? "a non-negative integer"
      : min === 1
      ? "a positive integer"
      : `an integer >= ${min}`;
    throw new UsageError(`--${name} must be ${what}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * Parses a comma-separated list flag: items trimmed, empty and repeated items dropped (the
 * first of each kept, in the order given).
 *
 * @param name The flag without dashes, for the message (e.g. `tokenizers`).
 * @param value The raw value, `undefined` when the flag was not given.
 * @param known When given, the allowed items; any other is an error naming them.
 * @returns The items in the order given, or `undefined` when the flag was absent.
 * @throws {UsageError} When the flag names no item at all (`--tokenizers ,`) or an unknown one.
 */
export function listFlag(
  name: string,
  value: string | undefined,
  known?: readonly string[],
): string[] | undefined {
  if (value === undefined) return undefined;
  const items = [...new Set(value.split(",").map((s) => s.trim()).filter((s) => s !== ""))];
  if (items.length === 0) {
    throw new UsageError(
      `--${name} needs at least one comma-separated value, got ${JSON.stringify(value)}`,
    );
  }
  const unknown = known === undefined ? [] : items.filter((i) => !known.includes(i));
  if (unknown.length > 0) {
    throw new UsageError(
      `--${name}: unknown value ${JSON.stringify(unknown[0])} (known: ${known!.join(", ")})`,
    );
  }
  return items;
}

/**
 * Parses an optional real-valued flag.
 *
 * @param name Flag name without dashes (for the message).
 * @param value The flag's value, or undefined when absent.
 * @param min Smallest value allowed.
 * @param max Largest value allowed. @default {Infinity}
 * @returns The number, or undefined when the flag is absent.
 * @throws {UsageError} When the value is not a finite number in [min, max], e.g.
 *   `--alpha must be a number in [1e-9, 0.999999], got "2"`.
 */
export function numberFlag(
  name: string,
  value: string | undefined,
  min: number,
  max = Infinity,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(
      `--${name} must be a number in [${min}, ${max}], got ${JSON.stringify(value)}`,
    );
  }
  return n;
}
