/**
 * Runs pages: the list (newest first, refreshed live), a run (live progress over Server-Sent
 * Events while it runs; the per-agent comparison, pass rate by criterion type, tool-usage
 * profile, agent against judge cost and the per-case table once it has records; Resume for an
 * interrupted run), and a case transcript.
 *
 * @module
 */

import type { CaseRecord, Suite } from "../../agent/types.ts";
import type { Message } from "../../agent/providers/types.ts";
import type { WorkbenchFeature } from "../app.ts";
import { WorkbenchError } from "../_paths.ts";
import { type Html, html, page, raw, SIMULATED_NOTE, simulatedTag, stateBadge } from "../html.ts";
import { type RunSummary, summarizeRun } from "../comparison.ts";

const pct = (x: number | null) => x === null ? "n/a" : `${(x * 100).toFixed(1)}%`;
const int = (x: number | null) => x === null ? "n/a" : Math.round(x).toLocaleString("en-US");
const usd = (x: number | null) => x === null ? "n/a" : `$${x.toFixed(6)}`;
const secs = (ms: number | null) => ms === null ? "n/a" : `${(ms / 1000).toFixed(2)} s`;

/** Link to a case's transcript page. */
export function caseHref(runId: string, r: Pick<CaseRecord, "agentId" | "caseId" | "repetition">) {
  return `/runs/${encodeURIComponent(runId)}/cases/${encodeURIComponent(r.agentId)}/${
    encodeURIComponent(r.caseId)
  }/${r.repetition}`;
}

function verdict(r: CaseRecord, withCause = true): Html {
  if (r.passed === true) return html`<span class="pass">pass</span>`;
  if (r.passed === false) {
    return html`<span class="fail">fail</span>${
      r.error
        ? html`
          <span class="muted">(${r.error.kind})</span>
        `
        : ""
    }`;
  }
  // The cause shows where the case is listed: an unstartable server is one line to fix.
  return html`<span class="err">error: ${r.error?.kind ?? "?"}</span>${
    withCause && r.error?.message
      ? html`
        <span class="muted err-cause">${r.error.message}</span>
      `
      : ""
  }`;
}

function bar(fraction: number | null, title = ""): Html {
  const w = fraction === null ? 0 : Math.max(0, Math.min(1, fraction)) * 100;
  return html`<div class="bar" title="${title}"><span style="width:${w.toFixed(1)}%"></span></div>`;
}

/**
 * The comparison sections of a run page.
 *
 * @param runId Run id.
 * @param s Run summary.
 * @param records Case records.
 * @returns HTML.
 */
