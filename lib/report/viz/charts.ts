/**
 * The built-in charts beyond the nine metrics: cost against correctness, cost and duration
 * beeswarms per case, cost composition, cache effectiveness, the peak-context ceiling, tool-call
 * frequency, iteration-budget use, and mcpmeter's own exposure-mode comparison, pass@k / pass^k
 * curves and flakiness by case.
 *
 * @module
 */
import {
  costScatter,
  labelMargin,
  middleCut,
  numberByCost,
  passRateAxis,
  pointKey,
} from "../figures.ts";
import * as Plot from "@observablehq/plot";
import { passAtK, passHatK } from "../../stats/pass_at_k.ts";
import { flakiness } from "../../stats/flakiness.ts";
import type { AgentRunRecord, Visualization } from "./types.ts";
import { agentBars, agentColors, agentTick, el } from "./_plot.ts";
import { avgMetric, builtinViz, byAgent, int, mean, note, pct, uniq, usd } from "./_shared.ts";

/** `cost-vs-correctness`: one point per agent, x overall cost per case, y pass rate. */
export const costVsCorrectness: Visualization = builtinViz({
  id: "cost-vs-correctness",
  title: "Cost against correctness",
  layout: "half",
  description:
    "Mean agent cost per case against pass rate, one point per agent (up-left is better).",
}, (records, ctx) => {
  const data = byAgent(records).map(([agent, rs]) => ({
    agent,
    cost: avgMetric(rs, "overallCostUsd"),
    pass: avgMetric(rs, "passRate"),
  })).filter((d): d is { agent: string; cost: number; pass: number } =>
    d.cost !== null && d.pass !== null
  );
  if (data.length === 0) return note("No priced and scored agent in the selected runs.");
  // Each point carries a number; the key in the right margin names its agent. Agent names at
  // the points overlapped whenever agents shared a pass rate at close costs.
  const keyed = numberByCost(
    data,
    (d) => d.cost,
    (d) => d.agent,
    (d, n) => `${n}  ${middleCut(d.agent, 34)}`,
  );
  const scatter = costScatter(keyed, {
    x: "cost",
    y: "pass",
    fill: "agent",
    title: (d) => `${d.agent}: ${usd(d.cost)}, ${pct(d.pass)}`,
    keyFill: ctx.theme.ink,
  });
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    height: Math.max(320, 60 + 14 * keyed.length),
    marginRight: 210,
    x: scatter.x,
    y: scatter.y,
    color: agentColors(records, ctx),
    marks: scatter.marks,
  }));
});

/** One beeswarm of {@linkcode beeswarmViz}: its id, words, and the case value it draws. */
interface BeeswarmDef {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** Axis label (with unit); ` →` is appended. */
  readonly axis: string;
  /** The value of one case, `null` when it has none (unscored cases are left out anyway). */
  readonly value: (c: AgentRunRecord["cases"][number]) => number | null;
  /** What to say when no case has a value. */
  readonly missing: string;
}

