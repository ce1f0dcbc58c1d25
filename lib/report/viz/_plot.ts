/** Plot helpers shared by the built-in charts (private). @module */
import * as Plot from "@observablehq/plot";
import type { AgentRunRecord, VizContext } from "./types.ts";
import { agentDomain } from "./_shared.ts";
import { middleCut } from "../figures.ts";

/**
 * An agent id as a chart's left axis writes it: cut in the middle to what the 180–190 px
 * margins hold at Plot's 10 px font (a sweep agent's id runs past 40 characters).
 */
export const agentTick = (agent: string): string => middleCut(agent, 34);

/** The agent colour scale: every agent of the records, coloured by the theme. */
export const agentColors = (
  records: readonly AgentRunRecord[],
  ctx: VizContext,
): { domain: string[]; range: string[] } => {
  const domain = agentDomain(records);
  return { domain, range: domain.map((d) => ctx.theme.colorOf(d, domain)) };
};

/** A Plot result as a DOM element (Plot's own type is its lighter DOM shape). */
export const el = (x: unknown): Element => x as Element;

/**
 * One labelled bar per agent: `value` along x, the agent's colour, its formatted value at the bar's
 * end (in `textFill` when given, else Plot's default), and `extra` marks (a rule at 0 or at a
 * budget) on top.
 *
 * @param records Records (the colour domain is every agent among them).
 * @param ctx Context (document, width, theme).
 * @param data One value per agent, in bar order.
 * @param options Axis label and domain, value format, right margin, label colour, extra marks.
 * @returns The Plot element.
 */
export function agentBars(
  records: readonly AgentRunRecord[],
  ctx: VizContext,
  data: readonly { agent: string; value: number | null }[],
  options: {
    x: { label: string; domain?: readonly [number, number] };
    format: (v: number) => string;
    marginRight: number;
    textFill?: string;
    extra: unknown[];
  },
): Element {
  const { domain, ...xRest } = options.x;
  return el(Plot.plot({
    document: ctx.document,
    width: ctx.width,
    marginLeft: 190,
    marginRight: options.marginRight,
    height: 50 + 26 * data.length,
    x: { ...xRest, ...(domain ? { domain: [...domain] } : {}), grid: true },
    y: { label: null, domain: data.map((d) => d.agent), tickFormat: agentTick },
    color: agentColors(records, ctx),
    marks: [
      Plot.barX(data.filter((d) => d.value !== null), { x: "value", y: "agent", fill: "agent" }),
      Plot.text(data, {
        x: (d: { value: number | null }) => d.value ?? domain?.[0] ?? 0,
        y: "agent",
        text: (d: { value: number | null }) => d.value === null ? "–" : options.format(d.value),
        dx: 4,
        textAnchor: "start",
        ...(options.textFill === undefined ? {} : { fill: options.textFill }),
      }),
      ...options.extra as Plot.Markish[],
    ],
  }));
}
