/**
 * `anthropic_hosted`: what Anthropic's own tool search returns, scored like the other
 * retrievers. The caller injects the client (`RetrieverContext.hostedSearch`, built from the
 * model registry with `--hosted-search anthropic:ID`: lib/retrieval never calls a provider
 * itself); each golden query is sent once, with every tool of the corpus deferred behind the
 * tool search tool, and the ranking is the order of the `tool_reference` blocks over the
 * searches the model made (each tool once).
 *
 * @module
 */

import { checkLimit } from "./_limit.ts";
import type {
  Hit,
  HostedSearchAnswer,
  HostedSearchClient,
  RetrievalDoc,
  Retriever,
  RetrieverCost,
  RetrieverEntry,
  RetrieverWith,
} from "./types.ts";

/**
 * The ranking of one answer: the ids of every search's references, in order, each once.
 *
 * @param answer The hosted search's answer.
 * @returns Hits, score = count − rank (higher first).
 */
export function hostedRanking(answer: HostedSearchAnswer): Hit[] {
  const ids: string[] = [];
  for (const s of answer.searches) for (const id of s.ids) if (!ids.includes(id)) ids.push(id);
  return ids.map((id, i) => ({ id, score: ids.length - i }));
}

/** What to say about one answer beside its metrics (no search, several, errors). */
function answerNotes(answer: HostedSearchAnswer): string[] {
  const notes: string[] = [];
  if (answer.searches.length === 0) notes.push("the model made no search");
  if (answer.searches.length > 1) notes.push(`the model searched ${answer.searches.length} times`);
  for (const s of answer.searches) {
    if (s.error !== undefined) notes.push(`a search failed: ${s.error}`);
  }
  return notes;
}

/**
 * Builds the retriever over an injected client: `prepare` asks the hosted search once per
 * distinct query (progress every 10), `search` ranks what it answered.
 *
 * @param docs The corpus.
 * @param client The hosted search.
 * @param progress Progress lines.
 * @returns The retriever (cost, per-query cost and notes included).
 */
export function createHostedRetriever(
  docs: readonly RetrievalDoc[],
  client: HostedSearchClient,
  progress?: (message: string) => void,
): RetrieverWith<"prepare" | "cost" | "queryCost" | "queryNotes"> {
  const answers = new Map<string, HostedSearchAnswer>();
  const total = () => {
    let requests = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    let usd: number | null = 0;
    let cachedTexts = 0;
    for (const a of answers.values()) {
      requests += a.cost.requests;
      inputTokens += a.cost.inputTokens ?? 0;
      outputTokens += a.cost.outputTokens ?? 0;
      usd = usd === null || a.cost.usd === null ? null : usd + a.cost.usd;
      if (a.cost.cached) cachedTexts += 1;
    }
    return { requests, inputTokens, outputTokens, usd, cachedTexts } satisfies RetrieverCost;
  };
  return {
    name: "anthropic_hosted",
    config: client.config,
    hosted: client.info,
    cost: total,
    async prepare(queries: readonly string[]) {
      const todo = [...new Set(queries)].filter((q) => !answers.has(q));
      for (const [i, q] of todo.entries()) {
        answers.set(q, await client.search(docs, q));
        if ((i + 1) % 10 === 0 || i + 1 === todo.length) {
          progress?.(`anthropic_hosted: ${i + 1}/${todo.length} queries`);
        }
      }
    },
    queryCost: (query: string) => answers.get(query)?.cost,
    queryNotes: (query: string) => {
      const a = answers.get(query);
      return a === undefined ? [] : answerNotes(a);
    },
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      const a = answers.get(query);
      if (a === undefined) {
        throw new RangeError(
          `Cannot search "${query}" with anthropic_hosted: the query was not prepared`,
        );
      }
      return hostedRanking(a).slice(0, limit);
    },
  } satisfies Retriever;
}

/** Registry entry of `anthropic_hosted`. */
export const anthropicHostedEntry: RetrieverEntry = {
  name: "anthropic_hosted",
  label: "Anthropic tool search (hosted)",
  summary:
    "Anthropic's tool search itself: each query sent once with every tool deferred, ranked by its tool_reference blocks (--hosted-search anthropic:ID)",
  reads: ["name", "description", "params"],
  needsGolden: false,
  asyncBuild: true,
  reportsCost: true,
  endpoint: "hosted",
  create: (docs, context) => {
    if (context.hostedSearch === undefined) {
      return Promise.reject(
        new RangeError(
          "anthropic_hosted needs its client: pass --hosted-search anthropic:ID (a model of the registry)",
        ),
      );
    }
    return Promise.resolve(createHostedRetriever(docs, context.hostedSearch, context.progress));
  },
};
