/**
 * Audit: the MCP client configs of this account (or a folder, or a file), as `deno task audit`
 * reports them: per client config its servers, tokens in the client's provider format and as
 * received, share of the context window, deferral posture with where it was read, session-start
 * cost, heaviest tools and what removing them saves. Lists the audits under
 * `<results>/audits/`, shows one, and starts a new one.
 *
 * Routes: `GET /audit?path=REL`, `GET /api/audits`, `GET /api/audit?path=REL`,
 * `POST /api/audit` `{project?, config?, home?}`.
 *
 * @module
 */

import { join, relative } from "node:path";
import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import { readResultsJson, WorkbenchError } from "../_paths.ts";
import { readJsonBody } from "../http.ts";
import { type Html, html, page } from "../html.ts";
import {
  type AuditReport,
  type ConfigReport,
  FORMAT_NAMES,
  ifDeferredLine,
  PROVIDER_NAMES,
  type ServerReport,
  serverWarnings,
  type SessionStart,
  sessionStartHow,
} from "../../audit/mod.ts";

/** One audit file under `<results>/audits/`. */
export interface AuditListing {
  /** Path relative to the results folder. */
  readonly path: string;
  /** When the audit ran (its `createdAt`), or the file's time when unreadable. */
  readonly createdAt: string | null;
  /** Client configs it holds; `null` when the file is not an audit. */
  readonly configs: number | null;
}

/**
 * The audit reports under `<results>/audits/`, newest first.
 *
 * @param ctx Workbench context.
 * @returns One entry per `.json` file.
 */
export async function listAudits(ctx: WorkbenchContext): Promise<AuditListing[]> {
  const dir = join(ctx.resultsDir, "audits");
  const out: AuditListing[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!e.isFile || !e.name.endsWith(".json")) continue;
    const p = join(dir, e.name);
    let createdAt: string | null = null;
    let configs: number | null = null;
    try {
      const r = JSON.parse(await Deno.readTextFile(p)) as Partial<AuditReport>;
      if (r.kind === "mcpmeter-audit") {
        createdAt = r.createdAt ?? null;
        configs = r.configs?.length ?? 0;
      }
    } catch {
      // listed without figures
    }
    createdAt ??= (await Deno.stat(p).catch(() => null))?.mtime?.toISOString() ?? null;
    out.push({ path: relative(ctx.resultsDir, p), createdAt, configs });
  }
  return out.sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? ""));
}

async function readAudit(ctx: WorkbenchContext, rel: string): Promise<AuditReport> {
  const report = await readResultsJson(ctx.resultsDir, rel) as AuditReport;
  if (report?.kind !== "mcpmeter-audit" || !Array.isArray(report.configs)) {
    throw new WorkbenchError(400, `${rel} is not an audit report`, "path");
  }
  return report;
}

const int = (n: number | null) => n === null ? "-" : n.toLocaleString("en-US");
const pct = (x: number | null) => x === null ? "-" : `${(x * 100).toFixed(1)}%`;

function serverRow(s: ServerReport): Html {
  return html`
    <tr>
      <td class="wrap">${s.name}</td>
      <td>${s.scope}</td>
      <td class="mono wrap">${s.launch}</td>
      <td class="num">${int(s.tools)}</td>
      <td class="num">${int(s.billed?.tokens ?? null)}</td>
      <td class="num">${int(s.sentTokens)}</td>
      <td class="num">${int(s.wireTokens)}</td>
      <td class="num">${pct(s.share)}</td>
      <td class="wrap">${s.status === "ok"
        ? html`<span class="pass">ok</span>${s.alwaysLoad ? " (alwaysLoad)" : ""}${
          // Reports written before schema 2 have no disabledTools.
          (s.disabledTools ?? []).length > 0
            ? ` (${s.disabledTools.length} of ${s.toolsListed} listed disabled in the config)`
            : ""}`
        : html`<span class="${s.status === "disabled" ? "muted" : "fail"}">${s.status}</span>${
          s
              .cause
            ? html`: ${s.cause}`
            : ""
        }`}${s.envNames.length > 0
        ? html`<div class="muted">env: ${s.envNames.join(", ")}</div>`
        : ""}</td>
    </tr>
  `;
}

/**
 * A deferring client's session start, first: billed (when the report has it), then how counted.
 *
 * @param c The config's report.
 * @param start Its session start.
 * @returns HTML.
 */
