/**
 * The data contract of a tool catalog: one {@linkcode Tool} per MCP tool and a
 * {@linkcode Corpus} that holds a frozen set of them with its provenance.
 *
 * @module
 */

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON object (a JSON Schema, annotations, ...). */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * One MCP tool definition, as an agent would see it in a `tools/list` result,
 * tagged with the server that exposes it.
 *
 * `id` is `server + ":" + name` and is unique within a {@linkcode Corpus}; when
 * one server lists a name more than once, its later definitions get
 * `server:name#2`, `#3`, ... (see `parseCatalog`).
 */
export interface Tool {
  /** `server:name`, unique within a corpus. */
  readonly id: string;
  /** Server (or package) name that exposes the tool. Never empty. */
  readonly server: string;
  /** Tool name as sent in `tools/list`. Never empty. */
  readonly name: string;
  /** Optional human-readable title (MCP 2025-06-18 `title`). */
  readonly title?: string;
  /** Description text; `""` when the server sent none. */
  readonly description: string;
  /**
   * The `inputSchema` JSON Schema, parsed. Absent for name+description corpora. A JS object:
   * integer-like keys (`"2"`, `"10"`) enumerate first, in ascending numeric order, not in the
   * file's order (as `JSON.parse` gives them). Measurements read `inputSchemaCanonical` or order
   * parameters by their own rule, so none depends on the file's member order.
   */
  readonly inputSchema?: JsonObject;
  /**
   * Canonical JSON text of `inputSchema` (see `canonicalJson` in
   * `lib/catalog/canonical.ts`): keys sorted by UTF-8 bytes, no whitespace,
   * number literals exactly as written in the source file. Set by loaders that
   * read from text; when absent, consumers canonicalize `inputSchema`.
   */
  readonly inputSchemaCanonical?: string;
  /** The `outputSchema` JSON Schema, parsed, when the server sent one. */
  readonly outputSchema?: JsonObject;
  /** MCP tool annotations (`readOnlyHint`, ...), when the server sent them. */
  readonly annotations?: JsonObject;
}

/** Where a corpus came from. */
export interface CorpusProvenance {
  /** Input format the corpus was loaded from. */
  readonly format: CatalogFormat;
  /** Path of the file it was read from, as given by the caller (absent for in-memory input). */
  readonly path?: string;
  /** Lower-case hex SHA-256 of the exact bytes read; absent for in-memory input. */
  readonly sha256?: string;
  /** Free-form source description copied from the file (URL, dataset, capture tool). */
  readonly source?: JsonValue;
}

/**
 * Catalog file formats that {@linkcode Corpus} loaders understand: MCP's own and benchmark
 * corpora, then tool definitions written for a provider's API (read as MCP tools).
 */
export type CatalogFormat =
  | "mcpmeter-capture"
  | "mcpproxy-corpus"
  | "livemcpbench"
  | "mcp-tools-list"
  | "anthropic-messages"
  | "openai-chat-completions"
  | "openai-responses"
  | "gemini";

/** A frozen set of tools, sorted by `id` (UTF-16 code unit order, as `Array.prototype.sort`). */
export interface Corpus {
  /** Short identifier, e.g. `reference_v1` or `livemcptool`. */
  readonly id: string;
  /** Version string from the file, or `"unversioned"`. */
  readonly version: string;
  /** Format, path, sha256 and source of the file the corpus was read from. */
  readonly provenance: CorpusProvenance;
  /** Tools sorted by `id`, ids unique. */
  readonly tools: readonly Tool[];
  /** Non-fatal oddities found while loading (lenient parses, dropped fields). */
  readonly warnings: readonly string[];
}
