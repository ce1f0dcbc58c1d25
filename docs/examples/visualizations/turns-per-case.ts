// A user visualization: the median and the largest number of model turns per case, by agent.
// Drop a file like this into reporting/visualizations/ (or --viz-dir DIR); its id must equal
// the file name. See docs/visualizations.md.
import * as Plot from "@observablehq/plot";
import type { AgentRunRecord, Visualization, VizContext } from "@lib/report/viz/mod.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const visualization: Visualization = {
  id: "turns-per-case",
  title: "Model turns per case",
  layout: "half",
  description: "Median (dot) and largest (tick) number of model turns per scored case, by agent.",
  render(records: readonly AgentRunRecord[], ctx: VizContext) {
    const byAgent = new Map<string, number[]>();
    for (const r of records) {
      const turns = r.cases.filter((c) => c.passed !== null).map((c) => c.iterations);
      byAgent.set(r.agentId, [...(byAgent.get(r.agentId) ?? []), ...turns]);
    }
    const data = [...byAgent].filter(([, t]) => t.length > 0).map(([agent, t]) => ({
      agent,
      median: median(t),
      max: Math.max(...t),
    }));
    if (data.length === 0) return { type: "note", text: "No scored case in the selected runs." };
    const domain = data.map((d) => d.agent).sort();
    return Plot.plot({
      document: ctx.document,
      width: ctx.width,
      marginLeft: 180,
      height: 50 + 26 * data.length,
      x: { label: "model turns per case →", grid: true, zero: true },
      y: { label: null, domain },
      marks: [
        Plot.ruleY(data, { y: "agent", x1: "median", x2: "max", stroke: ctx.theme.muted }),
        Plot.dot(data, {
          y: "agent",
          x: "median",
          fill: (d: { agent: string }) => ctx.theme.colorOf(d.agent, domain),
          r: 5,
        }),
        Plot.tickX(data, { y: "agent", x: "max", stroke: ctx.theme.ink }),
      ],
    }) as unknown as Element;
  },
};

export default visualization;