function sessionStartBlock(c: ConfigReport, start: SessionStart): Html {
  const o200k = (how: string) =>
    html`
      ${int(start.tokens)} tokens instead of ${int(
        c.totals.sentTokens,
      )} sent up front (both o200k_base) <span
        class="muted">(${start.counted}${how})</span>
    `;
  if (start.billed === undefined) return html`<p>session start (deferred): ${o200k("")}</p>`;
  const b = start.billed;
  const share = pct(start.share ?? b.tokens / c.contextWindow);
  const how = `; ${sessionStartHow(c)}`;
  return html`
    <p
      class="session-start">pays at session start (deferred): <strong>${int(
        b.tokens,
      )} billed</strong> (${int(b.low)}-${int(
        b.high,
      )}), <strong>${share}</strong> of the window, plus each search's results; every tool up front would be ${int(
        c.totals.billed.tokens,
      )} billed (the total below)<br><span class="muted">session start</span> ${o200k(how)}</p>
  `;
}

/**
 * One client config as a card: files, deferral posture, the servers' table with totals, the
 * session start, the heaviest tools and what removing them saves.
 *
 * @param c The config's report.
 * @returns HTML.
 */
export function configCard(c: ConfigReport): Html {
  const p = c.posture;
  const t = c.totals;
  return html`
    <div class="card audit-config" data-id="${c.id}">
      <h2>${c.label}${c.folder === undefined ? "" : html`
        · ${c.folder}
      `} <span class="muted mono">${c
        .id}</span></h2>
      <p class="muted">files: ${c.files.join(", ")}</p>
      <p><strong>deferral: <span class="state">${p.state}</span></strong> ${p.rule}<br><span
          class="muted">read from ${p.readFrom}${p.consulted.length > 0
            ? `; consulted ${p.consulted.join(", ")}`
            : ""}; source: ${p.source}</span>${p.notes.map((n) =>
              html`<br><span class="err">note:</span> ${n}`
            )}</p>
      <p class="muted">billed: ${PROVIDER_NAMES[c.billing.provider] ??
        c.billing.provider}'s count, estimated (${c.billing.calibration}${c.billing.model === null
        ? ""
        : `, ${c.billing.model}`}); sent: the ${FORMAT_NAMES[c.format] ??
        c.format} tools value (${c.formatWhy}); wire: tools/list as received. Context window ${int(
          c.contextWindow,
        )} (${c.contextWindowFrom}); the window share is from billed.</p>
      ${c.sessionStart === null ? "" : sessionStartBlock(c, c.sessionStart)}
      ${c.servers.length === 0 ? html`<p class="muted">no MCP servers configured</p>` : html`
        <table>
          <thead>
            <tr>
              <th>server</th>
              <th>scope</th>
              <th>launch</th>
              <th class="num">tools</th>
              <th class="num">billed</th>
              <th class="num">sent</th>
              <th class="num">wire</th>
              <th class="num">window</th>
              <th>status</th>
            </tr>
          </thead>
          <tbody>${c.servers.map(serverRow)}
            <tr>
              <th colspan="3" class="wrap">total${c.sessionStart === null
                ? ""
                : " if sent up front"} (${t
                .measured} of ${t.servers} servers measured)</th>
              <th class="num">${int(t.tools)}</th><th class="num">${int(t.billed.tokens)}</th>
              <th class="num">${int(t.sentTokens)}</th>
              <th class="num">${int(t.wireTokens)}</th><th class="num">${pct(t.share)}</th>
              <th class="muted wrap">billed ${int(t.billed.low)}-${int(
                t.billed.high,
              )} with the request's tool overhead</th>
            </tr>
          </tbody>
        </table>
      `}
      ${ifDeferredLine(c) === undefined ? "" : html`<p>${ifDeferredLine(c)}</p>`}
      ${c.heaviest.length === 0
        ? ""
        : html`<p>heaviest tools: ${
          c.heaviest.map((h, i) =>
            html`${i > 0 ? ", " : ""}<span class="mono">${h.server}:${h.tool}</span> ${
              int(
                h.sentTokens,
              )
            }`
          )
        }</p>`}
      ${c.removal === null
        ? ""
        : html`<p>removing those ${c.removal.tools.length} tools saves <strong>${
          int(
            c.removal.sentTokens,
          )
        }</strong> sent tokens per request up front (${
          pct(c.removal.share)
        } of this config's tools)${
          c
              .removal.sessionStartTokens === null
            ? ""
            : `; deferred, ${int(c.removal.sessionStartTokens)} at session start`
        }</p>`}
      ${[...serverWarnings(c), ...c.notes.map((n) => `note: ${n}`)].map((n) =>
        html`<p class="muted">${n}</p>`
      )}
    </div>
  `;
}

