/**
 * BM25F retriever over tool documents, backed by `wink-bm25-text-search`.
 *
 * @module
 */

import winkBm25 from "wink-bm25-text-search";
import { identifierTokens } from "./_analysis.ts";
import { checkLimit } from "./_limit.ts";
import { compareHits } from "./metrics.ts";
import {
  type Hit,
  INDEX_FIELD_NAMES,
  type IndexFieldName,
  type IndexFieldsFn,
  type RetrievalDoc,
  type Retriever,
  type RetrieverEntry,
} from "./types.ts";
import type { Tool } from "../catalog/types.ts";
import { defaultIndexFields } from "./docs.ts";

/** Per-field weights; a weight of 0 leaves the field out of the index. */
export interface Bm25FieldWeights {
  /** Tool name (split into words). */
  readonly name: number;
  /** Description text. */
  readonly description: number;
  /** Parameter text (schema JSON or an arm's parameter rendering). */
  readonly params: number;
  /** Server name. */
  readonly server: number;
}

/** Options of {@linkcode createBm25Retriever}. */
export interface Bm25Options {
  /**
   * Field weights (BM25F: a token in a field with weight w counts w times toward term frequency
   * and document length).
   * @default {DEFAULT_BM25_WEIGHTS}
   */
  readonly weights?: Partial<Bm25FieldWeights>;
  /**
   * BM25 parameters: k1 (term-frequency saturation), b (length normalisation), k (added inside
   * the idf log).
   * @default {{k1: 1.2, b: 0.75, k: 1}}
   */
  readonly params?: { readonly k1?: number; readonly b?: number; readonly k?: number };
  /**
   * Stem tokens with Porter2 (Snowball English). Off by default: stemming lowered dev nDCG@10.
   * @default {false}
   */
  readonly stem?: boolean;
  /**
   * Drop English stop words (Snowball list).
   * @default {true}
   */
  readonly stopWords?: boolean;
  /**
   * Decimals kept per term score by wink's `consolidate(fp)` (4 to 9); the summed score is
   * rounded to the same precision so equal scores tie exactly and fall back to id order.
   * @default {4}
   */
  readonly precision?: number;
}

/**
 * Default field weights, chosen on the reference dev set (`fixtures/golden/reference_v1.dev.json`,
 * two grids: name {1,2,3,5} × params {0,0.25,0.5,1} × server {0,1,2} × stem {on,off}, then name
 * {3,5,8} × params {0,0.05,0.1} × server {2,3} without stemming; description fixed at 1). The
 * plateau (nDCG@10 0.896) starts at name 5, server 2; the smallest such weights were kept. Parameter text is
 * off by default: with schema JSON as parameter text every positive weight lowered dev nDCG@10.
 */
export const DEFAULT_BM25_WEIGHTS: Bm25FieldWeights = {
  name: 5,
  description: 1,
  params: 0,
  server: 2,
};

const FIELDS = ["name", "description", "params", "server"] as const;

/**
 * Build a BM25F index over `docs` with wink-bm25-text-search.
 *
 * Scoring (wink's implementation of BM25F, Robertson & Zaragoza 2009, "The Probabilistic
 * Relevance Framework: BM25 and Beyond", §3.4 with field weights folded into tf):
 * score(d, q) = Σ_{t ∈ q} idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·len(d)/avglen)),
 * idf(t) = ln((N − n(t) + 0.5) / (n(t) + 0.5) + k), where tf and len are field-weighted.
 * Tokens: camelCase and snake_case split, lower-cased, stop words dropped, optionally
 * Porter2-stemmed. Query tokens that repeat count repeatedly.
 *
 * @param docs Documents (≥ 3: wink's `consolidate()` refuses smaller collections); ids unique.
 * @param options Field weights, BM25 parameters, stemming, stop words, score precision.
 * @returns A {@linkcode Retriever} named `bm25`; `search` ranks by score desc, then id asc.
 * @throws {RangeError} when fewer than 3 documents are given, a weight is negative or all are 0,
 * or precision is outside 4..9.
 *
 * @example Usage
 * ```ts
 * import { createBm25Retriever } from "./bm25.ts";
 * const docs = ["create_issue", "list_pull_requests", "read_file"].map((name) => ({
 *   id: `gh:${name}`, name, server: "gh", description: "", params: "",
 * }));
 * const hits = createBm25Retriever(docs).search("pull request", 3);
 * if (hits[0].id !== "gh:list_pull_requests") throw new Error("unexpected");
 * ```
 */
