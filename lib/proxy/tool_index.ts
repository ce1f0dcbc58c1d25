/**
 * The proxy's search index: upstream tools as catalog {@linkcode Tool}
 * records, ranked by the retrieval module's BM25 (or any retriever factory).
 *
 * @module
 */
import type { JsonObject, JsonValue, Tool } from "../catalog/types.ts";
import { createBm25Retriever } from "../retrieval/bm25.ts";
import { docsFromTools } from "../retrieval/docs.ts";
import { retrieverEntry } from "../retrieval/registry.ts";
import type { Hit, RetrievalDoc, Retriever, RetrieverContext } from "../retrieval/types.ts";

/** Builds a retriever over documents (e.g. `(docs) => createBm25Retriever(docs, {weights})`). */
export type ProxyRetrieverFactory = (docs: readonly RetrievalDoc[]) => Retriever;

/**
 * The proxy's factory for a registered retriever (`RETRIEVERS` in `lib/retrieval/registry.ts`),
 * chosen by the capabilities its entry declares rather than by name.
 *
 * @param name A registered retriever name, e.g. `bm25`.
 * @param context Seed, settings and fetch for the retriever (no golden set: the proxy has none).
 * @returns A factory for {@linkcode ToolIndexOptions.retriever}.
 * An entry that builds asynchronously (`dense`, `hybrid`: embeddings from an endpoint) is built on
 * the first `retrieve_tools` call, inside the index's `prepare`, and each query is prepared
 * (embedded) before it is searched; `context` must then carry the embedding settings and `fetch`.
 *
 * @throws {RangeError} For an unknown name.
 * @throws {TypeError} When the entry needs golden labels (the oracle).
 *
 * @example Usage
 * ```ts
 * import { createToolIndex, proxyRetriever } from "./tool_index.ts";
 * const index = createToolIndex([
 *   { id: "fs:read_file", server: "fs", name: "read_file", description: "Read a file" },
 * ], { retriever: proxyRetriever("tfidf_classic") });
 * if (index.retriever.name !== "tfidf_classic") throw new Error();
 * ```
 */
export function proxyRetriever(
  name: string,
  context: Omit<RetrieverContext, "golden"> = { seed: 0 },
): ProxyRetrieverFactory {
  const entry = retrieverEntry(name);
  if (entry.needsGolden) {
    throw new TypeError(`Cannot serve retriever "${name}" from the proxy: it needs golden labels`);
  }
  if (!entry.asyncBuild) return (docs) => entry.create(docs, context) as Retriever;
  return (docs) => {
    let built: Retriever | undefined;
    let building: Promise<Retriever> | undefined;
    const ready = async () => {
      building ??= Promise.resolve(entry.create(docs, context)).then((r) => built = r);
      return await building.catch((error) => {
        building = undefined; // the next call tries again
        throw error;
      });
    };
    return {
      name: entry.name,
      get config() {
        return built?.config ?? { building: true };
      },
      async prepare(queries: readonly string[]) {
        const r = await ready();
        await r.prepare?.(queries);
      },
      search(query: string, limit: number) {
        if (built === undefined) {
          throw new Error(`retriever "${entry.name}" is not built yet: call prepare() first`);
        }
        return built.search(query, limit);
      },
    };
  };
}

/** Options of {@linkcode createToolIndex}. */
export interface ToolIndexOptions {
  /**
   * Retriever factory.
   * @default {(docs) => createBm25Retriever(docs)} (lib/retrieval defaults)
   */
  readonly retriever?: ProxyRetrieverFactory;
}

/** A searchable set of upstream tools. */
export interface ToolIndex {
  /** The tools, sorted by id (UTF-16 code unit order). */
  readonly tools: readonly Tool[];
  /** Name and config of the retriever, for result records. */
  readonly retriever: { readonly name: string; readonly config: JsonObject };
  /**
   * Ranks tools for a free-text query.
   *
   * @param query Free text.
   * @param limit Maximum hits (positive integer).
   * @returns Hits, score descending then id ascending; only tools that match at all.
   */
  search(query: string, limit: number): readonly Hit[];
  /**
   * Fetches what `search` needs for these queries from the retriever's endpoint (building the
   * index on first use); present only for retrievers that call one.
   *
   * @param queries Queries about to be searched.
   */
  readonly prepare?: (queries: readonly string[]) => Promise<void>;
  /**
   * Looks a tool up by id (`server:name`).
   *
   * @param id Tool id.
   * @returns The tool, or `undefined`.
   */
  get(id: string): Tool | undefined;
}

