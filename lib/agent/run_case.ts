/**
 * One case of a suite run: the agent loop on the case's question, the criterion's score, and
 * the {@linkcode CaseRecord} that `runSuite` (run.ts) appends to `cases.jsonl`.
 *
 * @module
 */
import type {
  AgentConfig,
  CaseError,
  CaseRecord,
  JudgeVerdict,
  ModelConfig,
  ModelPricing,
  SuiteCase,
  SummarizerRecord,
  ToolPrices,
} from "./types.ts";
import type { Message, ModelClient } from "./providers/types.ts";
import { ModelCallError } from "./providers/types.ts";
import type { ToolHost } from "./tools.ts";
import { type LoopResult, runAgentLoop } from "./loop.ts";
import type { SummarizerUsage, TokenCounter } from "./context.ts";
import { evaluateCriterion, type JudgeCall, JudgeReplyError } from "./criteria.ts";
import { addUsage, agentPricing, usageCostUsd, ZERO_USAGE } from "./usage.ts";
import { clientJudgeCaller } from "./judge_caller.ts";

/** One unit of work. */
export interface WorkItem {
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** 0-based. */
  readonly repetition: number;
}

/** Error kinds that say the infrastructure failed, not the agent: recorded with `passed: null`. */
export const INFRA_ERRORS: ReadonlySet<CaseError["kind"]> = new Set([
  "model",
  "timeout",
  "mcp",
  "judge",
]);

/** What every case of a run shares. */
export interface CaseContext {
  /** Registry entries by id (agents' models, judges, summarizers). */
  readonly modelsById: ReadonlyMap<string, ModelConfig>;
  /** Clients by registry id. */
  readonly clients: ReadonlyMap<string, ModelClient>;
  /** USD per call by `server:tool`. */
  readonly toolPrices: ToolPrices;
  /** Per-case timeout, ms. */
  readonly timeoutMs: number;
  /** Aborts every case in flight (Ctrl-C). */
  readonly stop?: AbortSignal;
  /** ms clock for durations. */
  readonly now: () => number;
  /** Context-token counter, for agents with a context strategy. */
  readonly tokenizer?: TokenCounter;
  /** Called with the case's conversation before its record is returned. */
  readonly onTranscript?: (item: WorkItem, messages: readonly Message[]) => void | Promise<void>;
}

/**
 * Runs one case and scores it. A case with a final answer (or an iteration-limit failure) is
 * scored with its criterion; an infrastructure error is recorded with `passed: null`.
 *
 * @param item The work item.
 * @param agent Its agent.
 * @param kase Its case.
 * @param host The agent's tools.
 * @param ctx What the run's cases share.
 * @returns The record (never throws for a failure of the model, a tool or the judge).
 */
export async function runCase(
  item: WorkItem,
  agent: AgentConfig,
  kase: SuiteCase,
  host: ToolHost,
  ctx: CaseContext,
): Promise<CaseRecord> {
  const signal = ctx.stop
    ? AbortSignal.any([AbortSignal.timeout(ctx.timeoutMs), ctx.stop])
    : AbortSignal.timeout(ctx.timeoutMs);
  const r = await runAgentLoop({
    agent,
    question: kase.question,
    model: ctx.clients.get(agent.model)!,
    tools: host,
    now: ctx.now,
    signal,
    ...(ctx.tokenizer ? { tokenizer: ctx.tokenizer } : {}),
    ...(agent.contextStrategy?.type === "summarize"
      ? { summarizer: ctx.clients.get(agent.contextStrategy.model)! }
      : {}),
  });
  await ctx.onTranscript?.(item, r.messages);
  const score = r.error === null || r.error.kind === "iteration_limit"
    ? await scoreCase(kase, r, ctx, signal)
    : { error: r.error, passed: null, criterion: null, judgeCalls: [], judgeVerdicts: [] };
  return loopRecord(item, agent, r, score, ctx);
}

/** The criterion's verdict on a loop's answer, or the judge's failure. */
interface Score {
  readonly error: CaseError | null;
  readonly passed: boolean | null;
  readonly criterion: CaseRecord["criterion"];
  readonly judgeCalls: readonly JudgeCall[];
  readonly judgeVerdicts: readonly JudgeVerdict[];
}

