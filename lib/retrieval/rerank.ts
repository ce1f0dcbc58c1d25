/**
 * Listwise LLM reranking: a base retriever (default `bm25`) proposes its top k tools, a chat
 * model reads the request and the k numbered candidates and answers with their order, best
 * first (the listwise setting of RankGPT, Sun et al., EMNLP 2023). The model's answer is
 * parsed defensively: numbers outside the candidate list and repeats are dropped, candidates
 * it left out follow in the base order, and each repair is recorded on the query's row.
 *
 * The chat model comes in through {@linkcode RetrieverContext.chat} (the caller builds it from
 * the provider registry) with an answer cache keyed by model + SHA-256 of the prompt.
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import { mapBounded } from "../core/pool.ts";
import { oneLine } from "../core/text.ts";
import { checkLimit } from "./_limit.ts";
import {
  type ChatCall,
  type ChatCaller,
  type ChatRequest,
  type ChatUsage,
  createChatCaller,
} from "./chat.ts";
import type {
  Hit,
  QueryCost,
  RetrievalDoc,
  Retriever,
  RetrieverContext,
  RetrieverCost,
  RetrieverEntry,
  RetrieverWith,
} from "./types.ts";
import { INDEX_FIELD_NAMES } from "./types.ts";

/** Candidates the base retriever proposes unless told otherwise. */
export const DEFAULT_RERANK_K = 20;

/** Base retriever unless told otherwise. */
export const DEFAULT_RERANK_BASE = "bm25";

/** Characters of a candidate's description shown to the model (longer ones are cut). */
export const RERANK_DESCRIPTION_CHARS = 300;

/** Version of the prompt below; recorded in the config, so a changed prompt is visible. */
export const RERANK_PROMPT_VERSION = 1;

const SYSTEM =
  "You choose tools for an AI assistant. You get a user's request and a numbered list of " +
  "candidate tools. Order the candidates from the most to the least useful for carrying out " +
  "the request. Answer with the candidate numbers only, best first, separated by ' > ' " +
  "(for example: [2] > [3] > [1]), each number once, and nothing else.";

/**
 * The prompt that asks the model to order `candidates` for `query`.
 *
 * @param query The user's request.
 * @param candidates The base retriever's top k documents, in its order.
 * @returns System prompt, user message and output cap (about 6 tokens per candidate + 16).
 *
 * @example Usage
 * ```ts
 * import { rerankPrompt } from "./rerank.ts";
 * const p = rerankPrompt("open a bug", [
 *   { id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue", params: "" },
 * ]);
 * if (!p.user.includes("[1] gh/create_issue: Open an issue")) throw new Error(p.user);
 * ```
 */
export function rerankPrompt(query: string, candidates: readonly RetrievalDoc[]): ChatRequest {
  const lines = candidates.map((d, i) => {
    const description = oneLine(d.description, RERANK_DESCRIPTION_CHARS);
    return `[${i + 1}] ${d.server}/${d.name}${description ? `: ${description}` : ""}`;
  });
  return {
    system: SYSTEM,
    user: `Request: ${oneLine(query, 2000)}\n\nCandidates:\n${lines.join("\n")}\n\n` +
      `Order all ${candidates.length} candidates, best first.`,
    maxOutputTokens: 6 * candidates.length + 16,
  };
}

/** The order read from a model's answer, and what had to be repaired. */
export interface ParsedRanking {
  /** 0-based candidate indexes, best first: every candidate exactly once. */
  readonly order: readonly number[];
  /** Candidates the answer ranked (its own order kept). */
  readonly ranked: number;
  /** Numbers or ids in the answer that name no candidate, as written (dropped). */
  readonly unknown: readonly string[];
  /** Candidates the answer named more than once (later mentions dropped). */
  readonly repeated: number;
  /** Candidates the answer left out, appended in the base order. */
  readonly appended: number;
}

