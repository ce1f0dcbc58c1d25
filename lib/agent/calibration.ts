/**
 * Judge calibration: run one judge model over answers whose verdict a human already gave (a
 * labelled set for a suite, `lib/agent/schemas/labels.schema.json`) and measure how often it
 * agrees: accuracy with its 95% Wilson interval, the 2 × 2 confusion counts (judge × label) and
 * Cohen's kappa. Each label is judged exactly as a run judges the case: the case's question,
 * its `llm_judge` rubric, the labelled answer, the same prompts and the same majority rule over
 * `votes`.
 *
 * Pure: the judge is a {@linkcode JudgeCaller} passed in; files are read by the calibrate flow.
 *
 * @module
 */
import { Ajv, type ValidateFunction } from "ajv";
import { AgentConfigError } from "./config.ts";
import { evaluateCriterion, type JudgeCaller, JudgeReplyError } from "./criteria.ts";
import type { Criterion, JudgeVerdict, Suite } from "./types.ts";
import { addUsage, ZERO_USAGE } from "./usage.ts";
import { cohensKappa, confusion } from "../stats/agreement.ts";
import { wilsonInterval } from "../stats/wilson.ts";
import labelsSchema from "./schemas/labels.schema.json" with { type: "json" };

/** One labelled answer. */
export interface Label {
  /** Label id, unique in the file. */
  readonly id: string;
  /** Case id in the suite. */
  readonly case: string;
  /** Path of the `llm_judge` criterion when the case has several (e.g. `criterion.criteria[1]`). */
  readonly criterion?: string;
  /** The answer the judge is shown. */
  readonly answer: string;
  /** The human verdict. */
  readonly expected: "pass" | "fail";
  /** Why (for the reader). */
  readonly note?: string;
}

/** A labels file. */
export interface LabelSet {
  /** Suite id the labels belong to. */
  readonly suite: string;
  /** Who labelled what, and how. */
  readonly description: string;
  /** The labels, in file order. */
  readonly labels: readonly Label[];
}

let validateLabels: ValidateFunction | undefined;

/** The labels schema's validator, compiled on first use (not by every process that imports this). */
function labelsValidator(): ValidateFunction {
  return validateLabels ??= new Ajv({ allErrors: false, strict: false }).compile(labelsSchema);
}

/**
 * Parses and validates a labels file (JSON Schema `labels.schema.json`, unique label ids).
 *
 * @param input JSON text or an already parsed value.
 * @param source File name for messages.
 * @returns The label set.
 * @throws {AgentConfigError} on invalid JSON, a schema violation or a duplicate label id; the
 *   message names the file and the field.
 *
 * @example Usage
 * ```ts
 * import { parseLabels } from "./calibration.ts";
 * const l = parseLabels({ suite: "s", description: "", labels: [
 *   { id: "l1", case: "c1", answer: "4", expected: "pass" },
 * ] });
 * if (l.labels[0].expected !== "pass") throw new Error("unexpected");
 * ```
 */
export function parseLabels(input: unknown, source = "<inline>"): LabelSet {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new AgentConfigError(
        "labels",
        source,
        "",
        `is not valid JSON (${(e as Error).message})`,
      );
    }
  }
  const validate = labelsValidator();
  if (!validate(value)) {
    const err = [...(validate.errors ?? [])]
      .sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
    const path = (err?.instancePath ?? "").split("/").slice(1)
      .reduce((acc, p) => /^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p, "");
    const params = (err?.params ?? {}) as Record<string, unknown>;
    const field = err?.keyword === "required"
      ? (path ? `${path}.` : "") + String(params.missingProperty)
      : err?.keyword === "additionalProperties"
      ? (path ? `${path}.` : "") + String(params.additionalProperty)
      : path;
    const problem = err?.keyword === "required"
      ? "is required"
      : err?.keyword === "additionalProperties"
      ? "is not a known field"
      : err?.keyword === "enum"
      ? `must be one of ${JSON.stringify(params.allowedValues)}`
      : err?.message ?? "is invalid";
    throw new AgentConfigError("labels", source, field, problem);
  }
  const set = value as unknown as LabelSet;
  const seen = new Set<string>();
  set.labels.forEach((l, i) => {
    if (seen.has(l.id)) {
      throw new AgentConfigError("labels", source, `labels[${i}].id`, `duplicate id "${l.id}"`);
    }
    seen.add(l.id);
  });
  return { suite: set.suite, description: set.description, labels: set.labels };
}