/** A half-width beeswarm: one dot per scored case, one lane per agent, coloured by verdict. */
function beeswarmViz(def: BeeswarmDef): Visualization {
  return builtinViz(
    { id: def.id, title: def.title, layout: "half", description: def.description },
    (records, ctx) => {
      const data = records.flatMap((r) =>
        r.cases.flatMap((c) => {
          const v = c.passed === null ? null : def.value(c);
          return v === null
            ? []
            : [{ agent: r.agentId, value: v, passed: c.passed ? "pass" : "fail", case: c.caseId }];
        })
      );
      if (data.length === 0) return note(def.missing);
      const agents = uniq(data.map((d) => d.agent));
      // Each dot's height in its lane is the fractional part of k × the golden ratio (k its
      // number in the lane): spread evenly, deterministic, and always inside the lane. A dodge
      // stacked dots of equal value (a scripted model's 27 equal costs) past the lane's edges.
      const seen = new Map<string, number>();
      const placed = data.map((d) => {
        const k = seen.get(d.agent) ?? 0;
        seen.set(d.agent, k + 1);
        return { ...d, lane: (k * 0.6180339887498949) % 1 };
      });
      return el(Plot.plot({
        document: ctx.document,
        width: ctx.width,
        height: 40 + 44 * agents.length,
        marginLeft: 10,
        // Half the widest tick label, so the last one is not cut at the edge.
        marginRight: 28,
        x: { label: `${def.axis} →`, grid: true, inset: 6 },
        y: { axis: null, domain: [0, 1], insetTop: 6, insetBottom: 6 },
        fy: { label: null, domain: agents, axis: "left", tickFormat: agentTick },
        facet: { marginLeft: 180 },
        color: { legend: true, domain: ["pass", "fail"], range: [ctx.theme.good, ctx.theme.bad] },
        marks: [
          Plot.frame({ stroke: ctx.theme.muted, strokeOpacity: 0.6 }),
          Plot.dot(placed, {
            x: "value",
            y: "lane",
            fy: "agent",
            fill: "passed",
            r: 2.5,
            title: (d: (typeof placed)[number]) => `${d.agent} · ${d.case}: ${d.value}`,
          }),
        ],
      }));
    },
  );
}

/** `cost-per-question-distribution`: one dot per scored case, one lane per agent. */
export const costDistribution: Visualization = beeswarmViz({
  id: "cost-per-question-distribution",
  title: "Cost per case",
  description:
    "Agent cost of every scored case (beeswarm), one lane per agent, coloured by verdict.",
  axis: "agent cost per case (USD)",
  value: (c) => c.costUsd,
  missing: "No priced case: the model has no pricing or usage was not reported.",
});

/** `duration-per-question-distribution`: one dot per scored case, one lane per agent. */
export const durationDistribution: Visualization = beeswarmViz({
  id: "duration-per-question-distribution",
  title: "Duration per case",
  description: "Wall time of every scored case (beeswarm), one lane per agent.",
  axis: "wall time per case (ms)",
  value: (c) => c.wallMs,
  missing: "No scored case.",
});

/** `cost-composition-by-agent`: token, tool and judge cost per case, stacked. */
export const costComposition: Visualization = builtinViz({
  id: "cost-composition-by-agent",
  title: "Cost composition by agent",
  layout: "half",
  description: "Mean cost per case split into model tokens, tool prices and the judge.",
}, (records, ctx) => {
  const data = byAgent(records).flatMap(([agent, rs]) =>
    (
      [
        ["tokens", avgMetric(rs, "tokenCostUsd")],
        ["tools", avgMetric(rs, "toolCostUsd")],
        ["judge", avgMetric(rs, "judgeCostUsd")],
      ] as const
    ).flatMap(([part, v]) => v === null || v === 0 ? [] : [{ agent, part, usd: v }])
  );
  if (data.length === 0) return note("No cost recorded in the selected runs.");
  const agents = uniq(data.map((d) => d.agent));
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    marginLeft: 190,
    height: 60 + 26 * agents.length,
    x: { label: "mean cost per case (USD) →", grid: true },
    y: { label: null, domain: agents, tickFormat: agentTick },
    color: {
      legend: true,
      domain: ["tokens", "tools", "judge"],
      range: [ctx.theme.palette[0], ctx.theme.palette[1], ctx.theme.palette[6]],
    },
    marks: [
      Plot.barX(data, {
        x: "usd",
        y: "agent",
        fill: "part",
        title: (d: (typeof data)[number]) => `${d.part}: ${usd(d.usd)}`,
      }),
      Plot.ruleX([0]),
    ],
  }));
});

