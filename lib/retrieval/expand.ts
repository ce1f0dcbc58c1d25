/**
 * Document expansion at index time (doc2query, Nogueira et al. 2019, with an instruction-tuned
 * chat model instead of a trained seq2seq one): for each tool, a chat model writes a few short
 * requests a user might make of it, and BM25 indexes them alongside the tool's own description.
 * Queries then meet the user's words, not only the catalog's. The cost is one prompt per tool,
 * paid once: answers are cached by model + SHA-256 of the prompt (which holds the tool's text).
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import { mapBounded } from "../core/pool.ts";
import { oneLine } from "../core/text.ts";
import { createBm25Retriever } from "./bm25.ts";
import { type ChatCaller, type ChatRequest, createChatCaller } from "./chat.ts";
import type {
  Hit,
  RetrievalDoc,
  RetrieverContext,
  RetrieverCost,
  RetrieverEntry,
  RetrieverWith,
} from "./types.ts";

/** Requests written per tool unless told otherwise. */
export const DEFAULT_EXPANSIONS = 5;

/** Version of the prompt below; recorded in the config. */
export const EXPAND_PROMPT_VERSION = 1;

/** Longest expansion kept, characters (a longer line is cut). */
const MAX_EXPANSION_CHARS = 200;

/** Characters of the tool's description shown to the model. */
const DESCRIPTION_CHARS = 1000;

const SYSTEM =
  "You help a search engine find tools for an AI assistant. Given one tool, write short " +
  "requests that different users might type to an assistant when they need this tool. Use " +
  "everyday words and vary the phrasing; do not repeat the tool's name. Write one request " +
  "per line and nothing else.";

/**
 * The prompt that asks for `count` user requests for one tool.
 *
 * @param doc The tool's index fields.
 * @param count Requests wanted (≥ 1).
 * @returns System prompt, user message and output cap (40 tokens per request).
 *
 * @example Usage
 * ```ts
 * import { expansionPrompt } from "./expand.ts";
 * const p = expansionPrompt({ id: "gh:create_issue", server: "gh", name: "create_issue", description: "Open an issue", params: "" }, 3);
 * if (!p.user.startsWith("Tool: gh/create_issue")) throw new Error(p.user);
 * ```
 */
export function expansionPrompt(doc: RetrievalDoc, count: number): ChatRequest {
  const description = oneLine(doc.description, DESCRIPTION_CHARS);
  return {
    system: SYSTEM,
    user: `Tool: ${doc.server}/${doc.name}\nDescription: ${description || "(none)"}\n\n` +
      `Write ${count} requests, one per line.`,
    maxOutputTokens: 40 * count,
  };
}

/**
 * Reads the requests out of a model's answer: one per line, list markers (`-`, `*`, `1.`,
 * `2)`) and surrounding quotes removed, empty lines and repeats dropped, at most `count` kept,
 * each cut to 200 characters.
 *
 * @param text The model's answer.
 * @param count Most requests kept.
 * @returns The requests, in answer order.
 *
 * @example Usage
 * ```ts
 * import { parseExpansions } from "./expand.ts";
 * const got = parseExpansions('1. "report a bug"\n\n- report a bug\n* file a ticket', 5);
 * if (got.join("|") !== "report a bug|file a ticket") throw new Error(got.join("|"));
 * ```
 */
export function parseExpansions(text: string, count: number): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
      .replace(/^(?:[-*•]|\d+[.)]|\(\d+\))\s*/, "")
      .replace(/^["'“‘](.*)["'”’]$/, "$1")
      .trim()
      .slice(0, MAX_EXPANSION_CHARS);
    if (line === "" || out.includes(line)) continue;
    out.push(line);
    if (out.length === count) break;
  }
  return out;
}

