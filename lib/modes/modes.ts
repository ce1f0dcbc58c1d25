/**
 * Exposure modes: what an agent's context holds under each way of wiring it to
 * MCP servers, and what each saves against exposing every tool directly.
 *
 * @module
 */
import type { Tool } from "../catalog/types.ts";
import type { Tokenizer } from "../tokens/types.ts";
import type { Provenance } from "../core/provenance.ts";
import { type CatalogCost, catalogCost } from "./cost.ts";

/**
 * How upstream tools reach the agent:
 * - `direct`: every upstream tool definition is in context;
 * - `proxy`: a discovery proxy's catalog (`retrieve_tools`, `describe_tool`,
 *   `call_tool`, plus any management tools) stands in for them;
 * - `code`: a code-execution tool plus discovery stands in for them.
 */
export type ExposureMode = "direct" | "proxy" | "code";

/** Exposure modes in report order. */
export const EXPOSURE_MODES: readonly ExposureMode[] = ["direct", "proxy", "code"];

/** One exposure mode's cost over one corpus, under one tokenizer. */
export interface ModeRow {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Exposure mode. */
  readonly mode: ExposureMode;
  /** Tokenizer name, e.g. `cl100k_base`. */
  readonly tokenizer: string;
  /** Tool definitions in the agent's context under this mode. */
  readonly toolCount: number;
  /** Sum over those tools of tokens(`name + "\n" + description`) (tokens). */
  readonly tokensNameDescription: number;
  /** Same, plus `"\n" + canonical inputSchema` where a schema exists (tokens). */
  readonly tokensWithSchemas: number;
  /** 1 − mode ÷ direct on `tokensNameDescription` (fraction; 0 for `direct`). */
  readonly savingsNameDescription: number;
  /** 1 − mode ÷ direct on `tokensWithSchemas` (fraction; 0 for `direct`). */
  readonly savingsWithSchemas: number;
  /**
   * True when every tool on both sides (this mode and `direct`) had its schema
   * counted, so `savingsWithSchemas` is the authoritative figure; otherwise
   * only `savingsNameDescription` compares like with like.
   */
  readonly withSchemasAuthoritative: boolean;
  /** Token counts are `measured`; savings are `computed` from them. */
  readonly provenance: { readonly tokens: Provenance; readonly savings: Provenance };
}

/** Inputs of {@linkcode measureModes}. */
export interface MeasureModesOptions {
  /** Id of the corpus the row belongs to. */
  readonly corpusId: string;
  /** Every upstream tool: the `direct` catalog. */
  readonly tools: readonly Tool[];
  /** The discovery proxy's own `tools/list` catalog. */
  readonly proxyTools: readonly Tool[];
  /** The code-execution mode's catalog. */
  readonly codeTools: readonly Tool[];
  /** Counts tokens. */
  readonly tokenizer: Tokenizer;
}

/**
 * Savings of `mode` against `direct`: 1 − mode ÷ direct.
 *
 * @param modeTokens Tokens under the mode (tokens).
 * @param directTokens Tokens with every tool exposed (tokens).
 * @returns The fraction saved (negative when the mode costs more); 0 when
 *   `directTokens` is 0, so that no NaN reaches a report.
 */
export function savings(modeTokens: number, directTokens: number): number {
  return directTokens === 0 ? 0 : 1 - modeTokens / directTokens;
}

/**
 * Costs every exposure mode over one corpus under one tokenizer.
 *
 * @param options Corpus tools, mode catalogs and tokenizer.
 * @returns One {@linkcode ModeRow} per mode, in {@linkcode EXPOSURE_MODES} order,
 *   and the direct catalog's per-tool costs for heaviest-tool tables.
 */
export function measureModes(
  options: MeasureModesOptions,
): { readonly rows: readonly ModeRow[]; readonly direct: CatalogCost } {
  const { corpusId, tokenizer } = options;
  const direct = catalogCost(options.tools, tokenizer);
  const costs: Record<ExposureMode, CatalogCost> = {
    direct,
    proxy: catalogCost(options.proxyTools, tokenizer),
    code: catalogCost(options.codeTools, tokenizer),
  };
  const allSchemas = (c: CatalogCost) => c.schemaCount === c.toolCount;
  const rows = EXPOSURE_MODES.map((mode): ModeRow => {
    const c = costs[mode];
    return {
      corpusId,
      mode,
      tokenizer: tokenizer.name,
      toolCount: c.toolCount,
      tokensNameDescription: c.tokensNameDescription,
      tokensWithSchemas: c.tokensWithSchemas,
      savingsNameDescription: savings(c.tokensNameDescription, direct.tokensNameDescription),
      savingsWithSchemas: savings(c.tokensWithSchemas, direct.tokensWithSchemas),
      withSchemasAuthoritative: allSchemas(c) && allSchemas(direct),
      provenance: { tokens: "measured", savings: "computed" },
    };
  });
  return { rows, direct };
}
