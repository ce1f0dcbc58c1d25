/**
 * The Config page: structured editors for agents, models, tool prices and prompts, per-entry
 * JSON editors for servers and suites. Saving goes through the config API, which validates
 * against the committed JSON Schemas; a refused save shows the error on its field and writes
 * nothing. Values are shown as written (`${VAR}` stays a reference); secrets are redacted.
 *
 * @module
 */

import type { JsonObject } from "../../catalog/types.ts";
import type { WorkbenchContext, WorkbenchFeature } from "../app.ts";
import type { AgentEntry } from "../config_store.ts";
import { type Html, html, page, raw } from "../html.ts";
import { PROVIDER_NAMES } from "../../agent/providers/registry.ts";

const TABS = [
  ["agents", "Agents"],
  ["models", "Models"],
  ["servers", "Servers"],
  ["suites", "Suites"],
  ["tool-prices", "Tool prices"],
  ["prompts", "Prompts"],
] as const;

type Tab = typeof TABS[number][0];

const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function field(name: string, label: string, control: Html, hint = ""): Html {
  return html`<div class="field" data-field="${name}"><label>${label}</label>${control}${
    hint ? html`<div class="muted" style="font-size:12px">${hint}</div>` : ""
  }</div>`;
}

function text(name: string, value: unknown, attrs = ""): Html {
  return html`<input type="text" name="${name}" value="${String(value ?? "")}" ${raw(attrs)}>`;
}

function num(name: string, value: unknown, step = "1"): Html {
  return html`
    <input type="text" inputmode="decimal" name="${name}" data-type="number" data-step="${step}"
      value="${String(value ?? "")}" style="width:110px">
  `;
}

function select(name: string, value: unknown, options: readonly string[]): Html {
  return html`<select name="${name}">${
    options.map((o) => html`<option${o === value ? raw(" selected") : ""}>${o}</option>`)
  }</select>`;
}

/** The save button, its "saved" note and the form's error line. */
const saveRow = (label: string): Html =>
  html`
    <button type="submit">${label}</button> <span class="saved muted"></span><div
      class="form-error field-error"></div>
  `;

/**
 * The form that edits one agent as written (saved with `PUT /api/config/agents/{id}`): its
 * description, model (chat models only), exposure, loop, limits, servers and prompt.
 *
 * @param entry The agent as written and its file.
 * @param chat Registry ids of the chat models.
 * @param servers Names of the configured servers.
 * @param heading The form's heading (default: the id, linked to the agent's page, and file).
 * @returns The form.
 */
