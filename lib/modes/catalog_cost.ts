/**
 * The catalog-cost sections of the bench report: what each exposure mode
 * costs per corpus × tokenizer (`modes`), how savings scale with catalog size
 * (`scaling`, `crossovers`) and the heaviest tools and servers (`heaviest`).
 *
 * @module
 */
import type { Corpus, Tool } from "../catalog/types.ts";
import { type CatalogCost, catalogCost } from "./cost.ts";
import { measureModes, type ModeRow } from "./modes.ts";
import { type Crossover, savingsBySize, type ScalingRow } from "./scaling.ts";
import { createRng, deriveSeed } from "../stats/prng.ts";
import type { Tokenizer } from "../tokens/types.ts";
import type { Provenance } from "../core/provenance.ts";
import { firstSorted } from "../core/order.ts";

/** The four catalog-cost sections of the bench report. */
export interface CatalogCostSections {
  /** Cost of each exposure mode per corpus × tokenizer. */
  readonly modes: ModeRow[];
  /** Cost against catalog size per corpus × tokenizer. */
  readonly scaling: ScalingRow[];
  /** Where the proxy and code modes start to pay off, per corpus × tokenizer. */
  readonly crossovers: CrossoverRow[];
  /** The 10 heaviest tools and servers per corpus × tokenizer. */
  readonly heaviest: Heaviest[];
}

/** A heavy tool or server, for the "heaviest" tables. */
export interface HeavyItem {
  /** Tool id (`server:name`) or server name. */
  readonly id: string;
  /** Tools behind the item (1 for a tool). */
  readonly toolCount: number;
  /** Definition cost with schema (tokens). */
  readonly tokens: number;
}

/** The 10 heaviest tools and servers of one corpus under one tokenizer. */
export interface Heaviest {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Tokenizer name, e.g. `cl100k_base`. */
  readonly tokenizer: string;
  /** Heaviest tools, by with-schema tokens, ties by id. */
  readonly tools: readonly HeavyItem[];
  /** Heaviest servers, by summed tokens, ties by id. */
  readonly servers: readonly HeavyItem[];
}

/** Crossover of one mode over one corpus and tokenizer. */
export interface CrossoverRow extends Crossover {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Tokenizer name, e.g. `cl100k_base`. */
  readonly tokenizer: string;
  /** Exposure mode. */
  readonly mode: "proxy" | "code";
  /** How each figure was obtained: the sampled size is computed, the estimate is estimated. */
  readonly provenance: { readonly measuredSize: Provenance; readonly estimatedSize: Provenance };
}

/**
 * The 10 heaviest tools and servers by with-schema cost, ties broken by id.
 *
 * @param corpusId Corpus the costs belong to.
 * @param tokenizer Tokenizer name.
 * @param direct Per-tool direct costs.
 * @param limit Items per list. @default {10}
 * @returns Heaviest tools and servers (tokens).
 */
export function heaviest(
  corpusId: string,
  tokenizer: string,
  direct: CatalogCost,
  limit = 10,
): Heaviest {
  const byTokens = (a: HeavyItem, b: HeavyItem) =>
    b.tokens - a.tokens || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const tools = direct.perTool.map((t) => ({ id: t.id, toolCount: 1, tokens: t.tokensWithSchema }));
  const servers = new Map<string, HeavyItem>();
  for (const t of direct.perTool) {
    const s = servers.get(t.server) ?? { id: t.server, toolCount: 0, tokens: 0 };
    servers.set(t.server, {
      id: t.server,
      toolCount: s.toolCount + 1,
      tokens: s.tokens + t.tokensWithSchema,
    });
  }
  return {
    corpusId,
    tokenizer,
    tools: firstSorted(tools, limit, byTokens),
    servers: firstSorted(servers.values(), limit, byTokens),
  };
}

/** Inputs of {@linkcode measureCatalogCost}. */
export interface MeasureCatalogCostOptions {
  /** Corpora to measure. */
  readonly corpora: readonly Corpus[];
  /** The discovery proxy's catalog (`proxy` mode). */
  /** The discovery proxy's own catalog (`proxy` mode). */
  readonly proxyTools: readonly Tool[];
  /** The code-execution catalog (`code` mode). */
  readonly codeTools: readonly Tool[];
  /** Tokenizers to count with. */
  readonly tokenizers: readonly Tokenizer[];
  /** Seed of the savings-vs-size draws; one stream per corpus × tokenizer. */
  readonly seed: number;
  /** Subset sizes (tools). @default {DEFAULT_SUBSET_SIZES} */
  readonly sizes?: readonly number[];
  /** Called before each corpus × tokenizer step, for progress output. */
  readonly onProgress?: (message: string) => void;
}

/**
 * Measures the catalog-cost sections of the report: `modes`, `scaling`,
 * `crossovers` and `heaviest`, for every corpus × tokenizer.
 *
 * The draws for corpus `c` and tokenizer `t` use the PRNG seeded with
 * `deriveSeed(seed, c + "/" + t)`, so adding a corpus leaves the others' rows
 * unchanged.
 *
 * @param options Corpora, mode catalogs, tokenizers, seed.
 * @returns The four report sections.
 */
export function measureCatalogCost(options: MeasureCatalogCostOptions): CatalogCostSections {
  const modes: ModeRow[] = [];
  const scaling: ScalingRow[] = [];
  const crossovers: CrossoverRow[] = [];
  const heavy: Heaviest[] = [];
  for (const corpus of options.corpora) {
    for (const tokenizer of options.tokenizers) {
      options.onProgress?.(
        `${corpus.id}: counting ${corpus.tools.length} tools with ${tokenizer.name}`,
      );
      const measured = measureModes({
        corpusId: corpus.id,
        tools: corpus.tools,
        proxyTools: options.proxyTools,
        codeTools: options.codeTools,
        tokenizer,
      });
      modes.push(...measured.rows);
      const rng = createRng(deriveSeed(options.seed, `${corpus.id}/${tokenizer.name}`));
      const bySize = savingsBySize({
        corpusId: corpus.id,
        tokenizer: tokenizer.name,
        direct: measured.direct,
        proxy: catalogCost(options.proxyTools, tokenizer),
        code: catalogCost(options.codeTools, tokenizer),
        random: () => rng.next(),
        sizes: options.sizes,
      });
      scaling.push(...bySize.rows);
      for (
        const [mode, c] of [["proxy", bySize.proxyCrossover], [
          "code",
          bySize.codeCrossover,
        ]] as const
      ) {
        crossovers.push({
          corpusId: corpus.id,
          tokenizer: tokenizer.name,
          mode,
          ...c,
          provenance: { measuredSize: "computed", estimatedSize: "estimated" },
        });
      }
      heavy.push(heaviest(corpus.id, tokenizer.name, measured.direct));
    }
  }
  return { modes, scaling, crossovers, heaviest: heavy };
}
