/**
 * Dashboards and saved reports as JSON: their shapes (validated with zod), the check of every
 * visualization `ref` against a registry, the three built-in dashboards (`agent-comparison`,
 * `trends-over-time`, `reliability-diagnostics`) and the re-resolution of a report's filter over
 * the runs at hand. Pure; `load_dashboards.ts` reads and writes the files.
 *
 * @module
 */
import { z } from "zod";
import type { VizRegistry } from "./viz/registry.ts";
import type { RunFilter } from "./runs.ts";

/** One visualization instance on a dashboard. */
export interface DashboardItem {
  /** Visualization id (must be registered). */
  readonly ref: string;
  /** Caption of this instance; default the visualization's title. */
  readonly title?: string;
}

/** A titled group of visualizations. */
export interface DashboardSection {
  /** Section heading. */
  readonly title: string;
  /** Instances in order. */
  readonly visualizations: readonly DashboardItem[];
}

/** A dashboard: `{id, title, sections}`. */
export interface Dashboard {
  /** Id (file name without `.json`), lower-case words joined by `-`. */
  readonly id: string;
  /** Title. */
  readonly title: string;
  /** Sections in order. */
  readonly sections: readonly DashboardSection[];
}

/** A saved report: a dashboard over the runs its filter selects, re-resolved on every open. */
export interface ReportDef {
  /** Id (file name without `.json`). */
  readonly id: string;
  /** Title. */
  readonly title: string;
  /** Which runs: suites, agents, an inclusive date range (`YYYY-MM-DD` UTC or ISO times). */
  readonly filter: {
    readonly suiteIds?: readonly string[];
    readonly agentIds?: readonly string[];
    readonly from?: string;
    readonly to?: string;
  };
  /** Dashboard id. */
  readonly dashboardId: string;
}

const ID = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lower-case words joined by "-"');
const date = z.string().refine(
  (s) => Number.isFinite(Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s)),
  "a date (YYYY-MM-DD) or ISO time",
);

/** zod schema of {@linkcode Dashboard}; unknown keys refused. */
const DashboardSchema = z.strictObject({
  $schema: z.string().optional(),
  id: ID,
  title: z.string().min(1),
  sections: z.array(z.strictObject({
    title: z.string().min(1),
    visualizations: z.array(z.strictObject({
      ref: z.string().min(1),
      title: z.string().min(1).optional(),
    })),
  })).min(1),
});

/** zod schema of {@linkcode ReportDef}; unknown keys refused. */
const ReportSchema = z.strictObject({
  $schema: z.string().optional(),
  id: ID,
  title: z.string().min(1),
  filter: z.strictObject({
    suiteIds: z.array(z.string().min(1)).optional(),
    agentIds: z.array(z.string().min(1)).optional(),
    from: date.optional(),
    to: date.optional(),
  }),
  dashboardId: ID,
});

/** A dashboard or report that fails validation; `path` names the file (or `(request)`). */
export class DashboardError extends Error {
  /** File or source at fault. */
  readonly path: string;
  /** JSON path of the field at fault, e.g. `sections[1].visualizations[0].ref`. */
  readonly field: string;
  /**
   * Builds the error; the message reads `Cannot use <what> "<path>": <field> <message>`.
   *
   * @param what `dashboard` or `report`.
   * @param path Source.
   * @param field Field path.
   * @param message What is wrong.
   */
  constructor(what: string, path: string, field: string, message: string) {
    super(`Cannot use ${what} "${path}": ${field ? `${field} ` : ""}${message}`);
    this.name = "DashboardError";
    this.path = path;
    this.field = field;
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`).join(
    "",
  );
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string, source: string): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new DashboardError(what, source, fieldPath(issue.path), issue.message);
  }
  return r.data;
}

/**
 * Validates a dashboard: its shape, then every `ref` against the registry.
 *
 * @param value Parsed JSON.
 * @param registry Visualizations known.
 * @param source File name for messages. @default {"(request)"}
 * @returns The dashboard (without `$schema`).
 * @throws {DashboardError} naming the field: a bad shape, or an unknown `ref` (the message lists
 *   the closest known ids).
 *
 * @example Usage
 * ```ts
 * import { validateDashboard } from "./dashboards.ts";
 * import { createRegistry } from "./viz/registry.ts";
 * let refused = false;
 * try {
 *   validateDashboard({ id: "d", title: "D", sections: [{ title: "S", visualizations: [{ ref: "nope" }] }] },
 *     createRegistry());
 * } catch { refused = true; }
 * if (!refused) throw new Error("unknown ref accepted");
 * ```
 */
export function validateDashboard(
  value: unknown,
  registry: VizRegistry,
  source = "(request)",
): Dashboard {
  const { $schema: _s, ...d } = parseWith(DashboardSchema, value, "dashboard", source);
  d.sections.forEach((s, i) =>
    s.visualizations.forEach((v, j) => {
      if (!registry.has(v.ref)) {
        const near = registry.all.map((x) => x.id).filter((id) =>
          id.includes(v.ref) || v.ref.includes(id) ||
          id.split("-").some((w) => w.length > 3 && v.ref.includes(w))
        ).slice(0, 3);
        throw new DashboardError(
          "dashboard",
          source,
          `sections[${i}].visualizations[${j}].ref`,
          `names an unknown visualization "${v.ref}"${
            near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(", ")}?)` : ""
          }; list them with deno task report --list-visualizations`,
        );
      }
    })
  );
  return d;
}

