/**
 * The Config page: structured editors for agents, models, tool prices and prompts, per-entry
 * JSON editors for servers and suites. Saving goes through the config API, which validates
 * against the committed JSON Schemas; a refused save shows the error on its field and writes
 * nothing. Values are shown as written (`${VAR}` stays a reference); secrets are redacted.
 *
 * @module
 */

import type { JsonObject } from "../../catalog/types.ts";
import type { WorkbenchFeature } from "../app.ts";
import { esc } from "../http.ts";
import { page } from "../html.ts";

const TABS = [
  ["agents", "Agents"],
  ["models", "Models"],
  ["servers", "Servers"],
  ["suites", "Suites"],
  ["tool-prices", "Tool prices"],
  ["prompts", "Prompts"],
] as const;

const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function field(name: string, label: string, control: string, hint = ""): string {
  return `<div class="field" data-field="${esc(name)}"><label>${esc(label)}</label>${control}${
    hint ? `<div class="muted" style="font-size:12px">${esc(hint)}</div>` : ""
  }</div>`;
}

function text(name: string, value: unknown, attrs = ""): string {
  return `<input type="text" name="${esc(name)}" value="${esc(value ?? "")}" ${attrs}>`;
}

function num(name: string, value: unknown, step = "1"): string {
  return `<input type="text" inputmode="decimal" name="${
    esc(name)
  }" data-type="number" data-step="${step}" value="${esc(value ?? "")}" style="width:110px">`;
}

function select(name: string, value: unknown, options: readonly string[]): string {
  return `<select name="${esc(name)}">${
    options.map((o) => `<option${o === value ? " selected" : ""}>${esc(o)}</option>`).join("")
  }</select>`;
}

