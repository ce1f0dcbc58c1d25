/**
 * Reporting in the workbench: the visualization registry, dashboards and saved reports (CRUD,
 * refs checked on save, a live preview that renders without saving), agent versions (cut and
 * list), the Compare versions page, and PDF export of a report by headless Chromium.
 *
 * Files: `<config>/reporting/dashboards/<id>.json`, `<config>/reporting/reports/<id>.json`,
 * user visualization modules in `<config>/reporting/visualizations/`, versions beside the agents.
 *
 * Routes: `GET /api/visualizations`; `GET|POST /api/dashboards`, `GET|PUT|DELETE
 * /api/dashboards/{id}`, `POST /api/dashboards/preview`; `GET|POST /api/reports`, `GET|PUT|DELETE
 * /api/reports/{id}`, `GET /api/reports/{id}/pdf`; `GET|POST /api/agents/{id}/versions`;
 * `GET /api/compare?suite=&agent=&baseline=` (JSON, `&format=csv` for CSV); pages `/reports`,
 * `/reports/dashboards/{id}` (with `/edit`), `/reports/view/{id}`, `/compare`.
 *
 * @module
 */
import { join } from "node:path";
import type { Context } from "hono";
import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { html, page, withNav } from "../html.ts";
import { createAgentVersions } from "../versions.ts";
import {
  agentRunRecords,
  compareRows,
  compareVersions,
  createRegistry,
  type Dashboard,
  DashboardError,
  filterRuns,
  type LoadedRun,
  renderComparePage,
  renderDashboardPage,
  type ReportDef,
  reportFilter,
  type RunFilter,
  validateDashboard,
  type VizRegistry,
  vizTableCsv,
} from "../../report/mod.ts";
import {
  ChromiumMissingError,
  deleteDashboard,
  deleteReport,
  loadDashboards,
  loadReports,
  loadRuns,
  loadUserVisualizations,
  printPdf,
  RunInputError,
  saveDashboard,
  saveReport,
  VizModuleError,
} from "../../report/io.ts";

const dirs = (ctx: WorkbenchContext) => ({
  dashboards: join(ctx.config.dir, "reporting", "dashboards"),
  reports: join(ctx.config.dir, "reporting", "reports"),
  visualizations: join(ctx.config.dir, "reporting", "visualizations"),
});

async function registry(ctx: WorkbenchContext): Promise<VizRegistry> {
  try {
    return createRegistry(await loadUserVisualizations(dirs(ctx).visualizations));
  } catch (e) {
    if (e instanceof VizModuleError || e instanceof RangeError) {
      throw new WorkbenchError(400, e.message);
    }
    throw e;
  }
}

function bad(e: unknown): never {
  if (e instanceof DashboardError) throw new WorkbenchError(400, e.message, e.field || undefined);
  throw e;
}

/** Every run of the runs folder, and why each unusable one was left out. */
interface AllRuns {
  readonly runs: LoadedRun[];
  readonly skipped: readonly string[];
}

async function allRuns(ctx: WorkbenchContext): Promise<AllRuns> {
  const skipped: string[] = [];
  const runs: LoadedRun[] = [];
  // The runs folder and the read-only sources (the demo's), a run id once (the runs folder's).
  for (const dir of [ctx.runs.dir, ...ctx.runs.sources.map((s) => s.dir)]) {
    try {
      for (const run of await loadRuns([dir], { onSkip: (e) => skipped.push(e.message) })) {
        if (!runs.some((r) => r.runId === run.runId)) runs.push(run);
      }
    } catch (e) {
      // A missing or empty folder holds no run yet; one whose every run is malformed is reported.
      if (
        e instanceof RunInputError && /no such folder|holds no run|not a folder/.test(e.message)
      ) {
        continue;
      }
      if (e instanceof RunInputError) throw new WorkbenchError(400, e.message);
      throw e;
    }
  }
  return { runs, skipped };
}

