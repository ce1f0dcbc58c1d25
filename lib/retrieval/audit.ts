/**
 * Golden-set audit: how much a golden set's queries echo the words of the tools they are labelled
 * with. A set written from a listing of tool names scores lexical retrievers well for the wrong
 * reason; these figures say how far a set's scores can be trusted to mean what users will see.
 *
 * @module
 */

import type { Tool } from "../catalog/types.ts";
import { identifierTokens } from "./_analysis.ts";
import { CONTENT_TOKENS } from "./_doc_words.ts";
import type { GoldenSet } from "./types.ts";

/**
 * `nameHitRate` above which a set's figures are flagged as overstating what users will see.
 */
export const NAME_HIT_WARNING_THRESHOLD = 0.5;

/** The audit of one golden set against one tool corpus; JSON-safe. */
export interface GoldenSetAudit {
  /** Golden set id, e.g. `reference_v1.test`. */
  readonly goldenSetId: string;
  /** Corpus id the labels were resolved against. */
  readonly corpusId: string;
  /** Queries in the set. */
  readonly queryCount: number;
  /**
   * Queries the ratios are computed over: those with at least one relevance-2 label whose tool is
   * in the corpus and at least one content word.
   */
  readonly auditedQueryCount: number;
  /**
   * Mean over audited queries of the fraction of the query's distinct content words that occur
   * among the content words of a best (relevance-2) tool's name + description (the best-scoring
   * best tool when there are several). 0..1.
   */
  readonly lexicalOverlap: number;
  /**
   * Fraction of audited queries sharing at least one content word with the name of a best
   * (relevance-2) tool, the name split on `_`, `-`, `.` and camelCase. 0..1.
   */
  readonly nameHitRate: number;
  /**
   * Fraction of audited queries whose best tool's name (exact `name`) exists on two or more
   * servers of the corpus: the query has to say which server it means. 0..1.
   */
  readonly sharedNameRate: number;
  /** Number of labels per grade over the whole set (keys `"0"`, `"1"`, `"2"`). */
  readonly grades: { readonly "0": number; readonly "1": number; readonly "2": number };
  /** Audited queries per server of their best tool (first best tool in label order), keys sorted. */
  readonly queriesPerServer: { readonly [server: string]: number };
  /** Distinct servers among `queriesPerServer`. */
  readonly serverCount: number;
  /** Queries left out of the ratios and why (keys sorted). */
  readonly skipped: { readonly [reason: string]: number };
  /** True when `nameHitRate` exceeds {@linkcode NAME_HIT_WARNING_THRESHOLD}. */
  readonly easy: boolean;
}

/**
 * Content words of a text: the tokenization BM25 uses here (camelCase, snake_case, kebab-case
 * and punctuation split, lower-cased, English stop words removed, no stemming), deduplicated.
 *
 * @param text Any text.
 * @returns The distinct content words, in first-occurrence order.
 *
 * @example Usage
 * ```ts
 * import { contentWords } from "./audit.ts";
 * const words = contentWords("List the open pullRequests of my repo");
 * if (words.join(" ") !== "list open pull requests repo") throw new Error(words.join(" "));
 * ```
 */
export function contentWords(text: string): string[] {
  return [...new Set(identifierTokens(text, CONTENT_TOKENS))];
}

/**
 * Audit a golden set against the corpus its labels point into.
 *
 * Per query: its distinct content words Q ({@linkcode contentWords}); for each relevance-2 label
 * whose id is a corpus tool, N = content words of the tool's name and D = those of name +
 * description. The query's overlap is max over its best tools of |Q ∩ D| / |Q|; it is a name hit
 * when Q ∩ N is non-empty for some best tool. Queries without a best tool in the corpus or
 * without content words are counted in `skipped`, not in the ratios.
 *
 * @param golden The golden set (labels as `server:tool` corpus ids).
 * @param corpus The corpus id and its tools.
 * @returns The {@linkcode GoldenSetAudit}; ratios are 0 when no query could be audited.
 *
 * @example Usage
 * ```ts
 * import { auditGoldenSet } from "./audit.ts";
 * import { parseMcpproxyGolden } from "./golden.ts";
 * const tools = [{ id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open a bug report" }];
 * const golden = parseMcpproxyGolden(JSON.stringify({ queries: [
 *   { id: "q1", query: "file a bug", labels: [{ tool_id: "gh:create_issue", relevance: 2 }] },
 * ] }), { id: "demo" });
 * const audit = auditGoldenSet(golden, { id: "c", tools });
 * if (audit.nameHitRate !== 0 || audit.lexicalOverlap !== 0.5) throw new Error("unexpected");
 * ```
 */