/** The Config page feature. */
export const configPage: WorkbenchFeature = {
  id: "config-page",
  nav: [{ href: "/config", title: "Config", order: 40 }],
  register(app, ctx) {
    app.get("/config", async (c) => {
      const tab = TABS.some(([t]) => t === c.req.query("tab")) ? c.req.query("tab")! : "agents";
      const tabs = `<p class="tabs">${
        TABS.map(([t, title]) =>
          `<a href="/config?tab=${t}"${t === tab ? ` style="font-weight:700"` : ""}>${title}</a>`
        ).join("")
      }</p>`;
      let body = "";
      if (tab === "agents") {
        const entries = await ctx.config.agentEntries();
        const models = (await ctx.config.loadModels()).map((m) => m.id);
        const servers = await ctx.config.serverNames();
        body = entries.map(({ file, agent }) => {
          const a = agent;
          const serverBoxes = servers.map((s) =>
            `<label style="display:inline-block;margin-right:10px"><input type="checkbox" name="mcpServers" value="${
              esc(s)
            }"${(a.mcpServers as string[] | undefined)?.includes(s) ? " checked" : ""}> ${
              esc(s)
            }</label>`
          ).join("");
          return `<form class="card config-form" novalidate data-save="agent" data-id="${
            esc(a.id)
          }" data-original="${esc(JSON.stringify(a))}">
<h2>${esc(a.id)} <span class="muted">· agents/${esc(file)}</span></h2>
${field("description", "Description", text("description", a.description, `style="width:100%"`))}
<div style="display:flex;gap:16px;flex-wrap:wrap">
${field("model", "Model (registry id)", select("model", a.model, models))}
${
            field(
              "exposure",
              "Exposure",
              select("exposure", a.exposure ?? "direct", ["direct", "proxy", "code"]),
            )
          }
${field("loop", "Loop", select("loop", a.loop ?? "sequential", ["sequential", "parallel"]))}
${field("maxIterations", "Max iterations", num("maxIterations", a.maxIterations))}
${field("temperature", "Temperature", num("temperature", a.temperature, "0.1"))}
${field("maxOutputTokens", "Max output tokens", num("maxOutputTokens", a.maxOutputTokens))}
</div>
${field("mcpServers", "MCP servers", serverBoxes)}
${
            a.systemPromptFile !== undefined
              ? field(
                "systemPromptFile",
                "System prompt file (relative to agents/)",
                text("systemPromptFile", a.systemPromptFile),
                "edit its text under Prompts",
              )
              : field(
                "systemPrompt",
                "System prompt (inline)",
                `<textarea name="systemPrompt" rows="3">${esc(a.systemPrompt)}</textarea>`,
              )
          }
<button type="submit">Save agent</button> <span class="saved muted"></span><div class="form-error field-error"></div>
</form>`;
        }).join("");
      } else if (tab === "models") {
        const doc = await ctx.config.getDoc("models");
        const list = isObject(doc) && Array.isArray(doc.models) ? doc.models as JsonObject[] : [];
        const rows = list.map((m, i) => {
          const p = isObject(m.pricing) ? m.pricing : {};
          const at = `models[${i}]`;
          return `<fieldset class="card model" data-index="${i}" data-field="${at}"><legend class="mono">${
            esc(m.id)
          }</legend>
<div style="display:flex;gap:14px;flex-wrap:wrap">
${field(`${at}.id`, "Id", text("id", m.id))}
${field(`${at}.provider`, "Provider", select("provider", m.provider, ["anthropic", "openai"]))}
${field(`${at}.model`, "Model", text("model", m.model, `style="width:240px"`))}
${field(`${at}.baseUrl`, "Base URL", text("baseUrl", m.baseUrl, `style="width:280px"`))}
${
            field(
              `${at}.apiKey`,
              "API key",
              text("apiKey", m.apiKey, `style="width:240px"`),
              "a ${VAR} reference; a :-default shows as [REDACTED] and is kept",
            )
          }
</div><div style="display:flex;gap:14px;flex-wrap:wrap">
${
            field(
              `${at}.pricing.inputUsdPerMTok`,
              "Input USD/MTok",
              num("inputUsdPerMTok", p.inputUsdPerMTok, "any"),
            )
          }
${
            field(
              `${at}.pricing.outputUsdPerMTok`,
              "Output USD/MTok",
              num("outputUsdPerMTok", p.outputUsdPerMTok, "any"),
            )
          }
${
            field(
              `${at}.pricing.cacheReadUsdPerMTok`,
              "Cache read USD/MTok",
              num("cacheReadUsdPerMTok", p.cacheReadUsdPerMTok, "any"),
            )
          }
${
            field(
              `${at}.pricing.cacheWriteUsdPerMTok`,
              "Cache write USD/MTok",
              num("cacheWriteUsdPerMTok", p.cacheWriteUsdPerMTok, "any"),
            )
          }
</div></fieldset>`;
        }).join("");
        body = `<form class="config-form" novalidate data-save="models" data-original="${
          esc(JSON.stringify(doc))
        }">${rows}<button type="submit">Save models</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>`;
      } else if (tab === "tool-prices") {
        const doc = await ctx.config.getDoc("tool-prices");
        const prices = isObject(doc) && isObject(doc.toolPrices) ? doc.toolPrices : {};
        const rows = Object.entries(prices).map(([k, v]) =>
          `<div class="price-row" style="display:flex;gap:10px" data-field="toolPrices.${esc(k)}">${
            text("tool", k, `placeholder="server:tool"`)
          } ${num("usd", v, "any")} <span class="muted">USD per call</span></div>`
        ).join("");
        body = `<form class="card config-form" novalidate data-save="tool-prices" data-original="${
          esc(JSON.stringify(doc))
        }"><div data-field="toolPrices">${rows}
<div class="price-row" style="display:flex;gap:10px">${
          text("tool", "", `placeholder="server:tool (new)"`)
        } ${num("usd", "", "any")}</div></div>
<p><button type="submit">Save tool prices</button> <span class="saved muted"></span></p><div class="form-error field-error"></div></form>`;
      } else if (tab === "servers") {
        const doc = await ctx.config.getDoc("servers");
        const key = isObject(doc) && "servers" in doc ? "servers" : "mcpServers";
        const table = isObject(doc) && isObject(doc[key]) ? doc[key] as JsonObject : {};
        body =
          `<form class="config-form" novalidate data-save="servers" data-key="${key}" data-original="${
            esc(JSON.stringify(doc))
          }">${
            Object.entries(table).map(([name, entry]) =>
              `<div class="card server" data-field="${key}.${esc(name)}" data-name="${
                esc(name)
              }"><h3 class="mono">${esc(name)}</h3><textarea rows="${
                Math.min(14, JSON.stringify(entry, null, 2).split("\n").length + 1)
              }">${esc(JSON.stringify(entry, null, 2))}</textarea></div>`
            ).join("")
          }<p class="muted">Secret-named env and header values show as [REDACTED]; leave them so to keep the stored value.</p>
<button type="submit">Save servers</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>`;
      } else if (tab === "suites") {
        const { suites } = await ctx.config.suiteEntries();
        const forms = await Promise.all(suites.map(async ({ file, suite }) => {
          const doc = await ctx.config.suiteDoc(suite.id);
          return `<form class="card config-form" novalidate data-save="suite" data-id="${
            esc(suite.id)
          }"><h3>${esc(suite.id)} <span class="muted">· suites/${
            esc(file)
          }</span></h3><div class="field" data-field=""><textarea name="json" rows="14">${
            esc(JSON.stringify(doc, null, 2))
          }</textarea></div><button type="submit">Save suite</button> <button type="button" class="secondary delete-suite">Delete</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>`;
        }));
        body = forms.join("") +
          `<form class="card config-form" novalidate data-save="new-suite"><h3>New suite</h3><div class="field" data-field=""><textarea name="json" rows="8">${
            esc(
              JSON.stringify(
                {
                  id: "my-suite",
                  description: "What this suite covers.",
                  cases: [{
                    id: "c1",
                    question: "…",
                    criterion: { type: "contains", values: ["…"] },
                  }],
                },
                null,
                2,
              ),
            )
          }</textarea></div><button type="submit">Create suite</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>`;
      } else {
        const entries = await ctx.config.agentEntries();
        const forms = await Promise.all(entries.map(async ({ agent }) => {
          const p = await ctx.config.getPrompt(String(agent.id));
          return `<form class="card config-form" novalidate data-save="prompt" data-id="${
            esc(agent.id)
          }"><h3>${esc(agent.id)} <span class="muted">· ${
            esc(p.file ?? "inline systemPrompt")
          }</span></h3><div class="field" data-field="content"><textarea name="content" rows="6">${
            esc(p.content)
          }</textarea></div><button type="submit">Save prompt</button> <span class="saved muted"></span><div class="form-error field-error"></div></form>`;
        }));
        body = forms.join("");
      }
      return c.html(page(ctx, {
        title: "Config",
        active: "/config",
        body: `<p class="muted">The working config in ${
          esc(ctx.config.dir)
        }. Every save is validated against lib/agent/schemas before it is written; a refused one changes nothing.</p>${tabs}${body}`,
        script: "configPage",
      }));
    });
  },
};
