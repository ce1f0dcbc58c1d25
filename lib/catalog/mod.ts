/**
 * Tool catalogs: the {@linkcode Tool} and {@linkcode Corpus} records, loaders
 * for four catalog formats, canonical JSON for schemas, and degenerate
 * description counts.
 *
 * - {@linkcode parseCatalog} (pure) and `loadCatalog` (`io.ts`) (reads a file,
 *   adds its sha256) read mcpmeter captures, mcpproxy benchmark corpora,
 *   LiveMCPBench snapshots and raw MCP `tools/list` results; bad input throws a
 *   {@linkcode CatalogError} naming the file, the tool and the field.
 * - {@linkcode canonicalJson}, {@linkcode canonicalizeJsonText} and
 *   {@linkcode schemaText} give the one text form of a schema that is counted
 *   and hashed: keys in UTF-8 byte order, no whitespace, number literals as
 *   written in the source file.
 * - {@linkcode parseToolOverrides} and {@linkcode applyToolOverrides} read and apply a
 *   tool-description overrides file (`server:tool` → new description, title, parameter
 *   descriptions); `loadToolOverrides` (`io.ts`) reads one from disk.
 * - {@linkcode sentTools} renders the exact `tools` value of a provider request body (Anthropic
 *   Messages, OpenAI Chat Completions and Responses, Gemini): the agent runner sends it and the
 *   cost layers count it.
 * - {@linkcode countDegenerateDescriptions} counts empty, stub and short
 *   descriptions and returns its rules as text for the report.
 *
 * @example Usage
 * ```ts
 * import { countDegenerateDescriptions, parseCatalog, schemaText } from "./mod.ts";
 * const corpus = parseCatalog(
 *   '{"tools": [{"name": "add", "description": "", "inputSchema": {"type": "object", "maximum": 1.50}}]}',
 *   { server: "calc" },
 * );
 * if (schemaText(corpus.tools[0]) !== '{"maximum":1.50,"type":"object"}') throw new Error("schema");
 * if (countDegenerateDescriptions(corpus.tools).byRule.empty !== 1) throw new Error("degenerate");
 * ```
 *
 * @module
 */
// The record vocabulary: every type of types.ts is public.
export type * from "./types.ts";
export {
  canonicalizeJsonText,
  canonicalJson,
  compareUtf8,
  type JsonArrayNode,
  type JsonBooleanNode,
  type JsonMember,
  type JsonNode,
  type JsonNodeBase,
  jsonNodeCanonical,
  jsonNodeMember,
  type JsonNullNode,
  type JsonNumberNode,
  type JsonObjectNode,
  type JsonStringNode,
  parseJsonLossless,
  schemaText,
} from "./canonical.ts";
export { CatalogError, type CatalogErrorOptions } from "./errors.ts";
export { InputFileError } from "../core/errors.ts";
// For the tools that print a catalog's names on a terminal (lint-catalog's table).
export { printable } from "../core/text.ts";
export {
  CATALOG_FORMATS,
  DUPLICATE_ID_SEPARATOR,
  parseCatalog,
  type ParseCatalogOptions,
} from "./parse.ts";
export { sha256Hex } from "./load.ts";
export {
  countDegenerateDescriptions,
  DEFAULT_MIN_DESCRIPTION_CHARS,
  DEFAULT_STUB_PATTERNS,
  type DegenerateCount,
  type DegenerateRuleId,
  type DegenerateRules,
  type DegenerateRuleText,
} from "./degenerate.ts";
export type { Tokenizer } from "../tokens/types.ts";
export {
  catalogCarriesSchemas,
  DEFAULT_MAX_DESCRIPTION_TOKENS,
  DEFAULT_MAX_SCHEMA_TOKENS,
  LINT_RULES,
  lintCatalog,
  type LintFinding,
  type LintOptions,
  type LintReport,
  type LintRule,
  type LintRuleId,
  type LintSeverity,
  type LintTarget,
  TOOL_COUNT_CAPS,
  type ToolCountCap,
} from "./lint.ts";
export {
  type NormalizationChange,
  type NormalizationChangeKind,
  type NormalizedSchema,
  normalizeForProvider,
  type NormalizeForProviderOptions,
  SCHEMA_DIALECTS,
  type SchemaDialect,
} from "./normalize.ts";
export {
  type AppliedOverride,
  applyToolOverrides,
  type OverrideProblem,
  type OverrideProblemKind,
  type OverridesApplied,
  parseToolOverrides,
  type ToolOverride,
  type ToolOverrides,
  ToolOverridesError,
  toolOverridesSha256,
} from "./overrides.ts";
export {
  DEFER_LOADING_FORMATS,
  SENT_FORMATS,
  type SentFormat,
  sentFormatDialect,
  type SentTool,
  sentTools,
  type SentToolsOptions,
} from "./sent.ts";
export {
  planSynthCatalog,
  synthCatalogChunks,
  synthCatalogHeader,
  type SynthOptions,
  type SynthPlan,
  type SynthReference,
  synthReference,
  type SynthServer,
  synthServers,
} from "./synth.ts";