/**
 * Builds the index over `tools`.
 *
 * @param tools Tools with unique ids (any order).
 * @param options Retriever factory.
 * @returns The index; `search` on an empty catalog returns no hits.
 * @throws {RangeError} When two tools share an id.
 *
 * @example Usage
 * ```ts
 * import { createToolIndex } from "./tool_index.ts";
 * const index = createToolIndex([
 *   { id: "fs:read_file", server: "fs", name: "read_file", description: "Read a file from disk" },
 * ]);
 * if (index.search("read a file", 5)[0]?.id !== "fs:read_file") throw new Error("not found");
 * ```
 */
export function createToolIndex(tools: readonly Tool[], options: ToolIndexOptions = {}): ToolIndex {
  const sorted = [...tools].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const byId = new Map<string, Tool>();
  for (const tool of sorted) {
    if (byId.has(tool.id)) {
      throw new RangeError(`Cannot index tools: id "${tool.id}" appears twice`);
    }
    byId.set(tool.id, tool);
  }
  const factory = options.retriever ?? ((docs) => createBm25Retriever(docs));
  const docs: RetrievalDoc[] = docsFromTools(sorted);
  const retriever = factory(docs);
  return {
    tools: sorted,
    retriever: {
      name: retriever.name,
      get config() {
        return retriever.config as JsonObject;
      },
    },
    ...(retriever.prepare === undefined || sorted.length === 0 ? {} : {
      prepare: (queries: readonly string[]) => retriever.prepare!(queries),
    }),
    search(query: string, limit: number): readonly Hit[] {
      if (sorted.length === 0) return [];
      return retriever.search(query, limit);
    },
    get(id: string): Tool | undefined {
      return byId.get(id);
    },
  };
}

/**
 * Turns one raw `tools/list` item of an upstream into a catalog {@linkcode Tool}.
 *
 * Lenient: a missing or non-string description becomes `""`, an `inputSchema`
 * that is not an object is left out; each leniency adds a warning.
 *
 * @param server Upstream name (config key); becomes `Tool.server`.
 * @param raw The item exactly as listed.
 * @returns The tool and warnings (strings naming the tool and field).
 * @throws {TypeError} When `raw.name` is not a non-empty string.
 *
 * @example Usage
 * ```ts
 * import { toolFromListing } from "./tool_index.ts";
 * const { tool } = toolFromListing("fs", { name: "read_file", inputSchema: { type: "object" } });
 * if (tool.id !== "fs:read_file" || tool.description !== "") throw new Error();
 * ```
 */
export function toolFromListing(
  server: string,
  raw: JsonObject,
): { readonly tool: Tool; readonly warnings: readonly string[] } {
  const name = raw.name;
  if (typeof name !== "string" || name === "") {
    throw new TypeError(
      `Upstream "${server}" listed a tool without a name: ${JSON.stringify(raw)}`,
    );
  }
  const warnings: string[] = [];
  const id = `${server}:${name}`;
  const description = typeof raw.description === "string" ? raw.description : "";
  if (raw.description !== undefined && typeof raw.description !== "string") {
    warnings.push(`tool "${id}": description is not a string; counted as ""`);
  }
  const tool: {
    -readonly [K in keyof Tool]: Tool[K];
  } = { id, server, name, description };
  if (typeof raw.title === "string") tool.title = raw.title;
  const objectField = (key: string): JsonObject | undefined => {
    const v: JsonValue | undefined = raw[key];
    if (v === undefined) return undefined;
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      warnings.push(`tool "${id}": ${key} is not an object; left out`);
      return undefined;
    }
    return v as JsonObject;
  };
  const input = objectField("inputSchema");
  if (input !== undefined) tool.inputSchema = input;
  const output = objectField("outputSchema");
  if (output !== undefined) tool.outputSchema = output;
  const annotations = objectField("annotations");
  if (annotations !== undefined) tool.annotations = annotations;
  return { tool, warnings };
}
