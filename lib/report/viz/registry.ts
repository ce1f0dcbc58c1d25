/**
 * The visualization registry: the built-in visualizations plus any user modules, looked up by
 * id. Ids are unique; a user module cannot replace a built-in.
 *
 * @module
 */
import { METRIC_VISUALIZATIONS } from "./metric_charts.ts";
import { TABLE_VISUALIZATIONS } from "./tables.ts";
import { CHART_VISUALIZATIONS } from "./charts.ts";
import type { Visualization } from "./types.ts";

/** Every built-in visualization, in listing order. */
export const BUILTIN_VISUALIZATIONS: readonly Visualization[] = [
  ...METRIC_VISUALIZATIONS,
  ...TABLE_VISUALIZATIONS,
  ...CHART_VISUALIZATIONS,
];

/** Pattern of a visualization id: lower-case words joined by `-`. */
export const VIZ_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A set of visualizations by id. */
export interface VizRegistry {
  /** Every visualization, built-ins first, then user modules by id. */
  readonly all: readonly Visualization[];
  /** The visualization with this id, or `undefined`. */
  get(id: string): Visualization | undefined;
  /** Whether an id is registered. */
  has(id: string): boolean;
}

/**
 * Checks that a value is a {@linkcode Visualization}.
 *
 * @param v Candidate (e.g. a module's default export).
 * @param source Where it came from, for the message.
 * @returns `v`, typed.
 * @throws {TypeError} naming the source and the field at fault.
 */
export function checkVisualization(v: unknown, source: string): Visualization {
  const o = v as Record<string, unknown> | null;
  const bad = (what: string) => new TypeError(`Cannot use visualization ${source}: ${what}`);
  if (o === null || typeof o !== "object") throw bad("the default export is not an object");
  if (typeof o.id !== "string" || !VIZ_ID.test(o.id)) {
    throw bad(`"id" must be lower-case words joined by "-", got ${JSON.stringify(o.id)}`);
  }
  if (typeof o.title !== "string" || o.title.trim() === "") throw bad(`"title" is missing`);
  if (o.layout !== "half" && o.layout !== "full") {
    throw bad(`"layout" must be "half" or "full", got ${JSON.stringify(o.layout)}`);
  }
  if (typeof o.render !== "function") throw bad(`"render" is not a function`);
  return o as unknown as Visualization;
}

/**
 * Builds a registry of the built-ins and extra visualizations.
 *
 * @param extra User visualizations (e.g. from `loadUserVisualizations`).
 * @returns The registry.
 * @throws {RangeError} when two visualizations share an id (a user module may not reuse a
 *   built-in id).
 *
 * @example Usage
 * ```ts
 * import { createRegistry } from "./registry.ts";
 * const reg = createRegistry();
 * if (!reg.has("agent-average-correctness") || reg.has("nope")) throw new Error();
 * ```
 */
export function createRegistry(extra: readonly Visualization[] = []): VizRegistry {
  const byId = new Map<string, Visualization>();
  for (const v of [...BUILTIN_VISUALIZATIONS, ...[...extra].sort((a, b) => a.id < b.id ? -1 : 1)]) {
    if (byId.has(v.id)) {
      throw new RangeError(
        `Cannot register visualization "${v.id}": the id is already taken${
          BUILTIN_VISUALIZATIONS.some((b) => b.id === v.id) ? " by a built-in" : ""
        }`,
      );
    }
    byId.set(v.id, v);
  }
  const all = [...byId.values()];
  return { all, get: (id) => byId.get(id), has: (id) => byId.has(id) };
}