function queryFilter(c: Context): RunFilter {
  const list = (k: string) => {
    const v = c.req.query(k);
    return v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined;
  };
  const suites = list("suite");
  const agents = list("agent");
  const from = c.req.query("from");
  const to = c.req.query("to");
  return {
    ...(suites ? { suites } : {}),
    ...(agents ? { agents } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

function select(runs: LoadedRun[], filter: RunFilter): LoadedRun[] {
  try {
    return filterRuns(runs, filter);
  } catch (e) {
    throw new WorkbenchError(400, (e as Error).message, "filter");
  }
}

async function dashboardById(
  ctx: WorkbenchContext,
  id: string,
  reg: VizRegistry,
): Promise<Dashboard> {
  const all = await loadDashboards(dirs(ctx).dashboards, reg).catch(bad);
  const d = all.find((x) => x.id === id);
  if (!d) throw new WorkbenchError(404, `no dashboard "${id}"`);
  return d;
}

async function reportById(ctx: WorkbenchContext, id: string): Promise<ReportDef> {
  const r = (await loadReports(dirs(ctx).reports).catch(bad)).find((x) => x.id === id);
  if (!r) throw new WorkbenchError(404, `no report "${id}"`);
  return r;
}

function subtitleOf(
  runs: readonly LoadedRun[],
  what: string,
  skipped: readonly string[] = [],
): string {
  const left = skipped.length === 0
    ? ""
    : `; ${skipped.length} run folder(s) left out, unusable: ${skipped[0]}${
      skipped.length > 1 ? " …" : ""
    }`;
  if (runs.length === 0) return `no run matches (${what})${left}`;
  return `${runs.length} run(s), ${runs.reduce((n, r) => n + r.records.length, 0)} case records, ${
    runs[0].startedAt.slice(0, 10)
  } … ${runs[runs.length - 1].startedAt.slice(0, 10)}; ${what}${left}`;
}

const backTo = (href: string, title: string) => html`<a href="${href}">← ${title}</a>`;

async function renderReport(ctx: WorkbenchContext, report: ReportDef, print: boolean) {
  const reg = await registry(ctx);
  const dashboard = await dashboardById(ctx, report.dashboardId, reg);
  // Re-resolved on every open: the filter, not a frozen run list.
  const all = await allRuns(ctx);
  const runs = select(all.runs, reportFilter(report));
  return renderDashboardPage({
    dashboard,
    records: agentRunRecords(runs),
    registry: reg,
    title: report.title,
    subtitle: subtitleOf(runs, `report ${report.id}, dashboard ${dashboard.id}`, all.skipped),
    print,
  });
}

/** The comparison the query asks for: `agent`, `suite` (unless it ran one), `baseline`. */
async function comparison(ctx: WorkbenchContext, c: Context) {
  const agent = c.req.query("agent");
  const suite = c.req.query("suite");
  if (!agent) throw new WorkbenchError(400, `query "agent" is required`, "agent");
  const records = agentRunRecords((await allRuns(ctx)).runs).filter((r) => r.baseAgentId === agent);
  const suites = [...new Set(records.map((r) => r.suiteId))].sort();
  const suiteId = suite ?? (suites.length === 1 ? suites[0] : undefined);
  if (!suiteId) {
    throw new WorkbenchError(
      400,
      `query "suite" is required: agent "${agent}" ran on ${suites.join(", ") || "no suite"}`,
      "suite",
    );
  }
  const baseline = c.req.query("baseline");
  try {
    return compareVersions(records, suiteId, agent, baseline ? { baseline } : {});
  } catch (e) {
    if (e instanceof RangeError) throw new WorkbenchError(400, e.message);
    throw e;
  }
}

/** The reporting routes, registered in this order (Hono matches in order). */
const routes = {
  /** `GET /api/visualizations`: the registry, built-in and the user's. */
  visualizationsApi(app, ctx) {
    app.get("/api/visualizations", async (c) => {
      const reg = await registry(ctx);
      return c.json({
        visualizations: reg.all.map((v) => ({
          id: v.id,
          title: v.title,
          layout: v.layout,
          description: v.description ?? null,
        })),
      });
    });
  },

  /** `/api/dashboards`: list, get, preview (renders without saving), create, replace, delete. */
  dashboardsApi(app, ctx) {
    app.get("/api/dashboards", async (c) => {
      const all = await loadDashboards(dirs(ctx).dashboards, await registry(ctx)).catch(bad);
      return c.json({ dashboards: all });
    });
    app.get(
      "/api/dashboards/:id",
      async (c) => c.json(await dashboardById(ctx, c.req.param("id"), await registry(ctx))),
    );
    const save = async (c: Context, id?: string) => {
      const body = await readJsonBody(c);
      if (id !== undefined && (body as { id?: unknown })?.id !== id) {
        throw new WorkbenchError(400, `field "id" must be "${id}" (the id in the path)`, "id");
      }
      const d = await saveDashboard(dirs(ctx).dashboards, body, await registry(ctx)).catch(bad);
      return c.json(d, id === undefined ? 201 : 200);
    };
    app.post("/api/dashboards/preview", async (c) => {
      const body = await readJsonBody(c) as { dashboard?: unknown };
      const reg = await registry(ctx);
      let dashboard: Dashboard;
      try {
        dashboard = validateDashboard(body?.dashboard, reg);
      } catch (e) {
        bad(e);
      }
      const all = await allRuns(ctx);
      const runs = select(all.runs, queryFilter(c));
      const pageOut = renderDashboardPage({
        dashboard,
        records: agentRunRecords(runs),
        registry: reg,
        subtitle: subtitleOf(runs, "preview, not saved", all.skipped),
      });
      return c.html(pageOut.html);
    });
    app.post("/api/dashboards", (c) => save(c));
    app.put("/api/dashboards/:id", (c) => save(c, c.req.param("id")));
    app.delete("/api/dashboards/:id", async (c) => {
      const gone = await deleteDashboard(dirs(ctx).dashboards, c.req.param("id")).catch(bad);
      if (!gone) throw new WorkbenchError(404, `no dashboard "${c.req.param("id")}"`);
      return c.json({ deleted: c.req.param("id") });
    });
  },

  /** `/api/reports`: list, get, create, replace, delete, and a report as PDF. */
  reportsApi(app, ctx) {
    const dashboardIds = async () =>
      (await loadDashboards(dirs(ctx).dashboards, await registry(ctx)).catch(bad)).map((d) => d.id);
    app.get(
      "/api/reports",
      async (c) =>
        c.json({ reports: await loadReports(dirs(ctx).reports, await dashboardIds()).catch(bad) }),
    );
    app.get("/api/reports/:id", async (c) => c.json(await reportById(ctx, c.req.param("id"))));
    const saveRep = async (c: Context, id?: string) => {
      const body = await readJsonBody(c);
      if (id !== undefined && (body as { id?: unknown })?.id !== id) {
        throw new WorkbenchError(400, `field "id" must be "${id}" (the id in the path)`, "id");
      }
      const r = await saveReport(dirs(ctx).reports, body, await dashboardIds()).catch(bad);
      return c.json(r, id === undefined ? 201 : 200);
    };
    app.post("/api/reports", (c) => saveRep(c));
    app.put("/api/reports/:id", (c) => saveRep(c, c.req.param("id")));
    app.delete("/api/reports/:id", async (c) => {
      const gone = await deleteReport(dirs(ctx).reports, c.req.param("id")).catch(bad);
      if (!gone) throw new WorkbenchError(404, `no report "${c.req.param("id")}"`);
      return c.json({ deleted: c.req.param("id") });
    });
    app.get("/api/reports/:id/pdf", async (c) => {
      const report = await reportById(ctx, c.req.param("id"));
      const printed = await renderReport(ctx, report, true);
      const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-pdf-" });
      try {
        const html = join(tmp, "report.html");
        const pdf = join(tmp, "report.pdf");
        await Deno.writeTextFile(html, printed.html);
        try {
          await printPdf({ url: new URL(`file://${html}`).href, out: pdf });
        } catch (e) {
          if (e instanceof ChromiumMissingError) throw new WorkbenchError(503, e.message);
          throw e;
        }
        const bytes = await Deno.readFile(pdf);
        c.header("content-type", "application/pdf");
        c.header(
          "content-disposition",
          `attachment; filename="${report.id}-${ctx.isoNow().slice(0, 10)}.pdf"`,
        );
        return c.body(bytes);
      } finally {
        await Deno.remove(tmp, { recursive: true }).catch(() => {});
      }
    });
  },

  /** `GET|POST /api/agents/{id}/versions`: list an agent's versions, cut one. */
  versionsApi(app, ctx) {
    const versions = createAgentVersions(ctx.config);
    app.get(
      "/api/agents/:id/versions",
      async (c) =>
        c.json({ agentId: c.req.param("id"), versions: await versions.list(c.req.param("id")) }),
    );
    app.post("/api/agents/:id/versions", async (c) => {
      const r = await versions.cut(c.req.param("id"), ctx.isoNow());
      return c.json({
        agentId: r.version.agentId,
        version: r.version.version,
        sha256: r.version.sha256,
        createdAt: r.version.createdAt,
        created: r.created,
      }, r.created ? 201 : 200);
    });
  },

  /** `GET /api/compare?suite=&agent=&baseline=`: JSON, or CSV with `&format=csv`. */
  compareApi(app, ctx) {
    app.get("/api/compare", async (c) => {
      const cmp = await comparison(ctx, c);
      const rows = compareRows(cmp);
      if (c.req.query("format") === "csv") {
        c.header("content-type", "text/csv; charset=utf-8");
        c.header(
          "content-disposition",
          `attachment; filename="compare-${cmp.suiteId}-${cmp.agentId}.csv"`,
        );
        return c.body(vizTableCsv({ type: "table", rows }));
      }
      return c.json({
        suiteId: cmp.suiteId,
        agentId: cmp.agentId,
        baseline: cmp.baseline,
        points: rows,
        deltas: cmp.deltas,
        frontier: cmp.frontier,
        matrix: cmp.matrix,
        strips: cmp.strips,
      });
    });
  },

  /** `GET /reports`: dashboards, saved reports (and the form to save one), visualizations. */
  reportsPage(app, ctx) {
    app.get("/reports", async (c) => {
      const reg = await registry(ctx);
      const dashboards = await loadDashboards(dirs(ctx).dashboards, reg).catch(bad);
      const reports = await loadReports(dirs(ctx).reports, dashboards.map((d) => d.id)).catch(bad);
      const body = html`
        <div class="card">
          <h2>Dashboards</h2>
          <table><tr><th>id</th><th>title</th><th>sections</th><th></th></tr>${dashboards.map((d) =>
            html`
              <tr>
                <td class="mono">${d.id}</td>
                <td>${d.title}</td>
                <td>${d.sections.map((s) => s.title).join(", ")}</td>
                <td><a href="/reports/dashboards/${d
                  .id}">open</a> · <a href="/reports/dashboards/${d.id}/edit">edit</a></td>
              </tr>
            `
          )}</table>
        </div>
        <div class="card"><h2>Saved reports</h2>${reports.length === 0
          ? html`
            <p
              class="muted">None yet. POST /api/reports {id, title, filter: {suiteIds?, agentIds?, from?, to?}, dashboardId}, or the form below.</p>
          `
          : html`<table><tr><th>id</th><th>title</th><th>filter</th><th>dashboard</th><th></th></tr>${
            reports.map((r) =>
              html`
                <tr>
                  <td class="mono">${r.id}</td>
                  <td>${r.title}</td>
                  <td class="mono">${JSON.stringify(r.filter)}</td>
                  <td>${r.dashboardId}</td>
                  <td><a href="/reports/view/${r.id}">open</a> · <a href="/api/reports/${r
                    .id}/pdf">PDF</a></td>
                </tr>
              `
            )
          }</table>`}
        <form id="rep-form" class="inline" style="margin-top:12px">
        <div class="field"><label>id</label><input type="text" name="id" required pattern="[a-z0-9]+(-[a-z0-9]+)*"></div>
        <div class="field"><label>title</label><input type="text" name="title" required></div>
        <div class="field"><label>suites (comma)</label><input type="text" name="suiteIds"></div>
        <div class="field"><label>agents (comma)</label><input type="text" name="agentIds"></div>
        <div class="field"><label>from</label><input type="text" name="from" placeholder="YYYY-MM-DD"></div>
        <div class="field"><label>to</label><input type="text" name="to" placeholder="YYYY-MM-DD"></div>
        <div class="field"><label>dashboard</label><select name="dashboardId">${dashboards.map((
          d,
        ) => html`<option>${d.id}</option>`)}</select></div>
        <button>Save report</button><span id="rep-status"></span></form></div>
        <div class="card">
          <h2>Visualizations (${reg.all.length})</h2>
          <p class="muted">${reg.all.map((v) =>
            html`
              <code>${v.id}</code>
            `
          )}</p>
        </div>
      `;
      return c.html(
        page(ctx, { title: "Reports", active: "/reports", body, script: "reportsPage" }),
      );
    });
  },

  /** `GET /reports/dashboards/{id}` (filtered by the query) and its JSON editor (`/edit`). */
  dashboardPages(app, ctx) {
    app.get("/reports/dashboards/:id", async (c) => {
      const reg = await registry(ctx);
      const dashboard = await dashboardById(ctx, c.req.param("id"), reg);
      const filter = queryFilter(c);
      const all = await allRuns(ctx);
      const runs = select(all.runs, filter);
      const out = renderDashboardPage({
        dashboard,
        records: agentRunRecords(runs),
        registry: reg,
        subtitle: subtitleOf(runs, `filter ${JSON.stringify(filter)}`, all.skipped),
      });
      return c.html(withNav(ctx, "/reports", out.html, backTo("/reports", "Reports")));
    });
    app.get("/reports/dashboards/:id/edit", async (c) => {
      const reg = await registry(ctx);
      const dashboard = await dashboardById(ctx, c.req.param("id"), reg);
      const builtIn = ["agent-comparison", "trends-over-time", "reliability-diagnostics"].includes(
        dashboard.id,
      );
      const draft = builtIn
        ? { ...dashboard, id: `${dashboard.id}-copy`, title: `${dashboard.title} (copy)` }
        : dashboard;
      const body = html`
        <div class="grid2">
          <div class="card">
            <form id="dash-form">
              <p class="muted">${builtIn
                ? "A built-in dashboard is read-only: this saves a copy under a new id."
                : "Edit the JSON; the preview follows without saving."} Known visualizations: ${reg
                .all.map((v) =>
                  html`
                    <code>${v.id}</code>
                  `
                )}</p>
              <textarea id="dash-json" rows="30" spellcheck="false">${JSON.stringify(
                draft,
                null,
                2,
              )}</textarea>
              <p><button>Save</button> <span id="dash-status" class="muted"></span></p>
            </form>
          </div>
          <div class="card">
            <iframe id="dash-preview" title="preview" style="width:100%;height:80vh;border:0"></iframe>
          </div>
        </div>
      `;
      return c.html(
        page(ctx, {
          title: `Edit dashboard ${dashboard.id}`,
          active: "/reports",
          body,
          script: "dashboardEditorPage",
        }),
      );
    });
  },

  /** `GET /reports/view/{id}`: a saved report, its filter resolved again. */
  reportPage(app, ctx) {
    app.get("/reports/view/:id", async (c) => {
      const out = await renderReport(ctx, await reportById(ctx, c.req.param("id")), false);
      return c.html(withNav(ctx, "/reports", out.html, backTo("/reports", "Reports")));
    });
  },

  /** `GET /compare`: one suite × agent's versions, or the list of pairs to compare. */
  comparePage(app, ctx) {
    app.get("/compare", async (c) => {
      const agent = c.req.query("agent");
      if (agent) {
        const cmp = await comparison(ctx, c);
        const csv = `/api/compare?${new URL(c.req.url).searchParams.toString()}&format=csv`;
        const agentInConfig = (await ctx.config.agentEntries()).some((e) =>
          e.agent.id === cmp.agentId
        );
        return c.html(withNav(
          ctx,
          "/compare",
          renderComparePage(cmp, { agentInConfig }).html,
          html`${backTo("/compare", "Compare versions")} · <a href="${csv}">CSV</a>`,
        ));
      }
      const records = agentRunRecords((await allRuns(ctx)).runs);
      const pairs = [...new Set(records.map((r) => `${r.suiteId}\u0000${r.baseAgentId}`))].sort();
      const known = new Set((await ctx.config.agentEntries()).map((e) => String(e.agent.id)));
      const rows = pairs.map((p) => {
        const [suite, agentId] = p.split("\u0000");
        const mine = records.filter((r) => r.suiteId === suite && r.baseAgentId === agentId);
        const vs = [...new Set(mine.map((r) => r.version === null ? "live" : `v${r.version}`))];
        // An agent no longer in the working config (deleted, or the demo's) has no page.
        const agent = known.has(agentId)
          ? html`<a href="/agents/${encodeURIComponent(agentId)}">${agentId}</a>`
          : agentId;
        const href = `/compare?suite=${encodeURIComponent(suite)}&agent=${
          encodeURIComponent(agentId)
        }`;
        return html`
          <tr>
            <td>${suite}</td>
            <td>${agent}</td>
            <td>${vs.join(", ")}</td>
            <td><a href="${href}">compare</a></td>
          </tr>
        `;
      });
      const body = html`<div class="card">
  <p class="muted">One suite × one agent: every version run (ID@N) and the live configuration, the
  oldest as the default baseline. Cut versions on the agent's page (<a href="/agents">Agents</a>)
  or with POST /api/agents/{id}/versions.</p>
  <table><tr><th>suite</th><th>agent</th><th>versions run</th><th></th></tr>${rows}</table>
</div>`;
      return c.html(page(ctx, { title: "Compare versions", active: "/compare", body }));
    });
  },
} satisfies Record<string, WorkbenchFeature["register"]>;

/** The reporting feature. */
export const reporting: WorkbenchFeature = {
  id: "reporting",
  nav: [
    { href: "/reports", title: "Reports", order: 60 },
    { href: "/compare", title: "Compare versions", order: 61 },
  ],
  register(app, ctx) {
    routes.visualizationsApi(app, ctx);
    routes.dashboardsApi(app, ctx);
    routes.reportsApi(app, ctx);
    routes.versionsApi(app, ctx);
    routes.compareApi(app, ctx);
    routes.reportsPage(app, ctx);
    routes.dashboardPages(app, ctx);
    routes.reportPage(app, ctx);
    routes.comparePage(app, ctx);
  },
};