/** `cache-effectiveness-by-agent`: cache-read tokens ÷ (uncached input + cache read). */
export const cacheEffectiveness: Visualization = builtinViz({
  id: "cache-effectiveness-by-agent",
  title: "Prompt-cache effectiveness by agent",
  layout: "half",
  description:
    "Share of input tokens read from the provider's prompt cache, for agents whose runs report cache reads.",
}, (records, ctx) => {
  const data = byAgent(records).flatMap(([agent, rs]) => {
    const cs = rs.flatMap((r) => r.cases).filter((c) =>
      c.passed !== null && c.cacheReadTokens !== null && c.inputTokens !== null
    );
    if (cs.length === 0) return [];
    const read = cs.reduce((s, c) => s + c.cacheReadTokens!, 0);
    const all = read + cs.reduce((s, c) => s + c.inputTokens!, 0);
    return all === 0 ? [] : [{ agent, value: read / all }];
  });
  if (data.length === 0) {
    return note("Cache reads not recorded by these runs (the provider reported none).");
  }
  if (data.every((d) => d.value === 0)) {
    return note(
      `No input token was read from a prompt cache in these runs (${data.length} agent(s) report cache reads of 0).`,
    );
  }
  return agentBars(records, ctx, data, {
    x: { label: "share of input tokens read from cache →", domain: [0, 1] },
    format: pct,
    marginRight: 60,
    extra: [],
  });
});

/** `peak-context-ceiling-by-agent`: the largest single request of any case, per agent. */
export const peakContextCeiling: Visualization = builtinViz({
  id: "peak-context-ceiling-by-agent",
  title: "Peak context ceiling by agent",
  layout: "half",
  description:
    "Largest single model request of any case (input + cache tokens of one turn), per agent.",
}, (records, ctx) => {
  const data = byAgent(records).flatMap(([agent, rs]) => {
    const peaks = rs.map((r) => r.metrics.maxPeakContextTokens).filter((x): x is number =>
      x !== null
    );
    return peaks.length === 0 ? [] : [{ agent, value: Math.max(...peaks) }];
  });
  if (data.length === 0) return note("Peak context not recorded by these runs.");
  return agentBars(records, ctx, data, {
    x: { label: "max peak context tokens →" },
    format: int,
    marginRight: 70,
    extra: [Plot.ruleX([0])],
  });
});

/**
 * Tool-call counts per tool (`server:tool`, or the name when unrouted) and agent over the
 * selected records; upstream `via` calls counted under the upstream tool.
 *
 * @param records Records.
 * @returns Rows, calls descending then tool then agent.
 */
export function toolCallCounts(
  records: readonly AgentRunRecord[],
): { tool: string; agent: string; calls: number }[] {
  const m = new Map<string, number>();
  for (const r of records) {
    for (const c of r.cases.flatMap((x) => x.toolCalls)) {
      const k = `${c.tool ?? c.name}\u0000${r.agentId}`;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
  }
  return [...m.entries()].map(([k, calls]) => {
    const [tool, agent] = k.split("\u0000");
    return { tool, agent, calls };
  }).sort((a, b) =>
    b.calls - a.calls || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : a.agent < b.agent ? -1 : 1)
  );
}

/** `tool-call-frequency`: calls per tool, stacked by agent. */
export const toolCallFrequency: Visualization = builtinViz({
  id: "tool-call-frequency",
  title: "Tool-call frequency",
  layout: "half",
  description: "How often each tool was called over the selected runs, stacked by agent.",
}, (records, ctx) => {
  const data = toolCallCounts(records);
  if (data.length === 0) return note("No tool was called in the selected runs.");
  const totals = new Map<string, number>();
  for (const d of data) totals.set(d.tool, (totals.get(d.tool) ?? 0) + d.calls);
  const tools = [...totals.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([t]) => t);
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    marginLeft: 220,
    height: 60 + 20 * tools.length,
    x: { label: "calls →", grid: true },
    y: { label: null, domain: tools },
    color: { ...agentColors(records, ctx), legend: true },
    marks: [Plot.barX(data, { x: "calls", y: "tool", fill: "agent" }), Plot.ruleX([0])],
  }));
});

