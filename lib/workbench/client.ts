/**
 * The workbench's client script (`/assets/workbench.js`): small page controllers on
 * `window.workbench`, written as one type-checked function whose source is served. No build
 * step: Deno strips the types when it loads this module.
 *
 * @module
 */

/** The client code; runs in the browser. */
function workbenchClient() {
  type Json = Record<string, unknown>;
  const $ = <T extends Element = HTMLElement>(sel: string, root: ParentNode = document) =>
    root.querySelector(sel) as T | null;
  const $$ = <T extends Element = HTMLElement>(sel: string, root: ParentNode = document) =>
    Array.from(root.querySelectorAll(sel)) as T[];

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    let data: Json = {};
    const text = await res.text();
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { error: text };
    }
    return { ok: res.ok, status: res.status, data };
  }

  function clearErrors(root: ParentNode) {
    for (const el of $$(".field.invalid", root)) el.classList.remove("invalid");
    for (const el of $$(".field-error", root)) el.textContent = "";
  }

  /** Puts an error on the field it names (or its closest named ancestor), else on the form. */
  function showError(root: ParentNode, field: string | undefined, message: string) {
    let target: HTMLElement | null = null;
    let f = field ?? "";
    while (f !== "" && target === null) {
      target = $(`[data-field="${CSS.escape(f)}"]`, root);
      const cut = Math.max(f.lastIndexOf("."), f.lastIndexOf("["));
      f = cut > 0 ? f.slice(0, cut) : "";
    }
    if (target !== null) {
      target.classList.add("invalid");
      let msg = $(".field-error", target);
      if (msg === null) {
        msg = document.createElement("div");
        msg.className = "field-error";
        target.appendChild(msg);
      }
      msg.textContent = message;
      return;
    }
    const general = $(".form-error", root);
    if (general !== null) general.textContent = message;
    else alert(message);
  }

  const fmt = {
    int: (x: number | null) => x === null ? "n/a" : Math.round(x).toLocaleString("en-US"),
    usd: (x: number | null) => x === null ? "n/a" : `$${x.toFixed(6)}`,
  };

  function plansPage() {
    for (const form of $$<HTMLFormElement>("form.run-form")) {
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        clearErrors(form);
        const agents = $$<HTMLInputElement>("input[name=agent]:checked", form).map((i) => {
          const v = $<HTMLSelectElement>(`select[name="version:${CSS.escape(i.value)}"]`, form);
          return v && v.value ? { agentId: i.value, version: v.value } : { agentId: i.value };
        });
        const num = (n: string) => Number($<HTMLInputElement>(`[name=${n}]`, form)!.value);
        const sel = (n: string) => $<HTMLSelectElement>(`[name=${n}]`, form)!.value;
        const body: Json = {
          suiteId: form.dataset.suite,
          agents,
          repetitions: num("repetitions"),
          concurrency: num("concurrency"),
        };
        if (sel("exposure")) body.exposure = sel("exposure");
        if (sel("model")) body.model = sel("model");
        if (agents.length === 0) {
          showError(form, "agents", "pick at least one agent");
          return;
        }
        const r = await api("POST", "/api/runs", body);
        if (r.ok) location.href = `/runs/${encodeURIComponent(String(r.data.runId))}`;
        else showError(form, r.data.field as string, String(r.data.error));
      });
    }
  }

  function runsPage() {
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
        cells[2].innerHTML = `<span class="state ${run.state}">${run.state}</span>`;
        cells[3].textContent = `${run.completed}/${run.planned}`;
        cells[4].textContent = String(run.passed);
        cells[5].textContent = String(run.errors);
        cells[6].textContent = fmt.usd(run.costUsd as number);
      }
    }, 2000);
  }

  function runPage() {
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
    const log = $("#case-log")!;
    const set = (id: string, text: string) => {
      const el = document.getElementById(id);
      if (el) el.textContent = text;
    };
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    es.addEventListener("case", (e) => {
      const c = JSON.parse((e as MessageEvent).data);
      const line = document.createElement("div");
      const mark = c.passed === true
        ? `<span class="pass">pass</span>`
        : c.passed === false
        ? `<span class="fail">fail</span>`
        : `<span class="err">error: ${c.error}</span>`;
      line.innerHTML = "";
      line.append(`${c.agentId} ${c.caseId}#${c.repetition} `);
      line.insertAdjacentHTML("beforeend", mark);
      line.append(` ${fmt.int(c.wallMs)} ms`);
      line.className = "case-line";
      log.appendChild(line);
      log.scrollTop = log.scrollHeight;
    });
    es.addEventListener("progress", (e) => {
      const p = JSON.parse((e as MessageEvent).data);
      set("p-done", String(p.completed));
      set("p-planned", String(p.planned));
      set("p-passed", String(p.passed));
      set("p-failed", String(p.failed));
      set("p-errors", String(p.errors));
      set("p-in", fmt.int(p.inputTokens));
      set("p-out", fmt.int(p.outputTokens));
      set("p-usd", fmt.usd(p.costUsd));
      const badge = $(".state", header);
      if (badge) {
        badge.className = `state ${p.state}`;
        badge.textContent = p.state;
        badge.dataset.state = p.state;
      }
      const barEl = $(".bar > span", header);
      if (barEl && p.planned > 0) barEl.style.width = `${(100 * p.completed) / p.planned}%`;
    });
    es.addEventListener("end", () => {
      es.close();
      setTimeout(() => location.reload(), 300);
    });
  }

  /** A number field's value: a number, `undefined` when empty, else the text (the server says why). */
  function numberValue(input: HTMLInputElement | null): unknown {
    if (input === null) return undefined;
    const v = input.value.trim();
    if (v === "") return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : v;
  }

  function setOrDrop(obj: Json, key: string, value: unknown) {
    if (value === undefined) delete obj[key];
    else obj[key] = value;
  }

  function agentBody(form: HTMLFormElement): Json {
    const a: Json = JSON.parse(form.dataset.original ?? "{}");
    const val = (n: string) => $<HTMLInputElement>(`[name=${n}]`, form)?.value;
    a.description = val("description") ?? a.description;
    a.model = val("model") ?? a.model;
    a.exposure = val("exposure") ?? a.exposure;
    a.loop = val("loop") ?? a.loop;
    for (const n of ["maxIterations", "temperature", "maxOutputTokens"]) {
      setOrDrop(a, n, numberValue($<HTMLInputElement>(`[name=${n}]`, form)));
    }
    a.mcpServers = $$<HTMLInputElement>("input[name=mcpServers]:checked", form).map((i) => i.value);
    const file = $<HTMLInputElement>("[name=systemPromptFile]", form);
    if (file) a.systemPromptFile = file.value;
    const inline = $<HTMLTextAreaElement>("[name=systemPrompt]", form);
    if (inline) a.systemPrompt = inline.value;
    return a;
  }

  function modelsBody(form: HTMLFormElement): Json {
    const doc: Json = JSON.parse(form.dataset.original ?? "{}");
    const list = (doc.models as Json[] | undefined) ?? [];
    doc.models = $$<HTMLFieldSetElement>("fieldset.model", form).map((fs) => {
      const m: Json = { ...(list[Number(fs.dataset.index)] ?? {}) };
      for (const n of ["id", "provider", "model", "baseUrl", "apiKey"]) {
        const el = $<HTMLInputElement>(`[name=${n}]`, fs);
        if (el) m[n] = el.value;
      }
      const pricing: Json = { ...((m.pricing as Json) ?? {}) };
      for (
        const n of [
          "inputUsdPerMTok",
          "outputUsdPerMTok",
          "cacheReadUsdPerMTok",
          "cacheWriteUsdPerMTok",
        ]
      ) {
        setOrDrop(pricing, n, numberValue($<HTMLInputElement>(`[name=${n}]`, fs)));
      }
      m.pricing = pricing;
      return m;
    });
    return doc;
  }

  function pricesBody(form: HTMLFormElement): Json {
    const doc: Json = JSON.parse(form.dataset.original ?? "{}");
    const prices: Json = {};
    for (const row of $$(".price-row", form)) {
      const k = $<HTMLInputElement>("[name=tool]", row)!.value.trim();
      if (k === "") continue;
      prices[k] = numberValue($<HTMLInputElement>("[name=usd]", row)) ?? 0;
    }
    doc.toolPrices = prices;
    return doc;
  }

  function serversBody(form: HTMLFormElement): Json | null {
    const doc: Json = JSON.parse(form.dataset.original ?? "{}");
    const key = form.dataset.key ?? "mcpServers";
    const table: Json = {};
    for (const card of $$(".server", form)) {
      const name = card.dataset.name!;
      try {
        table[name] = JSON.parse($<HTMLTextAreaElement>("textarea", card)!.value);
      } catch (e) {
        showError(form, `${key}.${name}`, `not valid JSON: ${(e as Error).message}`);
        return null;
      }
    }
    doc[key] = table;
    return doc;
  }

  function configPage() {
    for (const form of $$<HTMLFormElement>("form.config-form")) {
      const kind = form.dataset.save;
      const id = form.dataset.id ?? "";
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        clearErrors(form);
        const saved = $(".saved", form);
        if (saved) saved.textContent = "";
        let method = "PUT";
        let path = "";
        let body: unknown;
        if (kind === "agent") {
          path = `/api/config/agents/${encodeURIComponent(id)}`;
          body = agentBody(form);
        } else if (kind === "models") {
          path = "/api/config/models";
          body = modelsBody(form);
        } else if (kind === "tool-prices") {
          path = "/api/config/tool-prices";
          body = pricesBody(form);
        } else if (kind === "servers") {
          path = "/api/config/servers";
          body = serversBody(form);
          if (body === null) return;
        } else if (kind === "prompt") {
          path = `/api/config/prompts/${encodeURIComponent(id)}`;
          body = { content: $<HTMLTextAreaElement>("[name=content]", form)!.value };
        } else {
          try {
            body = JSON.parse($<HTMLTextAreaElement>("[name=json]", form)!.value);
          } catch (e) {
            showError(form, "", `not valid JSON: ${(e as Error).message}`);
            return;
          }
          if (kind === "new-suite") {
            method = "POST";
            path = "/api/suites";
          } else path = `/api/suites/${encodeURIComponent(id)}`;
        }
        const r = await api(method, path, body);
        if (r.ok) {
          if (saved) saved.textContent = "saved";
          if (kind === "new-suite") location.reload();
        } else showError(form, r.data.field as string | undefined, String(r.data.error));
      });
      $(".delete-suite", form)?.addEventListener("click", async () => {
        if (!confirm(`Delete suite ${id}?`)) return;
        const r = await api("DELETE", `/api/suites/${encodeURIComponent(id)}`);
        if (r.ok) location.reload();
        else showError(form, undefined, String(r.data.error));
      });
    }
  }

  /** Reads a `text/event-stream` response body, calling `on` per event. */
  async function readEvents(res: Response, on: (event: string, data: Json) => void) {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += value;
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? "{}";
        on(event, JSON.parse(data));
      }
    }
  }

  function chatPage() {
    const form = $<HTMLFormElement>("#chat-form");
    const log = $("#chat-log");
    if (form === null || log === null) return;
    const sessionId = `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    let first = true;
    const add = (cls: string, title: string, text: string) => {
      if (first) {
        log.innerHTML = "";
        first = false;
      }
      const div = document.createElement("div");
      div.className = `msg ${cls}`;
      const b = document.createElement("b");
      b.textContent = title;
      const pre = document.createElement("pre");
      pre.textContent = text;
      div.append(b, pre);
      log.appendChild(div);
      div.scrollIntoView({ block: "end" });
      return div;
    };
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clearErrors(form);
      const input = $<HTMLInputElement>("[name=message]", form)!;
      const agentId = $<HTMLSelectElement>("[name=agentId]", form)!.value;
      const message = input.value;
      if (message.trim() === "") return;
      input.value = "";
      const button = $<HTMLButtonElement>("button", form)!;
      button.disabled = true;
      add("user", "you", message);
      try {
        const res = await fetch(`/api/chat/${sessionId}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ agentId, message }),
        });
        if (!res.ok) {
          const data = await res.json().catch(() => ({ error: res.statusText }));
          showError(form, data.field, String(data.error));
          return;
        }
        await readEvents(res, (event, d) => {
          if (event === "status") add("", "status", String(d.message)).classList.add("muted");
          else if (event === "tool_call") {
            add("tool", `tool call ${d.name} → ${d.tool}`, JSON.stringify(d.args, null, 2))
              .classList.add("tool-call");
          } else if (event === "tool_result") {
            add(
              "tool",
              `result of ${d.name}${d.isError ? " (error)" : ""} · ${Math.round(Number(d.ms))} ms`,
              String(d.text),
            );
          } else if (event === "answer") {
            add("assistant", agentId, String(d.text)).classList.add("answer");
          } else if (event === "error") {
            add("tool", "error", String(d.message)).classList.add("fail");
          } else if (event === "usage") {
            add(
              "",
              "usage",
              `${d.iterations} model turn(s); tokens in ${d.inputTokens}, out ${d.outputTokens}; ${
                d.costUsd === null ? "cost n/a" : fmt.usd(Number(d.costUsd))
              }; ${Math.round(Number(d.wallMs))} ms`,
            ).classList.add("muted");
          }
        });
      } finally {
        button.disabled = false;
        input.focus();
      }
    });
    $<HTMLSelectElement>("[name=agentId]", form)!.addEventListener("change", () => {
      fetch(`/api/chat/${sessionId}`, { method: "DELETE" }).catch(() => {});
    });
  }

  function catalogPage() {
    const form = $<HTMLFormElement>("#bench-form");
    if (form === null) return;
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clearErrors(form);
      const corpus = $<HTMLSelectElement>("[name=corpus]", form)!.value;
      const r = await api("POST", "/api/catalog/bench", { corpus });
      if (r.ok) location.reload();
      else showError(form, r.data.field as string | undefined, String(r.data.error));
    });
    if ($("#bench-jobs .state.running") !== null) setTimeout(() => location.reload(), 3000);
  }

  const registry: Record<string, () => void> = {
    catalogPage,
    plansPage,
    runsPage,
    runPage,
    configPage,
    chatPage,
  };
  (window as unknown as { workbench: unknown }).workbench = Object.assign(
    (window as unknown as { workbench?: object }).workbench ?? {},
    registry,
    { api, showError, clearErrors },
  );
}

/** Source of `/assets/workbench.js`. */
export const CLIENT_JS: string = `(${workbenchClient.toString()})();\n`;