export function createBm25Retriever(
  docs: readonly RetrievalDoc[],
  options: Bm25Options = {},
): Retriever {
  if (docs.length < 3) {
    throw new RangeError(
      `Cannot build a bm25 index over ${docs.length} documents: wink-bm25-text-search needs at least 3`,
    );
  }
  const weights: Bm25FieldWeights = { ...DEFAULT_BM25_WEIGHTS, ...options.weights };
  for (const f of FIELDS) {
    if (!(weights[f] >= 0)) {
      throw new RangeError(`Cannot build a bm25 index: weight of "${f}" is ${weights[f]}`);
    }
  }
  const active = FIELDS.filter((f) => weights[f] > 0);
  if (active.length === 0) throw new RangeError("Cannot build a bm25 index: all weights are 0");
  const precision = options.precision ?? 4;
  if (!Number.isInteger(precision) || precision < 4 || precision > 9) {
    throw new RangeError(`Cannot build a bm25 index: precision must be 4..9, got ${precision}`);
  }
  const k1 = options.params?.k1 ?? 1.2;
  const b = options.params?.b ?? 0.75;
  const k = options.params?.k ?? 1;
  const stem = options.stem ?? false;
  const stopWords = options.stopWords ?? true;

  const engine = winkBm25();
  const fldWeights: Record<string, number> = {};
  for (const f of active) fldWeights[f] = weights[f];
  engine.defineConfig({ fldWeights, bm25Params: { k1, b, k } });
  const stemCache = new Map<string, string>();
  engine.definePrepTasks([
    (text: string) => identifierTokens(text, { stem, stopWords, stemCache }),
  ]);
  for (const doc of docs) {
    const fields: Record<string, string> = {};
    for (const f of active) fields[f] = doc[f];
    engine.addDoc(fields, doc.id);
  }
  engine.consolidate(precision);
  const scale = 10 ** precision;
  const total = docs.length;

  return {
    name: "bm25",
    config: { weights: { ...weights }, k1, b, k, stem, stopWords, precision },
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      // wink sorts by score only; take every hit so ties at the cut are broken by id.
      const raw = engine.search(query, total) as [string, number][];
      // Rounding keeps wink's descending order, so only the hits down to the last one that
      // rounds to the limit-th hit's score can be among the best `limit`: only they get a Hit.
      const rounded = (i: number) => Math.round(raw[i][1] * scale) / scale;
      let end = raw.length;
      if (end > limit) {
        const cut = rounded(limit - 1);
        end = limit;
        while (end < raw.length && rounded(end) === cut) end++;
      }
      const hits: Hit[] = new Array(end);
      for (let i = 0; i < end; i++) hits[i] = { id: raw[i][0], score: rounded(i) };
      hits.sort(compareHits);
      if (hits.length > limit) hits.length = limit;
      return hits;
    },
  };
}

/**
 * Whether an encoding arm changes what BM25 indexes: true when, for some tool,
 * the arm's index fields differ from the tool's own fields in a field whose
 * weight is above 0. With {@linkcode DEFAULT_BM25_WEIGHTS} (`params` at 0), an
 * arm that only rewrites parameter text gives BM25 the same index, so scoring
 * it again would repeat the plain BM25 row.
 *
 * @param tools The corpus.
 * @param indexFields The arm's `indexFields`.
 * @param weights BM25 field weights. @default {DEFAULT_BM25_WEIGHTS}
 * @returns True when the arm's BM25 index can differ from the plain one.
 *
 * @example Usage
 * ```ts
 * import { bm25SeesArm } from "./bm25.ts";
 * import type { Tool } from "../catalog/types.ts";
 * const tools: Tool[] = [{ id: "s:a", server: "s", name: "a", description: "d", inputSchema: { type: "object" } }];
 * const paramsOnly = (t: Tool) => ({ name: t.name, server: t.server, description: t.description, params: "()" });
 * if (bm25SeesArm(tools, paramsOnly)) throw new Error("params carry weight 0 by default");
 * ```
 */
export function bm25SeesArm(
  tools: readonly Tool[],
  indexFields: IndexFieldsFn,
  weights: Bm25FieldWeights = DEFAULT_BM25_WEIGHTS,
): boolean {
  const weighted = FIELDS.filter((f) => weights[f] > 0);
  return tools.some((tool) => {
    const own = defaultIndexFields(tool);
    const arm = indexFields(tool);
    return weighted.some((f) => own[f] !== arm[f]);
  });
}

/**
 * The index fields a BM25F weighting reads: those weighted above 0, in
 * {@linkcode INDEX_FIELD_NAMES} order (an entry's `reads`).
 *
 * @param weights Field weights.
 * @returns The fields.
 */
export function weightedFields(weights: Bm25FieldWeights): IndexFieldName[] {
  return INDEX_FIELD_NAMES.filter((f) => weights[f] > 0);
}

/**
 * Registry entry of `bm25` with {@linkcode DEFAULT_BM25_WEIGHTS}: it reads the fields weighted
 * above 0 (name, server, description; not params).
 */
export const bm25Entry: RetrieverEntry = {
  name: "bm25",
  label: "BM25",
  summary: "BM25F over name, server and description (wink-bm25-text-search, tuned weights)",
  reads: weightedFields(DEFAULT_BM25_WEIGHTS),
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  nestedHits: true,
  create: (docs) => createBm25Retriever(docs),
};
