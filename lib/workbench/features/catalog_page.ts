/**
 * Catalog: the bench side. Lists every `report.json` under the results folder and opens one with
 * the bench dashboard (`lib/report/dashboard.ts`: tokens by exposure mode, encoding arms,
 * retrieval, live), lists the audits of MCP client configs (opened on the Audit page); starts a
 * `deno task bench` run on a chosen corpus.
 *
 * Routes: `GET /catalog`, `GET /catalog/report?path=REL`, `GET /api/catalog/reports`,
 * `GET /api/catalog/bench`, `POST /api/catalog/bench` `{corpus}`.
 *
 * @module
 */

import { join, relative } from "node:path";
import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import { readResultsJson, WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { html, page, raw, withNav } from "../html.ts";
import { renderDashboard } from "../../report/dashboard.ts";
import type { BenchReport } from "../../report/bench_report.ts";
import { listAudits } from "./audit_page.ts";

/** Folders under results/ that never hold bench reports (skipped when listing). */
const SKIP = new Set(["runs", "config", "cache", "demo", "node_modules"]);

/**
 * Every `report.json` under the results folder, at most four folders deep, newest first.
 *
 * @param ctx Workbench context.
 * @returns Paths relative to the results folder, with modification times.
 */
export async function listReports(
  ctx: WorkbenchContext,
): Promise<{ path: string; modifiedAt: string | null }[]> {
  const out: { path: string; modifiedAt: string | null }[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isFile && e.name === "report.json") {
        const st = await Deno.stat(p).catch(() => null);
        out.push({
          path: relative(ctx.resultsDir, p),
          modifiedAt: st?.mtime?.toISOString() ?? null,
        });
      } else if (e.isDirectory && depth < 4 && !(depth === 0 && SKIP.has(e.name))) {
        await walk(p, depth + 1);
      }
    }
  };
  await walk(ctx.resultsDir, 0);
  return out.sort((a, b) => (b.modifiedAt ?? "").localeCompare(a.modifiedAt ?? ""));
}

