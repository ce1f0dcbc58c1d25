/**
 * The retriever registry: every retriever the bench, the proxy and the notebooks can name, with
 * the capabilities they read instead of switching on names (which index fields it reads, whether
 * it needs the golden labels, an async build step, a cost to report).
 *
 * Adding a retriever: one module exporting a {@linkcode RetrieverEntry} (with its test), and its
 * entry appended to {@linkcode RETRIEVERS} below. `registry_test.ts` checks that every entry keeps
 * the contract and that the bench help and the README list exactly these names.
 *
 * @module
 */

import type { Tool } from "../catalog/types.ts";
import { oracleEntry, randomEntry } from "./baselines.ts";
import { bm25Entry } from "./bm25.ts";
import { bm25ParamsEntry } from "./bm25_params.ts";
import { denseEntry } from "./dense.ts";
import { hybridEntry } from "./hybrid.ts";
import { expandEntry } from "./expand.ts";
import { createRerankEntry } from "./rerank.ts";
import { sharedDocs } from "./docs.ts";
import { tfidfClassicEntry } from "./tfidf_classic.ts";
import { anthropicBm25Entry, anthropicRegexEntry, openaiSearchEntry } from "./hosted_emulation.ts";
import { anthropicHostedEntry } from "./hosted_search.ts";
import {
  INDEX_FIELD_NAMES,
  type IndexFieldName,
  type IndexFieldsFn,
  type RetrieverEntry,
} from "./types.ts";

/** Every registered retriever, in report order. */
export const RETRIEVERS: readonly RetrieverEntry[] = [
  bm25Entry,
  bm25ParamsEntry,
  tfidfClassicEntry,
  randomEntry,
  oracleEntry,
  denseEntry,
  hybridEntry,
  // Its base is looked up by name here, so rerank.ts need not import this file.
  createRerankEntry((name) => retrieverEntry(name)),
  expandEntry,
  anthropicBm25Entry,
  anthropicRegexEntry,
  openaiSearchEntry,
  anthropicHostedEntry,
];

/** The registered retriever names, in report order. */
export const RETRIEVER_NAMES: readonly string[] = RETRIEVERS.map((r) => r.name);

/**
 * Looks a retriever up by name.
 *
 * @param name A registered name, e.g. `bm25`.
 * @returns Its entry.
 * @throws {RangeError} for an unknown name (quoted, with the known names).
 *
 * @example Usage
 * ```ts
 * import { retrieverEntry } from "./registry.ts";
 * if (retrieverEntry("bm25").reads.includes("params")) throw new Error("params weigh 0");
 * ```
 */
export function retrieverEntry(name: string): RetrieverEntry {
  const entry = RETRIEVERS.find((r) => r.name === name);
  if (entry === undefined) {
    throw new RangeError(
      `Unknown retriever "${name}": expected one of ${RETRIEVER_NAMES.join(", ")}`,
    );
  }
  return entry;
}

/** An encoding arm as far as retrieval cares: a name and the fields it lets an index see. */
export interface IndexArm {
  /** Arm name, e.g. `compact_sig`. */
  readonly name: string;
  /** Index fields of a tool under this arm. */
  readonly indexFields: IndexFieldsFn;
}

/**
 * The index fields an arm changes on a corpus: those where, for some tool, the arm's text
 * differs from the tool's own (`defaultIndexFields`, read from `sharedDocs`).
 *
 * @param tools The corpus (ids unique).
 * @param indexFields The arm's `indexFields`.
 * @returns Changed field names, in {@linkcode INDEX_FIELD_NAMES} order.
 * @throws {RangeError} when two tools share an id.
 */
export function changedIndexFields(
  tools: readonly Tool[],
  indexFields: IndexFieldsFn,
): IndexFieldName[] {
  const own = sharedDocs(tools).docs;
  const changed = new Set<IndexFieldName>();
  for (let i = 0; i < tools.length; i++) {
    const arm = indexFields(tools[i]);
    // A field already seen changed is not read again (an arm may render it on read).
    for (const f of INDEX_FIELD_NAMES) if (!changed.has(f) && own[i][f] !== arm[f]) changed.add(f);
    if (changed.size === INDEX_FIELD_NAMES.length) break;
  }
  return INDEX_FIELD_NAMES.filter((f) => changed.has(f));
}

/**
 * Which index arms a retriever is worth scoring on, beside its plain index, from the fields its
 * entry reads: an arm is scored when it changes a field the retriever reads on this corpus;
 * otherwise it is skipped with the reason (its row would repeat the plain one). An entry with
 * `plainIndexOnly` skips the arms it would have been scored on with that reason. A retriever that
 * reads no field (the baselines) is scored on no arm and skips none.
 *
 * @param retriever A registered name or an entry.
 * @param tools The corpus.
 * @param arms Candidate arms (those whose `altersIndex` is true).
 * @param changed The fields each arm changes on `tools` ({@linkcode changedIndexFields}) by arm
 * name, when the caller has them (each is then not computed again: that renders every tool);
 * an arm it lacks is computed.
 * @returns The arms to score, and the ones left out with the reason.
 * @throws {RangeError} for an unknown retriever name.
 *
 * @example Usage
 * ```ts
 * import { indexArmsFor } from "./registry.ts";
 * import type { Tool } from "../catalog/types.ts";
 * const tools: Tool[] = [{ id: "s:a", server: "s", name: "a", description: "d" }];
 * const loud = { name: "loud", indexFields: (t: Tool) => ({ name: t.name, server: t.server, description: "D", params: "" }) };
 * if (indexArmsFor("bm25", tools, [loud]).score.length !== 1) throw new Error("bm25 reads descriptions");
 * ```
 */
export function indexArmsFor(
  retriever: string | RetrieverEntry,
  tools: readonly Tool[],
  arms: readonly IndexArm[],
  changed?: ReadonlyMap<string, readonly IndexFieldName[]>,
): {
  readonly score: readonly IndexArm[];
  readonly skipped: readonly { arm: string; reason: string }[];
} {
  const entry = typeof retriever === "string" ? retrieverEntry(retriever) : retriever;
  if (entry.reads.length === 0) return { score: [], skipped: [] };
  const unread = INDEX_FIELD_NAMES.filter((f) => !entry.reads.includes(f));
  const score: IndexArm[] = [];
  const skipped: { arm: string; reason: string }[] = [];
  for (const arm of arms) {
    const fields = changed?.get(arm.name) ?? changedIndexFields(tools, arm.indexFields);
    if (fields.some((f) => entry.reads.includes(f))) {
      if (entry.plainIndexOnly === undefined) score.push(arm);
      else skipped.push({ arm: arm.name, reason: entry.plainIndexOnly });
    } else {
      skipped.push({
        arm: arm.name,
        reason: fields.length === 0
          ? `the arm changes no index field of this corpus, so it would repeat the plain ${entry.name} row`
          : `the arm only changes fields ${entry.label} weighs 0 (${
            unread.join(", ")
          }), so it would repeat the plain ${entry.name} row`,
      });
    }
  }
  return { score, skipped };
}
