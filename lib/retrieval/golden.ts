/**
 * Golden-set parsers: mcpproxy's benchmark format, BEIR's on-disk format and ToolRet's JSON.
 * All return the same {@linkcode GoldenSet}; BEIR and ToolRet also return their documents.
 *
 * A set with no queries at all throws a {@linkcode GoldenSetError} ("it has no queries").
 * Problems (empty query text, missing or duplicate ids, invalid grades, duplicate labels, a query
 * without any label of grade ≥ 1) throw one {@linkcode GoldenSetError} listing all of them when
 * `strict` (the default); otherwise the query is dropped and counted in `dropped.reasons`.
 *
 * @module
 */

import { parseJsonLossless } from "../catalog/canonical.ts";
import { DropLog } from "./_drops.ts";
import { GoldenSetError } from "./errors.ts";
import type { GoldenSet, Grade } from "./types.ts";

/** Options shared by the golden-set parsers. */
export interface GoldenParseOptions {
  /** Identifier of the set, e.g. `reference_v1.test`. */
  readonly id: string;
  /**
   * Throw on any problem (true) or drop the offending query and count it (false).
   * @default {true}
   */
  readonly strict?: boolean;
}

interface RawQuery {
  readonly where: string;
  readonly id: unknown;
  readonly text: unknown;
  /** The file's name of the text field (`query`, `text`), for messages. */
  readonly textField?: string;
  /** The query row's own keys, named when its text field is missing. */
  readonly keys?: readonly string[];
  readonly labels: readonly { readonly id: unknown; readonly grade: unknown }[] | undefined;
  readonly note?: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isGrade(v: unknown): v is Grade {
  return v === 0 || v === 1 || v === 2;
}

/** Validate raw queries into a GoldenSet (shared by all formats). */
function buildGolden(
  raw: readonly RawQuery[],
  base: { id: string; format: GoldenSet["format"]; corpusVersion?: string },
  strict: boolean,
  log: DropLog = new DropLog(),
): GoldenSet {
  // Bad input, not a measured failure: nothing in it could ever be scored.
  if (raw.length === 0) {
    throw new GoldenSetError(base.id, ["it has no queries, so nothing can be scored"]);
  }
  const queries = new Map<string, string>();
  const qrels = new Map<string, Map<string, Grade>>();
  const notes = new Map<string, string>();
  const seenIds = new Set<string>();
  for (const q of raw) {
    const qid = typeof q.id === "string" ? q.id : typeof q.id === "number" ? String(q.id) : "";
    if (qid === "") {
      log.add("missing query id", `${q.where}: query id is ${JSON.stringify(q.id)}`);
      continue;
    }
    if (seenIds.has(qid)) {
      log.add("duplicate query id", `${q.where}: query id "${qid}" appears twice`);
      continue;
    }
    seenIds.add(qid);
    if (typeof q.text !== "string" || q.text.trim() === "") {
      const field = q.textField ?? "text";
      log.add(
        "empty query",
        q.text === undefined
          ? `query "${qid}": field "${field}" (the query text) is missing${
            q.keys ? `; the query has ${q.keys.map((k) => JSON.stringify(k)).join(", ")}` : ""
          }`
          : `query "${qid}": field "${field}" is ${
            JSON.stringify(q.text)
          }, expected the query text`,
      );
      continue;
    }
    if (q.labels === undefined) {
      log.add("invalid labels", `query "${qid}": labels are missing or not a list`);
      continue;
    }
    const labels = new Map<string, Grade>();
    let problem = "";
    let reason = "";
    for (const l of q.labels) {
      if (typeof l.id !== "string" || l.id === "") {
        [reason, problem] = ["invalid label", `label id is ${JSON.stringify(l.id)}`];
      } else if (!isGrade(l.grade)) {
        [reason, problem] = [
          "invalid grade",
          `label "${l.id}" has relevance ${
            typeof l.grade === "number" ? String(l.grade) : JSON.stringify(l.grade)
          }, expected 0, 1 or 2`,
        ];
      } else if (labels.has(l.id)) {
        [reason, problem] = ["duplicate label id", `label "${l.id}" appears twice`];
      } else {
        labels.set(l.id, l.grade);
        continue;
      }
      break;
    }
    if (problem === "" && ![...labels.values()].some((g) => g >= 1)) {
      [reason, problem] = ["no relevant label", "no label has relevance >= 1"];
    }
    if (problem !== "") {
      log.add(reason, `query "${qid}": ${problem}`);
      continue;
    }
    queries.set(qid, q.text);
    qrels.set(qid, labels);
    if (q.note !== undefined && q.note !== "") notes.set(qid, q.note);
  }
  if (strict && log.problems.length > 0) throw new GoldenSetError(base.id, log.problems);
  return { ...base, queries, qrels, notes, dropped: log.toDrops() };
}

/**
 * Parse mcpproxy's golden-set JSON:
 * `{corpus_version, queries: [{id, query, labels: [{tool_id, relevance 0|1|2}], notes?}]}`.
 *
 * @param text File contents.
 * @param options Set id and strictness.
 * @returns The {@linkcode GoldenSet} (`format: "mcpproxy"`), queries in file order.
 * @throws {SyntaxError} when `text` is not JSON, with the line, column and offset of the fault
 *   (the catalog loader's positioned message, e.g. `Unexpected end of input, expected a JSON
 *   value at line 1 column 52 (offset 51)`).
 * @throws {GoldenSetError} when the shape is wrong, or (strict) any query has a problem.
 *
 * @example Usage
 * ```ts
 * import { parseMcpproxyGolden } from "./golden.ts";
 * const g = parseMcpproxyGolden(JSON.stringify({ corpus_version: "v1", queries: [
 *   { id: "q1", query: "open an issue", labels: [{ tool_id: "gh:create_issue", relevance: 2 }] },
 * ] }), { id: "demo" });
 * if (g.qrels.get("q1")?.get("gh:create_issue") !== 2) throw new Error("unexpected");
 * ```
 */
export function parseMcpproxyGolden(text: string, options: GoldenParseOptions): GoldenSet {
  const data: unknown = parseJson(text);
  if (!isObject(data) || !Array.isArray(data.queries)) {
    throw new GoldenSetError(options.id, ['the file is not an object with a "queries" array']);
  }
  const raw: RawQuery[] = data.queries.map((q: unknown, i: number) => {
    const o = isObject(q) ? q : {};
    return {
      where: `queries[${i}]`,
      id: o.id,
      text: o.query,
      textField: "query",
      keys: Object.keys(o),
      labels: Array.isArray(o.labels)
        ? o.labels.map((l: unknown) => {
          const lo = isObject(l) ? l : {};
          return { id: lo.tool_id, grade: lo.relevance };
        })
        : undefined,
      note: typeof o.notes === "string" ? o.notes : undefined,
    };
  });
  const corpusVersion = typeof data.corpus_version === "string" ? data.corpus_version : undefined;
  return buildGolden(
    raw,
    { id: options.id, format: "mcpproxy", ...(corpusVersion ? { corpusVersion } : {}) },
    options.strict ?? true,
  );
}

/**
 * `JSON.parse` of the text; on invalid JSON, the positioned SyntaxError of the catalog's lossless
 * parser (line, column, offset), which `JSON.parse`'s own message lacks on some inputs.
 */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    parseJsonLossless(text);
    throw error; // Not reached: both parsers accept exactly RFC 8259 JSON.
  }
}
