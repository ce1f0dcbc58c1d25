/**
 * Count tools whose description gives an agent (or a retriever) little or
 * nothing to go on.
 *
 * @module
 */

import type { Tool } from "./types.ts";

/** Identifier of a degenerate-description rule, in precedence order `empty`, `stub`, `short`. */
export type DegenerateRuleId = "empty" | "stub" | "short";

/** Default minimum length of a useful description, in Unicode code points after trimming. */
export const DEFAULT_MIN_DESCRIPTION_CHARS = 20;

/**
 * Default stub patterns, tested against the trimmed description.
 * `^Proxy for ` matches descriptions that gateways generate from a tool name
 * ("Proxy for github_create_issue").
 */
export const DEFAULT_STUB_PATTERNS: readonly RegExp[] = [/^Proxy for /];

/** Options of {@linkcode countDegenerateDescriptions}. */
export interface DegenerateRules {
  /**
   * A trimmed description with fewer code points than this is `short`.
   * @default {20}
   */
  readonly minChars?: number;
  /**
   * A trimmed description matching any of these is a `stub`. Strings are
   * compiled with the `u` flag; the `g` and `y` flags of a `RegExp` are
   * dropped so tests are stateless.
   * @default {[/^Proxy for /]}
   */
  readonly stubPatterns?: readonly (string | RegExp)[];
}

/** A rule as echoed in a report. */
export interface DegenerateRuleText {
  /** The rule's identifier, as used in `byRule` and `examples`. */
  readonly id: DegenerateRuleId;
  /** One sentence stating the rule with its parameters, e.g. `fewer than 20 characters ...`. */
  readonly description: string;
}

/** Result of {@linkcode countDegenerateDescriptions}. */
export interface DegenerateCount {
  /** Number of tools with a degenerate description (each tool counted once). */
  readonly count: number;
  /** Number of tools examined. */
  readonly total: number;
  /** Tools attributed to each rule (first matching rule in precedence order); sums to `count`. */
  readonly byRule: { readonly empty: number; readonly stub: number; readonly short: number };
  /** The rules applied, in precedence order, as text for the report. */
  readonly rules: readonly DegenerateRuleText[];
  /** Up to 5 tool ids per rule, sorted (UTF-16 order), of tools attributed to that rule. */
  readonly examples: {
    readonly empty: readonly string[];
    readonly stub: readonly string[];
    readonly short: readonly string[];
  };
}

const EXAMPLES_PER_RULE = 5;

function compileStub(p: string | RegExp): RegExp {
  if (typeof p === "string") return new RegExp(p, "u");
  return new RegExp(p.source, p.flags.replace(/[gy]/g, ""));
}

/** Validated rules: the threshold, the compiled stub patterns and the per-description test. */
interface CompiledRules {
  readonly minChars: number;
  readonly stubs: readonly RegExp[];
  readonly classify: (description: string) => DegenerateRuleId | undefined;
}

function compileRules(rules: DegenerateRules): CompiledRules {
  const minChars = rules.minChars ?? DEFAULT_MIN_DESCRIPTION_CHARS;
  if (!Number.isInteger(minChars) || minChars < 0) {
    throw new RangeError(
      `Cannot count degenerate descriptions as minChars must be a non-negative integer: current value is ${minChars}`,
    );
  }
  const stubs = (rules.stubPatterns ?? DEFAULT_STUB_PATTERNS).map(compileStub);
  const classify = (description: string): DegenerateRuleId | undefined => {
    const text = description.trim();
    if (text === "") return "empty";
    if (stubs.some((re) => re.test(text))) return "stub";
    if ([...text].length < minChars) return "short";
    return undefined;
  };
  return { minChars, stubs, classify };
}

/**
 * The per-description test behind {@linkcode countDegenerateDescriptions}, with
 * the rules validated and compiled once (for callers that judge tools one by
 * one, such as the lint). Not re-exported by `mod.ts`.
 *
 * @param rules Thresholds and stub patterns; see {@linkcode DegenerateRules}.
 * @returns A function giving the first rule (precedence `empty`, `stub`,
 *   `short`) a description matches, or `undefined` when it matches none.
 * @throws {RangeError} When `minChars` is not a non-negative integer.
 * @throws {SyntaxError} When a string stub pattern is not a valid regular expression.
 */
export function degenerateClassifier(
  rules: DegenerateRules = {},
): (description: string) => DegenerateRuleId | undefined {
  return compileRules(rules).classify;
}

/**
 * Count tools with degenerate descriptions.
 *
 * Rules, in precedence order (a tool matching several is counted once, under
 * the first):
 * 1. `empty` — the description is empty or only whitespace;
 * 2. `stub` — the trimmed description matches a stub pattern (default `^Proxy for `);
 * 3. `short` — the trimmed description has fewer than `minChars` (default 20)
 *    Unicode code points.
 *
 * Whitespace is what `String.prototype.trim` removes. `stub` comes before
 * `short` because a stub is the more specific diagnosis ("Proxy for x" is both).
 *
 * @param tools The tools to examine (any order).
 * @param rules Thresholds and stub patterns; see {@linkcode DegenerateRules}.
 * @returns Counts, per-rule counts, the rules as text, and example ids.
 * @throws {RangeError} When `minChars` is not a non-negative integer.
 * @throws {SyntaxError} When a string stub pattern is not a valid regular expression.
 *
 * @example Usage
 * ```ts
 * import { countDegenerateDescriptions } from "./degenerate.ts";
 * const tool = (name: string, description: string) => ({ id: `s:${name}`, server: "s", name, description });
 * const r = countDegenerateDescriptions([
 *   tool("a", "   "),
 *   tool("b", "Proxy for b"),
 *   tool("c", "Too short."),
 *   tool("d", "Read a UTF-8 text file and return its contents."),
 * ]);
 * if (r.count !== 3 || r.byRule.stub !== 1 || r.examples.short[0] !== "s:c") throw new Error("unexpected");
 * ```
 */
export function countDegenerateDescriptions(
  tools: readonly Tool[],
  rules: DegenerateRules = {},
): DegenerateCount {
  const { minChars, stubs, classify } = compileRules(rules);

  const ids: Record<DegenerateRuleId, string[]> = { empty: [], stub: [], short: [] };
  for (const tool of tools) {
    const rule = classify(tool.description);
    if (rule !== undefined) ids[rule].push(tool.id);
  }

  const patternText = stubs.length === 0 ? "(no patterns)" : stubs.map(String).join(", ");
  const examples = (list: string[]) => [...list].sort().slice(0, EXAMPLES_PER_RULE);
  return {
    count: ids.empty.length + ids.stub.length + ids.short.length,
    total: tools.length,
    byRule: { empty: ids.empty.length, stub: ids.stub.length, short: ids.short.length },
    rules: [
      { id: "empty", description: "description is empty or whitespace only" },
      {
        id: "stub",
        description: `trimmed description matches a stub pattern: ${patternText}`,
      },
      {
        id: "short",
        description:
          `trimmed description has fewer than ${minChars} characters (Unicode code points)`,
      },
    ],
    examples: { empty: examples(ids.empty), stub: examples(ids.stub), short: examples(ids.short) },
  };
}