/** `iteration-budget-utilization`: mean of min(1, turns ÷ maxIterations) per agent. */
export const iterationBudget: Visualization = builtinViz({
  id: "iteration-budget-utilization",
  title: "Iteration-budget use by agent",
  layout: "half",
  description: "Mean over scored cases of min(1, model turns ÷ the agent's maxIterations).",
}, (records, ctx) => {
  const data = byAgent(records).flatMap(([agent, rs]) => {
    const v = avgMetric(rs, "iterationBudgetUse");
    return v === null ? [] : [{ agent, value: v }];
  });
  if (data.length === 0) {
    return note("Iteration budget not recorded: run.json holds no agent configuration.");
  }
  return agentBars(records, ctx, data, {
    x: { label: "share of the iteration budget used →", domain: [0, 1] },
    format: pct,
    marginRight: 60,
    extra: [Plot.ruleX([1], { stroke: ctx.theme.bad, strokeDasharray: "4,3" })],
  });
});

/** `exposure-mode-comparison`: input tokens per case against pass rate, by exposure mode. */
export const exposureModeComparison: Visualization = builtinViz({
  id: "exposure-mode-comparison",
  title: "Exposure modes: input tokens and pass rate",
  layout: "half",
  description:
    "Each agent's mean input tokens per case against its pass rate, coloured by exposure mode (direct, proxy, code).",
}, (records, ctx) => {
  const data = byAgent(records).flatMap(([agent, rs]) => {
    const tokens = avgMetric(rs, "avgInputTokens");
    const pass = avgMetric(rs, "passRate");
    const mode = rs[rs.length - 1].agent?.exposure ?? null;
    return tokens === null || pass === null || mode === null ? [] : [{ agent, mode, tokens, pass }];
  });
  if (data.length === 0) {
    return note("Needs input tokens, a pass rate and the agent's exposure mode in run.json.");
  }
  const modes = ["direct", "proxy", "code"].filter((m) => data.some((d) => d.mode === m));
  // Numbered points and a key in the right margin, as in cost-vs-correctness: agent names at
  // the points overlapped wherever agents shared a pass rate at close token counts.
  const keyed = numberByCost(
    data,
    (d) => d.tokens,
    (d) => d.agent,
    (d, n) => `${n}  ${middleCut(d.agent, 28)} (${d.mode})`,
  );
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    height: Math.max(320, 60 + 14 * keyed.length),
    marginRight: 210,
    x: {
      label: "mean input tokens per case →",
      labelAnchor: "center",
      grid: true,
      zero: true,
      insetRight: 10,
    },
    y: { ...passRateAxis(), insetTop: 8 },
    // The mode is the colour and is named in the key (a symbol other than a circle hid the number).
    color: { legend: true, domain: modes, range: modes.map((_, i) => ctx.theme.palette[i]) },
    marks: [
      Plot.dot(keyed, {
        x: "tokens",
        y: "pass",
        fill: "mode",
        r: 7,
        title: (d: (typeof keyed)[number]) =>
          `${d.agent} (${d.mode}): ${int(d.tokens)} input tokens, ${pct(d.pass)}`,
      }),
      Plot.text(keyed, { x: "tokens", y: "pass", text: "n", fill: "white", fontSize: 9 }),
      pointKey(keyed.map((d) => d.key), ctx.theme.ink),
    ],
  }));
});

/**
 * pass@k and pass^k for k = 1 … K per agent, pooling each case's scored repetitions over the
 * agent's selected records; K = the smallest number of scored repetitions of any of its cases.
 *
 * @param records Records.
 * @returns Points `{agent, k, measure, value}`.
 */
export function passKCurves(
  records: readonly AgentRunRecord[],
): { agent: string; k: number; measure: "pass@k" | "pass^k"; value: number }[] {
  return byAgent(records).flatMap(([agent, rs]) => {
    const per = new Map<string, { n: number; c: number }>();
    for (const r of rs) {
      for (const c of r.cases) {
        if (c.passed === null) continue;
        const key = `${r.suiteId}\u0000${c.caseId}`;
        const s = per.get(key) ?? { n: 0, c: 0 };
        s.n += 1;
        if (c.passed) s.c += 1;
        per.set(key, s);
      }
    }
    const cases = [...per.values()];
    if (cases.length === 0) return [];
    const K = Math.min(...cases.map((s) => s.n));
    return Array.from({ length: K }, (_, i) => i + 1).flatMap((k) => [
      {
        agent,
        k,
        measure: "pass@k" as const,
        value: mean(cases.map((s) => passAtK(s.n, s.c, k)))!,
      },
      {
        agent,
        k,
        measure: "pass^k" as const,
        value: mean(cases.map((s) => passHatK(s.n, s.c, k)))!,
      },
    ]);
  });
}

