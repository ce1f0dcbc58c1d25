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
import type { JsonValue } from "../catalog/types.ts";
import { DropLog } from "./_drops.ts";
import { GoldenSetError } from "./errors.ts";
import type { GoldenSet, Grade, RetrievalDoc } from "./types.ts";

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
          `label "${l.id}" has relevance ${JSON.stringify(l.grade)}, expected 0, 1 or 2`,
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

/** A golden set together with the documents it was published with. */
export interface GoldenWithDocs {
  /** The queries and qrels. */
  readonly golden: GoldenSet;
  /** The documents (tools) to index, ids as in the qrels. */
  readonly docs: readonly RetrievalDoc[];
}

function parseJsonLines(text: string, source: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    try {
      out.push(JSON.parse(lines[i]));
    } catch (e) {
      throw new SyntaxError(`Cannot parse ${source} line ${i + 1}: ${(e as Error).message}`);
    }
  }
  return out;
}

/** Texts of a BEIR dataset split. */
export interface BeirTexts {
  /** `corpus.jsonl`: one `{_id, title?, text}` per line. */
  readonly corpus: string;
  /** `queries.jsonl`: one `{_id, text}` per line. */
  readonly queries: string;
  /** `qrels/<split>.tsv`: `query-id  corpus-id  score`, header optional (TREC 4-column rows accepted). */
  readonly qrels: string;
}

/**
 * Parse a BEIR dataset (Thakur et al. 2021, `beir/datasets/data_loader.py` layout). Documents get
 * `id = _id`, `name = title`, `description = text`, empty server and params. Queries of
 * `queries.jsonl` without qrels in this split are not part of the split and are skipped (not
 * counted as drops).
 *
 * @param texts File contents.
 * @param options Set id and strictness.
 * @returns `{golden, docs}` (`format: "beir"`).
 * @throws {SyntaxError} on a malformed JSONL line, with its 1-based line number.
 * @throws {GoldenSetError} on malformed rows, duplicate document ids, qrels naming an unknown
 * query, or (strict) any query problem.
 */
export function parseBeir(texts: BeirTexts, options: GoldenParseOptions): GoldenWithDocs {
  const strict = options.strict ?? true;
  const fatal: string[] = [];
  const docs: RetrievalDoc[] = [];
  const docIds = new Set<string>();
  parseJsonLines(texts.corpus, "corpus.jsonl").forEach((row, i) => {
    const o = isObject(row) ? row : {};
    const id = typeof o._id === "string" ? o._id : typeof o._id === "number" ? String(o._id) : "";
    if (id === "" || docIds.has(id)) {
      fatal.push(
        `corpus.jsonl row ${i + 1}: document id ${JSON.stringify(o._id)} is missing or repeated`,
      );
      return;
    }
    docIds.add(id);
    docs.push({
      id,
      name: typeof o.title === "string" ? o.title : "",
      server: "",
      description: typeof o.text === "string" ? o.text : "",
      params: "",
    });
  });
  const queryRows = parseJsonLines(texts.queries, "queries.jsonl").map((row) => {
    const o = isObject(row) ? row : {};
    const id = typeof o._id === "string" ? o._id : typeof o._id === "number" ? String(o._id) : "";
    return { id, text: o.text };
  });
  const knownQueries = new Set(queryRows.map((q) => q.id));
  const labels = new Map<string, { id: unknown; grade: unknown }[]>();
  texts.qrels.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const cols = line.split("\t");
    if (i === 0 && cols[0] === "query-id") return;
    if (cols.length !== 3 && cols.length !== 4) {
      fatal.push(
        `qrels line ${i + 1}: expected 3 (or TREC 4) tab-separated columns, got ${cols.length}`,
      );
      return;
    }
    const [qid, did, score] = cols.length === 3 ? cols : [cols[0], cols[2], cols[3]];
    const grade = /^-?\d+$/.test(score.trim()) ? Number(score) : score;
    if (!knownQueries.has(qid)) {
      fatal.push(`qrels line ${i + 1}: query id "${qid}" is not in queries.jsonl`);
      return;
    }
    let list = labels.get(qid);
    if (list === undefined) labels.set(qid, list = []);
    list.push({ id: did, grade });
  });
  if (fatal.length > 0) throw new GoldenSetError(options.id, fatal);
  const raw: RawQuery[] = queryRows
    .filter((q) => labels.has(q.id))
    .map((q) => ({ where: "queries.jsonl", id: q.id, text: q.text, labels: labels.get(q.id) }));
  const golden = buildGolden(raw, { id: options.id, format: "beir" }, strict);
  return { golden, docs };
}