/** The audit feature. */
export const auditPage: WorkbenchFeature = {
  id: "audit",
  nav: [{ href: "/audit", title: "Audit", order: 55 }],
  register(app, ctx) {
    app.get(
      "/api/audits",
      async (c) => c.json({ audits: await listAudits(ctx), jobs: ctx.audit?.jobs() ?? [] }),
    );
    app.get("/api/audit", async (c) => c.json(await readAudit(ctx, c.req.query("path") ?? "")));
    app.post("/api/audit", async (c) => {
      if (ctx.audit === undefined) throw new WorkbenchError(503, "audits are not available");
      const body = (await readJsonBody(c) ?? {}) as Record<string, unknown>;
      const pick = (k: string) => {
        const v = body[k];
        if (v === undefined || v === null || v === "") return undefined;
        if (typeof v !== "string") throw new WorkbenchError(400, `field "${k}": a path`, k);
        return v;
      };
      const project = pick("project"), config = pick("config"), home = pick("home");
      return c.json(
        await ctx.audit.start({
          ...(project === undefined ? {} : { project }),
          ...(config === undefined ? {} : { config }),
          ...(home === undefined ? {} : { home }),
        }),
        202,
      );
    });
    app.get("/audit", async (c) => {
      const audits = await listAudits(ctx);
      const rel = c.req.query("path") ?? audits.find((a) => a.configs !== null)?.path;
      const report = rel === undefined ? undefined : await readAudit(ctx, rel);
      const jobs = ctx.audit?.jobs() ?? [];
      return c.html(page(ctx, {
        title: "Audit",
        active: "/audit",
        body: html`
          <p
            class="muted">The MCP servers your clients (Claude Code, Claude Desktop, Cursor, VS Code, Windsurf, Gemini CLI, Codex, Zed, Copilot CLI, Cline, Roo Code, Kiro, Amazon Q CLI, opencode, LM Studio) start, and what their tools cost each request: totals are per client config, never added across clients. Environment values are never shown, only their names.</p>
          ${report === undefined
            ? html`
              <div class="card">
                <p class="muted">no audit yet: run deno task audit, or start one below</p>
              </div>
            `
            : html`
              <p
                id="audit-summary">${rel}: audited ${report.home} at ${report.createdAt}; ${report
                  .configs.length} client configs (${report
                  .searched} places looked at). Tokens: ${report
                  .counting}</p>
              ${report.configs.map(configCard)}
              ${report.problems.length === 0 ? "" : html`
                <div class="card"><h2>Not read</h2>${report.problems.map((p) =>
                  html`<p class="mono">${p}</p>`
                )}</div>
              `}
            `}
          <form class="card" id="audit-form">
            <h2>Run an audit</h2>
            <p
              class="muted">Empty fields audit this account's own configs from the folder the workbench was started in.</p>
            <div class="inline" style="display:flex;gap:12px;align-items:end;flex-wrap:wrap">
              <div class="field"
                data-field="project"><label>Project folder <input type="text" name="project" size="40"></label></div>
              <div class="field"
                data-field="config"><label>Config file <input type="text" name="config" size="40"></label></div>
              <div class="field"
                data-field="home"><label>Home folder <input type="text" name="home" size="30"></label></div>
              <div class="field"><button type="submit"${ctx.audit ? "" : html`
                disabled
              `}>Run audit</button></div>
            </div>
            <div class="form-error field-error"></div>
            <table id="audit-jobs">
              <tbody>${jobs.map((j) =>
                html`
                  <tr>
                    <td class="mono">${j.jobId}</td>
                    <td><span class="state ${j.state}">${j.state}</span></td>
                    <td>${j.state === "completed"
                      ? html`<a href="/audit?path=${
                        encodeURIComponent(relative(ctx.resultsDir, j.out))
                      }">open</a>`
                      : html`<span class="muted">${j.log.split("\n").at(-1) ?? ""}</span>`}</td>
                  </tr>
                `
              )}</tbody>
            </table>
          </form>
          <div class="card">
            <h2>Audits</h2>
            <table id="audits">
              <thead>
                <tr>
                  <th>file</th>
                  <th>when</th>
                  <th class="num">configs</th>
                </tr>
              </thead>
              <tbody>${audits.length === 0
                ? html`
                  <tr>
                    <td colspan="3" class="muted">none yet</td>
                  </tr>
                `
                : audits.map((a) =>
                  html`
                    <tr>
                      <td><a href="/audit?path=${encodeURIComponent(a.path)}">${a.path}</a></td>
                      <td class="muted">${a.createdAt ?? ""}</td>
                      <td class="num">${a.configs === null ? "not an audit" : a.configs}</td>
                    </tr>
                  `
                )}</tbody>
            </table>
          </div>
        `,
        script: "auditPage",
      }));
    });
  },
};