/** `pass-k-curves`: pass@k (solid) and pass^k (dashed) over k per agent. */
export const passKCurvesViz: Visualization = builtinViz({
  id: "pass-k-curves",
  title: "pass@k and pass^k",
  layout: "half",
  description:
    "pass@k (some of k tries pass, solid) and pass^k (all k pass, dashed) per agent, k up to the repetitions run.",
}, (records, ctx) => {
  const data = passKCurves(records);
  if (data.length === 0) return note("No scored case in the selected runs.");
  if (data.every((d) => d.k === 1)) {
    return note("One repetition per case: pass@k and pass^k need two or more (--repetitions).");
  }
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    height: 300,
    x: { label: "k (tries) →", grid: true, ticks: uniq(data.map((d) => String(d.k))).length },
    y: { label: "↑ probability", domain: [0, 1], grid: true },
    color: { ...agentColors(records, ctx), legend: true },
    marks: [
      Plot.line(data.filter((d) => d.measure === "pass@k"), {
        x: "k",
        y: "value",
        stroke: "agent",
        z: "agent",
        marker: "circle",
      }),
      Plot.line(data.filter((d) => d.measure === "pass^k"), {
        x: "k",
        y: "value",
        stroke: "agent",
        z: "agent",
        strokeDasharray: "5,3",
        marker: "circle",
      }),
    ],
  }));
});

/** `flakiness-by-case`: cases that both passed and failed, score 4p(1 − p), most flaky first. */
export const flakinessByCase: Visualization = builtinViz({
  id: "flakiness-by-case",
  title: "Flakiness by case",
  layout: "half",
  description:
    "Cases that passed in some repetitions and failed in others (score 4p(1 − p), 1 when half pass), per agent and run.",
}, (records, ctx) => {
  const data = records.flatMap((r) => {
    const byCase = new Map<string, boolean[]>();
    for (const c of [...r.cases].sort((a, b) => a.repetition - b.repetition)) {
      if (c.passed === null) continue;
      byCase.set(c.caseId, [...(byCase.get(c.caseId) ?? []), c.passed]);
    }
    return [...byCase.entries()].flatMap(([caseId, outcomes]) => {
      const f = flakiness(outcomes);
      return f.flaky
        ? [{ label: `${caseId} · ${r.agentId}`, agent: r.agentId, score: f.score }]
        : [];
    });
  });
  if (data.length === 0) {
    return note("No flaky case: every case passed in all or failed in all of its repetitions.");
  }
  const best = new Map<string, (typeof data)[number]>();
  for (const d of data) {
    if (!best.has(d.label) || best.get(d.label)!.score < d.score) best.set(d.label, d);
  }
  const rows = [...best.values()].sort((a, b) => b.score - a.score || (a.label < b.label ? -1 : 1));
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    marginLeft: labelMargin(rows.map((d) => d.label), 240),
    height: 50 + 22 * rows.length,
    x: { label: "flakiness 4p(1 − p) →", domain: [0, 1], grid: true },
    y: { label: null, domain: rows.map((d) => d.label) },
    color: agentColors(records, ctx),
    marks: [Plot.barX(rows, { x: "score", y: "label", fill: "agent" }), Plot.ruleX([0])],
  }));
});

/** The charts of this module. */
export const CHART_VISUALIZATIONS: readonly Visualization[] = [
  costVsCorrectness,
  costDistribution,
  durationDistribution,
  costComposition,
  cacheEffectiveness,
  peakContextCeiling,
  toolCallFrequency,
  iterationBudget,
  exposureModeComparison,
  passKCurvesViz,
  flakinessByCase,
];
