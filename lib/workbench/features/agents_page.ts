/**
 * Agents: the list (with a form that adds one, blank or copied from another) and an agent's
 * page: its configuration to edit, its prompt, its versions (cut one; whether the live
 * configuration equals one), the runs it took part in with a link to Compare versions, and
 * Delete. Saving goes through the config API; versions through `/api/agents/{id}/versions`.
 *
 * Routes: `GET /agents`, `GET /agents/{id}`.
 *
 * @module
 */

import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { type Html, html, page } from "../html.ts";
import { agentForm, chatModelIds } from "./config_page.ts";
import { createAgentVersions } from "../versions.ts";
import { snapshotSha256 } from "../../agent/versions.ts";
import type { AgentVersion } from "../../agent/versions.ts";
import type { RunListItem } from "../run_store.ts";

const agentHref = (id: string) => `/agents/${encodeURIComponent(id)}`;

/** Whether a run's agents include `agentId` (live or a version, `id@N`). */
const ranIn = (r: RunListItem, agentId: string) =>
  r.agentIds.some((a) => a === agentId || a.startsWith(`${agentId}@`));

async function listPage(ctx: WorkbenchContext): Promise<Html> {
  const entries = await ctx.config.agentEntries();
  const runs = await ctx.runs.list();
  const rows = await Promise.all(entries.map(async ({ file, agent: a }) => {
    const id = String(a.id);
    const versions = await ctx.versions.list(id);
    return html`<tr data-agent="${id}">
  <td><a href="${agentHref(id)}">${id}</a></td>
  <td>${String(a.description ?? "")}</td>
  <td class="mono">${String(a.model)}</td>
  <td>${String(a.exposure ?? "direct")} · ${String(a.loop ?? "sequential")}</td>
  <td>${((a.mcpServers as string[] | undefined) ?? []).join(", ")}</td>
  <td class="num">${versions.length === 0 ? "none" : `v${versions[0].version}`}</td>
  <td class="num">${runs.filter((r) => ranIn(r, id)).length}</td>
  <td class="muted">agents/${file}</td>
</tr>`;
  }));
  const options = entries.map((e) => html`<option>${String(e.agent.id)}</option>`);
  return html`
    <p
      class="muted">The agents of the working config (${ctx.config.paths()
        .agentsDir}): what each one runs with. Open one to edit it, cut a version, see its runs or delete it.</p>
    <div class="card">
      <table id="agents">
        <thead>
          <tr>
            <th>agent</th>
            <th>description</th>
            <th>model</th>
            <th>exposure · loop</th>
            <th>MCP servers</th>
            <th class="num">latest version</th>
            <th class="num">runs</th>
            <th>file</th>
          </tr>
        </thead>
        <tbody>${rows}</tbody>
      </table>
    </div>
    <form class="card" id="new-agent" novalidate>
      <h2>New agent</h2>
      <div class="run-options">
        <div class="field"
          data-field="id"><label>Id <input type="text" name="id" placeholder="my-agent" pattern="[A-Za-z0-9][A-Za-z0-9._-]*"></label></div>
        <div
          class="field"><label>Start from <select name="from"><option value="">a blank agent</option>${options}</select></label></div>
        <div class="field"><button type="submit">Create agent</button></div>
      </div>
      <p
        class="muted">A copy keeps everything but the id (a prompt file stays shared); a blank agent starts with the first chat model, no server and a one-line prompt.</p>
      <div class="form-error field-error"></div>
    </form>
  `;
}

/** "live = v2", "changed since v2" or "no version yet", from the configuration hashes. */
async function liveState(ctx: WorkbenchContext, id: string, versions: readonly AgentVersion[]) {
  if (versions.length === 0) return "No version cut yet";
  const live = (await ctx.config.loadAgents()).find((a) => a.id === id);
  if (live === undefined) return "";
  const sha = await snapshotSha256(live, id);
  const same = versions.find((v) => v.sha256 === sha);
  return same
    ? `The live configuration equals v${same.version}`
    : `The live configuration changed since v${versions[0].version}`;
}