export function comparisonHtml(
  runId: string,
  s: RunSummary,
  records: readonly CaseRecord[],
  simulated = false,
): Html {
  const sim = simulatedTag(simulated);
  const cli = new Map(s.agents.map((a) => [a.agentId, a]));
  const rows = s.comparison.map((a) => {
    const c = cli.get(a.agentId);
    return html`
      <tr data-agent="${a.agentId}">
        <td><span class="mono">${a.agentId}</span><br><span class="muted">${a.model ??
          ""} · ${a.exposure ?? ""}</span></td>
        <td>${bar(a.passRate, pct(a.passRate))}<span class="pass-rate">${pct(
          a.passRate,
        )}</span> <span class="muted">[${pct(a.passRateLo)}, ${pct(a.passRateHi)}]</span></td>
        <td class="num">${a.passed}/${a.scored}</td>
        <td class="num">${secs(a.meanWallMs)}</td>
        <td class="num">${secs(c?.wallP50Ms ?? null)} / ${secs(c?.wallP95Ms ?? null)}</td>
        <td class="num">${int(a.inputTokens)}</td>
        <td class="num">${int(a.outputTokens)}</td>
        <td class="num">${int(a.cacheReadTokens)} / ${int(a.cacheWriteTokens)}</td>
        <td class="num">${usd(a.costUsd)}${sim}</td>
        <td class="num">${a.errors}</td>
        <td class="num">${a.casesWithoutUsage}</td>
        <td class="num">${a.toolCount ?? "n/a"}</td>
        <td class="mono" title="${a.catalogHash ?? ""}">${(a.catalogHash ?? "n/a").slice(
          0,
          12,
        )}</td>
      </tr>
    `;
  });
  const crit = s.byCriterion.map((r) =>
    html`
      <tr>
        <td class="mono">${r.agentId}</td>
        <td class="mono">${r.criterion}</td>
        <td>${bar(r.passRate)}</td>
        <td class="num">${pct(r.passRate)}</td>
        <td class="num">${r.passed}/${r.scored}</td>
      </tr>
    `
  );
  const maxCalls = Math.max(1, ...s.toolProfile.map((t) => t.calls));
  const tools = s.toolProfile.map((t) =>
    html`
      <tr>
        <td class="mono">${t.agentId}</td>
        <td class="mono">${t.tool}${t.via
          ? html`
            <span class="muted">via ${t.via}</span>
          `
          : ""}</td>
        <td>${bar(t.calls / maxCalls)}</td>
        <td class="num">${t.calls}</td>
        <td class="num">${t.errors}</td>
        <td class="num">${t.meanMs.toFixed(1)} ms</td>
      </tr>
    `
  );
  const total = s.cost.agentUsd + s.cost.judgeUsd;
  const agentShare = total === 0 ? 1 : s.cost.agentUsd / total;
  const cases = records.map((r) =>
    html`
      <tr class="case-row">
        <td class="mono">${r.agentId}</td>
        <td class="mono">${r.caseId}</td>
        <td class="num">${r.repetition}</td>
        <td>${verdict(r)}</td>
        <td class="num">${int(r.wallMs)} ms</td>
        <td class="num">${r.iterations}</td>
        <td class="num">${int(r.inputTokens)}</td>
        <td class="num">${int(r.outputTokens)}</td>
        <td class="num">${usd(r.costUsd)}${sim}</td>
        <td class="num">${r.toolCalls.filter((c) => c.via === undefined).length}</td>
        <td><a class="transcript-link" href="${caseHref(runId, r)}">transcript</a></td>
      </tr>
    `
  );
  return html`
    <section id="comparison">
      <h2>Per-agent comparison</h2>
      <div class="card" style="overflow-x:auto">
        <table id="agent-comparison">
          <thead>
            <tr>
              <th>agent <span class="muted">model · exposure</span></th>
              <th>pass rate <span class="muted">[95% Wilson]</span></th>
              <th class="num">passed</th>
              <th class="num">mean duration</th>
              <th class="num">p50 / p95</th>
              <th class="num">input tok</th>
              <th class="num">output tok</th>
              <th class="num">cache r / w</th>
              <th class="num">USD</th>
              <th class="num">errors</th>
              <th class="num">no usage</th>
              <th class="num">tools</th>
              <th>catalog</th>
            </tr>
          </thead>
          <tbody>${rows}</tbody>
        </table>
        <p
          class="muted">Pass rate over scored cases (infrastructure errors excluded); USD = model tokens × pricing + tool prices, judge excluded.</p>
      </div>
      <div class="grid2">
        <div class="card">
          <h3>Pass rate by criterion type</h3>
          <table id="by-criterion">
            <thead>
              <tr>
                <th>agent</th>
                <th>criterion</th>
                <th></th>
                <th class="num">pass rate</th>
                <th class="num">passed</th>
              </tr>
            </thead>
            <tbody>${crit}</tbody>
          </table>
        </div>
        <div class="card">
          <h3>Agent vs judge cost</h3>
          <div
            class="splitbar"><span style="width:${(agentShare * 100).toFixed(
              1,
            )}%;background:#2156c9"></span><span style="width:${((1 - agentShare) * 100).toFixed(
              1,
            )}%;background:#9a6700"></span></div>
          <p>agent <b>${usd(s.cost.agentUsd)}</b> · judge <b>${usd(
            s.cost.judgeUsd,
          )}</b>${sim} (${int(
            s.cost.judgeInputTokens,
          )} in / ${int(s.cost.judgeOutputTokens)} out tokens)</p>
        </div>
      </div>
      <div class="card">
        <h3>Tool-usage profile</h3>
        <table id="tool-profile">
          <thead>
            <tr>
              <th>agent</th>
              <th>tool</th>
              <th></th>
              <th class="num">calls</th>
              <th class="num">errors</th>
              <th class="num">mean time</th>
            </tr>
          </thead>
          <tbody>${tools.length > 0 ? tools : html`
            <tr>
              <td colspan="6" class="muted">no tool calls</td>
            </tr>
          `}</tbody>
        </table>
      </div>
      <h2>Cases</h2>
      <details class="card" ${records.length <= 60 ? raw(" open") : ""}>
        <summary>${records.length} case records (agent × case × repetition)</summary>
        <table id="cases">
          <thead>
            <tr>
              <th>agent</th>
              <th>case</th>
              <th class="num">rep</th>
              <th>verdict</th>
              <th class="num">wall</th>
              <th class="num">turns</th>
              <th class="num">input tok</th>
              <th class="num">output tok</th>
              <th class="num">USD</th>
              <th class="num">tool calls</th>
              <th></th>
            </tr>
          </thead>
          <tbody>${cases}</tbody>
        </table>
      </details>
    </section>
  `;
}

