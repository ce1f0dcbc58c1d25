/**
 * `GET /api/health`, the stylesheet and client script, and `/` (to Test plans).
 *
 * @module
 */

import type { WorkbenchFeature } from "../app.ts";
import { STYLES } from "../html.ts";
import { CLIENT_JS } from "../client/mod.ts";

/** Version of the workbench HTTP API (bumped on a breaking change). */
export const API_VERSION = 1;

/** The core feature. */
export const core: WorkbenchFeature = {
  id: "core",
  register(app, ctx) {
    app.get("/api/health", (c) =>
      c.json({
        ok: true,
        apiVersion: API_VERSION,
        configDir: ctx.config.dir,
        runsDir: ctx.runs.dir,
        queue: ctx.queue.snapshot(),
      }));
    app.get("/assets/workbench.css", (c) => {
      c.header("content-type", "text/css; charset=utf-8");
      c.header("cache-control", "no-cache");
      return c.body(STYLES);
    });
    app.get("/assets/workbench.js", (c) => {
      c.header("content-type", "text/javascript; charset=utf-8");
      c.header("cache-control", "no-cache");
      return c.body(CLIENT_JS);
    });
    app.get("/", (c) => c.redirect("/plans", 302));
    app.get("/favicon.ico", (c) => c.body(null, 204));
  },
};
