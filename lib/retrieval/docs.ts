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

/** The documents of a corpus under its tools' own fields, and their ids. */
export interface IndexDocs {
  /** {@linkcode docsFromTools}'s documents, in the order of the tools. */
  readonly docs: readonly RetrievalDoc[];
  /** Their ids. */
  readonly ids: ReadonlySet<string>;
}

const SHARED = new WeakMap<readonly Tool[], IndexDocs>();

/**
 * {@linkcode docsFromTools} with the tools' own fields ({@linkcode defaultIndexFields}), built
 * once per tools array and kept as long as the array lives: the bench reads the plain documents
 * of one corpus in every plain-index evaluation (each retriever), where it plans which arms to
 * score (`changedIndexFields`), and for the words of its unreachable tools. Exact: the documents
 * are a pure function of the tools, and a corpus's tools are not changed after loading (a changed
 * corpus is a new array). An arm's documents are not kept: they can be large (parameter tables)
 * and are read by few evaluations. The same array and set are returned each time: callers must
 * not change them.
 *
 * @param tools Corpus tools (ids unique).
 * @returns The documents and their ids.
 * @throws {RangeError} when two tools share an id (as {@linkcode docsFromTools}; nothing is kept).
 *
 * @example Usage
 * ```ts
 * import { sharedDocs } from "./docs.ts";
 * const tools = [{ id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue" }];
 * if (sharedDocs(tools).docs !== sharedDocs(tools).docs) throw new Error("built twice");
 * ```
 */
export function sharedDocs(tools: readonly Tool[]): IndexDocs {
  let made = SHARED.get(tools);
  if (made === undefined) {
    const docs = docsFromTools(tools);
    made = { docs, ids: new Set(docs.map((d) => d.id)) };
    SHARED.set(tools, made);
  }
  return made;
}
