/**
 * `toon_results`: a pseudo-arm over tool OUTPUTS (not definitions). For each
 * JSON payload a tool returned, what compact JSON costs against TOON, split
 * tabular from non-tabular.
 *
 * @module
 */
import { encode } from "@toon-format/toon";
import type { JsonValue } from "../catalog/types.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { MAX_SKIP_EXAMPLES } from "./types.ts";

/**
 * One recorded `tools/call` result, as frozen in
 * `fixtures/tool_results/results_v1.json` (extra fields are ignored).
 */
export interface ToolResultRecord {
  /** Call id, unique within the file, e.g. `sql-orders`. */
  readonly id: string;
  /** Server (config key) that answered. */
  readonly server: string;
  /** Tool name. */
  readonly tool: string;
  /** `ok` when a result came back; anything else is a failed call. Absent means `ok`. */
  readonly outcome?: string;
  /** The result's `isError` flag. */
  readonly isError?: boolean;
  /** `CallToolResult.content`: the parts a client puts in the model's context. */
  readonly content?: JsonValue;
  /** `CallToolResult.structuredContent`, when sent; not measured (it mirrors the text). */
  readonly structuredContent?: JsonValue;
}

/** One JSON payload taken from a text part of a result. */
export interface ToolResultPayload {
  /** The call id, plus `#<part index>` when the result has several text parts. */
  readonly payloadId: string;
  /** Server that answered. */
  readonly server: string;
  /** Tool name. */
  readonly tool: string;
  /** The text part exactly as the server sent it. */
  readonly text: string;
  /** `JSON.parse(text)`: always an object or an array. */
  readonly value: JsonValue;
}

/** Why a result or text part gave no payload. */
export type ToolResultSkipReason =
  | "call failed"
  | "tool returned isError"
  | "no text content"
  | "text content is not JSON"
  | "JSON text is not an object or array"
  | "TOON encode failed";

/** A skipped result or text part. */
export interface ToolResultSkip {
  /** Call id (with `#<part index>` for a text part of a multi-part result). */
  readonly payloadId: string;
  /** Why it gave no payload. */
  readonly reason: ToolResultSkipReason;
}

/** Skips: total, count per reason, and the first {@linkcode MAX_SKIP_EXAMPLES}. */
export interface ToolResultSkips {
  /** Skipped results or text parts (count). */
  readonly count: number;
  /** Count per reason; only reasons that occurred, keys sorted. */
  readonly byReason: Readonly<Partial<Record<ToolResultSkipReason, number>>>;
  /** The first skips, in input order. */
  readonly examples: readonly ToolResultSkip[];
}

/** Cost of one payload with one tokenizer. */
export interface ToolResultRow {
  /** Payload id (see {@linkcode ToolResultPayload.payloadId}). */
  readonly payloadId: string;
  /** Server that answered. */
  readonly server: string;
  /** Tool name. */
  readonly tool: string;
  /** Tokenizer name, e.g. `o200k_base`. */
  readonly tokenizer: string;
  /** See {@linkcode isTabular}. */
  readonly tabular: boolean;
  /** Tokens of the text as the server sent it (often pretty-printed JSON). Measured. */
  readonly rawTokens: number;
  /** Tokens of `JSON.stringify(value)` (compact JSON). Measured. */
  readonly jsonTokens: number;
  /** Tokens of `encode(value)` from `@toon-format/toon` (default options). Measured. */
  readonly toonTokens: number;
  /**
   * `1 − toonTokens / jsonTokens`, a fraction (0.25 = 25% fewer tokens);
   * positive when TOON is cheaper. `null` when `jsonTokens` is 0. Computed.
   */
  readonly savings: number | null;
}

/** Payload class of a summary line. */
export type ToolResultClass = "tabular" | "non_tabular" | "all";

/** Totals of one class of payloads with one tokenizer. */
export interface ToolResultClassSummary {
  /** Tokenizer name. */
  readonly tokenizer: string;
  /** Which payloads: `tabular`, `non_tabular` or `all`. */
  readonly class: ToolResultClass;
  /** Payloads in the class (count). */
  readonly payloads: number;
  /** Sum of `rawTokens` (tokens). */
  readonly rawTokens: number;
  /** Sum of `jsonTokens` (tokens). */
  readonly jsonTokens: number;
  /** Sum of `toonTokens` (tokens). */
  readonly toonTokens: number;
  /**
   * Pooled savings `1 − Σ toonTokens / Σ jsonTokens`, a fraction; `null`
   * when the class is empty or `Σ jsonTokens` is 0. Computed.
   */
  readonly savings: number | null;
  /** Smallest per-payload `savings` (fraction); `null` when none. Computed. */
  readonly minSavings: number | null;
  /** Largest per-payload `savings` (fraction); `null` when none. Computed. */
  readonly maxSavings: number | null;
}

