// The flags of the retrievers that call a model (dense, hybrid, rerank, expand), shared by
// deno task bench and deno task proxy: their parseArgs spec and their options.
import { intFlag } from "./_flags.ts";

/** parseArgs spec of the model-retriever flags. */
export const RETRIEVER_MODEL_FLAGS = {
  "embedding-model": { type: "string" },
  models: { type: "string", path: true },
  "embedding-cache": { type: "string", path: true },
  "rerank-model": { type: "string" },
  "rerank-base": { type: "string" },
  "rerank-k": { type: "string" },
  "expand-model": { type: "string" },
  "chat-cache": { type: "string", path: true },
  "model-timeout": { type: "string" },
} as const;

/** The parsed model-retriever flags. */
export type RetrieverModelFlags = {
  readonly [K in keyof typeof RETRIEVER_MODEL_FLAGS]?: string;
};

/**
 * The options the given model-retriever flags set (absent flags set nothing).
 *
 * @param v Parsed flags.
 * @param defaultRerankK Candidates of rerank when `--rerank-k` has no number.
 * @returns Options for runBench or runProxy.
 * @throws {UsageError} When `--rerank-k` is not an integer >= 2 or `--model-timeout` not one >= 1.
 */
export function retrieverModelOptions(v: RetrieverModelFlags, defaultRerankK: number): {
  embeddingModel?: string;
  models?: string;
  embeddingCache?: string;
  rerankModel?: string;
  rerankBase?: string;
  rerankK?: number;
  expandModel?: string;
  chatCache?: string;
  modelTimeoutMs?: number;
} {
  return {
    ...(v["embedding-model"] ? { embeddingModel: v["embedding-model"] } : {}),
    ...(v.models ? { models: v.models } : {}),
    ...(v["embedding-cache"] ? { embeddingCache: v["embedding-cache"] } : {}),
    ...(v["rerank-model"] ? { rerankModel: v["rerank-model"] } : {}),
    ...(v["rerank-base"] ? { rerankBase: v["rerank-base"] } : {}),
    ...(v["rerank-k"] ? { rerankK: intFlag("rerank-k", v["rerank-k"], defaultRerankK, 2) } : {}),
    ...(v["expand-model"] ? { expandModel: v["expand-model"] } : {}),
    ...(v["chat-cache"] ? { chatCache: v["chat-cache"] } : {}),
    ...(v["model-timeout"]
      ? { modelTimeoutMs: 1000 * intFlag("model-timeout", v["model-timeout"], 0, 1) }
      : {}),
  };
}