async function agentPage(ctx: WorkbenchContext, id: string): Promise<Html> {
  const entry = (await ctx.config.agentEntries()).find((e) => e.agent.id === id);
  if (entry === undefined) throw new WorkbenchError(404, `no agent "${id}"`, "id");
  const versions = await createAgentVersions(ctx.config).all(id);
  const runs = (await ctx.runs.list()).filter((r) => ranIn(r, id));
  const suites = [...new Set(runs.map((r) => r.suiteId).filter((s) => s !== null))].sort();
  const prompt = entry.agent.systemPromptFile === undefined
    ? ""
    : await ctx.config.getPrompt(id).then((p) =>
      html`<form class="card config-form" novalidate data-save="prompt" data-id="${id}">
  <h2>System prompt <span class="muted">· agents/${p.file ?? ""}</span></h2>
  <div class="field" data-field="content"><textarea name="content" rows="6">${p.content}</textarea></div>
  <button type="submit">Save prompt</button> <span class="saved muted"></span><div class="form-error field-error"></div>
</form>`
    );
  const versionRows = versions.map((v) =>
    html`
      <tr>
        <td class="num">v${v.version}</td>
        <td class="muted">${v.createdAt}</td>
        <td class="mono" title="${v.sha256}">${v.sha256.slice(0, 12)}</td>
        <td>
          <details>
            <summary>configuration</summary>
            <pre>${JSON.stringify(v.config, null, 2)}</pre>
          </details>
        </td>
      </tr>
    `
  );
  const runRows = runs.slice(0, 20).map((r) =>
    html`
      <tr>
        <td><a href="/runs/${encodeURIComponent(r.runId)}">${r.runId}</a></td>
        <td>${r.suiteId ?? ""}</td>
        <td>${r.agentIds.filter((a) => a === id || a.startsWith(`${id}@`)).join(", ")}</td>
        <td class="num">${r.passed}/${r.completed}</td>
        <td class="muted">${r.createdAt ?? ""}</td>
      </tr>
    `
  );
  const compareHref = (s: string) =>
    `/compare?suite=${encodeURIComponent(s)}&agent=${encodeURIComponent(id)}`;
  const compare = suites.map((s) =>
    html`
      <a href="${compareHref(s)}">${s}</a>
    `
  );
  return html`${
    agentForm(
      entry,
      await chatModelIds(ctx),
      await ctx.config.serverNames(),
      html`<h2>Configuration <span class="muted">· agents/${entry.file}</span></h2>`,
    )
  }
${prompt}
<div class="card" id="versions" data-agent="${id}"><h2>Versions</h2>
  <p>${await liveState(
    ctx,
    id,
    versions,
  )}. A version freezes the configuration (prompt included) under
  <code>${id}@N</code>, so runs of it can be compared later; nothing is cut when the latest equals it.</p>
  <p><button type="button" id="cut-version">Cut a version</button> <span id="cut-status" class="muted"></span></p>
  ${
    versions.length === 0 ? "" : html`
      <table>
        <thead>
          <tr>
            <th class="num">version</th>
            <th>cut at</th>
            <th>SHA-256</th>
            <th></th>
          </tr>
        </thead>
        <tbody>${versionRows}</tbody>
      </table>
    `
  }
</div>
<div class="card" id="agent-runs"><h2>Runs</h2>
  ${
    runs.length === 0
      ? html`<p class="muted">No run yet: start one from <a href="/plans">Test plans</a>.</p>`
      : html`
        <p>Compare its versions on ${compare}</p>
        <table>
          <thead>
            <tr>
              <th>run</th>
              <th>suite</th>
              <th>as</th>
              <th class="num">passed</th>
              <th>created</th>
            </tr>
          </thead>
          <tbody>${runRows}</tbody>
        </table>
      `
  }
</div>
<div class="card"><h2>Delete</h2>
  <p class="muted">Removes agents/${entry.file}. Its versions and the runs it took part in stay.</p>
  <button type="button" class="secondary" id="delete-agent">Delete ${id}</button> <span id="delete-status" class="field-error"></span>
</div>`;
}

/** The agents feature. */
export const agentsPage: WorkbenchFeature = {
  id: "agents-page",
  nav: [{ href: "/agents", title: "Agents", order: 25 }],
  register(app, ctx) {
    app.get("/agents", async (c) =>
      c.html(page(ctx, {
        title: "Agents",
        active: "/agents",
        body: await listPage(ctx),
        script: "agentsPage",
      })));
    app.get("/agents/:id", async (c) => {
      const id = c.req.param("id");
      return c.html(page(ctx, {
        title: `Agent ${id}`,
        active: "/agents",
        body: html`<p><a href="/agents">← Agents</a></p>${await agentPage(ctx, id)}`,
        script: "agentPage",
      }));
    });
  },
};