/** Result of {@linkcode measureToolResults}. */
export interface ToolResultsMeasurement {
  /** Payloads measured (count), whatever the tokenizers. */
  readonly payloadCount: number;
  /** One row per payload × tokenizer: payloads in input order outer, tokenizers inner. */
  readonly rows: readonly ToolResultRow[];
  /** Per tokenizer (input order): `tabular`, `non_tabular`, then `all`. */
  readonly summary: readonly ToolResultClassSummary[];
  /** Results and text parts that gave no payload. */
  readonly skipped: ToolResultSkips;
}

const isPrimitive = (v: JsonValue) => v === null || typeof v !== "object";
const isPlainObject = (v: JsonValue): v is { readonly [k: string]: JsonValue } =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Whether a payload is tabular: its root is a non-empty array of objects that
 * all have the same set of keys and only primitive values (string, number,
 * boolean, null). This is the shape of a SQL result set or a CSV-like listing,
 * and the shape TOON writes as one `[N]{fields}:` header plus one line per row
 * (TOON spec v2, "tabular arrays"). Any other payload, including objects that
 * hold such an array deeper down, is non-tabular.
 *
 * @param value A parsed JSON value.
 * @returns True when tabular as defined above.
 *
 * @example Usage
 * ```ts
 * import { isTabular } from "./toon_results.ts";
 * if (!isTabular([{ a: 1, b: "x" }, { b: "y", a: 2 }])) throw new Error();
 * if (isTabular([{ a: 1 }, { a: [2] }]) || isTabular({ rows: [{ a: 1 }] })) throw new Error();
 * ```
 */
export function isTabular(value: JsonValue): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const first = value[0];
  if (!isPlainObject(first)) return false;
  const keys = Object.keys(first).sort();
  for (const row of value) {
    if (!isPlainObject(row)) return false;
    const rowKeys = Object.keys(row).sort();
    if (rowKeys.length !== keys.length || rowKeys.some((k, i) => k !== keys[i])) return false;
    if (!Object.values(row).every(isPrimitive)) return false;
  }
  return true;
}

class Skips {
  #count = 0;
  readonly #byReason = new Map<ToolResultSkipReason, number>();
  readonly #examples: ToolResultSkip[] = [];

