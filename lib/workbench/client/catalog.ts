/**
 * Page controller of Catalog: starts a bench run and reloads while one is running.
 *
 * @module
 */

import { $, api, clearErrors, showRefusal } from "./dom.ts";

/**
 * Catalog: the bench form posts `/api/catalog/bench` (a listed catalog, or a file named, and an
 * optional golden set); a running job reloads the page every 3 s.
 */
export function catalogPage() {
  const form = $<HTMLFormElement>("#bench-form");
  if (form === null) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    clearErrors(form);
    const value = (name: string) =>
      ($<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`, form)?.value ?? "").trim();
    // A file named wins over the list's choice.
    const body = value("path") !== "" ? { path: value("path") } : { corpus: value("corpus") };
    const r = await api("POST", "/api/catalog/bench", {
      ...body,
      ...(value("golden") !== "" ? { golden: value("golden") } : {}),
    });
    if (r.ok) location.reload();
    else showRefusal(form, r.data);
  });
  if ($("#bench-jobs .state.running") !== null) setTimeout(() => location.reload(), 3000);
}
