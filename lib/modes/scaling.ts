/**
 * Savings against catalog size: how the direct cost grows with the number of
 * upstream tools while a proxy's cost stays flat, and where the proxy starts
 * to pay off.
 *
 * @module
 */
import type { Provenance } from "../core/provenance.ts";
import { type CatalogCost, sumCosts, type ToolCost } from "./cost.ts";
import { savings } from "./modes.ts";

/** Target catalog sizes (tools) sampled by default, before the full corpus. */
export const DEFAULT_SUBSET_SIZES: readonly number[] = [5, 10, 20, 50, 100, 200, 500];

/** Random draws per target size by default. */
export const DEFAULT_SUBSET_DRAWS = 5;

/** One sampled catalog size. */
export interface ScalingRow {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Tokenizer name, e.g. `cl100k_base`. */
  readonly tokenizer: string;
  /** Requested size (tools); the full corpus row uses the corpus size. */
  readonly targetSize: number;
  /** True for the row that holds the whole corpus. */
  readonly full: boolean;
  /** Number of random draws averaged (1 for the full corpus). */
  readonly draws: number;
  /** Mean number of tools actually drawn (whole servers: ≥ target, by less than one server). */
  readonly meanToolCount: number;
  /** Mean number of servers drawn. */
  readonly meanServerCount: number;
  /** Mean direct cost, name + description + schema (tokens). */
  readonly directTokens: number;
  /** Proxy catalog cost, name + description + schema (tokens); constant. */
  readonly proxyTokens: number;
  /** Code-mode catalog cost, name + description + schema (tokens); constant. */
  readonly codeTokens: number;
  /** 1 − proxy ÷ mean direct (fraction). */
  readonly proxySavings: number;
  /** 1 − code ÷ mean direct (fraction). */
  readonly codeSavings: number;
  /** Means over draws of measured counts: `computed`. */
  readonly provenance: Provenance;
}

/** Where a mode starts to pay off. */
export interface Crossover {
  /**
   * Smallest sampled target size whose mean direct cost exceeds the mode's
   * cost, or null when none does (provenance `computed`).
   */
  readonly measuredSize: number | null;
  /**
   * Mode tokens ÷ mean direct tokens per tool over the whole corpus, rounded
   * up: the catalog size at which an average tool mix costs as much as the
   * mode (tools; provenance `estimated`, assumes tools of average weight).
   */
  readonly estimatedSize: number | null;
}

/**
 * Draws whole servers in a seeded random order to make a catalog of about
 * `target` tools.
 *
 * The servers are shuffled (Fisher–Yates with `random`); each server, in that
 * order, is taken when it still fits under `target`; if the taken tools then
 * fall short of `target`, the first server left in shuffled order is added too.
 * So a draw has at least `target` tools when the corpus has that many, and
 * overshoots only by part of one server (a greedy fill rather than a prefix,
 * which would overshoot by a whole large server at small targets).
 *
 * @param byServer Per-server tools (their costs); iteration order must be deterministic (sorted).
 * @param target Desired number of tools.
 * @param random Uniform [0, 1) generator, seeded by the caller.
 * @returns The drawn tools' costs (in the order taken) and the number of servers used.
 * @throws {RangeError} When `target` < 1.
 */
export function drawServers<T = ToolCost>(
  byServer: ReadonlyMap<string, readonly T[]>,
  target: number,
  random: () => number,
): { readonly tools: readonly T[]; readonly serverCount: number } {
  if (!(target >= 1)) {
    throw new RangeError(`Cannot draw servers as target must be >= 1: current value is ${target}`);
  }
  const servers = [...byServer.keys()];
  for (let i = servers.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [servers[i], servers[j]] = [servers[j], servers[i]];
  }
  const tools: T[] = [];
  const left: string[] = [];
  let serverCount = 0;
  for (const server of servers) {
    const costs = byServer.get(server)!;
    if (tools.length + costs.length <= target) {
      tools.push(...costs);
      serverCount++;
    } else {
      left.push(server);
    }
  }
  if (tools.length < target && left.length > 0) {
    tools.push(...byServer.get(left[0])!);
    serverCount++;
  }
  return { tools, serverCount };
}

