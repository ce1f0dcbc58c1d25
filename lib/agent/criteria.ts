/**
 * Pass criteria of suite cases: `exact`, `contains`, `regex`, `tool_called`, `llm_judge`, and
 * the `all` / `any` combinators.
 *
 * Evaluation is pure except for `llm_judge`, which calls a {@linkcode JudgeCaller} the caller
 * passes in. Judge usage is returned apart, so it never enters the agent's totals.
 *
 * @module
 */

import type { JsonValue } from "../catalog/types.ts";
import type { Criterion, CriterionResult, JudgeVerdict, ToolCallRecord, Usage } from "./types.ts";
import { majority } from "../stats/agreement.ts";

/** What the agent produced for one case, as criteria see it. */
export interface CaseOutcome {
  /** The question asked. */
  readonly question: string;
  /** Final assistant text, `null` when the loop ended without one. */
  readonly finalAnswer: string | null;
  /** Tool calls in the order the model made them. */
  readonly toolCalls: readonly ToolCallRecord[];
}

/** A judge model's raw answer and what it cost. */
export interface JudgeReply {
  /** Assistant text. */
  readonly text: string;
  /** Judge tokens for this reply. */
  readonly usage: Usage;
  /** USD, computed from the judge model's pricing; `null` when usage was not reported. */
  readonly costUsd: number | null;
}

/**
 * Calls a judge model with a system prompt and one user message.
 *
 * @param model Model registry id of the judge.
 * @param system System prompt.
 * @param user User message.
 * @returns The judge's reply.
 * @throws Any error when the judge endpoint fails (the case becomes a `judge` error).
 */
export type JudgeCaller = (
  model: string,
  system: string,
  user: string,
  options?: JudgeCallOptions,
) => Promise<JudgeReply>;

/** Per-call settings a criterion passes to its {@linkcode JudgeCaller}. */
export interface JudgeCallOptions {
  /** Sampling temperature. @default {0} */
  readonly temperature?: number;
}

/**
 * The judge models of an `llm_judge` criterion, in order: its `judges`, or its one `model`.
 *
 * @param c The criterion.
 * @returns Model registry ids (at least one for a valid criterion).
 *
 * @example Usage
 * ```ts
 * import { judgeModels } from "./criteria.ts";
 * const ids = judgeModels({ type: "llm_judge", rubric: "r", judges: ["a", "b"] });
 * if (ids.join() !== "a,b") throw new Error("unexpected");
 * ```
 */
export function judgeModels(c: Extract<Criterion, { type: "llm_judge" }>): readonly string[] {
  return c.judges ?? (c.model === undefined ? [] : [c.model]);
}

/** One judge call, for the record. */
export interface JudgeCall {
  /** Judge model registry id. */
  readonly model: string;
  /** Judge tokens. */
  readonly usage: Usage;
  /** USD, `null` when the judge reported no usage. */
  readonly costUsd: number | null;
}

/**
 * A judge answered, but not with a usable verdict (no JSON object, invalid JSON, `pass` not a
 * boolean): a judge error, which the run counts and shows apart and leaves out of the pass-rate
 * denominator, like an infrastructure error, never an agent failure.
 */
export class JudgeReplyError extends Error {
  /** The judge calls made up to and including the unusable one (their tokens were spent). */
  readonly judgeCalls: readonly JudgeCall[];
  /**
   * Builds the error.
   *
   * @param message Why the reply is unusable, with the start of the reply quoted.
   * @param judgeCalls The calls made so far.
   */
  constructor(message: string, judgeCalls: readonly JudgeCall[]) {
    super(message);
    this.name = "JudgeReplyError";
    this.judgeCalls = judgeCalls;
  }
}

/** Result of {@linkcode evaluateCriterion}. */
export interface Evaluation {
  /** Verdict tree. */
  readonly result: CriterionResult;
  /** Judge calls made, in evaluation order (empty without `llm_judge`). */
  readonly judgeCalls: readonly JudgeCall[];
  /** The verdict of every judge call, in evaluation order (empty without `llm_judge`). */
  readonly verdicts: readonly JudgeVerdict[];
}

/** Options of {@linkcode evaluateCriterion}. */
export interface EvaluateOptions {
  /** Needed when the criterion contains `llm_judge`. */
  readonly judge?: JudgeCaller;
}

/** System prompt sent to judges. It asks for `{"pass": boolean, "reasoning": string}` only. */
export const JUDGE_SYSTEM_PROMPT: string =
  "You grade an AI assistant's answer against a rubric. Reply with one JSON object and nothing " +
  'else: {"pass": true or false, "reasoning": "one or two sentences"}.';

/**
 * The user message sent to a judge.
 *
 * @param rubric What a passing answer must do.
 * @param question The case question.
 * @param answer The agent's final answer (`null` is shown as "(no answer)").
 * @returns The message text.
 */
export function judgePrompt(rubric: string, question: string, answer: string | null): string {
  return `Rubric:\n${rubric}\n\nQuestion:\n${question}\n\nAnswer:\n${answer ?? "(no answer)"}`;
}