export function auditGoldenSet(
  golden: GoldenSet,
  corpus: { readonly id: string; readonly tools: readonly Tool[] },
): GoldenSetAudit {
  // Only the labelled tools are looked up, and only their names' servers counted: two passes
  // over the corpus with set lookups, not a map of every tool and a set per name.
  const labelled = new Set<string>();
  for (const labels of golden.qrels.values()) for (const id of labels.keys()) labelled.add(id);
  const byId = new Map<string, Tool>();
  for (const t of corpus.tools) if (labelled.has(t.id)) byId.set(t.id, t);
  const names = new Set<string>();
  for (const t of byId.values()) names.add(t.name);
  const serversByName = new Map<string, Set<string>>();
  for (const t of corpus.tools) {
    if (!names.has(t.name)) continue;
    const set = serversByName.get(t.name) ?? new Set<string>();
    set.add(t.server);
    serversByName.set(t.name, set);
  }
  const grades = { "0": 0, "1": 0, "2": 0 };
  const perServer = new Map<string, number>();
  const skipped = new Map<string, number>();
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
  let audited = 0;
  let overlapSum = 0;
  let nameHits = 0;
  let shared = 0;
  for (const [qid, text] of golden.queries) {
    const labels = golden.qrels.get(qid) ?? new Map();
    for (const g of labels.values()) grades[String(g) as "0" | "1" | "2"]++;
    const best = [...labels].filter(([, g]) => g === 2).map(([id]) => byId.get(id));
    const bestTools = best.filter((t): t is Tool => t !== undefined);
    if (bestTools.length === 0) {
      skip(best.length === 0 ? "no relevance-2 label" : "relevance-2 tool not in the corpus");
      continue;
    }
    const words = contentWords(text);
    if (words.length === 0) {
      skip("no content word");
      continue;
    }
    audited++;
    let overlap = 0;
    let hit = false;
    for (const tool of bestTools) {
      const name = new Set(contentWords(tool.name));
      const doc = new Set([...name, ...contentWords(tool.description)]);
      overlap = Math.max(overlap, words.filter((w) => doc.has(w)).length / words.length);
      if (words.some((w) => name.has(w))) hit = true;
    }
    overlapSum += overlap;
    if (hit) nameHits++;
    if ((serversByName.get(bestTools[0].name)?.size ?? 0) >= 2) shared++;
    perServer.set(bestTools[0].server, (perServer.get(bestTools[0].server) ?? 0) + 1);
  }
  const ratio = (n: number) => audited === 0 ? 0 : n / audited;
  const nameHitRate = ratio(nameHits);
  return {
    goldenSetId: golden.id,
    corpusId: corpus.id,
    queryCount: golden.queries.size,
    auditedQueryCount: audited,
    lexicalOverlap: ratio(overlapSum),
    nameHitRate,
    sharedNameRate: ratio(shared),
    grades,
    queriesPerServer: sortedRecord(perServer),
    serverCount: perServer.size,
    skipped: sortedRecord(skipped),
    easy: nameHitRate > NAME_HIT_WARNING_THRESHOLD,
  };
}

/**
 * The warning a set's audit calls for, if any.
 *
 * @param audit An audit.
 * @returns One line naming the set and its `nameHitRate` when it exceeds
 * {@linkcode NAME_HIT_WARNING_THRESHOLD}, `undefined` otherwise.
 */
export function auditWarning(audit: GoldenSetAudit): string | undefined {
  if (!audit.easy) return undefined;
  return `golden set ${audit.goldenSetId}: ${(audit.nameHitRate * 100).toFixed(1)}% of its ` +
    `queries share a word with the best tool's name (above ${
      NAME_HIT_WARNING_THRESHOLD * 100
    }%), so its retrieval figures overstate what users will see`;
}

function sortedRecord(map: ReadonlyMap<string, number>): { [key: string]: number } {
  const out: { [key: string]: number } = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}
