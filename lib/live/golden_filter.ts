/**
 * Golden queries a live catalog can answer, and ranked ids read back from
 * discovery responses. Pure.
 *
 * @module
 */
import type { JsonValue } from "../catalog/types.ts";
import type { Drops, GoldenSet, Grade } from "../retrieval/types.ts";

/** Reason recorded for a golden query left out of a live run. */
export const MISSING_BEST_TOOL = "relevance-2 tool not in the live catalog";

/**
 * Restricts a golden set to a live catalog.
 *
 * A query is kept when every relevance-2 label names a tool of the catalog;
 * otherwise it is left out and counted under {@linkcode MISSING_BEST_TOOL}.
 * Labels of kept queries that name tools outside the catalog (relevance 0 or
 * 1 alternatives on servers that are not running) are removed, so metrics
 * are computed against the catalog the proxy actually searched, as an
 * offline evaluation over the same catalog would.
 *
 * @param golden A parsed golden set.
 * @param catalogIds Tool ids of the live catalog.
 * @returns The restricted set; its `dropped` adds the left-out queries (with
 *   up to 20 examples naming the missing tool).
 *
 * @example Usage
 * ```ts
 * import { restrictGolden } from "./golden_filter.ts";
 * const golden = { id: "g", format: "mcpproxy" as const, notes: new Map(),
 *   dropped: { count: 0, reasons: {}, examples: [] },
 *   queries: new Map([["q1", "read a file"], ["q2", "open an issue"]]),
 *   qrels: new Map([["q1", new Map([["fs:read", 2 as const], ["gh:get", 1 as const]])],
 *                   ["q2", new Map([["gh:create", 2 as const]])]]) };
 * const out = restrictGolden(golden, new Set(["fs:read"]));
 * if (out.queries.size !== 1 || out.qrels.get("q1")!.size !== 1 || out.dropped.count !== 1) throw new Error();
 * ```
 */
export function restrictGolden(golden: GoldenSet, catalogIds: ReadonlySet<string>): GoldenSet {
  const queries = new Map<string, string>();
  const qrels = new Map<string, ReadonlyMap<string, Grade>>();
  const examples = [...golden.dropped.examples];
  let left = 0;
  for (const [qid, text] of golden.queries) {
    const labels = golden.qrels.get(qid) ?? new Map<string, Grade>();
    const missing = [...labels].find(([id, grade]) => grade === 2 && !catalogIds.has(id));
    if (missing !== undefined) {
      left++;
      if (examples.length < 20) {
        examples.push(
          `query "${qid}": relevance-2 tool "${missing[0]}" is not in the live catalog`,
        );
      }
      continue;
    }
    queries.set(qid, text);
    qrels.set(qid, new Map([...labels].filter(([id]) => catalogIds.has(id))));
  }
  const reasons: Record<string, number> = { ...golden.dropped.reasons };
  if (left > 0) reasons[MISSING_BEST_TOOL] = (reasons[MISSING_BEST_TOOL] ?? 0) + left;
  const sorted = Object.fromEntries(Object.entries(reasons).sort(([a], [b]) => a < b ? -1 : 1));
  const dropped: Drops = { count: golden.dropped.count + left, reasons: sorted, examples };
  return { ...golden, queries, qrels, dropped };
}

/**
 * The ranked tool ids in a discovery response, best first.
 *
 * Reads the first array of objects found breadth-first in the JSON (the
 * reference proxy's `tools`), and from each object the first string among
 * `name`, `id`, `tool_id`, `toolId`, `tool` (the reference proxy uses
 * `name` = `server:tool`). An object that also has a separate `server`
 * string and a name without `:` gives `server:name`.
 *
 * @param text Response text.
 * @returns The ids (`[]` for an empty top-level `tools` array), or `undefined`
 *   when the text is not JSON or holds no such array.
 *
 * @example Usage
 * ```ts
 * import { rankedIds } from "./golden_filter.ts";
 * const ids = rankedIds('{"tools":[{"name":"fs:read"},{"name":"write","server":"fs"}]}');
 * if (ids?.join() !== "fs:read,fs:write") throw new Error(String(ids));
 * ```
 */
export function rankedIds(text: string): string[] | undefined {
  let value: JsonValue;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const queue: JsonValue[] = [value];
  while (queue.length > 0) {
    const v = queue.shift()!;
    if (Array.isArray(v)) {
      if (
        v.length > 0 && v.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))
      ) {
        const ids: string[] = [];
        for (const item of v as { [k: string]: JsonValue }[]) {
          const key = ["name", "id", "tool_id", "toolId", "tool"].find((k) =>
            typeof item[k] === "string"
          );
          if (key === undefined) continue;
          const id = item[key] as string;
          ids.push(
            !id.includes(":") && typeof item.server === "string" ? `${item.server}:${id}` : id,
          );
        }
        if (ids.length > 0) return ids;
      }
      queue.push(...v);
    } else if (v !== null && typeof v === "object") {
      queue.push(...Object.values(v));
    }
  }
  const tools = value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as { [k: string]: JsonValue }).tools
    : undefined;
  return Array.isArray(tools) && tools.length === 0 ? [] : undefined;
}