/** Texts of a ToolRet task: tool and query records, as a JSON array or JSON Lines each. */
export interface ToolRetTexts {
  /** Tools: `{id, config?, documentation}`; `documentation` is an object or its JSON text. */
  readonly tools: string;
  /** Queries: `{id, config?, category?, query, instruction?, labels}`; `labels` is `[{id, relevance}]` or its JSON text. */
  readonly queries: string;
}

/** Options of {@linkcode parseToolRet}. */
export interface ToolRetOptions extends GoldenParseOptions {
  /**
   * Prefix each query with its `instruction` (ToolRet's instructed setting).
   * @default {false}
   */
  readonly withInstruction?: boolean;
}

function parseRecords(text: string, source: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[")) {
    const v: unknown = JSON.parse(trimmed);
    return v as unknown[];
  }
  return parseJsonLines(text, source);
}

function maybeJson(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

/**
 * Parse a ToolRet task (Shi et al. 2025, "Retrieval Models Aren't Tool-Savvy"). Document ids are
 * the tool `id` exactly as the labels use it (never prefixed with `config`); `name`,
 * `description` and `parameters` come from `documentation` when it is an object (or JSON text),
 * otherwise the whole documentation text is the description; `server` is `config`.
 *
 * @param texts Tool and query records.
 * @param options Set id, strictness, instruction prefix.
 * @returns `{golden, docs}` (`format: "toolret"`).
 * @throws {SyntaxError} when a file is not JSON / JSON Lines.
 * @throws {GoldenSetError} on missing or repeated tool ids, or (strict) any query problem.
 */
export function parseToolRet(texts: ToolRetTexts, options: ToolRetOptions): GoldenWithDocs {
  const fatal: string[] = [];
  const docs: RetrievalDoc[] = [];
  const seen = new Set<string>();
  parseRecords(texts.tools, "tools").forEach((row, i) => {
    const o = isObject(row) ? row : {};
    const id = typeof o.id === "string" ? o.id : "";
    if (id === "" || seen.has(id)) {
      fatal.push(`tools[${i}]: tool id ${JSON.stringify(o.id)} is missing or repeated`);
      return;
    }
    seen.add(id);
    const doc = maybeJson(o.documentation);
    const d = isObject(doc) ? doc : {};
    const params = d.parameters ?? d.arguments ?? d.input_schema;
    docs.push({
      id,
      name: typeof d.name === "string" ? d.name : id,
      server: typeof o.config === "string" ? o.config : "",
      description: typeof d.description === "string"
        ? d.description
        : typeof doc === "string"
        ? doc
        : "",
      params: params === undefined ? "" : JSON.stringify(params as JsonValue),
    });
  });
  if (fatal.length > 0) throw new GoldenSetError(options.id, fatal);
  const raw: RawQuery[] = parseRecords(texts.queries, "queries").map((row, i) => {
    const o = isObject(row) ? row : {};
    const labels = maybeJson(o.labels);
    const text = options.withInstruction && typeof o.instruction === "string" &&
        typeof o.query === "string"
      ? `${o.instruction} ${o.query}`
      : o.query;
    return {
      where: `queries[${i}]`,
      id: o.id,
      text,
      textField: "query",
      keys: Object.keys(o),
      labels: Array.isArray(labels)
        ? labels.map((l: unknown) => {
          const lo = isObject(l) ? l : {};
          return { id: lo.id, grade: lo.relevance };
        })
        : undefined,
    };
  });
  const golden = buildGolden(raw, { id: options.id, format: "toolret" }, options.strict ?? true);
  return { golden, docs };
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
