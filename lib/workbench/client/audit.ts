/**
 * Page controller of Audit: starts an audit and reloads while one is running.
 *
 * @module
 */

import { $, api, clearErrors, showRefusal } from "./dom.ts";

/** Audit: the form posts `/api/audit`; a running job reloads the page every 3 s. */
export function auditPage() {
  const form = $<HTMLFormElement>("#audit-form");
  if (form === null) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const value = (name: string) => $<HTMLInputElement>(`[name=${name}]`, form)!.value.trim();
    const r = await api("POST", "/api/audit", {
      project: value("project"),
      config: value("config"),
      home: value("home"),
    });
    if (r.ok) location.reload();
    else showRefusal(form, r.data);
  });
  if ($("#audit-jobs .state.running") !== null) setTimeout(() => location.reload(), 3000);
}
