/**
 * Turn a tool catalog into retrieval documents.
 *
 * @module
 */

import { schemaText } from "../catalog/canonical.ts";
import type { Tool } from "../catalog/types.ts";
import type { IndexFields, IndexFieldsFn, RetrievalDoc } from "./types.ts";

/**
 * The index fields of a tool when no encoding arm is given: its name, server, description and
 * the canonical JSON text of its `inputSchema` (what a proxy such as mcpproxy indexes as
 * `params_json`), `""` when it has none.
 *
 * @param tool A corpus tool.
 * @returns `{name, server, description, params}`.
 */
export function defaultIndexFields(tool: Tool): IndexFields {
  return {
    name: tool.name,
    server: tool.server,
    description: tool.description,
    params: schemaText(tool) ?? "",
  };
}

/**
 * Build one retrieval document per tool, id = `tool.id` (the `server:name` id the golden labels
 * use), fields from `indexFields` (an encoding arm's) or {@linkcode defaultIndexFields}.
 *
 * @param tools Corpus tools (ids unique).
 * @param indexFields Field extractor; defaults to {@linkcode defaultIndexFields}.
 * @returns Documents in the order of `tools`.
 * @throws {RangeError} when two tools share an id.
 * @throws {TypeError} when `indexFields` returns a non-string field.
 *
 * @example Usage
 * ```ts
 * import { docsFromTools } from "./docs.ts";
 * const docs = docsFromTools([{ id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue" }]);
 * if (docs[0].id !== "gh:create_issue" || docs[0].params !== "") throw new Error("unexpected");
 * ```
 */
export function docsFromTools(
  tools: readonly Tool[],
  indexFields: IndexFieldsFn = defaultIndexFields,
): RetrievalDoc[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool.id)) {
      throw new RangeError(`Cannot index tools: id "${tool.id}" appears twice`);
    }
    seen.add(tool.id);
    const f = indexFields(tool);
    for (const key of ["name", "server", "description", "params"] as const) {
      if (typeof f[key] !== "string") {
        throw new TypeError(
          `Cannot index tool "${tool.id}": index field "${key}" is ${typeof f[key]}, not a string`,
        );
      }
    }
    return {
      id: tool.id,
      name: f.name,
      server: f.server,
      description: f.description,
      params: f.params,
    };
  });
}
