/**
 * Page controller of Catalog: starts a bench run and reloads while one is running.
 *
 * @module
 */

import { $, api, clearErrors, showRefusal } from "./dom.ts";

/** Catalog: the bench form posts `/api/catalog/bench`; a running job reloads the page every 3 s. */
export function catalogPage() {
  const form = $<HTMLFormElement>("#bench-form");
  if (form === null) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const corpus = $<HTMLSelectElement>("[name=corpus]", form)!.value;
    const r = await api("POST", "/api/catalog/bench", { corpus });
    if (r.ok) location.reload();
    else showRefusal(form, r.data);
  });
  if ($("#bench-jobs .state.running") !== null) setTimeout(() => location.reload(), 3000);
}