/**
 * Validates a report's shape and, when dashboards are given, that its dashboard exists.
 *
 * @param value Parsed JSON.
 * @param dashboardIds Known dashboard ids, or `undefined` to skip that check.
 * @param source File name for messages. @default {"(request)"}
 * @returns The report (without `$schema`).
 * @throws {DashboardError} naming the field.
 */
export function validateReport(
  value: unknown,
  dashboardIds?: readonly string[],
  source = "(request)",
): ReportDef {
  const { $schema: _s, ...r } = parseWith(ReportSchema, value, "report", source);
  if (dashboardIds && !dashboardIds.includes(r.dashboardId)) {
    throw new DashboardError(
      "report",
      source,
      "dashboardId",
      `names an unknown dashboard "${r.dashboardId}"; known: ${dashboardIds.join(", ")}`,
    );
  }
  return r;
}

/**
 * The run filter of a report (`lib/report` {@linkcode RunFilter}); empty lists filter nothing.
 *
 * @param report The report.
 * @returns The filter for `filterRuns`.
 */
export function reportFilter(report: ReportDef): RunFilter {
  const f = report.filter;
  return {
    ...(f.suiteIds && f.suiteIds.length > 0 ? { suites: f.suiteIds } : {}),
    ...(f.agentIds && f.agentIds.length > 0 ? { agents: f.agentIds } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
  };
}

const item = (ref: string, title?: string): DashboardItem => title ? { ref, title } : { ref };

/** The three built-in dashboards (MAVERIK's ids and sections, plus mcpmeter's charts). */
export const BUILTIN_DASHBOARDS: readonly Dashboard[] = [
  {
    id: "agent-comparison",
    title: "Agent comparison",
    sections: [
      {
        title: "Summary",
        visualizations: [
          item("metrics-by-agent"),
          item("capability-by-agent"),
          item("cost-vs-correctness"),
          item("agent-average-overall-cost"),
        ],
      },
      {
        title: "Correctness and reliability",
        visualizations: [
          item("agent-average-correctness"),
          item("pass-k-curves"),
          item("question-pass-rate-matrix"),
          item("reliability-by-agent"),
        ],
      },
      {
        title: "Efficiency",
        visualizations: [
          item("agent-average-duration"),
          item("agent-average-tool-calls"),
          item("agent-average-context-window"),
          item("iteration-budget-utilization"),
          item("peak-context-ceiling-by-agent"),
          item("duration-per-question-distribution"),
        ],
      },
      {
        title: "Tokens",
        visualizations: [
          item("agent-average-input-tokens"),
          item("agent-average-output-tokens"),
          item("exposure-mode-comparison"),
          item("cache-effectiveness-by-agent"),
        ],
      },
      {
        title: "Cost",
        visualizations: [
          item("agent-average-token-cost"),
          item("agent-average-tool-cost"),
          item("cost-composition-by-agent"),
          item("cost-per-question-distribution"),
          item("tool-call-frequency"),
        ],
      },
    ],
  },
  {
    id: "trends-over-time",
    title: "Trends over time",
    sections: [
      { title: "Summary", visualizations: [item("metrics-by-run")] },
      { title: "Correctness", visualizations: [item("runs-over-time-correctness")] },
      {
        title: "Performance",
        visualizations: [
          item("runs-over-time-duration"),
          item("runs-over-time-tool-calls"),
          item("runs-over-time-context-window"),
          item("runs-over-time-iteration-limit-rate"),
        ],
      },
      {
        title: "Tokens",
        visualizations: [item("runs-over-time-input-tokens"), item("runs-over-time-output-tokens")],
      },
      {
        title: "Cost",
        visualizations: [
          item("runs-over-time-token-cost"),
          item("runs-over-time-tool-cost"),
          item("runs-over-time-overall-cost"),
        ],
      },
    ],
  },
  {
    id: "reliability-diagnostics",
    title: "Reliability and diagnostics",
    sections: [
      {
        title: "Where it is failing",
        visualizations: [
          item("question-pass-rate-matrix"),
          item("reliability-by-agent"),
          item("flakiness-by-case"),
          item("runs-over-time-iteration-limit-rate"),
        ],
      },
      { title: "Tool usage", visualizations: [item("tool-call-frequency")] },
      { title: "Per-case detail", visualizations: [item("question-details")] },
    ],
  },
];
