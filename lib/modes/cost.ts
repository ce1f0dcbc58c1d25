/**
 * Token cost of tool definitions, the unit every exposure mode is measured in.
 *
 * @module
 */
import type { Tool } from "../catalog/types.ts";
import { schemaText } from "../catalog/canonical.ts";
import { sharedCounts } from "../tokens/shared_counts.ts";
import type { Tokenizer } from "../tokens/types.ts";

/** Token cost of one tool under one tokenizer. */
export interface ToolCost {
  /** `server:name`. */
  readonly id: string;
  /** Server that exposes the tool. */
  readonly server: string;
  /** Tokens of `name + "\n" + description` (tokens). */
  readonly tokensNameDescription: number;
  /**
   * Tokens of `name + "\n" + description + "\n" + canonicalSchema` when the tool
   * has an `inputSchema`, else equal to `tokensNameDescription` (tokens).
   */
  readonly tokensWithSchema: number;
  /** Whether an `inputSchema` was counted. */
  readonly hasSchema: boolean;
}

/**
 * Counts one tool's definition cost.
 *
 * The text counted is `name + "\n" + description`, and, where the tool has an
 * `inputSchema`, `+ "\n" +` its canonical JSON (keys sorted, no whitespace).
 *
 * @param tool The tool definition.
 * @param tokenizer Counts tokens.
 * @returns The tool's {@linkcode ToolCost} (tokens).
 *
 * @example Usage
 * ```ts
 * import { toolCost } from "./cost.ts";
 * const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };
 * const cost = toolCost({ id: "s:echo", server: "s", name: "echo", description: "say it back" }, words);
 * if (cost.tokensNameDescription !== 4 || cost.hasSchema) throw new Error("unexpected");
 * ```
 */
export function toolCost(tool: Tool, tokenizer: Tokenizer): ToolCost {
  const schema = schemaText(tool);
  // The description and schema text counted once per tokenizer for every mode and arm that
  // holds them (exact; see lib/tokens/shared_counts.ts), the texts counted from their parts.
  const shared = sharedCounts(tokenizer);
  const nameDescription = shared.countJoin([`${tool.name}\n`, tool.description], HEAD_KNOWN);
  if (schema === undefined) {
    const tokens = nameDescription;
    return {
      id: tool.id,
      server: tool.server,
      tokensNameDescription: tokens,
      tokensWithSchema: tokens,
      hasSchema: false,
    };
  }
  return {
    id: tool.id,
    server: tool.server,
    tokensNameDescription: nameDescription,
    tokensWithSchema: shared.countJoin([`${tool.name}\n`, tool.description, "\n", schema], KNOWN),
    hasSchema: true,
  };
}

/** Which parts of a tool's text are known strings: its description, and its schema text. */
const HEAD_KNOWN: readonly boolean[] = [false, true];
const KNOWN: readonly boolean[] = [false, true, false, true];

/** Summed cost of a tool catalog. */
export interface CatalogCost {
  /** Number of tools counted. */
  readonly toolCount: number;
  /** Tools that carried an `inputSchema`. */
  readonly schemaCount: number;
  /** Sum of `tokensNameDescription` (tokens). */
  readonly tokensNameDescription: number;
  /** Sum of `tokensWithSchema` (tokens). */
  readonly tokensWithSchemas: number;
  /** Per-tool costs, in input order. */
  readonly perTool: readonly ToolCost[];
}

/**
 * Sums the cost of every tool in a catalog.
 *
 * @param tools The catalog.
 * @param tokenizer Counts tokens.
 * @returns Totals and per-tool costs (tokens).
 */
export function catalogCost(tools: readonly Tool[], tokenizer: Tokenizer): CatalogCost {
  return sumCosts(tools.map((tool) => toolCost(tool, tokenizer)));
}

/**
 * Sums already-counted tool costs (used to cost subsets without recounting).
 *
 * @param perTool Per-tool costs.
 * @returns Totals over `perTool` (tokens).
 */
export function sumCosts(perTool: readonly ToolCost[]): CatalogCost {
  let tokensNameDescription = 0;
  let tokensWithSchemas = 0;
  let schemaCount = 0;
  for (const cost of perTool) {
    tokensNameDescription += cost.tokensNameDescription;
    tokensWithSchemas += cost.tokensWithSchema;
    if (cost.hasSchema) schemaCount++;
  }
  return {
    toolCount: perTool.length,
    schemaCount,
    tokensNameDescription,
    tokensWithSchemas,
    perTool,
  };
}