type JudgeCriterion = Extract<Criterion, { type: "llm_judge" }>;

/** The `llm_judge` criteria of a criterion tree with their paths. */
function judgeCriteria(c: Criterion, path = "criterion"): { path: string; c: JudgeCriterion }[] {
  if (c.type === "llm_judge") return [{ path, c }];
  if (c.type === "all" || c.type === "any") {
    return c.criteria.flatMap((child, i) => judgeCriteria(child, `${path}.criteria[${i}]`));
  }
  return [];
}

/** A label resolved against its suite: the question and rubric it is judged with. */
export interface LabelTarget {
  /** The label. */
  readonly label: Label;
  /** The case question. */
  readonly question: string;
  /** The rubric of the case's `llm_judge` criterion. */
  readonly rubric: string;
  /** Path of that criterion. */
  readonly criterion: string;
}

/**
 * Resolves each label to its case's question and `llm_judge` rubric.
 *
 * @param suite The suite the labels belong to.
 * @param set The labels.
 * @param source Labels file name for messages.
 * @returns One target per label, in label order.
 * @throws {AgentConfigError} when the labels are for another suite, name a case the suite does
 *   not have, a case without an `llm_judge` criterion, or a case with several and no (or a
 *   wrong) `criterion` path.
 */
export function resolveLabels(suite: Suite, set: LabelSet, source = "<inline>"): LabelTarget[] {
  if (set.suite !== suite.id) {
    throw new AgentConfigError(
      "labels",
      source,
      "suite",
      `is "${set.suite}" but the suite given is "${suite.id}"`,
    );
  }
  const cases = new Map(suite.cases.map((c) => [c.id, c]));
  return set.labels.map((label, i): LabelTarget => {
    const kase = cases.get(label.case);
    if (kase === undefined) {
      throw new AgentConfigError(
        "labels",
        source,
        `labels[${i}].case`,
        `"${label.case}" is not a case of suite "${suite.id}"`,
      );
    }
    const found = judgeCriteria(kase.criterion);
    const pick = label.criterion === undefined
      ? (found.length === 1 ? found[0] : undefined)
      : found.find((f) => f.path === label.criterion);
    if (pick === undefined) {
      const field = label.criterion === undefined ? `labels[${i}].case` : `labels[${i}].criterion`;
      const problem = found.length === 0
        ? `case "${label.case}" has no llm_judge criterion to calibrate`
        : label.criterion === undefined
        ? `case "${label.case}" has ${found.length} llm_judge criteria: give "criterion" (${
          found.map((f) => f.path).join(", ")
        })`
        : `"${label.criterion}" is not an llm_judge criterion of case "${label.case}" (${
          found.map((f) => f.path).join(", ")
        })`;
      throw new AgentConfigError("labels", source, field, problem);
    }
    return { label, question: kase.question, rubric: pick.c.rubric, criterion: pick.path };
  });
}

/** How the judge did on one label. */
export interface CalibrationItem {
  /** Label id. */
  readonly id: string;
  /** Case id. */
  readonly caseId: string;
  /** The human verdict: `true` = pass. */
  readonly expected: boolean;
  /** The judge's verdict (majority of its votes, a tie fails); `null` on a judge error. */
  readonly predicted: boolean | null;
  /** Each vote, as a run records it. */
  readonly verdicts: readonly JudgeVerdict[];
  /** Why the judge gave no verdict (endpoint failure or unusable reply), else `null`. */
  readonly error: string | null;
  /** Judge input tokens of this label's calls; `null` when a call did not report them. */
  readonly inputTokens: number | null;
  /** Judge output tokens; `null` when a call did not report them. */
  readonly outputTokens: number | null;
  /** USD of this label's calls; `null` when a call's usage was not reported. */
  readonly costUsd: number | null;
}