/**
 * Reads a ranking from a model's answer over `ids` (the candidates in base order).
 *
 * Accepted forms, in this order: bracketed numbers (`[3] > [1] > [2]`); otherwise bare numbers
 * (`3, 1, 2` or `[3, 1, 2]`); otherwise the candidates' ids (`server:tool`) or `server/tool`
 * names as they first appear in the text. Numbers outside 1..n and repeats are dropped;
 * candidates not named are appended in base order, so the result is always a permutation.
 *
 * @param text The model's answer.
 * @param ids Candidate ids, base order (`n = ids.length`).
 * @returns The permutation and the repairs.
 *
 * @example Usage
 * ```ts
 * import { parseRanking } from "./rerank.ts";
 * const p = parseRanking("[3] > [9] > [3] > [1]", ["a", "b", "c"]);
 * if (p.order.join() !== "2,0,1" || p.unknown[0] !== "9" || p.appended !== 1) throw new Error();
 * ```
 */
export function parseRanking(text: string, ids: readonly string[]): ParsedRanking {
  const n = ids.length;
  const order: number[] = [];
  const seen = new Set<number>();
  const unknown: string[] = [];
  let repeated = 0;
  const take = (index: number) => {
    if (seen.has(index)) repeated++;
    else {
      seen.add(index);
      order.push(index);
    }
  };
  const bracketed = [...text.matchAll(/\[\s*(\d+)\s*\]/g)].map((m) => m[1]);
  const numbers = bracketed.length > 0
    ? bracketed
    : [...text.matchAll(/(?<![\w.:/-])(\d+)(?![\w.:/-])/g)].map((m) => m[1]);
  if (numbers.length > 0) {
    for (const raw of numbers) {
      const k = Number(raw);
      if (Number.isInteger(k) && k >= 1 && k <= n) take(k - 1);
      else unknown.push(raw);
    }
  } else {
    // No numbers: the model may have echoed ids. Order by first appearance.
    const found: { at: number; index: number }[] = [];
    ids.forEach((id, index) => {
      const slash = id.replace(":", "/");
      const at = [text.indexOf(id), text.indexOf(slash)].filter((i) => i >= 0);
      if (at.length > 0) found.push({ at: Math.min(...at), index });
    });
    found.sort((a, b) => a.at - b.at || a.index - b.index);
    for (const f of found) take(f.index);
  }
  const ranked = order.length;
  for (let i = 0; i < n; i++) if (!seen.has(i)) order.push(i);
  return { order, ranked, unknown, repeated, appended: n - ranked };
}

/** The outcome of one query's rerank. */
interface QueryRerank {
  readonly ids: readonly string[];
  readonly cost?: QueryCost;
  readonly notes: readonly string[];
}

