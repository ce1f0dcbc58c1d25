/**
 * Suites and agents: `GET/POST /api/suites`, `GET/PUT/DELETE /api/suites/{id}`,
 * `GET /api/agents`, and the Test plans page (every suite with its cases and criteria, and a
 * run form on each).
 *
 * @module
 */

import type { AgentConfig, Criterion, ModelConfig, Suite } from "../../agent/types.ts";
import { judgeModels } from "../../agent/criteria.ts";
import type { WorkbenchFeature } from "../app.ts";
import { readJsonBody } from "../http.ts";
import { type Html, html, page } from "../html.ts";

/**
 * One line describing a criterion (`regex /^5$/`, `all(regex, tool_called fs:read_text_file)`).
 *
 * @param c Criterion.
 * @returns Text.
 */
export function criterionText(c: Criterion): string {
  switch (c.type) {
    case "exact":
      return `exact ${JSON.stringify(c.value)}`;
    case "contains":
      return `contains ${c.mode ?? "any"} of ${c.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "regex":
      return `regex /${c.pattern}/`;
    case "tool_called":
      return `tool_called ${c.tool}`;
    case "llm_judge":
      return `llm_judge (${(c.judges ?? [c.model]).join(", ")}${
        (c.votes ?? 1) > 1 ? ` × ${c.votes} votes` : ""
      }): ${c.rubric}`;
    case "all":
    case "any":
      return `${c.type}(${c.criteria.map(criterionText).join("; ")})`;
    default:
      return (c as { type: string }).type;
  }
}

/**
 * The `<option>`s of a model choice where a chat model is needed (the run form's model override
 * and judge, the Chat page's model): every registered model but embedding ones, each with its
 * provider, a scripted one labelled simulated (it needs no API key).
 *
 * @param models The model registry.
 * @returns One option per chat model.
 */
export function chatModelOptions(models: readonly ModelConfig[]): Html[] {
  return models.filter((m) => m.kind !== "embedding").map((m) =>
    html`<option value="${m.id}">${m.id} (${m.provider}${
      m.simulated ? ", simulated" : ""
    })</option>`
  );
}

/** One agent's checkbox on a run form, with a version choice when it has versions. */
function agentChoice(a: AgentConfig, versions: readonly { version: string }[]): Html {
  const select = versions.length === 0 ? "" : html`<select name="version:${a.id}">
    <option value="">current</option>${
    versions.map((v) => html`<option value="${v.version}">v${v.version}</option>`)
  }</select>`;
  return html`<label class="choice"><input type="checkbox" name="agent" value="${a.id}"> ${a.id}
    <span class="muted">(${a.model}, ${a.exposure})</span>${select}</label>`;
}

/**
 * A suite's run form: agents, repetitions, concurrency, the exposure and model overrides (chat
 * models only), and for a suite with `llm_judge` cases the judge.
 */
function runForm(suite: Suite, agentChoices: readonly Html[], options: readonly Html[]): Html {
  const judges = judgeIds(suite);
  const judge = judges.length === 0 ? "" : html`
    <div class="field" data-field="judge">
      <label>Judge <select name="judge"><option value="">as in the suite (${judges.join(
        ", ",
      )})</option>${options}</select></label>
    </div>
  `;
  return html`<form class="run-form" data-suite="${suite.id}">
  <h3>Run this plan</h3>
  <div class="field" data-field="agents"><label>Agents</label>${agentChoices}</div>
  <div class="run-options">
    <div class="field" data-field="repetitions">
      <label>Repetitions <input type="number" name="repetitions" value="1" min="1" max="100" style="width:70px"></label>
    </div>
    <div class="field" data-field="concurrency">
      <label>Concurrency <input type="number" name="concurrency" value="2" min="1" max="16" style="width:70px"></label>
    </div>
    <div class="field" data-field="exposure">
      <label>Exposure override <select name="exposure"><option value="">as configured</option><option>direct</option><option>proxy</option><option>code</option></select></label>
    </div>
    <div class="field" data-field="model">
      <label>Model override <select name="model"><option value="">as configured</option>${options}</select></label>
    </div>
    ${judge}
    <div class="field"><button type="submit">Start run</button></div>
  </div>
  <div class="form-error field-error"></div>
</form>`;
}

/** Judge model ids the suite's `llm_judge` criteria name, sorted. */
function judgeIds(suite: Suite): string[] {
  const ids = new Set<string>();
  const walk = (c: Criterion) => {
    if (c.type === "llm_judge") judgeModels(c).forEach((id) => ids.add(id));
    if (c.type === "all" || c.type === "any") c.criteria.forEach(walk);
  };
  suite.cases.forEach((k) => walk(k.criterion));
  return [...ids].sort();
}

/** The suites and agents feature. */
export const plans: WorkbenchFeature = {
  id: "plans",
  nav: [{ href: "/plans", title: "Test plans", order: 10 }],
  register(app, ctx) {
    app.get("/api/suites", async (c) => {
      const { suites, invalid } = await ctx.config.suiteEntries();
      return c.json({
        suites: suites.map(({ file, suite }) => ({
          id: suite.id,
          description: suite.description,
          file,
          cases: suite.cases.length,
          tags: [...new Set(suite.cases.flatMap((k) => k.tags ?? []))].sort(),
        })),
        invalid,
      });
    });
    app.get("/api/suites/:id", async (c) => {
      const { file, suite } = await ctx.config.suite(c.req.param("id"));
      return c.json({ file, suite });
    });
    app.post("/api/suites", async (c) => {
      const id = await ctx.config.createSuite(await readJsonBody(c));
      return c.json({ id }, 201);
    });
    app.put("/api/suites/:id", async (c) => {
      await ctx.config.updateSuite(c.req.param("id"), await readJsonBody(c));
      return c.json({ id: c.req.param("id") });
    });
    app.delete("/api/suites/:id", async (c) => {
      await ctx.config.deleteSuite(c.req.param("id"));
      return c.body(null, 204);
    });
    app.get("/api/agents", async (c) => {
      const agents = await ctx.config.loadAgents();
      const entries = await ctx.config.agentEntries();
      const withVersions = await Promise.all(agents.map(async (a) => ({
        id: a.id,
        description: a.description,
        model: a.model,
        mcpServers: a.mcpServers,
        exposure: a.exposure,
        loop: a.loop,
        maxIterations: a.maxIterations,
        file: entries.find((e) => e.agent.id === a.id)?.file ?? null,
        versions: await ctx.versions.list(a.id),
      })));
      return c.json({ agents: withVersions });
    });

    app.get("/plans", async (c) => {
      const { suites, invalid } = await ctx.config.suiteEntries();
      const agents = await ctx.config.loadAgents();
      const models = await ctx.config.loadModels();
      const versions = new Map(
        await Promise.all(agents.map(async (a) => [a.id, await ctx.versions.list(a.id)] as const)),
      );
      const agentChoices = agents.map((a) => agentChoice(a, versions.get(a.id) ?? []));
      const chat = chatModelOptions(models);
      const body = suites.map(({ file, suite }) => {
        const rows = suite.cases.map((k) =>
          html`
            <tr>
              <td class="mono">${k.id}</td>
              <td>${k.question}</td>
              <td class="mono">${criterionText(k.criterion)}</td>
              <td>${(k.tags ?? []).join(", ")}</td>
            </tr>
          `
        );
        return html`
          <section class="card suite" data-suite="${suite.id}">
            <h2>${suite.id} <span class="muted">· ${suite.cases.length} cases · ${file}</span></h2>
            <p>${suite.description}</p>
            <details open>
              <summary>Cases and criteria</summary>
              <table>
                <thead>
                  <tr>
                    <th>case</th>
                    <th>question</th>
                    <th>criterion</th>
                    <th>tags</th>
                  </tr>
                </thead>
                <tbody>${rows}</tbody>
              </table>
            </details>
            ${runForm(suite, agentChoices, chat)}
          </section>
        `;
      });
      const warn = invalid.length === 0
        ? ""
        : html`<div class="card"><b>Suites that do not load:</b><ul>${
          invalid.map((m) => html`<li>${m}</li>`)
        }</ul></div>`;
      return c.html(page(ctx, {
        title: "Test plans",
        active: "/plans",
        body: html`
          <p
            class="muted">Every suite of the working config (${ctx.config.paths()
              .suitesDir}). Pick agents and press Start run; the run appears under Runs. The scripted model runs without an API key.</p>${warn}${body}
        `,
        script: "plansPage",
      }));
    });
  },
};
