/**
 * Audits started from the Audit page: one `deno task audit` child process at a time, writing
 * `<resultsDir>/audits/<jobId>.json` (which the page then shows). The process is started by
 * the injected `runAudit`, with the permissions deno.json declares for the task. A field is a
 * path as typed: a leading `~` is the home folder (as on the Catalog page), a relative path starts
 * in the folder the workbench was started in, and a folder or file that is not there is refused.
 *
 * @module
 */

import { join } from "node:path";
import type { AuditJob, AuditRequest, AuditService } from "./app.ts";
import { typedPath, WorkbenchError } from "./_paths.ts";

/** Inputs of {@linkcode createAuditService}. */
export interface AuditServiceOptions {
  /** Results folder; reports go to `audits/` under it. */
  readonly resultsDir: string;
  /** The home folder, for a field starting with `~` (the Catalog page's rule). */
  readonly home?: string;
  /** Where a relative field starts: the folder the workbench was started in. @default {Deno.cwd()} */
  readonly from?: string;
  /** ISO-8601 UTC now (job ids). */
  readonly isoNow: () => string;
  /**
   * Runs `deno task audit` with these flags.
   *
   * @returns Exit code and the last lines of its stderr.
   */
  readonly runAudit: (flags: readonly string[]) => Promise<{ code: number; log: string }>;
}

/**
 * Builds the audit service.
 *
 * @param options See {@linkcode AuditServiceOptions}.
 * @returns The service.
 */
export function createAuditService(options: AuditServiceOptions): AuditService {
  const jobs: { -readonly [K in keyof AuditJob]: AuditJob[K] }[] = [];
  return {
    async start(asked) {
      // Each field as the user typed it, made absolute; a folder or file that is not there is
      // that field's error, not an audit that finds nothing.
      const request: { -readonly [K in keyof AuditRequest]: AuditRequest[K] } = {};
      for (const key of ["project", "config", "home"] as const) {
        const v = asked[key];
        if (v === undefined) continue;
        if (typeof v !== "string" || v.trim() === "" || v.startsWith("-")) {
          throw new WorkbenchError(400, `field "${key}": a path, got ${JSON.stringify(v)}`, key);
        }
        const path = typedPath(v.trim(), options.home, options.from);
        const stat = await Deno.stat(path).catch(() => null);
        const want = key === "config" ? "file" : "folder";
        const there = stat === null ? undefined : stat.isDirectory ? "folder" : "file";
        if (there !== want) {
          const note = there === undefined ? "" : ` (a ${there} is there)`;
          throw new WorkbenchError(400, `field "${key}": no ${want} ${path}${note}`, key);
        }
        request[key] = path;
      }
      if (jobs.some((j) => j.state === "running")) {
        throw new WorkbenchError(409, "an audit is in progress; wait for it to finish");
      }
      let jobId = `audit-${options.isoNow().replace(/\.\d+Z$/, "Z").replace(/:/g, "-")}`;
      while (jobs.some((j) => j.jobId === jobId)) jobId += "x";
      const out = join(options.resultsDir, "audits", `${jobId}.json`);
      const job = { jobId, request, state: "running" as AuditJob["state"], out, log: "" };
      jobs.unshift(job);
      const flags = [
        ...(request.project === undefined ? [] : ["--project", request.project]),
        ...(request.config === undefined ? [] : ["--config", request.config]),
        ...(request.home === undefined ? [] : ["--home", request.home]),
        "--out",
        out,
      ];
      const exists = () => Deno.stat(out).then(() => true, () => false);
      options.runAudit(flags).then(
        async ({ log }) => {
          // Exit 1 with a report ("no server was measured") still shows the report.
          job.state = await exists() ? "completed" : "failed";
          job.log = log;
        },
        (e) => {
          job.state = "failed";
          job.log = String((e as Error).message);
        },
      );
      return { jobId, out };
    },
    jobs: () => jobs.map((j) => ({ ...j })),
  };
}