/** A calibration report (the JSON `deno task calibrate` writes, less its provenance). */
export interface CalibrationReport {
  /** Judge model registry id. */
  readonly judge: string;
  /** Suite id. */
  readonly suiteId: string;
  /** Votes per label. */
  readonly votes: number;
  /** Sampling temperature of the judge calls. */
  readonly temperature: number;
  /** Labels in the set. */
  readonly labels: number;
  /** Labels the judge gave a verdict on (the denominator of every rate). */
  readonly scored: number;
  /** Labels where the judge failed or gave no usable verdict (left out of the rates). */
  readonly judgeErrors: number;
  /** Share of scored labels where the judge's verdict equals the label; `null` when none. */
  readonly accuracy: number | null;
  /** Lower bound of the 95% Wilson interval of `accuracy`. */
  readonly accuracyLo: number | null;
  /** Upper bound of the 95% Wilson interval of `accuracy`. */
  readonly accuracyHi: number | null;
  /** Confusion counts, judge verdict × label, over scored labels. */
  readonly confusion: {
    /** Judge pass, label pass. */
    readonly truePass: number;
    /** Judge pass, label fail: the judge let a bad answer through. */
    readonly falsePass: number;
    /** Judge fail, label pass: the judge rejected a good answer. */
    readonly falseFail: number;
    /** Judge fail, label fail. */
    readonly trueFail: number;
  };
  /** Cohen's kappa of judge against labels; `null` when undefined (see `kappaNote`) or none scored. */
  readonly kappa: number | null;
  /** Agreement expected by chance from the two pass shares; `null` when none scored. */
  readonly chanceAgreement: number | null;
  /** Why `kappa` is `null`, when it is. */
  readonly kappaNote?: string;
  /** Judge input tokens over all labels (reported ones). */
  readonly inputTokens: number;
  /** Judge output tokens over all labels (reported ones). */
  readonly outputTokens: number;
  /** Judge USD over all labels (reported ones). */
  readonly costUsd: number;
  /** Per label, in label order. */
  readonly items: readonly CalibrationItem[];
}

/** Options of {@linkcode calibrateJudge}. */
export interface CalibrateOptions {
  /** Labels resolved against the suite ({@linkcode resolveLabels}). */
  readonly targets: readonly LabelTarget[];
  /** Suite id, for the report. */
  readonly suiteId: string;
  /** Judge model registry id. */
  readonly judge: string;
  /** Calls the judge (e.g. `clientJudgeCaller`). */
  readonly call: JudgeCaller;
  /** Votes per label (integer ≥ 1). @default {1} */
  readonly votes?: number;
  /** Sampling temperature. @default {0} */
  readonly temperature?: number;
  /** Called after each label with its item, how many are done and the total. */
  readonly onItem?: (item: CalibrationItem, done: number, total: number) => void;
}

const sumOrNull = (xs: readonly (number | null)[]) =>
  xs.includes(null) ? null : (xs as number[]).reduce((a, b) => a + b, 0);

/**
 * Runs the judge over every label, one at a time in label order, and scores it against them.
 *
 * @param options Targets, judge, votes, temperature, progress callback.
 * @returns The report.
 * @throws {RangeError} when `votes` is not an integer ≥ 1.
 */