export function agentForm(
  { file, agent: a }: AgentEntry,
  chat: readonly string[],
  servers: readonly string[],
  heading?: Html,
): Html {
  const id = String(a.id);
  const using = (a.mcpServers as string[] | undefined) ?? [];
  const serverBoxes = servers.map((s) =>
    html`
      <label
        class="choice"><input type="checkbox" name="mcpServers" value="${s}"${using.includes(s)
          ? raw(" checked")
          : ""}> ${s}</label>
    `
  );
  // A model that is not a chat model (an old config's) stays shown, so saving says why.
  const models = chat.includes(String(a.model)) ? chat : [String(a.model), ...chat];
  const prompt = a.systemPromptFile !== undefined
    ? field(
      "systemPromptFile",
      "System prompt file (relative to agents/)",
      text("systemPromptFile", a.systemPromptFile),
      "its text is edited below on the agent's page, or under Config › Prompts",
    )
    : field(
      "systemPrompt",
      "System prompt (inline)",
      html`<textarea name="systemPrompt" rows="3">${String(a.systemPrompt ?? "")}</textarea>`,
    );
  return html`
    <form class="card config-form" novalidate data-save="agent" data-id="${id}"
      data-original="${JSON.stringify(a)}">
    ${heading ??
      html`<h2><a href="/agents/${
        encodeURIComponent(id)
      }">${id}</a> <span class="muted">· agents/${file}</span></h2>`}
    ${field("description", "Description", text("description", a.description, `style="width:100%"`))}
    <div class="run-options">
    ${field("model", "Model (chat models of the registry)", select("model", a.model, models))}
    ${field(
      "exposure",
      "Exposure",
      select("exposure", a.exposure ?? "direct", [
        "direct",
        "proxy",
        "code",
        "anthropic_search",
        "openai_search",
      ]),
    )}
    ${field("loop", "Loop", select("loop", a.loop ?? "sequential", ["sequential", "parallel"]))}
    ${field("maxIterations", "Max iterations", num("maxIterations", a.maxIterations))}
    ${field("temperature", "Temperature", num("temperature", a.temperature, "0.1"))}
    ${field("maxOutputTokens", "Max output tokens", num("maxOutputTokens", a.maxOutputTokens))}
    </div>
    ${field("mcpServers", "MCP servers", html`${serverBoxes}`)}
    ${prompt}
    ${saveRow("Save agent")}
    </form>
  `;
}

/** Registry ids of the chat models (what an agent or a judge may name). */
export async function chatModelIds(ctx: WorkbenchContext): Promise<string[]> {
  return (await ctx.config.loadModels()).filter((m) => m.kind !== "embedding").map((m) => m.id);
}

async function agentsTab(ctx: WorkbenchContext): Promise<Html> {
  const chat = await chatModelIds(ctx);
  const servers = await ctx.config.serverNames();
  const entries = await ctx.config.agentEntries();
  return html`
    <p
      class="muted">Each agent also has its own page (versions, runs, delete): <a href="/agents">Agents</a>.</p>${entries
        .map((e) => agentForm(e, chat, servers))}
  `;
}

/** Every registered provider, and the entry's own value when it is none of them (kept on save). */
function providerOptions(current: unknown): string[] {
  const names = [...PROVIDER_NAMES];
  return typeof current === "string" && !names.includes(current) ? [current, ...names] : names;
}

function modelFieldset(m: JsonObject, i: number): Html {
  const p = isObject(m.pricing) ? m.pricing : {};
  const at = `models[${i}]`;
  const price = (key: string, label: string) =>
    field(`${at}.pricing.${key}`, label, num(key, p[key], "any"));
  return html`
    <fieldset class="card model" data-index="${i}" data-field="${at}">
      <legend class="mono">${String(m.id ?? "")}</legend>
      <div style="display:flex;gap:14px;flex-wrap:wrap">
    ${field(`${at}.id`, "Id", text("id", m.id))}
    ${field(
      `${at}.provider`,
      "Provider",
      select("provider", m.provider, providerOptions(m.provider)),
    )}
    ${field(`${at}.model`, "Model", text("model", m.model, `style="width:240px"`))}
    ${field(`${at}.baseUrl`, "Base URL", text("baseUrl", m.baseUrl, `style="width:280px"`))}
    ${field(
      `${at}.apiKey`,
      "API key",
      text("apiKey", m.apiKey, `style="width:240px"`),
      "a ${VAR} reference; a :-default shows as [REDACTED] and is kept",
    )}
      </div>
      <div style="display:flex;gap:14px;flex-wrap:wrap">
    ${price("inputUsdPerMTok", "Input USD/MTok")}
    ${price("outputUsdPerMTok", "Output USD/MTok")}
    ${price("cacheReadUsdPerMTok", "Cache read USD/MTok")}
    ${price("cacheWriteUsdPerMTok", "Cache write USD/MTok")}
      </div>
    </fieldset>
  `;
}

async function modelsTab(ctx: WorkbenchContext): Promise<Html> {
  const doc = await ctx.config.getDoc("models");
  const list = isObject(doc) && Array.isArray(doc.models) ? doc.models as JsonObject[] : [];
  return html`
    <form class="config-form" novalidate data-save="models"
      data-original="${JSON.stringify(doc)}">${list.map(modelFieldset)}${saveRow(
        "Save models",
      )}</form>
  `;
}

async function toolPricesTab(ctx: WorkbenchContext): Promise<Html> {
  const doc = await ctx.config.getDoc("tool-prices");
  const prices = isObject(doc) && isObject(doc.toolPrices) ? doc.toolPrices : {};
  const rows = Object.entries(prices).map(([k, v]) =>
    html`
      <div class="price-row" style="display:flex;gap:10px"
        data-field="toolPrices.${k}">${text("tool", k, `placeholder="server:tool"`)} ${num(
          "usd",
          v,
          "any",
        )} <span class="muted">USD per call</span></div>
    `
  );
  return html`
    <form class="card config-form" novalidate data-save="tool-prices" data-original="${JSON
      .stringify(doc)}">
      <div data-field="toolPrices">${rows}
    <div class="price-row" style="display:flex;gap:10px">${text(
      "tool",
      "",
      `placeholder="server:tool (new)"`,
    )} ${num("usd", "", "any")}</div></div>
      <p><button type="submit">Save tool prices</button> <span class="saved muted"></span></p>
      <div class="form-error field-error"></div>
    </form>
  `;
}

/** An example of what the import takes (Claude Desktop's shape). */
const PASTE_EXAMPLE = `"filesystem": {
  "command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
}`;

async function serversTab(ctx: WorkbenchContext, added: string): Promise<Html> {
  const doc = await ctx.config.getDoc("servers");
  const key = isObject(doc) && "servers" in doc ? "servers" : "mcpServers";
  const table = isObject(doc) && isObject(doc[key]) ? doc[key] as JsonObject : {};
  const cards = Object.entries(table).map(([name, entry]) => {
    const json = JSON.stringify(entry, null, 2);
    return html`<div class="card server" data-field="${key}.${name}" data-name="${name}">
  <h3 class="mono">${name}</h3>
  <textarea rows="${Math.min(14, json.split("\n").length + 1)}">${json}</textarea>