/** The catalog routes, registered in this order (Hono matches in order). */
const routes = {
  /** `GET /api/catalog/reports`, `GET|POST /api/catalog/bench`: reports, catalogs, bench jobs. */
  api(app, ctx) {
    app.get("/api/catalog/reports", async (c) => c.json({ reports: await listReports(ctx) }));
    app.get("/api/catalog/bench", async (c) => {
      const catalogs = await ctx.bench?.catalogs() ?? [];
      return c.json({
        corpora: catalogs.map((k) => k.name),
        catalogs,
        jobs: ctx.bench?.jobs() ?? [],
      });
    });
    app.post("/api/catalog/bench", async (c) => {
      if (ctx.bench === undefined) throw new WorkbenchError(503, "bench runs are not available");
      const body = await readJsonBody(c) as Record<string, unknown> | null;
      const text = (k: string) => typeof body?.[k] === "string" ? body[k] as string : undefined;
      const request = {
        ...(text("corpus") !== undefined ? { corpus: text("corpus") } : {}),
        ...(text("path") !== undefined ? { path: text("path") } : {}),
        ...(text("golden") !== undefined ? { golden: text("golden") } : {}),
      };
      return c.json(await ctx.bench.start(request), 202);
    });
  },

  /** `GET /catalog/report?path=REL`: a bench report opened with the bench dashboard. */
  reportPage(app, ctx) {
    app.get("/catalog/report", async (c) => {
      const rel = c.req.query("path") ?? "";
      if (!rel.endsWith("report.json")) {
        throw new WorkbenchError(
          400,
          `path must name a report.json under the results folder`,
          "path",
        );
      }
      const report = await readResultsJson(ctx.resultsDir, rel) as BenchReport;
      let dashboard: string;
      try {
        dashboard = renderDashboard(report);
      } catch (e) {
        throw new WorkbenchError(
          400,
          `${rel} is not a bench report: ${(e as Error).message}`,
          "path",
        );
      }
      return c.html(
        withNav(ctx, "/catalog", dashboard, html`<a href="/catalog">← Catalog</a> · ${rel}`),
      );
    });
  },

  /** `GET /catalog`: catalogs, the bench run form, bench reports and audits. */
  listPage(app, ctx) {
    app.get("/catalog", async (c) => {
      const reports = await listReports(ctx);
      const audits = await listAudits(ctx);
      const catalogs = await ctx.bench?.catalogs() ?? [];
      const jobs = ctx.bench?.jobs() ?? [];
      const shown = (path: string) => {
        const rel = relative(Deno.cwd(), path);
        return rel.startsWith("..") ? path : rel;
      };
      const reportHref = (rel: string) => `/catalog/report?path=${encodeURIComponent(rel)}`;
      const rows = reports.map((r) =>
        html`
          <tr>
            <td><a class="report-link" href="${reportHref(r.path)}">${r.path}</a></td>
            <td class="muted">${r.modifiedAt ?? ""}</td>
          </tr>
        `
      );
      const catalogRows = catalogs.map((k) =>
        html`
          <tr data-catalog="${k.name}">
            <td class="mono">${k.name}</td>
            <td>${k.source}</td>
            <td class="num">${k.tools === null ? "" : k.tools.toLocaleString("en-US")}</td>
            <td>${k.problem !== undefined
              ? html`<span class="fail">cannot be read: ${k.problem}</span>`
              : k.golden.length > 0
              ? html`scored on ${
                k.golden.map((g) =>
                  html`
                    <code>${shown(g)}</code>
                  `
                )
              }`
              : html`<span class="muted">no golden set names corpus ${k.corpusId}: not scored (name one below)</span>`}</td>
            <td class="muted">${shown(k.path)}</td>
          </tr>
        `
      );
      const jobRows = jobs.map((j) =>
        html`
          <tr>
            <td class="mono">${j.jobId}</td>
            <td>${j.corpus}</td>
            <td><span class="state ${j.state}">${j.state}</span></td>
            <td>${j.golden.length === 0
              ? "retrieval not scored (no golden set)"
              : j.retrievalRows === null
              ? `golden: ${j.golden.map(shown).join(", ")}`
              : `retrieval: ${j.retrievalRows} rows`}</td>
            <td>${j.state === "completed"
              ? html`<a href="${
                reportHref(relative(ctx.resultsDir, join(j.outDir, "report.json")))
              }">open report</a>`
              : html`<span class="muted">${j.log.split("\n").at(-1) ?? ""}</span>`}</td>
          </tr>
        `
      );
      const options = catalogs.map((k) =>
        html`
          <option value="${k.name}" ${k.name === ctx.bench?.defaultCorpus
            ? raw(" selected")
            : ""}>${k.name} (${k.source})</option>
        `
      );
      return c.html(page(ctx, {
        title: "Catalog",
        active: "/catalog",
        body: html`
          <p class="muted">The bench side: what tool catalogs cost in context tokens (by
          exposure mode and encoding arm) and how well retrieval finds the right tool.</p>
          <div class="card">
            <h2>Catalogs</h2>
            <p class="muted">The reference corpus, what <code>deno task capture</code> wrote into
            ${join(ctx.resultsDir, "captures")}, and LiveMCPBench when it is beside the checkout.
            Retrieval is scored on each golden set whose <code>corpus_version</code> is the catalog's id
            (golden sets of your own: ${join(ctx.resultsDir, "golden")}).</p>
            <table id="catalogs">
              <thead>
                <tr>
                  <th>catalog</th>
                  <th>source</th>
                  <th class="num">tools</th>
                  <th>retrieval</th>
                  <th>file</th>
                </tr>
              </thead>
              <tbody>${catalogRows.length > 0 ? catalogRows : html`
                <tr>
                  <td colspan="5" class="muted">none: capture one with deno task capture</td>
                </tr>
              `}</tbody>
            </table>
          </div>
          <form class="card" id="bench-form" novalidate>
            <h2>Start a bench run</h2>
            <div class="run-options">
              <div class="field"
                data-field="corpus"><label>Catalog <select name="corpus">${options}</select></label></div>
              <div class="field" data-field="path" style="flex:1"><label>or a catalog file
                <input type="text" name="path" style="width:100%" placeholder="~/my_catalog.json (any format the bench reads)"></label></div>
              <div class="field" data-field="golden" style="flex:1"><label>golden set (optional)
                <input type="text" name="golden" style="width:100%" placeholder="~/my_golden.json"></label></div>
              <div class="field"><button type="submit"${ctx.bench
                ? ""
                : raw(" disabled")}>Start bench</button></div>
            </div>
            <div class="form-error field-error"></div>
            <table id="bench-jobs">
              <tbody>${jobRows}</tbody>
            </table>
          </form>
          <div class="card">
            <h2>Bench reports</h2>
            <table id="reports">
              <thead>
                <tr>
                  <th>report.json under ${ctx.resultsDir}</th>
                  <th>modified</th>
                </tr>
              </thead>
              <tbody>${rows.length > 0 ? rows : html`
                <tr>
                  <td colspan="2" class="muted">none yet: run deno task bench, or start one above</td>
                </tr>
              `}</tbody>
            </table>
          </div>
          <div class="card">
            <h2>Audits of MCP client configs</h2>
            <table id="catalog-audits">
              <tbody>${audits.length > 0
                ? audits.map((a) =>
                  html`
                    <tr>
                      <td><a href="/audit?path=${encodeURIComponent(a.path)}">${a.path}</a></td>
                      <td class="muted">${a.createdAt ?? ""}</td>
                      <td class="num">${a.configs === null
                        ? "not an audit"
                        : `${a.configs} configs`}</td>
                    </tr>
                  `
                )
                : html`
                  <tr>
                    <td class="muted">none yet: run deno task audit, or start one on the Audit page</td>
                  </tr>
                `}</tbody>
            </table>
          </div>
        `,
        script: "catalogPage",
      }));
    });
  },
} satisfies Record<string, WorkbenchFeature["register"]>;

/** The catalog feature. */
export const catalogPage: WorkbenchFeature = {
  id: "catalog",
  nav: [{ href: "/catalog", title: "Catalog", order: 50 }],
  register(app, ctx) {
    routes.api(app, ctx);
    routes.reportPage(app, ctx);
    routes.listPage(app, ctx);
  },
};