/**
 * Parses a judge reply. Accepts the JSON object alone, inside a Markdown code fence, or
 * surrounded by prose (the first `{` to the last `}`).
 *
 * @param text Judge reply text.
 * @returns `{pass, reasoning}`, or `{error}` saying why the reply is unusable.
 *
 * @example Usage
 * ```ts
 * import { parseJudgeAnswer } from "./criteria.ts";
 * const r = parseJudgeAnswer('Verdict: {"pass": true, "reasoning": "ok"}');
 * if (!("pass" in r) || r.pass !== true) throw new Error("unexpected");
 * ```
 */
export function parseJudgeAnswer(
  text: string,
): { pass: boolean; reasoning: string } | { error: string } {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return { error: "judge reply contains no JSON object" };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch (e) {
    return { error: `judge reply is not valid JSON (${(e as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: "judge reply is not a JSON object" };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.pass !== "boolean") {
    return {
      error: `judge reply field "pass" is ${JSON.stringify(v.pass) ?? "missing"}, not a boolean`,
    };
  }
  return { pass: v.pass, reasoning: typeof v.reasoning === "string" ? v.reasoning : "" };
}

/**
 * Deep subset match of tool-call arguments.
 *
 * Deep subset match: every key of `expected` is in `actual` with a matching value; objects
 * match recursively as subsets, arrays and scalars must be equal.
 *
 * @param expected Wanted key/values.
 * @param actual Arguments the model sent.
 * @returns Whether `expected` ⊆ `actual`.
 */
export function argsMatch(expected: JsonValue, actual: JsonValue): boolean {
  if (expected === null || typeof expected !== "object") return expected === actual;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length &&
      expected.every((e, i) => argsMatch(e, (actual as readonly JsonValue[])[i]));
  }
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  const a = actual as { readonly [k: string]: JsonValue };
  return Object.entries(expected).every(([k, v]) => k in a && argsMatch(v, a[k]));
}

/** Quotes and clips a string for verdict details. */
const q = (s: string) => JSON.stringify(s.length > 80 ? s.slice(0, 77) + "..." : s);

/**
 * Evaluates a criterion against a case outcome.
 *
 * - `exact`: both sides trimmed; case-insensitive unless `caseSensitive`.
 * - `contains`: `any` (default) or `all` of the strings; case-insensitive unless `caseSensitive`.
 * - `regex`: `new RegExp(pattern, flags)` tested on the untrimmed answer.
 * - `tool_called`: some call was routed to `server:tool` (and, with `args`, some such call's
 *   arguments contain them, see {@linkcode argsMatch}); errored calls count as calls.
 * - `llm_judge`: each judge (`model`, or every one of `judges`, in order) is asked `votes`
 *   times (default 1) and answers `{pass, reasoning}`. A judge's verdict is the majority of its
 *   votes, the criterion's the majority of the judges' verdicts; a tie fails at both levels (a
 *   pass needs strictly more than half). An unusable answer is a {@linkcode JudgeReplyError}
 *   (a judge error, not an agent failure).
 * - `all` / `any`: every child is evaluated (no short-circuit), then combined.
 *
 * A missing final answer fails every answer-based criterion.
 *
 * @param criterion The criterion.
 * @param outcome What the agent produced.
 * @param options `judge` for `llm_judge`.
 * @returns The verdict tree and the judge calls made.
 * @throws {TypeError} when an `llm_judge` criterion is evaluated without a judge.
 * @throws Whatever the judge throws when its endpoint fails.
 * @throws {JudgeReplyError} When a judge's reply holds no usable verdict.
 *
 * @example Usage
 * ```ts
 * import { evaluateCriterion } from "./criteria.ts";
 * const { result } = await evaluateCriterion(
 *   { type: "contains", values: ["paris"] },
 *   { question: "Capital of France?", finalAnswer: "It is Paris.", toolCalls: [] },
 * );
 * if (!result.passed) throw new Error("unexpected");
 * ```
 */
export async function evaluateCriterion(
  criterion: Criterion,
  outcome: CaseOutcome,
  options: EvaluateOptions = {},
): Promise<Evaluation> {
  const judgeCalls: JudgeCall[] = [];
  const verdicts: JudgeVerdict[] = [];
  const result = await evaluate(criterion, outcome, options, {
    judgeCalls,
    verdicts,
    path: "criterion",
  });
  return { result, judgeCalls, verdicts };
}

interface Acc {
  readonly judgeCalls: JudgeCall[];
  readonly verdicts: JudgeVerdict[];
  /** Path of the criterion being evaluated (see {@linkcode JudgeVerdict.criterion}). */
  readonly path: string;
}

async function evaluate(
  c: Criterion,
  o: CaseOutcome,
  options: EvaluateOptions,
  acc: Acc,
): Promise<CriterionResult> {
  const answer = o.finalAnswer;
  const noAnswer = (): CriterionResult => ({
    passed: false,
    type: c.type,
    detail: "no final answer",
  });
  switch (c.type) {
    case "exact": {
      if (answer === null) return noAnswer();
      const norm = (s: string) => c.caseSensitive ? s.trim() : s.trim().toLowerCase();
      const passed = norm(answer) === norm(c.value);
      return {
        passed,
        type: c.type,
        detail: passed
          ? `answer equals ${q(c.value)}`
          : `answer ${q(answer.trim())} is not ${q(c.value)}`,
      };
    }
    case "contains": {
      if (answer === null) return noAnswer();
      const norm = (s: string) => c.caseSensitive ? s : s.toLowerCase();
      const hay = norm(answer);
      const found = c.values.filter((v) => hay.includes(norm(v)));
      const missing = c.values.filter((v) => !hay.includes(norm(v)));
      const mode = c.mode ?? "any";
      const passed = mode === "all" ? missing.length === 0 : found.length > 0;
      return {
        passed,
        type: c.type,
        detail: passed
          ? `answer contains ${found.map(q).join(", ")}`
          : mode === "all"
          ? `answer lacks ${missing.map(q).join(", ")}`
          : `answer contains none of ${c.values.map(q).join(", ")}`,
      };
    }
    case "regex": {
      if (answer === null) return noAnswer();
      const passed = new RegExp(c.pattern, c.flags ?? "").test(answer);
      return {
        passed,
        type: c.type,
        detail: `/${c.pattern}/${c.flags ?? ""} ${
          passed ? "matches" : "does not match"
        } the answer`,
      };
    }
    case "tool_called": {
      const calls = o.toolCalls.filter((t) => t.tool === c.tool);
      if (calls.length === 0) {
        return { passed: false, type: c.type, detail: `${c.tool} was not called` };
      }
      if (c.args === undefined) {
        return {
          passed: true,
          type: c.type,
          detail: `${c.tool} was called ${calls.length} time(s)`,
        };
      }
      const passed = calls.some((t) => argsMatch(c.args!, t.args));
      return {
        passed,
        type: c.type,
        detail: passed
          ? `${c.tool} was called with ${JSON.stringify(c.args)}`
          : `${c.tool} was called ${calls.length} time(s), never with ${JSON.stringify(c.args)}`,
      };
    }
    case "llm_judge": {
      const models = judgeModels(c);
      if (options.judge === undefined) {
        throw new TypeError(
          `Cannot evaluate llm_judge: no judge caller for model(s) ${models.join(", ")}`,
        );
      }
      const votes = c.votes ?? 1;
      const user = judgePrompt(c.rubric, o.question, answer);
      const perJudge: { model: string; passes: number; verdict: boolean }[] = [];
      const first = acc.verdicts.length;
      for (const model of models) {
        const mine: boolean[] = [];
        for (let vote = 0; vote < votes; vote++) {
          const reply = await options.judge(model, JUDGE_SYSTEM_PROMPT, user, {
            temperature: c.temperature ?? 0,
          });
          acc.judgeCalls.push({ model, usage: reply.usage, costUsd: reply.costUsd });
          const parsed = parseJudgeAnswer(reply.text);
          if ("error" in parsed) {
            throw new JudgeReplyError(
              `judge "${model}"${
                votes > 1 ? ` (vote ${vote + 1} of ${votes})` : ""
              }: ${parsed.error}; reply began ${q(reply.text)}`,
              [...acc.judgeCalls],
            );
          }
          acc.verdicts.push({
            criterion: acc.path,
            model,
            vote,
            pass: parsed.pass,
            reasoning: parsed.reasoning,
            inputTokens: reply.usage.inputTokens,
            outputTokens: reply.usage.outputTokens,
            costUsd: reply.costUsd,
          });
          mine.push(parsed.pass);
        }
        perJudge.push({
          model,
          passes: mine.filter((p) => p).length,
          verdict: majority(mine),
        });
      }
      const passed = majority(perJudge.map((j) => j.verdict));
      if (models.length === 1 && votes === 1) {
        return {
          passed,
          type: c.type,
          detail: `judge ${passed ? "passed" : "failed"} the answer: ${
            acc.verdicts[first].reasoning
          }`,
        };
      }
      const tally = perJudge.map((j) => `${j.model} ${j.passes}/${votes}`).join(", ");
      const yes = perJudge.filter((j) => j.verdict).length;
      const tie = 2 * yes === perJudge.length ? " (a tie fails)" : "";
      return {
        passed,
        type: c.type,
        detail: `judges ${
          passed ? "passed" : "failed"
        } the answer, ${yes} of ${perJudge.length} judge(s) passed it${tie} (passing votes: ${tally})`,
      };
    }
    case "all":
    case "any": {
      const children: CriterionResult[] = [];
      for (const [i, child] of c.criteria.entries()) {
        children.push(
          await evaluate(child, o, options, { ...acc, path: `${acc.path}.criteria[${i}]` }),
        );
      }
      const n = children.filter((r) => r.passed).length;
      const passed = c.type === "all" ? n === children.length : n > 0;
      return {
        passed,
        type: c.type,
        detail: `${n} of ${children.length} sub-criteria passed`,
        children,
      };
    }
  }
}