function messagesHtml(messages: readonly Message[]): Html[] {
  return messages.map((m) => {
    if (m.role === "user") {
      return html`<div class="msg user"><b>user</b><pre>${m.text}</pre></div>`;
    }
    if (m.role === "assistant") {
      const calls = m.toolCalls.map((c) =>
        html`<div>→ <code>${c.name}</code><pre>${JSON.stringify(c.args, null, 2)}</pre></div>`
      );
      return html`<div class="msg assistant"><b>assistant</b>${
        m.text ? html`<pre>${m.text}</pre>` : ""
      }${calls}</div>`;
    }
    return html`<div class="msg tool"><b>tool results</b>${
      m.results.map((r) =>
        html`<div><code>${r.name}</code> <span class="muted">${r.callId}</span>${
          r.isError
            ? html`
              <span class="fail">error</span>
            `
            : ""
        }<pre>${r.text}</pre></div>`
      )
    }</div>`;
  });
}

/** The runs pages, one registrar each, registered in this order (Hono matches in order). */
const pages = {
  /** `GET /runs`: every run, newest first. */
  list(app, ctx) {
    app.get("/runs", async (c) => {
      const runs = await ctx.runs.list();
      const rows = runs.map((r) =>
        html`
          <tr data-run="${r.runId}">
            <td><a href="/runs/${encodeURIComponent(r.runId)}">${r.runId}</a>${r.source === null
              ? ""
              : html`
                <span class="state" title="read-only, from ${r.source}">${r.source}</span>
              `}</td>
            <td>${r.suiteId ?? ""}</td>
            <td>${stateBadge(r.state)}</td>
            <td class="num">${r.completed}/${r.planned}</td>
            <td class="num">${r.passed}</td>
            <td class="num">${r.errors}</td>
            <td class="num">${usd(r.costUsd)}${simulatedTag(r.simulated)}</td>
            <td>${r.agentIds.join(", ")}</td>
            <td class="muted">${r.createdAt ?? ""}</td>
          </tr>
        `
      );
      return c.html(page(ctx, {
        title: "Runs",
        active: "/runs",
        body: html`
          <p class="muted">Every run folder in ${ctx.runs.dir}, newest first: made here or by
            <code>deno task agents</code>${ctx.runs.sources.map((s) =>
              html`; and, read-only, the ${s.label} runs in ${s.dir}`
            )}.</p>
          <div class="card">
            <table id="runs">
              <thead>
                <tr>
                  <th>run</th>
                  <th>suite</th>
                  <th>state</th>
                  <th class="num">cases</th>
                  <th class="num">passed</th>
                  <th class="num">errors</th>
                  <th class="num">USD</th>
                  <th>agents</th>
                  <th>created</th>
                </tr>
              </thead>
              <tbody>${rows.length > 0 ? rows : html`
                <tr>
                  <td colspan="9" class="muted">no runs yet: start one from Test plans</td>
                </tr>
              `}</tbody>
            </table>
          </div>
        `,
        script: "runsPage",
      }));
    });
  },

  /** `GET /runs/{id}`: a run, live while it runs, its comparison once it has records. */
  run(app, ctx) {
    app.get("/runs/:id", async (c) => {
      const id = c.req.param("id");
      const run = await ctx.runs.get(id);
      const sidecar = await ctx.runs.sidecar(id).catch(() => null);
      const suite = (run.run?.suite ?? sidecar?.suite) as Suite | undefined;
      const live = run.state === "queued" || run.state === "running";
      const canResume = (run.state === "interrupted" || run.state === "failed") && sidecar !== null;
      const fraction = run.planned === 0 ? 0 : run.completed / run.planned;
      const summary = summarizeRun(
        id,
        run.results,
        run.run ?? (sidecar ? { agents: sidecar.agents, suite: sidecar.suite } : null),
        suite,
      );
      const log = run.results.map((r) =>
        html`<div class="case-line">${r.agentId} ${r.caseId}#${r.repetition} ${verdict(r)} ${
          int(r.wallMs)
        } ms</div>`
      );
      const body =
        html`<div class="card" id="run-header" data-run="${id}" data-state="${run.state}">
<p>${stateBadge(run.state)} suite <b>${run.suiteId ?? "?"}</b> · agents ${
          run.agentIds.join(", ")
        } · created ${run.createdAt ?? "?"}${
          run.endedAt
            ? html`
              · ended ${run.endedAt}
            `
            : ""
        }</p>
${run.failure ? html`<p class="fail">Failed: ${run.failure}</p>` : ""}
${run.simulated ? html`<p class="sim-note"><b>Simulated run.</b> ${SIMULATED_NOTE}</p>` : ""}
${
          run.source === null
            ? ""
            : html`<p class="muted">Read-only: from the ${run.source} runs (${
              (await ctx.runs.locate(id)).dir
            }).</p>`
        }
${
          canResume
            ? html`<p><button id="resume" data-run="${id}">Resume</button> <span class="muted">runs the ${
              run.planned - run.completed
            } case(s) not yet recorded; none is run twice</span></p>`
            : ""
        }
<div class="kpis" id="progress">
<div class="kpi"><span class="muted">cases</span><b><span id="p-done">${run.completed}</span> / <span id="p-planned">${run.planned}</span></b></div>
<div class="kpi"><span class="muted">passed</span><b id="p-passed">${run.passed}</b></div>
<div class="kpi"><span class="muted">failed</span><b id="p-failed">${run.failed}</b></div>
<div class="kpi"><span class="muted">errors</span><b id="p-errors">${run.errors}</b></div>
<div class="kpi"><span class="muted">tokens in / out</span><b><span id="p-in">${
          int(run.inputTokens)
        }</span> / <span id="p-out">${int(run.outputTokens)}</span></b></div>
<div class="kpi"><span class="muted">USD (agent)${
          simulatedTag(run.simulated)
        }</span><b id="p-usd">${usd(run.costUsd)}</b></div>
</div>
<div style="margin-top:10px">${bar(fraction)}</div>
<h3>Finished cases</h3><div class="log" id="case-log">${log}</div>
</div>
${run.results.length > 0 && !live ? comparisonHtml(id, summary, run.results, run.simulated) : ""}`;
      return c.html(page(ctx, {
        title: `Run ${id}`,
        active: "/runs",
        body,
        script: "runPage",
      }));
    });
  },

  /** `GET /runs/{id}/cases/{agentId}/{caseId}/{repetition}`: a case and its transcript. */
  transcript(app, ctx) {
    app.get("/runs/:id/cases/:agentId/:caseId/:repetition", async (c) => {
      const { id, agentId, caseId } = c.req.param();
      const repetition = Number(c.req.param("repetition"));
      const run = await ctx.runs.get(id);
      const r = run.results.find((x) =>
        x.agentId === agentId && x.caseId === caseId && x.repetition === repetition
      );
      if (r === undefined) {
        throw new WorkbenchError(404, `run "${id}" has no case ${agentId}/${caseId}#${repetition}`);
      }
      const transcript = await ctx.runs.transcript(id, agentId, caseId, repetition) as
        | { messages?: Message[] }
        | null;
      const suite = run.run?.suite as Suite | undefined;
      const question = suite?.cases.find((k) => k.id === caseId)?.question ?? "";
      const calls = r.toolCalls.map((t, i) =>
        html`
          <tr>
            <td class="num">${i + 1}</td>
            <td class="mono">${t.name}${t.via
              ? html`
                <span class="muted">via ${t.via}</span>
              `
              : ""}</td>
            <td class="mono">${t.tool ?? "unknown"}</td>
            <td>
              <pre>${JSON.stringify(t.args, null, 2)}</pre>
            </td>
            <td class="num">${t.ms.toFixed(1)} ms</td>
            <td>${t.isError ? html`<span class="fail">error</span>` : "ok"}</td>
          </tr>
        `
      );
      const body = html`
        <p><a href="/runs/${encodeURIComponent(id)}">← run ${id}</a></p>
        <div class="card"
          id="case-detail"><p>agent <b>${agentId}</b> · case <b>${caseId}</b> · repetition ${repetition} · ${verdict(
            r,
            false,
          )}</p>
        <p><b>Question</b></p><pre>${question}</pre>
        <p><b>Final answer</b></p><pre id="final-answer">${r.finalAnswer ?? "(none)"}</pre>
        <p><b>Criterion</b>: ${r.criterion?.detail ?? "not scored"}</p>
        ${r.error ? html`<p class="err">Error (${r.error.kind}): ${r.error.message}</p>` : ""}
        <p class="muted">wall ${int(r.wallMs)} ms · model ${int(r.llmMs)} ms · tools ${int(
          r.toolMs,
        )} ms · ${r.iterations} turn(s) · tokens ${int(r.inputTokens)} in / ${int(
          r.outputTokens,
        )} out · peak context ${int(r.peakContextTokens)} · ${usd(r.costUsd)}${simulatedTag(
          run.simulated,
        )}</p></div>
        <h2>Tool calls</h2>
        <div class="card">
          <table id="tool-calls">
            <thead>
              <tr>
                <th class="num">#</th>
                <th>name</th>
                <th>tool</th>
                <th>arguments</th>
                <th class="num">time</th>
                <th>result</th>
              </tr>
            </thead>
            <tbody>${calls.length > 0 ? calls : html`
              <tr>
                <td colspan="6" class="muted">none</td>
              </tr>
            `}</tbody>
          </table>
        </div>
        <h2>Transcript</h2>
        <div class="card" id="transcript">${transcript?.messages
          ? messagesHtml(transcript.messages)
          : r.error && r.iterations === 0
          ? html`<p class="muted">No transcript: the case ended before its first model turn (the error above).</p>`
          : html`<p class="muted">This run kept no transcript (runs made by the CLI keep only the record).</p>`}</div>
      `;
      return c.html(
        page(ctx, { title: `${agentId} · ${caseId} #${repetition}`, active: "/runs", body }),
      );
    });
  },
} satisfies Record<string, WorkbenchFeature["register"]>;

/** The runs pages feature. */
export const runsPages: WorkbenchFeature = {
  id: "runs-pages",
  nav: [{ href: "/runs", title: "Runs", order: 20 }],
  register(app, ctx) {
    pages.list(app, ctx);
    pages.run(app, ctx);
    pages.transcript(app, ctx);
  },
};