export async function calibrateJudge(options: CalibrateOptions): Promise<CalibrationReport> {
  const votes = options.votes ?? 1;
  const temperature = options.temperature ?? 0;
  if (!Number.isInteger(votes) || votes < 1) {
    throw new RangeError(`Cannot calibrate: votes must be an integer >= 1, got ${votes}`);
  }
  const items: CalibrationItem[] = [];
  for (const t of options.targets) {
    const criterion: Criterion = {
      type: "llm_judge",
      rubric: t.rubric,
      model: options.judge,
      votes,
      temperature,
    };
    const expected = t.label.expected === "pass";
    let item: CalibrationItem;
    try {
      const ev = await evaluateCriterion(
        criterion,
        { question: t.question, finalAnswer: t.label.answer, toolCalls: [] },
        { judge: options.call },
      );
      const usage = ev.judgeCalls.reduce((u, c) => addUsage(u, c.usage), ZERO_USAGE);
      item = {
        id: t.label.id,
        caseId: t.label.case,
        expected,
        predicted: ev.result.passed,
        verdicts: ev.verdicts.map((v) => ({ ...v, criterion: t.criterion })),
        error: null,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: sumOrNull(ev.judgeCalls.map((c) => c.costUsd)),
      };
    } catch (e) {
      const calls = e instanceof JudgeReplyError ? e.judgeCalls : [];
      const usage = calls.reduce((u, c) => addUsage(u, c.usage), ZERO_USAGE);
      item = {
        id: t.label.id,
        caseId: t.label.case,
        expected,
        predicted: null,
        verdicts: [],
        error: (e as Error).message.split("\n")[0],
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: sumOrNull(calls.map((c) => c.costUsd)),
      };
    }
    items.push(item);
    options.onItem?.(item, items.length, options.targets.length);
  }
  const scored = items.filter((i) => i.predicted !== null);
  const c = confusion(scored.map((i) => i.predicted!), scored.map((i) => i.expected));
  const k = scored.length > 0 ? cohensKappa(c) : null;
  const correct = c.bothTrue + c.bothFalse;
  const w = scored.length > 0 ? wilsonInterval(correct, scored.length) : null;
  const kappaNote = k === null ? "no label was scored" : k.reason;
  const total = (xs: readonly (number | null)[]) =>
    xs.filter((x): x is number => x !== null).reduce((a, b) => a + b, 0);
  return {
    judge: options.judge,
    suiteId: options.suiteId,
    votes,
    temperature,
    labels: items.length,
    scored: scored.length,
    judgeErrors: items.length - scored.length,
    accuracy: w?.p ?? null,
    accuracyLo: w?.lo ?? null,
    accuracyHi: w?.hi ?? null,
    confusion: {
      truePass: c.bothTrue,
      falsePass: c.aTrueBFalse,
      falseFail: c.aFalseBTrue,
      trueFail: c.bothFalse,
    },
    kappa: k?.kappa ?? null,
    chanceAgreement: k?.expected ?? null,
    ...(kappaNote === undefined ? {} : { kappaNote }),
    inputTokens: total(items.map((i) => i.inputTokens)),
    outputTokens: total(items.map((i) => i.outputTokens)),
    costUsd: total(items.map((i) => i.costUsd)),
    items,
  };
}

/**
 * The report as console lines: the headline figures, the confusion counts and each label the
 * judge got wrong.
 *
 * @param r The report.
 * @returns Lines without trailing newlines.
 */
export function calibrationLines(r: CalibrationReport): string[] {
  const f3 = (v: number | null) => v === null ? "n/a" : v.toFixed(3);
  const c = r.confusion;
  const wrong = r.items.filter((i) => i.predicted !== null && i.predicted !== i.expected);
  const word = (p: boolean) => p ? "pass" : "fail";
  return [
    `calibrate ${r.suiteId} judge=${r.judge} votes=${r.votes}: ${r.labels} labels, ${r.scored} scored, ${r.judgeErrors} judge error(s)`,
    `accuracy ${f3(r.accuracy)} [${f3(r.accuracyLo)}, ${f3(r.accuracyHi)}]  kappa ${
      f3(r.kappa)
    } (chance agreement ${f3(r.chanceAgreement)})${r.kappaNote ? `  note: ${r.kappaNote}` : ""}`,
    `confusion (judge/label): pass/pass ${c.truePass}  pass/fail ${c.falsePass}  fail/pass ${c.falseFail}  fail/fail ${c.trueFail}`,
    `judge cost $${
      r.costUsd.toPrecision(3)
    } (${r.inputTokens} input / ${r.outputTokens} output tokens)`,
    ...wrong.map((i) =>
      `  wrong: ${i.id} (case ${i.caseId}): judge ${word(i.predicted!)}, label ${word(i.expected)}`
    ),
    ...r.items.filter((i) => i.error !== null).map((i) => `  judge error: ${i.id}: ${i.error}`),
  ];
}
