/**
 * Page controllers of Reports (the save-a-report form) and the dashboard editor (JSON on the
 * left, a preview that follows it without saving on the right).
 *
 * @module
 */

import { $, api, type Json } from "./dom.ts";

/** Reports: the form saves a report (`POST /api/reports`) and reloads the list. */
export function reportsPage() {
  const form = $<HTMLFormElement>("#rep-form");
  if (form === null) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? "");
    const list = (k: string) => text(k).split(",").map((s) => s.trim()).filter(Boolean);
    const filter: Json = {};
    if (list("suiteIds").length) filter.suiteIds = list("suiteIds");
    if (list("agentIds").length) filter.agentIds = list("agentIds");
    if (text("from")) filter.from = text("from");
    if (text("to")) filter.to = text("to");
    const r = await api("POST", "/api/reports", {
      id: text("id"),
      title: text("title"),
      filter,
      dashboardId: text("dashboardId"),
    });
    if (r.ok) return location.reload();
    const status = $("#rep-status")!;
    status.textContent = String(r.data.error);
    status.className = "field-error";
  });
}

/** The dashboard editor: previews 400 ms after the last keystroke; Save writes the JSON. */
export function dashboardEditorPage() {
  const form = $<HTMLFormElement>("#dash-form");
  const text = $<HTMLTextAreaElement>("#dash-json");
  const out = $("#dash-status");
  const frame = $<HTMLIFrameElement>("#dash-preview");
  if (form === null || text === null || out === null || frame === null) return;
  const say = (message: string, cls: string) => {
    out.textContent = message;
    out.className = cls;
  };
  const parsed = (): Json | null => {
    try {
      return JSON.parse(text.value);
    } catch (e) {
      say(`JSON: ${(e as Error).message}`, "field-error");
      return null;
    }
  };
  const preview = async () => {
    const dashboard = parsed();
    if (dashboard === null) return;
    const r = await fetch(`/api/dashboards/preview${location.search}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dashboard }),
    });
    if (!r.ok) return say(String((await r.json()).error), "field-error");
    say("preview up to date (not saved)", "muted");
    frame.srcdoc = await r.text();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  text.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(preview, 400);
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const d = parsed();
    if (d === null) return;
    const r = await api("PUT", `/api/dashboards/${encodeURIComponent(String(d.id))}`, d);
    if (r.ok) say(`saved as ${r.data.id}`, "pass");
    else say(String(r.data.error), "field-error");
  });
  preview();
}