/** Options of {@linkcode createRerankRetriever}. */
export interface RerankOptions {
  /** The base retriever, already built over the same documents. */
  readonly base: Retriever;
  /** The chat model with its cache and totals ({@linkcode createChatCaller}). */
  readonly caller: ChatCaller;
  /**
   * Candidates taken from the base retriever per query (≥ 2).
   * @default {DEFAULT_RERANK_K}
   */
  readonly k?: number;
  /**
   * Prompts in flight at once.
   * @default {4}
   */
  readonly concurrency?: number;
  /** Progress: queries reranked so far of those being prepared, every 50 and at the end. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A built reranker: a {@linkcode Retriever} with `prepare`, `cost`, `queryCost`, `queryNotes`. */
export type RerankRetriever = RetrieverWith<"prepare" | "cost" | "queryCost" | "queryNotes">;

/** Raised when every rerank call of a `prepare` failed: nothing was reranked. */
export class RerankError extends Error {
  /**
   * Builds the error.
   *
   * @param message One line naming the model, the count and the first cause.
   */
  constructor(message: string) {
    super(message);
    this.name = "RerankError";
  }
}

const usageCost = (u: ChatUsage, base?: RetrieverCost): RetrieverCost => ({
  requests: u.requests + (base?.requests ?? 0),
  inputTokens: u.inputTokens + (base?.inputTokens ?? 0),
  outputTokens: u.outputTokens + (base?.outputTokens ?? 0),
  usd: u.usd === null || (base !== undefined && base.usd === null)
    ? null
    : u.usd + (base?.usd ?? 0),
});

/**
 * Builds a listwise reranker over a base retriever.
 *
 * `prepare(queries)` prepares the base (its own endpoint calls, if any), takes its top k per
 * query, and sends one {@linkcode rerankPrompt} per query with fewer than 2 candidates skipped
 * (nothing to order). A failed call (after the provider's retries) leaves that query in base
 * order, with the cause in its notes and in `cost().failures`; when every call fails,
 * `prepare` rejects with a {@linkcode RerankError}. `search(query, limit)` returns the reranked
 * candidates, then the base hits after the first k, scores strictly decreasing.
 *
 * @param docs The indexed documents (ids unique), for the candidates' text.
 * @param options Base, chat caller, k, concurrency.
 * @returns A {@linkcode RerankRetriever} named `rerank`.
 * @throws {RangeError} when k < 2 or concurrency < 1 is not an integer.
 */
export function createRerankRetriever(
  docs: readonly RetrievalDoc[],
  options: RerankOptions,
): RerankRetriever {
  const k = options.k ?? DEFAULT_RERANK_K;
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(k) || k < 2) {
    throw new RangeError(`Cannot rerank: k must be an integer >= 2, got ${k}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`Cannot rerank: concurrency must be an integer >= 1, got ${concurrency}`);
  }
  const { base, caller } = options;
  const byId = new Map(docs.map((d) => [d.id, d]));
  const done = new Map<string, QueryRerank>();
  const failures: string[] = [];
  let failed = 0;

  const rerankOne = async (query: string): Promise<QueryRerank> => {
    const candidates = base.search(query, k).map((h) => h.id);
    if (candidates.length < 2) return { ids: candidates, notes: [] };
    const prompt = rerankPrompt(query, candidates.map((id) => byId.get(id)!));
    let call: ChatCall;
    try {
      call = await caller.call(prompt);
    } catch (error) {
      const cause = oneLine(error, 200);
      failed++;
      if (failures.length < 5) failures.push(cause);
      return { ids: candidates, notes: [`rerank call failed, base order kept: ${cause}`] };
    }
    const parsed = parseRanking(call.text, candidates);
    const notes: string[] = [];
    if (parsed.unknown.length > 0) {
      notes.push(
        `dropped ${parsed.unknown.length} unknown candidate number(s): ${
          parsed.unknown.slice(0, 5).join(", ")
        }`,
      );
    }
    if (parsed.repeated > 0) notes.push(`dropped ${parsed.repeated} repeated candidate(s)`);
    if (parsed.appended > 0) {
      notes.push(
        `${parsed.appended} of ${candidates.length} candidates not ranked by the model, appended in base order`,
      );
    }
    return {
      ids: parsed.order.map((i) => candidates[i]),
      cost: {
        requests: call.requests,
        inputTokens: call.inputTokens,
        outputTokens: call.outputTokens,
        usd: call.usd,
        cached: call.cached,
      },
      notes,
    };
  };

  const got = (query: string): QueryRerank => {
    const r = done.get(query);
    if (r === undefined) {
      throw new Error(
        `rerank: query "${query.slice(0, 60)}" was not prepared; call prepare() before search()`,
      );
    }
    return r;
  };

  return {
    name: "rerank",
    config: {
      base: base.name,
      baseConfig: base.config,
      k,
      chatModel: caller.model.id,
      model: caller.model.model,
      promptVersion: RERANK_PROMPT_VERSION,
      descriptionChars: RERANK_DESCRIPTION_CHARS,
    } as { [key: string]: JsonValue },
    async prepare(queries) {
      const todo = [...new Set(queries)].filter((q) => !done.has(q));
      if (todo.length === 0) return;
      await base.prepare?.(todo);
      const failedBefore = failed;
      const callsBefore = caller.usage();
      let finished = 0;
      const results = await mapBounded(todo, concurrency, async (q) => {
        const r = await rerankOne(q);
        finished++;
        if (finished % 50 === 0 || finished === todo.length) {
          options.onProgress?.(finished, todo.length);
        }
        return r;
      });
      todo.forEach((q, i) => done.set(q, results[i]));
      const after = caller.usage();
      const answered = (after.cachedCalls - callsBefore.cachedCalls) +
        (after.sentCalls - callsBefore.sentCalls);
      if (failed > failedBefore && answered === 0) {
        throw new RerankError(
          `rerank: all ${
            failed - failedBefore
          } calls to chat model "${caller.model.id}" failed; first: ${failures[0]}`,
        );
      }
    },
    cost() {
      const u = caller.usage();
      const b = base.cost?.();
      // The base's own endpoint phases (a dense base's embeddings) stay apart from the prompts.
      const baseSteps = b === undefined ? {} : Object.fromEntries(
        Object.entries(b.phases ?? { all: b }).map(([name, v]) => [`base ${name}`, {
          requests: v.requests,
          inputTokens: v.inputTokens,
          ...(v.outputTokens === undefined ? {} : { outputTokens: v.outputTokens }),
          usd: v.usd,
        }]),
      );
      return {
        ...usageCost(u, b),
        phases: { ...baseSteps, queries: usageCost(u) },
        cachedTexts: u.cachedCalls + (b?.cachedTexts ?? 0),
        ...(failed === 0 ? {} : { failures: { count: failed, examples: [...failures] } }),
      };
    },
    queryCost: (query) => got(query).cost,
    queryNotes: (query) => got(query).notes,
    search(query: string, limit: number): Hit[] {
      checkLimit(limit);
      const head = got(query).ids;
      const ids = [...head];
      if (limit > head.length) {
        const inHead = new Set(head);
        for (const h of base.search(query, limit)) {
          if (ids.length >= limit) break;
          if (!inHead.has(h.id)) ids.push(h.id);
        }
      }
      return ids.slice(0, limit).map((id, i) => ({ id, score: ids.length - i }));
    },
  };
}

/**
 * The rerank settings a caller puts in `context.settings.rerank`: `{base, k}`.
 *
 * @param context Retriever context.
 * @returns Base retriever name and k (defaults when absent).
 * @throws {TypeError} when `k` or `base` has the wrong type.
 */
export function rerankSettings(context: RetrieverContext): { base: string; k: number } {
  const raw = context.settings?.rerank as { [key: string]: JsonValue } | undefined;
  const base = raw?.base ?? DEFAULT_RERANK_BASE;
  const k = raw?.k ?? DEFAULT_RERANK_K;
  if (typeof base !== "string" || typeof k !== "number") {
    throw new TypeError(
      `rerank settings must be {base: string, k: number}: got ${JSON.stringify(raw)}`,
    );
  }
  return { base, k };
}

/**
 * The registry entry of `rerank`. It names its base by registry name, so it is built from the
 * registry's lookup (passed in: this module cannot import the registry, which lists it).
 *
 * @param lookup Registry lookup by name (`retrieverEntry`).
 * @returns The entry: asynchronous build, a cost to report, a chat endpoint.
 */
export function createRerankEntry(lookup: (name: string) => RetrieverEntry): RetrieverEntry {
  return {
    name: "rerank",
    label: "rerank",
    summary:
      `listwise LLM reranking of another retriever's top k (--rerank-model ID, --rerank-base ${DEFAULT_RERANK_BASE}, --rerank-k ${DEFAULT_RERANK_K})`,
    // What the model reads of each candidate, plus what the default base reads.
    reads: INDEX_FIELD_NAMES.filter((f) => f !== "params"),
    needsGolden: false,
    asyncBuild: true,
    reportsCost: true,
    endpoint: "chat",
    async create(docs, context) {
      if (context.chat === undefined) {
        throw new TypeError(
          'Retriever "rerank" needs a chat model: pass --rerank-model ID (a chat model of the model registry)',
        );
      }
      const { base: baseName, k } = rerankSettings(context);
      if (baseName === "rerank") throw new RangeError("rerank cannot rerank itself");
      const baseEntry = lookup(baseName);
      if (baseEntry.needsGolden) {
        throw new RangeError(`rerank cannot use ${baseName} as its base: it needs golden labels`);
      }
      const base = await baseEntry.create(docs, context);
      const progress = context.progress;
      return createRerankRetriever(docs, {
        base,
        caller: createChatCaller(context.chat, context.chatStore),
        k,
        ...(progress
          ? { onProgress: (done, total) => progress(`rerank: ${done}/${total} queries`) }
          : {}),
      });
    },
  };
}