/** Options of {@linkcode createExpandRetriever}. */
export interface ExpandOptions {
  /** The chat model with its cache and totals. */
  readonly caller: ChatCaller;
  /**
   * Requests written per tool.
   * @default {DEFAULT_EXPANSIONS}
   */
  readonly count?: number;
  /**
   * Prompts in flight at once.
   * @default {4}
   */
  readonly concurrency?: number;
  /** Progress: tools expanded so far of the total, every 50 and at the end. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A built expansion index: BM25 over expanded documents, with its one-off `cost`. */
export type ExpandRetriever = RetrieverWith<"cost"> & {
  /** The requests written for each tool id (empty for a tool whose call failed). */
  readonly expansions: ReadonlyMap<string, readonly string[]>;
};

/** Raised when every expansion call failed: the index would be plain BM25. */
export class ExpandError extends Error {
  /**
   * Builds the error.
   *
   * @param message One line naming the model, the count and the first cause.
   */
  constructor(message: string) {
    super(message);
    this.name = "ExpandError";
  }
}

/**
 * Expands every document and builds a BM25 index (default weights) over them, each document's
 * description followed by its requests, one per line.
 *
 * A failed call (after the provider's retries) leaves that tool unexpanded and is counted in
 * `cost().failures`; when every call fails the build rejects with an {@linkcode ExpandError}.
 *
 * @param docs Documents (ids unique).
 * @param options Chat caller, requests per tool, concurrency, progress.
 * @returns An {@linkcode ExpandRetriever} named `expand`.
 * @throws {RangeError} when count or concurrency is not a positive integer.
 */
export async function createExpandRetriever(
  docs: readonly RetrievalDoc[],
  options: ExpandOptions,
): Promise<ExpandRetriever> {
  const count = options.count ?? DEFAULT_EXPANSIONS;
  const concurrency = options.concurrency ?? 4;
  for (const [name, v] of [["count", count], ["concurrency", concurrency]] as const) {
    if (!Number.isInteger(v) || v < 1) {
      throw new RangeError(`Cannot expand documents: ${name} must be an integer >= 1, got ${v}`);
    }
  }
  const { caller } = options;
  const failures: string[] = [];
  let failed = 0;
  let finished = 0;
  const written = await mapBounded(docs, concurrency, async (doc) => {
    let lines: string[] = [];
    try {
      const call = await caller.call(expansionPrompt(doc, count));
      lines = parseExpansions(call.text, count);
    } catch (error) {
      failed++;
      if (failures.length < 5) failures.push(`${doc.id}: ${oneLine(error, 200)}`);
    }
    finished++;
    if (finished % 50 === 0 || finished === docs.length) {
      options.onProgress?.(finished, docs.length);
    }
    return lines;
  });
  if (docs.length > 0 && failed === docs.length) {
    throw new ExpandError(
      `expand: all ${failed} calls to chat model "${caller.model.id}" failed; first: ${
        failures[0]
      }`,
    );
  }
  const expansions = new Map(docs.map((d, i) => [d.id, written[i]]));
  const bm25 = createBm25Retriever(docs.map((d, i) => ({
    ...d,
    description: [d.description, ...written[i]].filter((t) => t !== "").join("\n"),
  })));
  const cost = (): RetrieverCost => {
    const u = caller.usage();
    const index = {
      requests: u.requests,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      usd: u.usd,
    };
    return {
      ...index,
      phases: { index },
      cachedTexts: u.cachedCalls,
      ...(failed === 0 ? {} : { failures: { count: failed, examples: [...failures] } }),
    };
  };
  return {
    name: "expand",
    config: {
      chatModel: caller.model.id,
      model: caller.model.model,
      expansionsPerTool: count,
      promptVersion: EXPAND_PROMPT_VERSION,
      expandedTools: written.filter((w) => w.length > 0).length,
      bm25: bm25.config,
    } as { [key: string]: JsonValue },
    expansions,
    cost,
    search: (query: string, limit: number): readonly Hit[] => bm25.search(query, limit),
  };
}

/**
 * The expansion settings a caller puts in `context.settings.expand`: `{count}`.
 *
 * @param context Retriever context.
 * @returns Requests per tool (default when absent).
 * @throws {TypeError} when `count` is not a number.
 */
export function expandSettings(context: RetrieverContext): { count: number } {
  const raw = context.settings?.expand as { [key: string]: JsonValue } | undefined;
  const count = raw?.count ?? DEFAULT_EXPANSIONS;
  if (typeof count !== "number") {
    throw new TypeError(`expand settings must be {count: number}: got ${JSON.stringify(raw)}`);
  }
  return { count };
}

/** Registry entry of the `expand` retriever. */
export const expandEntry: RetrieverEntry = {
  name: "expand",
  label: "expand",
  summary:
    `bm25 over each tool's text plus ${DEFAULT_EXPANSIONS} user requests an LLM wrote for it at index time, doc2query-style (--expand-model ID)`,
  reads: ["name", "server", "description"],
  needsGolden: false,
  asyncBuild: true,
  reportsCost: true,
  endpoint: "chat",
  create(docs, context) {
    if (context.chat === undefined) {
      throw new TypeError(
        'Retriever "expand" needs a chat model: pass --expand-model ID (a chat model of the model registry)',
      );
    }
    const progress = context.progress;
    return createExpandRetriever(docs, {
      caller: createChatCaller(context.chat, context.chatStore),
      count: expandSettings(context).count,
      ...(progress
        ? { onProgress: (done, total) => progress(`expand: ${done}/${total} tools`) }
        : {}),
    });
  },
};
