/**
 * Writes synthetic agent run folders in the on-disk format of `deno task agents`
 * (`run.json`, `cases.jsonl`, optional `sweep.json`) with outcomes chosen by the test, so
 * comparisons and gates can be checked against known differences. Private to tests.
 *
 * @module
 */
import { join } from "node:path";
import type { CaseRecord } from "../lib/agent/types.ts";
import type { RunCatalog, SweepInfo } from "../lib/report/runs.ts";

/** What one synthetic case repetition did. */
export interface SyntheticOutcome {
  /** Verdict; `null` is an infrastructure error. */
  readonly passed: boolean | null;
  /** Agent cost, USD. @default {0.001} */
  readonly costUsd?: number | null;
  /** Wall time, ms. @default {1000} */
  readonly wallMs?: number;
  /** Tools called (`server:tool`), none failing. @default {[]} */
  readonly tools?: readonly string[];
  /** Error kind; `iteration_limit` with `passed: false`, infra kinds with `passed: null`. */
  readonly error?: "iteration_limit" | "model" | "timeout" | "mcp" | "judge";
  /** More record fields (e.g. `inputTokens`, `context`, `summarizer`, `toolRetries`), merged last. */
  readonly extra?: Partial<CaseRecord>;
}

/** One synthetic agent. */
export interface SyntheticAgent {
  /** Agent id. */
  readonly id: string;
  /** Outcome of case `caseIndex`, repetition `rep`. */
  readonly outcome: (caseIndex: number, rep: number) => SyntheticOutcome;
  /** Catalog recorded in `run.json`. @default a fixed hash */
  readonly catalog?: RunCatalog;
  /** Model id in the agent snapshot. @default {"m"} */
  readonly model?: string;
}

/** A synthetic run. */
export interface SyntheticRun {
  /** Run id (folder name). */
  readonly runId: string;
  /** Suite id. @default {"suite"} */
  readonly suiteId?: string;
  /** ISO start time. */
  readonly startedAt: string;
  /** Status written to `run.json`. @default {"complete"} */
  readonly status?: string;
  /** Case ids. */
  readonly cases: readonly string[];
  /** Repetitions per case. */
  readonly repetitions: number;
  /** Agents. */
  readonly agents: readonly SyntheticAgent[];
  /** Shard written to `run.json`. */
  readonly shard?: { index: number; count: number };
  /** Records to leave out (simulates a crash): keys `agent|case|rep`. */
  readonly drop?: readonly string[];
  /** Written as `sweep.json` when given. */
  readonly sweep?: SweepInfo;
  /** `run.json` `models` (the registry entries the run needed), when given. */
  readonly models?: readonly Record<string, unknown>[];
}

/**
 * Writes `<root>/<runId>/` and returns its path.
 *
 * @param root Parent folder.
 * @param spec The run.
 * @returns The run folder.
 */
export async function writeSyntheticRun(root: string, spec: SyntheticRun): Promise<string> {
  const dir = join(root, spec.runId);
  await Deno.mkdir(dir, { recursive: true });
  const records: CaseRecord[] = [];
  const drop = new Set(spec.drop ?? []);
  for (const agent of spec.agents) {
    spec.cases.forEach((caseId, ci) => {
      for (let rep = 0; rep < spec.repetitions; rep++) {
        if (drop.has(`${agent.id}|${caseId}|${rep}`)) continue;
        const o = agent.outcome(ci, rep);
        records.push({
          agentId: agent.id,
          caseId,
          repetition: rep,
          passed: o.passed,
          criterion: null,
          finalAnswer: o.passed === null ? null : "x",
          wallMs: o.wallMs ?? 1000,
          llmMs: 0,
          toolMs: 0,
          iterations: 1,
          inputTokens: 100,
          outputTokens: 20,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          peakContextTokens: 100,
          toolCalls: (o.tools ?? []).map((t) => ({
            name: t.split(":")[1],
            tool: t,
            args: {},
            ms: 1,
            isError: false,
          })),
          costUsd: o.costUsd === undefined ? 0.001 : o.costUsd,
          judge: null,
          error: o.error ? { kind: o.error, message: o.error } : null,
          cachedModelCalls: 0,
          usageNotes: [],
          ...o.extra,
        });
      }
    });
  }
  await Deno.writeTextFile(
    join(dir, "cases.jsonl"),
    records.map((r) => JSON.stringify(r) + "\n").join(""),
  );
  const planned = spec.agents.length * spec.cases.length * spec.repetitions;
  await Deno.writeTextFile(
    join(dir, "run.json"),
    JSON.stringify({
      schemaVersion: 1,
      task: "tasks/agents.ts",
      runId: spec.runId,
      status: spec.status ?? "complete",
      startedAt: spec.startedAt,
      endedAt: spec.startedAt,
      seed: 0,
      repetitions: spec.repetitions,
      shard: spec.shard ?? null,
      plannedCases: planned,
      suite: {
        id: spec.suiteId ?? "suite",
        description: "",
        cases: spec.cases.map((id) => ({
          id,
          question: "q",
          criterion: { type: "exact", value: "x" },
        })),
      },
      agents: spec.agents.map((a) => ({
        id: a.id,
        description: "",
        model: a.model ?? "m",
        systemPrompt: "p",
        mcpServers: ["fs"],
        exposure: "direct",
        loop: "sequential",
        maxIterations: 10,
        maxOutputTokens: 512,
      })),
      catalogs: Object.fromEntries(
        spec.agents.map((a) => [a.id, a.catalog ?? { hash: "h0", tools: 0, mapping: {} }]),
      ),
      ...(spec.models ? { models: spec.models } : {}),
      warnings: [],
      meta: {},
    }),
  );
  if (spec.sweep) await Deno.writeTextFile(join(dir, "sweep.json"), JSON.stringify(spec.sweep));
  return dir;
}

/**
 * The three runs the gate tests compare: 8 cases × 4 repetitions of agent `a` at 0.001 USD a
 * case; `base` passes everything, `same` misses one repetition of case 0 (noise), `worse`
 * passes one repetition of each case (a real drop).
 *
 * @param root Parent folder.
 * @returns The three run folders.
 */
export async function writeGateRuns(
  root: string,
): Promise<{ base: string; same: string; worse: string }> {
  const cases = Array.from({ length: 8 }, (_, i) => `c${i}`);
  const mk = (runId: string, passes: (c: number) => number) =>
    writeSyntheticRun(root, {
      runId,
      startedAt: "2025-01-01T00:00:00Z",
      cases,
      repetitions: 4,
      agents: [{ id: "a", outcome: (c, r) => ({ passed: r < passes(c), costUsd: 0.001 }) }],
    });
  return {
    base: await mk("base", () => 4),
    same: await mk("same", (c) => c === 0 ? 3 : 4),
    worse: await mk("worse", () => 1),
  };
}
