/**
 * Dense retrieval: cosine similarity between a query's embedding and each tool's, the vectors
 * from an OpenAI-compatible embeddings endpoint ({@linkcode createEmbedder}).
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import { checkLimit } from "./_limit.ts";
import {
  cosine,
  createEmbedder,
  type Embedder,
  type EmbeddingModel,
  type EmbeddingUsage,
} from "./embeddings.ts";
import { compareHits } from "./metrics.ts";
import type {
  Hit,
  RetrievalDoc,
  RetrieverContext,
  RetrieverEntry,
  RetrieverWith,
} from "./types.ts";

/**
 * The text embedded for a tool: `server tool_name: description`.
 *
 * @param doc A retrieval document.
 * @returns The text.
 */
export function denseDocText(doc: RetrievalDoc): string {
  return `${doc.server} ${doc.name}: ${doc.description}`.trim();
}

/** Options of {@linkcode createDenseRetriever}. */
export interface DenseOptions {
  /** The embedder (model, endpoint, cache). */
  readonly embedder: Embedder;
  /**
   * Text embedded per document.
   * @default {denseDocText}
   */
  readonly docText?: (doc: RetrievalDoc) => string;
}

/**
 * A built dense index: a {@linkcode Retriever} whose `prepare` embeds the queries `search` will
 * see (only those not embedded yet) and whose `cost` counts the requests, tokens and USD of the
 * index and the queries, and cache hits.
 */
export type DenseRetriever = RetrieverWith<"prepare" | "cost">;

const SCORE_SCALE = 1e9;

/**
 * Build a dense index: embed every document once (through the embedder's cache).
 *
 * Search ranks every document by cosine similarity with the query's vector (computed by
 * `prepare`), rounded to 9 decimals so equal scores tie exactly and fall back to id order.
 *
 * @param docs Documents (ids unique).
 * @param options Embedder and document text.
 * @returns A {@linkcode DenseRetriever} named `dense`.
 * @throws {EmbeddingError} when the endpoint fails or returns unusable vectors.
 */
export async function createDenseRetriever(
  docs: readonly RetrievalDoc[],
  options: DenseOptions,
): Promise<DenseRetriever> {
  const { embedder } = options;
  const docText = options.docText ?? denseDocText;
  const vectors = await embedder.embed(docs.map(docText));
  const atIndex = embedder.usage();
  const queryVectors = new Map<string, number[]>();
  const m = embedder.model;
  const phase = (u: EmbeddingUsage, base?: EmbeddingUsage) => {
    const inputTokens = u.inputTokens - (base?.inputTokens ?? 0);
    return {
      requests: u.requests - (base?.requests ?? 0),
      inputTokens,
      usd: inputTokens * m.inputUsdPerMTok / 1e6,
    };
  };
  return {
    name: "dense",
    config: {
      embeddingModel: m.id,
      model: m.model,
      dimension: vectors[0]?.length ?? 0,
      similarity: "cosine",
    },
    async prepare(queries) {
      const todo = [...new Set(queries)].filter((q) => !queryVectors.has(q));
      if (todo.length === 0) return;
      const got = await embedder.embed(todo);
      todo.forEach((q, i) => queryVectors.set(q, got[i]));
    },
    cost() {
      const u = embedder.usage();
      return {
        requests: u.requests,
        inputTokens: u.inputTokens,
        usd: u.usd,
        phases: { index: phase(atIndex), queries: phase(u, atIndex) },
        cachedTexts: u.cachedTexts,
      };
    },
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      const q = queryVectors.get(query);
      if (q === undefined) {
        throw new Error(
          `dense: query "${query.slice(0, 60)}" was not prepared; call prepare() before search()`,
        );
      }
      const hits = docs.map((d, i) => ({
        id: d.id,
        score: Math.round(cosine(q, vectors[i]) * SCORE_SCALE) / SCORE_SCALE,
      }));
      return hits.sort(compareHits).slice(0, limit);
    },
  };
}

/**
 * Reads the embedding model the caller put in `context.settings.embeddingModel` (the registry
 * entry without its key) and builds an embedder over `context.fetch` (which adds the key) and
 * `context.embeddingStore`.
 *
 * @param context Retriever context.
 * @param who Retriever name, for messages.
 * @returns The embedder.
 * @throws {TypeError} when the settings or the HTTP client are missing.
 */
export function embedderFromContext(context: RetrieverContext, who: string): Embedder {
  const raw = context.settings?.embeddingModel as
    | { [key: string]: JsonValue }
    | undefined;
  if (raw === undefined || typeof raw !== "object" || context.fetch === undefined) {
    throw new TypeError(
      `Retriever "${who}" needs an embedding model: pass --embedding-model ID (a model-registry entry with kind "embedding")`,
    );
  }
  const model: EmbeddingModel = {
    id: String(raw.id),
    model: String(raw.model),
    baseUrl: String(raw.baseUrl),
    inputUsdPerMTok: Number(raw.inputUsdPerMTok ?? 0),
  };
  return createEmbedder(model, {
    fetch: context.fetch,
    ...(context.embeddingStore ? { store: context.embeddingStore } : {}),
    ...(typeof raw.batchSize === "number" ? { batchSize: raw.batchSize } : {}),
    ...(typeof raw.concurrency === "number" ? { concurrency: raw.concurrency } : {}),
    ...(typeof raw.timeoutMs === "number" ? { timeoutMs: raw.timeoutMs } : {}),
  });
}

/** Registry entry of the `dense` retriever. */
export const denseEntry: RetrieverEntry = {
  name: "dense",
  label: "dense",
  summary:
    "cosine over embeddings from an OpenAI-compatible /v1/embeddings endpoint (--embedding-model)",
  reads: ["name", "server", "description"],
  needsGolden: false,
  asyncBuild: true,
  reportsCost: true,
  endpoint: "embedding",
  create: (docs, context) =>
    createDenseRetriever(docs, { embedder: embedderFromContext(context, "dense") }),
};
