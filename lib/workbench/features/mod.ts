/**
 * The workbench's features in registration (and default navigation) order. A new page or API
 * area is a new file in this folder exporting a {@linkcode WorkbenchFeature}, added here.
 *
 * @module
 */

import type { NavEntry, WorkbenchFeature } from "../app.ts";
import { core } from "./core.ts";
import { plans } from "./plans.ts";
import { runsApi } from "./runs_api.ts";
import { runsPages } from "./runs_pages.ts";
import { configApi } from "./config_api.ts";
import { configPage } from "./config_page.ts";
import { chatPage } from "./chat_page.ts";
import { catalogPage } from "./catalog_page.ts";
import { auditPage } from "./audit_page.ts";
import { agentsPage } from "./agents_page.ts";
import { reporting } from "./reporting.ts";

/** Every feature the workbench serves by default. */
export const DEFAULT_FEATURES: readonly WorkbenchFeature[] = [
  core,
  plans,
  runsApi,
  runsPages,
  configApi,
  chatPage,
  configPage,
  agentsPage,
  catalogPage,
  auditPage,
  reporting,
];

/**
 * The titles of the pages in the navigation bar of a workbench built from `features`, in
 * navigation order (`NavEntry.order`), e.g. for a `--help` text that must not drift from the app.
 *
 * @param features The features (default: {@linkcode DEFAULT_FEATURES}).
 * @returns Page titles, e.g. `["Test plans", "Runs", ...]`.
 */
export function pageTitles(
  features: readonly { readonly nav?: readonly NavEntry[] }[] = DEFAULT_FEATURES,
): readonly string[] {
  return features.flatMap((f) => f.nav ?? []).sort((a, b) => a.order - b.order)
    .map((n) => n.title);
}
