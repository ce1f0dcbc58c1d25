/**
 * Page controllers of Test plans (the run form), Runs (the list, refreshed) and a run (live
 * progress over Server-Sent Events, Resume).
 *
 * @module
 */

import {
  $,
  $$,
  api,
  clearErrors,
  fmtInt,
  fmtUsd,
  type Json,
  showError,
  showRefusal,
} from "./dom.ts";

/** Test plans: each suite's run form posts `/api/runs` and opens the run. */
export function plansPage() {
  for (const form of $$<HTMLFormElement>("form.run-form")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clearErrors(form);
      const body = runRequest(form);
      if ((body.agents as unknown[]).length === 0) {
        showError(form, "agents", "pick at least one agent");
        return;
      }
      const r = await api("POST", "/api/runs", body);
      if (r.ok) location.href = `/runs/${encodeURIComponent(String(r.data.runId))}`;
      else showRefusal(form, r.data);
    });
  }
}

/** The `POST /api/runs` body a run form describes. */
export function runRequest(form: HTMLFormElement): Json {
  const agents = $$<HTMLInputElement>("input[name=agent]:checked", form).map((i) => {
    const v = $<HTMLSelectElement>(`select[name="version:${CSS.escape(i.value)}"]`, form);
    return v && v.value ? { agentId: i.value, version: v.value } : { agentId: i.value };
  });
  const num = (n: string) => Number($<HTMLInputElement>(`[name=${n}]`, form)!.value);
  const sel = (n: string) => $<HTMLSelectElement>(`[name=${n}]`, form)?.value ?? "";
  const body: Json = {
    suiteId: form.dataset.suite,
    agents,
    repetitions: num("repetitions"),
    concurrency: num("concurrency"),
  };
  if (sel("exposure")) body.exposure = sel("exposure");
  if (sel("model")) body.model = sel("model");
  if (sel("judge")) body.judge = sel("judge");
  return body;
}

/** Runs: refreshes each row's state and figures every 2 s; a new run reloads the page. */
export function runsPage() {
  const tbody = $("#runs tbody");
  if (tbody === null) return;
  setInterval(async () => {
    const r = await api("GET", "/api/runs");
    if (!r.ok || !Array.isArray(r.data)) return;
    for (const run of r.data as Json[]) {
      const row = $(`tr[data-run="${CSS.escape(String(run.runId))}"]`, tbody);
      if (row === null) {
        location.reload();
        return;
      }
      const cells = row.querySelectorAll("td");
      const badge = document.createElement("span");
      badge.className = `state ${run.state}`;
      badge.textContent = String(run.state);
      cells[2].replaceChildren(badge);
      cells[3].textContent = `${run.completed}/${run.planned}`;
      cells[4].textContent = String(run.passed);
      cells[5].textContent = String(run.errors);
      cells[6].textContent = fmtUsd(run.costUsd as number);
      if (run.simulated === true) cells[6].append(" ", simulatedTag());
    }
  }, 2000);
}

/** The `simulated` tag the pages put beside a simulated USD figure. */
export function simulatedTag(): HTMLElement {
  const tag = document.createElement("span");
  tag.className = "sim";
  tag.textContent = "simulated";
  tag.title = "A scripted model answered: USD is what its pricing would charge, not a bill.";
  return tag;
}

/** A run: Resume, and while it is live, its finished cases and progress as they arrive. */
export function runPage() {
  const header = $("#run-header");
  if (header === null) return;
  const runId = header.dataset.run!;
  const resume = $<HTMLButtonElement>("#resume");
  resume?.addEventListener("click", async () => {
    resume.disabled = true;
    const r = await api("POST", `/api/runs/${encodeURIComponent(runId)}/resume`);
    if (r.ok) location.reload();
    else {
      resume.disabled = false;
      alert(String(r.data.error));
    }
  });
  const state = header.dataset.state;
  if (state !== "queued" && state !== "running") return;
  const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
  es.addEventListener("case", (e) => appendCase(JSON.parse((e as MessageEvent).data)));
  es.addEventListener(
    "progress",
    (e) => showProgress(header, JSON.parse((e as MessageEvent).data)),
  );
  es.addEventListener("end", () => {
    es.close();
    setTimeout(() => location.reload(), 300);
  });
}

/** Adds one finished case to the run page's log. */
export function appendCase(c: Json) {
  const log = $("#case-log")!;
  const line = document.createElement("div");
  line.className = "case-line";
  const mark = document.createElement("span");
  mark.className = c.passed === true ? "pass" : c.passed === false ? "fail" : "err";
  mark.textContent = c.passed === true ? "pass" : c.passed === false ? "fail" : `error: ${c.error}`;
  line.append(`${c.agentId} ${c.caseId}#${c.repetition} `, mark);
  if (c.passed === null && c.errorMessage) {
    const cause = document.createElement("span");
    cause.className = "muted err-cause";
    cause.textContent = String(c.errorMessage);
    line.append(" ", cause);
  }
  line.append(` ${fmtInt(c.wallMs as number)} ms`);
  log.appendChild(line);
  log.scrollTop = log.scrollHeight;
}

/** Shows a `progress` event on the run page's figures, badge and bar. */
export function showProgress(header: HTMLElement, p: Json) {
  const set = (id: string, text: string) => {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  };
  set("p-done", String(p.completed));
  set("p-planned", String(p.planned));
  set("p-passed", String(p.passed));
  set("p-failed", String(p.failed));
  set("p-errors", String(p.errors));
  set("p-in", fmtInt(p.inputTokens as number));
  set("p-out", fmtInt(p.outputTokens as number));
  set("p-usd", fmtUsd(p.costUsd as number));
  const badge = $(".state", header);
  if (badge) {
    badge.className = `state ${p.state}`;
    badge.textContent = String(p.state);
    badge.dataset.state = String(p.state);
  }
  const barEl = $(".bar > span", header);
  const planned = Number(p.planned);
  if (barEl && planned > 0) barEl.style.width = `${(100 * Number(p.completed)) / planned}%`;
}