/** Inputs of {@linkcode savingsBySize}. */
export interface SavingsBySizeOptions {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Tokenizer name, e.g. `cl100k_base`. */
  readonly tokenizer: string;
  /** Per-tool direct costs of the whole corpus. */
  readonly direct: CatalogCost;
  /** Proxy catalog cost (tokens with schemas is used). */
  readonly proxy: CatalogCost;
  /** Code-mode catalog cost. */
  readonly code: CatalogCost;
  /** Uniform [0, 1) generator, seeded by the caller. */
  readonly random: () => number;
  /** Target sizes to sample (tools). @default {DEFAULT_SUBSET_SIZES} */
  readonly sizes?: readonly number[];
  /** Random draws averaged per size (a positive integer). @default {DEFAULT_SUBSET_DRAWS} */
  readonly draws?: number;
}

/**
 * Samples catalogs of growing size from whole servers and prices each mode.
 *
 * Sizes at or above the corpus size are skipped, and so is a size whose every
 * draw took the whole corpus (servers too large to leave any out: such a row
 * would be the full corpus labelled as a smaller size); the full corpus is
 * always the last row. Uses the with-schemas cost throughout.
 *
 * @param options See {@linkcode SavingsBySizeOptions}.
 * @returns Rows in increasing size and the proxy and code crossovers.
 * @throws {RangeError} When `draws` is not a positive integer, or a size below
 *   the corpus size is < 1 (see {@linkcode drawServers}).
 */
export function savingsBySize(options: SavingsBySizeOptions): {
  readonly rows: readonly ScalingRow[];
  readonly proxyCrossover: Crossover;
  readonly codeCrossover: Crossover;
} {
  const { direct, random } = options;
  const sizes = options.sizes ?? DEFAULT_SUBSET_SIZES;
  const draws = options.draws ?? DEFAULT_SUBSET_DRAWS;
  if (!Number.isInteger(draws) || draws < 1) {
    // Zero draws would average an empty list: NaN in every sampled row.
    throw new RangeError(
      `Cannot sample catalog sizes as draws must be a positive integer: current value is ${draws}`,
    );
  }
  const byServer = new Map<string, ToolCost[]>();
  for (const cost of [...direct.perTool].sort((a, b) => cmp(a.id, b.id))) {
    const list = byServer.get(cost.server) ?? [];
    list.push(cost);
    byServer.set(cost.server, list);
  }
  const proxyTokens = options.proxy.tokensWithSchemas;
  const codeTokens = options.code.tokensWithSchemas;
  const row = (targetSize: number, full: boolean, samples: CatalogCost[], servers: number[]) => {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const directTokens = mean(samples.map((s) => s.tokensWithSchemas));
    return {
      corpusId: options.corpusId,
      tokenizer: options.tokenizer,
      targetSize,
      full,
      draws: samples.length,
      meanToolCount: mean(samples.map((s) => s.toolCount)),
      meanServerCount: mean(servers),
      directTokens,
      proxyTokens,
      codeTokens,
      proxySavings: savings(proxyTokens, directTokens),
      codeSavings: savings(codeTokens, directTokens),
      provenance: "computed",
    } satisfies ScalingRow;
  };
  const rows: ScalingRow[] = [];
  for (const size of [...sizes].sort((a, b) => a - b)) {
    if (size >= direct.toolCount) continue;
    const samples: CatalogCost[] = [];
    const servers: number[] = [];
    for (let d = 0; d < draws; d++) {
      const drawn = drawServers(byServer, size, random);
      samples.push(sumCosts(drawn.tools));
      servers.push(drawn.serverCount);
    }
    if (samples.every((s) => s.toolCount === direct.toolCount)) continue;
    rows.push(row(size, false, samples, servers));
  }
  rows.push(row(direct.toolCount, true, [direct], [byServer.size]));
  const perTool = direct.toolCount === 0 ? 0 : direct.tokensWithSchemas / direct.toolCount;
  const crossover = (modeTokens: number): Crossover => ({
    measuredSize: rows.find((r) => r.directTokens > modeTokens)?.targetSize ?? null,
    estimatedSize: perTool === 0 ? null : Math.ceil(modeTokens / perTool),
  });
  return { rows, proxyCrossover: crossover(proxyTokens), codeCrossover: crossover(codeTokens) };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
