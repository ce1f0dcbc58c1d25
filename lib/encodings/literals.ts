/**
 * Number literals an arm may not keep as written.
 *
 * A schema's canonical text keeps every number literal exactly as the server
 * wrote it (`0.10`, `1e400`, `9007199254740993`). An arm that goes through a
 * JS number (TOON, a Markdown enum cell, any `JSON.parse` round trip) renders
 * `0.1`, `null` or `9007199254740992` instead: the listing then holds
 * different content, and its token saving compares different things. This
 * module finds the literals a JS number cannot reproduce and checks whether an
 * arm's rendering still contains each one as written.
 *
 * @module
 */
import { type JsonNode, parseJsonLossless } from "../catalog/canonical.ts";
import { countKeys, scanJsonText } from "../catalog/_plain_json.ts";
import type { JsonValue } from "../catalog/types.ts";

/**
 * Candidate number tokens of a canonical (whitespace-free) JSON text: a number
 * always follows `:`, `[` or `,` there. Strings can hold such sequences too, so
 * a hit is confirmed with the lossless parser.
 */
const CANDIDATE = /[:\[,](-?\d[\d.eE+-]*)/g;

/** True when `JSON.stringify(Number(literal))` reproduces `literal` exactly. */
function roundTrips(literal: string): boolean {
  return JSON.stringify(Number(literal)) === literal;
}

function collect(node: JsonNode, out: Set<string>): void {
  switch (node.kind) {
    case "number":
      if (!roundTrips(node.literal)) out.add(node.literal);
      return;
    case "array":
      for (const item of node.items) collect(item, out);
      return;
    case "object":
      for (const member of node.members) collect(member.node, out);
      return;
    default:
      return;
  }
}

/**
 * The number literals of a JSON text that a JS number does not reproduce as
 * written (`0.10` → `0.1`, `1e400` → `null`, `9007199254740993` →
 * `9007199254740992`, `1.0` → `1`, `-0` → `0`, `1E5` → `100000`).
 *
 * A cheap scan of the text decides first; only a text with a candidate is
 * parsed (losslessly), so strings that merely look like numbers never count.
 *
 * @param jsonText A JSON text, typically a tool's canonical `inputSchema`.
 * @returns The distinct fragile literals, in order of first appearance.
 * @throws {SyntaxError} When a text with a candidate is not valid JSON.
 *
 * @example Usage
 * ```ts
 * import { fragileNumberLiterals } from "./literals.ts";
 * const found = fragileNumberLiterals('{"default":0.10,"maximum":5,"x":"1.50"}');
 * if (found.join() !== "0.10") throw new Error(found.join());
 * ```
 */
export function fragileNumberLiterals(jsonText: string): string[] {
  let candidate = false;
  for (const match of jsonText.matchAll(CANDIDATE)) {
    if (!roundTrips(match[1])) {
      candidate = true;
      break;
    }
  }
  if (!candidate) return [];
  // Valid JSON with no repeated key (which the lossless parser rejects): one scan outside the
  // strings finds the same literals in the same order as the lossless tree's walk.
  let value: JsonValue | undefined;
  try {
    value = JSON.parse(jsonText);
  } catch {
    value = undefined;
  }
  if (value !== undefined) {
    const scan = scanJsonText(jsonText, false);
    if (scan.members === countKeys(value)) return [...scan.fragile];
  }
  const out = new Set<string>();
  collect(parseJsonLossless(jsonText), out);
  return [...out];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Why a rendering does not keep a tool's literals as written, or `undefined`
 * when it keeps them all.
 *
 * A literal counts as kept when it appears in `rendered` as a whole number
 * token: not preceded or followed by a digit, `.`, `e`, `E`, `+` or `-`.
 *
 * @param literals The tool's fragile literals ({@linkcode fragileNumberLiterals}).
 * @param rendered The arm's text for the tool.
 * @returns A one-line reason naming the first literals lost, e.g.
 *   `number literals not kept as written: 0.10, 1e400`.
 *
 * @example Usage
 * ```ts
 * import { literalLoss } from "./literals.ts";
 * if (literalLoss(["0.10"], "default: 0.1") === undefined) throw new Error("missed");
 * if (literalLoss(["0.10"], '{"default":0.10}') !== undefined) throw new Error("false alarm");
 * ```
 */
export function literalLoss(literals: readonly string[], rendered: string): string | undefined {
  const lost = literals.filter((literal) =>
    !new RegExp(`(?<![\\d.eE+-])${escapeRegExp(literal)}(?![\\d.eE+-])`).test(rendered)
  );
  if (lost.length === 0) return undefined;
  const shown = lost.slice(0, 3).join(", ") +
    (lost.length > 3 ? `, … (${lost.length} in all)` : "");
  return `number literals not kept as written: ${shown}`;
}
