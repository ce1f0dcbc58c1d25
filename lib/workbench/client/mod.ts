/**
 * The workbench's client script (`/assets/workbench.js`): one page controller per page on
 * `window.workbench`, started by the page (`page({script})`). No build step: every function
 * exported from this folder is type-checked here and served as its source (Deno strips the
 * types when it loads the module), all in one scope, so they call each other by name. A
 * function here may therefore use only browser globals and other exported functions of
 * `client/`.
 *
 * @module
 */

import * as dom from "./dom.ts";
import * as runs from "./runs.ts";
import * as config from "./config.ts";
import * as chat from "./chat.ts";
import * as catalog from "./catalog.ts";
import * as reports from "./reports.ts";
import * as audit from "./audit.ts";
import * as agents from "./agents.ts";

/** Every function served, by name. */
const FUNCTIONS: Record<string, (...args: never[]) => unknown> = Object.fromEntries(
  [dom, runs, config, chat, catalog, reports, audit, agents].flatMap((m) =>
    Object.entries(m).filter(([, v]) => typeof v === "function")
  ),
);

/** What `window.workbench` offers: the page controllers and the helpers pages script with. */
export const CLIENT_ENTRIES: readonly string[] = [
  "agentPage",
  "agentsPage",
  "auditPage",
  "catalogPage",
  "chatPage",
  "configPage",
  "dashboardEditorPage",
  "plansPage",
  "reportsPage",
  "runPage",
  "runsPage",
  "api",
  "showError",
  "clearErrors",
];

/** Source of `/assets/workbench.js`. */
export const CLIENT_JS: string = `(() => {
"use strict";
${Object.values(FUNCTIONS).map((f) => f.toString()).join("\n\n")}

window.workbench = Object.assign(window.workbench ?? {}, { ${CLIENT_ENTRIES.join(", ")} });
})();
`;