async function scoreCase(
  kase: SuiteCase,
  r: LoopResult,
  ctx: CaseContext,
  signal: AbortSignal,
): Promise<Score> {
  const judge = clientJudgeCaller(ctx.clients, (id) => ctx.modelsById.get(id)?.pricing, signal);
  try {
    const ev = await evaluateCriterion(kase.criterion, {
      question: kase.question,
      finalAnswer: r.finalAnswer,
      toolCalls: r.toolCalls,
    }, { judge });
    return {
      error: r.error,
      passed: r.error === null ? ev.result.passed : false,
      criterion: ev.result,
      judgeCalls: ev.judgeCalls,
      judgeVerdicts: ev.verdicts,
    };
  } catch (e) {
    // An unusable verdict is a judge error too; the tokens its calls spent stay recorded.
    return {
      error: {
        kind: "judge",
        message: (e as Error).message,
        ...(e instanceof ModelCallError
          ? { code: e.code, ...(e.status === undefined ? {} : { status: e.status }) }
          : e instanceof JudgeReplyError
          ? { code: "unusable_verdict" }
          : {}),
      },
      passed: null,
      criterion: null,
      judgeCalls: e instanceof JudgeReplyError ? e.judgeCalls : [],
      judgeVerdicts: [],
    };
  }
}

function loopRecord(
  item: WorkItem,
  agent: AgentConfig,
  r: LoopResult,
  score: Score,
  ctx: CaseContext,
): CaseRecord {
  const { error } = score;
  const pricing = agentPricing(agent, ctx.modelsById.get(agent.model)?.pricing);
  const modelCost = pricing ? usageCostUsd(r.usage, pricing) : null;
  const toolCost = r.toolCalls.reduce(
    (sum, c) => sum + (c.tool === null ? 0 : ctx.toolPrices[c.tool] ?? 0),
    0,
  );
  const summarizerModel = (agent.contextStrategy as { model?: string } | undefined)?.model;
  return {
    agentId: item.agentId,
    caseId: item.caseId,
    repetition: item.repetition,
    passed: error !== null && INFRA_ERRORS.has(error.kind) ? null : score.passed,
    criterion: score.criterion,
    finalAnswer: r.finalAnswer,
    wallMs: r.wallMs,
    llmMs: r.llmMs,
    retryWaitMs: r.retryWaitMs,
    retries: r.retries,
    toolMs: r.toolMs,
    iterations: r.iterations,
    inputTokens: r.usage.inputTokens,
    outputTokens: r.usage.outputTokens,
    cacheReadTokens: r.usage.cacheReadTokens,
    cacheWriteTokens: r.usage.cacheWriteTokens,
    peakContextTokens: r.peakContextTokens,
    firstTurnInputTokens: r.firstTurnInputTokens,
    toolCalls: r.toolCalls,
    toolRetries: r.toolRetries,
    ...(r.toolSearch === null ? {} : { toolSearch: r.toolSearch }),
    ...(r.context === null ? {} : { context: r.context }),
    ...(r.summarizer === null ? {} : {
      summarizer: summarizerRecord(
        summarizerModel!,
        r.summarizer,
        ctx.modelsById.get(summarizerModel!)?.pricing,
      ),
    }),
    costUsd: modelCost === null ? null : modelCost + toolCost,
    judge: judgeRecord(score.judgeCalls),
    ...(score.judgeVerdicts.length > 0 ? { judgeVerdicts: score.judgeVerdicts } : {}),
    error,
    cachedModelCalls: r.cachedModelCalls,
    usageNotes: r.usageNotes,
  };
}

/**
 * The record of a case whose agent's tools could not be started: an `mcp` error, nothing spent.
 *
 * @param item The work item.
 * @param cause Why the tools did not start.
 * @param wallMs How long the case waited for them, ms. @default {0}
 * @returns The record.
 */
export function hostErrorRecord(item: WorkItem, cause: unknown, wallMs = 0): CaseRecord {
  return {
    agentId: item.agentId,
    caseId: item.caseId,
    repetition: item.repetition,
    passed: null,
    criterion: null,
    finalAnswer: null,
    wallMs,
    llmMs: 0,
    toolMs: 0,
    iterations: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    peakContextTokens: 0,
    toolCalls: [],
    costUsd: 0,
    judge: null,
    error: { kind: "mcp", message: (cause as Error).message },
    cachedModelCalls: 0,
    usageNotes: [],
  };
}

function judgeRecord(calls: readonly JudgeCall[]): CaseRecord["judge"] {
  if (calls.length === 0) return null;
  const usage = calls.reduce((u, c) => addUsage(u, c.usage), ZERO_USAGE);
  const costs = calls.map((c) => c.costUsd);
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: costs.includes(null) ? null : (costs as number[]).reduce((a, b) => a + b, 0),
  };
}

function summarizerRecord(
  model: string,
  s: SummarizerUsage,
  pricing: ModelPricing | undefined,
): SummarizerRecord {
  return {
    model,
    calls: s.calls,
    inputTokens: s.usage.inputTokens,
    outputTokens: s.usage.outputTokens,
    costUsd: pricing ? usageCostUsd(s.usage, pricing) : null,
  };
}
