/**
 * Page controller of Config: each form turns into the document its API route takes, and a
 * refusal is shown on the field it names.
 *
 * @module
 */

import {
  $,
  $$,
  api,
  clearErrors,
  type Json,
  numberValue,
  setOrDrop,
  showError,
  showRefusal,
} from "./dom.ts";

/** The agent a Config agent form describes (fields it does not show are kept). */
export function agentBody(form: HTMLFormElement): Json {
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

/** The model registry the Models form describes. */
export function modelsBody(form: HTMLFormElement): Json {
  const doc: Json = JSON.parse(form.dataset.original ?? "{}");
  const list = (doc.models as Json[] | undefined) ?? [];
  doc.models = $$<HTMLFieldSetElement>("fieldset.model", form).map((fs) => {
    const m: Json = { ...(list[Number(fs.dataset.index)] ?? {}) };
    for (const n of ["id", "provider", "model", "baseUrl", "apiKey"]) {
      const el = $<HTMLInputElement>(`[name=${n}]`, fs);
      if (el) m[n] = el.value;
    }
    const pricing: Json = { ...((m.pricing as Json) ?? {}) };
    const keys = [
      "inputUsdPerMTok",
      "outputUsdPerMTok",
      "cacheReadUsdPerMTok",
      "cacheWriteUsdPerMTok",
    ];
    for (const n of keys) {
      setOrDrop(pricing, n, numberValue($<HTMLInputElement>(`[name=${n}]`, fs)));
    }
    m.pricing = pricing;
    return m;
  });
  return doc;
}

/** The tool prices the Tool prices form describes (rows without a tool name are dropped). */
export function pricesBody(form: HTMLFormElement): Json {
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

/** The servers document the Servers form describes, or `null` after showing a JSON error. */
export function serversBody(form: HTMLFormElement): Json | null {
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

/**
 * The request a Config form's save makes (`data-save` names the kind), or `null` when the form
 * showed why it cannot be sent.
 */
export function configRequest(
  form: HTMLFormElement,
): { method: string; path: string; body: unknown } | null {
  const kind = form.dataset.save;
  const id = encodeURIComponent(form.dataset.id ?? "");
  if (kind === "agent") {
    return { method: "PUT", path: `/api/config/agents/${id}`, body: agentBody(form) };
  }
  if (kind === "models") {
    return { method: "PUT", path: "/api/config/models", body: modelsBody(form) };
  }
  if (kind === "tool-prices") {
    return { method: "PUT", path: "/api/config/tool-prices", body: pricesBody(form) };
  }
  if (kind === "servers") {
    const body = serversBody(form);
    return body === null ? null : { method: "PUT", path: "/api/config/servers", body };
  }
  if (kind === "prompt") {
    const content = $<HTMLTextAreaElement>("[name=content]", form)!.value;
    return { method: "PUT", path: `/api/config/prompts/${id}`, body: { content } };
  }
  let body: unknown;
  try {
    body = JSON.parse($<HTMLTextAreaElement>("[name=json]", form)!.value);
  } catch (e) {
    showError(form, "", `not valid JSON: ${(e as Error).message}`);
    return null;
  }
  return kind === "new-suite"
    ? { method: "POST", path: "/api/suites", body }
    : { method: "PUT", path: `/api/suites/${id}`, body };
}

/** Config › Servers: pasted client config → `POST /api/config/servers/import`, then the list. */
export function importServersForm() {
  const form = $<HTMLFormElement>("#import-servers");
  if (form === null) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const text = $<HTMLTextAreaElement>("[name=text]", form)!.value;
    const r = await api("POST", "/api/config/servers/import", { text });
    if (!r.ok) return showRefusal(form, r.data);
    const added = (r.data.added as string[]).join(", ");
    location.href = `/config?tab=servers&added=${encodeURIComponent(added)}`;
  });
}

/** Config: every form saves through the config API; a new or deleted suite reloads the page. */
export function configPage() {
  importServersForm();
  for (const form of $$<HTMLFormElement>("form.config-form")) {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clearErrors(form);
      const saved = $(".saved", form);
      if (saved) saved.textContent = "";
      const request = configRequest(form);
      if (request === null) return;
      const r = await api(request.method, request.path, request.body);
      if (!r.ok) return showRefusal(form, r.data);
      if (saved) saved.textContent = "saved";
      if (form.dataset.save === "new-suite") location.reload();
    });
    $(".delete-suite", form)?.addEventListener("click", async () => {
      const id = form.dataset.id ?? "";
      if (!confirm(`Delete suite ${id}?`)) return;
      const r = await api("DELETE", `/api/suites/${encodeURIComponent(id)}`);
      if (r.ok) location.reload();
      else showRefusal(form, r.data);
    });
  }
}