  add(payloadId: string, reason: ToolResultSkipReason): void {
    this.#count++;
    this.#byReason.set(reason, (this.#byReason.get(reason) ?? 0) + 1);
    if (this.#examples.length < MAX_SKIP_EXAMPLES) this.#examples.push({ payloadId, reason });
  }

  summary(): ToolResultSkips {
    return {
      count: this.#count,
      byReason: Object.fromEntries([...this.#byReason.entries()].sort()),
      examples: [...this.#examples],
    };
  }
}

/**
 * The JSON payloads of some results. Each `text` part of a result's `content`
 * whose text parses as a JSON object or array is one payload; other parts
 * (images, resource links) are not text and are ignored. A failed call, an
 * `isError` result, a result with no text part, and a text part that is not
 * JSON (or is a bare JSON string/number/boolean/null) are counted skips.
 *
 * @param results Recorded results, in order.
 * @returns Payloads in input order, and the skips.
 *
 * @example Usage
 * ```ts
 * import { extractPayloads } from "./toon_results.ts";
 * const { payloads, skipped } = extractPayloads([
 *   { id: "a", server: "s", tool: "t", content: [{ type: "text", text: "[1,2]" }] },
 *   { id: "b", server: "s", tool: "t", content: [{ type: "text", text: "hello" }] },
 * ]);
 * if (payloads.length !== 1 || skipped.byReason["text content is not JSON"] !== 1) throw new Error();
 * ```
 */
export function extractPayloads(
  results: readonly ToolResultRecord[],
): { payloads: ToolResultPayload[]; skipped: ToolResultSkips } {
  const skips = new Skips();
  const payloads: ToolResultPayload[] = [];
  for (const r of results) {
    if (r.outcome !== undefined && r.outcome !== "ok") {
      skips.add(r.id, "call failed");
      continue;
    }
    if (r.isError === true) {
      skips.add(r.id, "tool returned isError");
      continue;
    }
    const parts = Array.isArray(r.content) ? r.content : [];
    const texts = parts.flatMap((p, i) =>
      isPlainObject(p) && p.type === "text" && typeof p.text === "string"
        ? [{ index: i, text: p.text }]
        : []
    );
    if (texts.length === 0) {
      skips.add(r.id, "no text content");
      continue;
    }
    for (const { index, text } of texts) {
      const payloadId = texts.length === 1 ? r.id : `${r.id}#${index}`;
      let value: JsonValue;
      try {
        value = JSON.parse(text);
      } catch {
        skips.add(payloadId, "text content is not JSON");
        continue;
      }
      if (isPrimitive(value)) {
        skips.add(payloadId, "JSON text is not an object or array");
        continue;
      }
      payloads.push({ payloadId, server: r.server, tool: r.tool, text, value });
    }
  }
  return { payloads, skipped: skips.summary() };
}

const savings = (json: number, toon: number) => json === 0 ? null : 1 - toon / json;

/**
 * Measures tool-result payloads: compact JSON against TOON, per tokenizer.
 *
 * Payloads come from {@linkcode extractPayloads}. For each payload and
 * tokenizer, the row counts the text as sent (`rawTokens`), compact JSON
 * (`JSON.stringify`, `jsonTokens`) and TOON (`encode` from
 * `@toon-format/toon` with default options: 2-space indent, comma delimiter,
 * `toonTokens`). A payload TOON cannot encode is a counted skip. Savings are
 * `1 − toon / json` (fractions); class summaries pool the sums, so large payloads
 * weigh more. Pure: no I/O, no clock.
 *
 * @param results Recorded `tools/call` results (see {@linkcode ToolResultRecord}).
 * @param tokenizers Tokenizers; one row per payload and tokenizer.
 * @returns Rows, per-class summaries per tokenizer, skips.
 *
 * @example Usage
 * ```ts
 * import { measureToolResults } from "./toon_results.ts";
 * const chars = { name: "chars", count: (t: string) => t.length };
 * const m = measureToolResults(
 *   [{ id: "q", server: "db", tool: "read_query", content: [{ type: "text", text: '[{"a":1},{"a":2}]' }] }],
 *   [chars],
 * );
 * // compact JSON '[{"a":1},{"a":2}]' is 17 chars; TOON "[2]{a}:\n  1\n  2" is 15
 * if (m.rows[0].jsonTokens !== 17 || m.rows[0].toonTokens !== 15 || !m.rows[0].tabular) throw new Error();
 * ```
 */
export function measureToolResults(
  results: readonly ToolResultRecord[],
  tokenizers: readonly Tokenizer[],
): ToolResultsMeasurement {
  const extracted = extractPayloads(results);
  const skips = new Skips();
  const encoded: { payload: ToolResultPayload; json: string; toon: string; tabular: boolean }[] =
    [];
  for (const payload of extracted.payloads) {
    try {
      encoded.push({
        payload,
        json: JSON.stringify(payload.value),
        toon: encode(payload.value),
        tabular: isTabular(payload.value),
      });
    } catch {
      skips.add(payload.payloadId, "TOON encode failed");
    }
  }
  const rows: ToolResultRow[] = [];
  for (const e of encoded) {
    for (const tok of tokenizers) {
      const jsonTokens = tok.count(e.json);
      const toonTokens = tok.count(e.toon);
      rows.push({
        payloadId: e.payload.payloadId,
        server: e.payload.server,
        tool: e.payload.tool,
        tokenizer: tok.name,
        tabular: e.tabular,
        rawTokens: tok.count(e.payload.text),
        jsonTokens,
        toonTokens,
        savings: savings(jsonTokens, toonTokens),
      });
    }
  }
  const summary: ToolResultClassSummary[] = [];
  for (const tok of tokenizers) {
    for (const cls of ["tabular", "non_tabular", "all"] as const) {
      const members = rows.filter((r) =>
        r.tokenizer === tok.name &&
        (cls === "all" || r.tabular === (cls === "tabular"))
      );
      const sum = (f: (r: ToolResultRow) => number) => members.reduce((a, r) => a + f(r), 0);
      const jsonTokens = sum((r) => r.jsonTokens);
      const toonTokens = sum((r) => r.toonTokens);
      const each = members.map((r) => r.savings).filter((s): s is number => s !== null);
      summary.push({
        tokenizer: tok.name,
        class: cls,
        payloads: members.length,
        rawTokens: sum((r) => r.rawTokens),
        jsonTokens,
        toonTokens,
        savings: members.length === 0 ? null : savings(jsonTokens, toonTokens),
        minSavings: each.length === 0 ? null : Math.min(...each),
        maxSavings: each.length === 0 ? null : Math.max(...each),
      });
    }
  }
  return {
    payloadCount: encoded.length,
    rows,
    summary,
    skipped: mergeSkips(extracted.skipped, skips.summary()),
  };
}

function mergeSkips(a: ToolResultSkips, b: ToolResultSkips): ToolResultSkips {
  const byReason: Partial<Record<ToolResultSkipReason, number>> = { ...a.byReason };
  for (const [k, v] of Object.entries(b.byReason) as [ToolResultSkipReason, number][]) {
    byReason[k] = (byReason[k] ?? 0) + v;
  }
  return {
    count: a.count + b.count,
    byReason: Object.fromEntries(Object.entries(byReason).sort()),
    examples: [...a.examples, ...b.examples].slice(0, MAX_SKIP_EXAMPLES),
  };
}
