/**
 * Id alignment between an index and a golden set: every label id must be an id the index can
 * return. Mismatches are reported with a diagnosis instead of silently scoring 0.
 *
 * @module
 */

import { DropLog } from "./_drops.ts";
import { GoldenSetError, IdMismatchError } from "./errors.ts";
import type { GoldenSet, Grade } from "./types.ts";

const SEPARATORS = [":", "/", ".", "__"] as const;

function stripPrefix(id: string): { prefix: string; rest: string } | undefined {
  for (const sep of SEPARATORS) {
    const i = id.indexOf(sep);
    if (i > 0 && i + sep.length < id.length) {
      return { prefix: id.slice(0, i + sep.length), rest: id.slice(i + sep.length) };
    }
  }
  return undefined;
}

/**
 * Explain why label ids are not index ids, when the pattern is a known one:
 * index ids prefixed (`github:create_issue` vs `create_issue`), label ids prefixed, or a case
 * difference.
 *
 * @param indexIds Ids the index returns.
 * @param unknownLabelIds Label ids not among `indexIds`.
 * @returns A clause naming the pattern with one example (lower-case: it follows "; " in the
 *   error messages), or `""` when none is recognised.
 *
 * @example Usage
 * ```ts
 * import { diagnoseIdMismatch } from "./align.ts";
 * const why = diagnoseIdMismatch(["github:create_issue"], ["create_issue"]);
 * if (!why.includes("prefix")) throw new Error("unexpected");
 * ```
 */
export function diagnoseIdMismatch(
  indexIds: Iterable<string>,
  unknownLabelIds: Iterable<string>,
): string {
  const index = new Set(indexIds);
  const byRest = new Map<string, string>();
  const byLower = new Map<string, string>();
  for (const id of index) {
    const s = stripPrefix(id);
    if (s !== undefined && !byRest.has(s.rest)) byRest.set(s.rest, id);
    byLower.set(id.toLowerCase(), id);
  }
  for (const label of unknownLabelIds) {
    const prefixed = byRest.get(label);
    if (prefixed !== undefined) {
      return `index ids carry a prefix the labels lack: index id "${prefixed}" vs label id "${label}"; ` +
        "build the index with the label ids (or map one side) before scoring";
    }
    const s = stripPrefix(label);
    if (s !== undefined && index.has(s.rest)) {
      return `label ids carry a prefix the index ids lack: label id "${label}" vs index id "${s.rest}"; ` +
        "map the labels (or the index) to one id space before scoring";
    }
    const cased = byLower.get(label.toLowerCase());
    if (cased !== undefined) {
      return `ids differ in letter case: index id "${cased}" vs label id "${label}"`;
    }
  }
  return "";
}

/** Options of {@linkcode alignGolden}. */
export interface AlignOptions {
  /**
   * Throw on unknown label ids (true) or drop the queries that use them and count them (false).
   * Either way, a set where no label id at all is known throws an {@linkcode IdMismatchError}.
   * @default {true}
   */
  readonly strict?: boolean;
}

/**
 * Check every label id of `golden` against the ids an index returns.
 *
 * @param golden A parsed golden set.
 * @param indexIds Ids of the indexed documents.
 * @param options Strictness.
 * @returns The golden set restricted to queries whose labels are all known, with the drops added
 * to `dropped` (reason `unknown label id`).
 * @throws {IdMismatchError} when no label id is an index id (with a diagnosis when one applies).
 * @throws {GoldenSetError} when strict and some label ids are unknown (lists each).
 */
export function alignGolden(
  golden: GoldenSet,
  indexIds: Iterable<string>,
  options: AlignOptions = {},
): GoldenSet {
  const index = indexIds instanceof Set ? indexIds as ReadonlySet<string> : new Set(indexIds);
  const unknown: string[] = [];
  let known = 0;
  for (const labels of golden.qrels.values()) {
    for (const id of labels.keys()) {
      if (index.has(id)) known++;
      else unknown.push(id);
    }
  }
  if (unknown.length > 0 && known === 0) {
    throw new IdMismatchError(
      `Cannot score golden set "${golden.id}": none of its ${unknown.length} label ids is an index id ` +
        `(e.g. label "${unknown[0]}", index "${index.values().next().value ?? "(empty index)"}")`,
      diagnoseIdMismatch(index, unknown),
    );
  }
  if (unknown.length === 0) return golden;
  const log = new DropLog();
  const queries = new Map<string, string>();
  const qrels = new Map<string, ReadonlyMap<string, Grade>>();
  for (const [qid, text] of golden.queries) {
    const labels = golden.qrels.get(qid)!;
    const missing = [...labels.keys()].filter((id) => !index.has(id));
    if (missing.length > 0) {
      log.add(
        "unknown label id",
        `query "${qid}": label id "${missing[0]}" is not in the index` +
          (missing.length > 1 ? ` (and ${missing.length - 1} more)` : ""),
      );
      continue;
    }
    queries.set(qid, text);
    qrels.set(qid, labels);
  }
  if (options.strict ?? true) {
    const why = diagnoseIdMismatch(index, unknown);
    throw new GoldenSetError(golden.id, why ? [...log.problems, why] : log.problems);
  }
  return { ...golden, queries, qrels, dropped: log.toDrops(golden.dropped) };
}