</div>`;
  });
  return html`
    ${added === "" ? "" : html`<p class="saved-note" role="status">Added: ${added}.</p>`}
    <form class="card" id="import-servers" novalidate>
      <h2>Add servers from a client config</h2>
      <p class="muted">Paste the <code>mcpServers</code> block of Claude Desktop's
      <code>claude_desktop_config.json</code> or Cursor's <code>mcp.json</code>, the <code>servers</code>
      of VS Code's <code>.vscode/mcp.json</code> (or <code>mcp.servers</code> of its settings), the whole
      file, or one <code>"name": {...}</code> entry. <code>${"${env:NAME}"}</code> becomes
      <code>${"${NAME}"}</code>, read from the environment or <code>.env</code> when a run starts.</p>
      <div class="field" data-field="text"><textarea name="text" rows="7" placeholder="${PASTE_EXAMPLE}"></textarea></div>
      <button type="submit">Add servers</button><div class="form-error field-error"></div>
    </form>
    <form class="config-form" novalidate data-save="servers" data-key="${key}"
      data-original="${JSON.stringify(
        doc,
      )}">${cards}<p class="muted">Secret-named env and header values show as [REDACTED]; leave them so to keep the stored value.</p>
    ${saveRow("Save servers")}</form>
  `;
}

/** What the New suite editor starts with. */
const SUITE_TEMPLATE = {
  id: "my-suite",
  description: "What this suite covers.",
  cases: [{ id: "c1", question: "…", criterion: { type: "contains", values: ["…"] } }],
};

async function suitesTab(ctx: WorkbenchContext): Promise<Html> {
  const { suites } = await ctx.config.suiteEntries();
  const forms = await Promise.all(suites.map(async ({ file, suite }) => {
    const doc = await ctx.config.suiteDoc(suite.id);
    return html`
      <form class="card config-form" novalidate data-save="suite"
        data-id="${suite.id}"><h3>${suite
          .id} <span class="muted">· suites/${file}</span></h3><div class="field" data-field=""><textarea name="json" rows="14">${JSON
          .stringify(
            doc,
            null,
            2,
          )}</textarea></div><button type="submit">Save suite</button> <button type="button" class="secondary delete-suite">Delete</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>
    `;
  }));
  return html`
    ${forms}<form class="card config-form" novalidate
      data-save="new-suite"><h3>New suite</h3><div class="field" data-field=""><textarea name="json" rows="8">${JSON
        .stringify(SUITE_TEMPLATE, null, 2)}</textarea></div>${saveRow("Create suite")}</form>
  `;
}

async function promptsTab(ctx: WorkbenchContext): Promise<Html> {
  const entries = await ctx.config.agentEntries();
  const forms = await Promise.all(entries.map(async ({ agent }) => {
    const p = await ctx.config.getPrompt(String(agent.id));
    return html`
      <form class="card config-form" novalidate data-save="prompt"
        data-id="${String(agent.id)}"><h3>${String(agent.id)} <span class="muted">· ${p.file ??
          "inline systemPrompt"}</span></h3><div class="field" data-field="content"><textarea name="content" rows="6">${p
          .content}</textarea></div>${saveRow("Save prompt")}</form>
    `;
  }));
  return html`${forms}`;
}

const TAB_BODIES: Record<Tab, (ctx: WorkbenchContext, added: string) => Promise<Html>> = {
  agents: agentsTab,
  models: modelsTab,
  servers: serversTab,
  suites: suitesTab,
  "tool-prices": toolPricesTab,
  prompts: promptsTab,
};

/** The Config page feature. */
export const configPage: WorkbenchFeature = {
  id: "config-page",
  nav: [{ href: "/config", title: "Config", order: 40 }],
  register(app, ctx) {
    app.get("/config", async (c) => {
      const asked = c.req.query("tab");
      const tab: Tab = TABS.find(([t]) => t === asked)?.[0] ?? "agents";
      const tabs = html`<p class="tabs">${
        TABS.map(([t, title]) =>
          html`
            <a href="/config?tab=${t}" ${t === tab
              ? raw(` style="font-weight:700"`)
              : ""}>${title}</a>
          `
        )
      }</p>`;
      const body = await TAB_BODIES[tab](ctx, c.req.query("added") ?? "");
      return c.html(page(ctx, {
        title: "Config",
        active: "/config",
        body: html`<p class="muted">The working config in ${ctx.config.dir}. Every save is validated
against lib/agent/schemas before it is written; a refused one changes nothing.</p>${tabs}${body}`,
        script: "configPage",
      }));
    });
  },
};
