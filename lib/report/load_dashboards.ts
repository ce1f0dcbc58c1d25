/**
 * Dashboard and report files: `<dir>/<id>.json`, read fresh on every call, saved only after
 * validation (a refused save leaves the file as it was) and written atomically (temporary file,
 * then rename). Built-in dashboards are read-only. File edge of `dashboards.ts`.
 *
 * @module
 */
import { join } from "node:path";
import {
  BUILTIN_DASHBOARDS,
  type Dashboard,
  DashboardError,
  type ReportDef,
  validateDashboard,
  validateReport,
} from "./dashboards.ts";
import type { VizRegistry } from "./viz/registry.ts";
import { RESULT_DECIMALS, stableJson } from "../core/json.ts";
import { writeAtomic } from "../core/files.ts";

async function readDir(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".json")) out.push(e.name);
    }
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  return out.sort();
}

async function readJson(path: string, what: string): Promise<unknown> {
  const text = await Deno.readTextFile(path);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DashboardError(what, path, "", `is not JSON (${(e as Error).message})`);
  }
}

function checkName(what: string, path: string, id: string, file: string) {
  if (`${id}.json` !== file) {
    throw new DashboardError(what, path, "id", `"${id}" differs from the file name "${file}"`);
  }
}

/**
 * The built-in dashboards followed by the user dashboards of a folder (a missing folder holds
 * none), each validated against the registry.
 *
 * @param dir Folder of `<id>.json` dashboards.
 * @param registry Visualizations known.
 * @returns Dashboards, built-ins first, then by id.
 * @throws {DashboardError} on a malformed file, an unknown ref, a file named unlike its id, or a
 *   user file reusing a built-in id.
 */
export async function loadDashboards(dir: string, registry: VizRegistry): Promise<Dashboard[]> {
  const out: Dashboard[] = [...BUILTIN_DASHBOARDS];
  for (const file of await readDir(dir)) {
    const path = join(dir, file);
    const d = validateDashboard(await readJson(path, "dashboard"), registry, path);
    checkName("dashboard", path, d.id, file);
    if (BUILTIN_DASHBOARDS.some((b) => b.id === d.id)) {
      throw new DashboardError("dashboard", path, "id", `"${d.id}" is a built-in dashboard id`);
    }
    out.push(d);
  }
  return out;
}

/**
 * Validates and saves a user dashboard as `<dir>/<id>.json` (sorted keys, 2-space indent).
 * Nothing is written when validation fails.
 *
 * @param dir Folder (created when missing).
 * @param value The dashboard as received (parsed JSON).
 * @param registry Visualizations known.
 * @returns The saved dashboard.
 * @throws {DashboardError} on a bad shape, an unknown ref, or a built-in id.
 */
export async function saveDashboard(
  dir: string,
  value: unknown,
  registry: VizRegistry,
): Promise<Dashboard> {
  const d = validateDashboard(value, registry);
  if (BUILTIN_DASHBOARDS.some((b) => b.id === d.id)) {
    throw new DashboardError(
      "dashboard",
      "(request)",
      "id",
      `"${d.id}" is a built-in dashboard: save a copy under another id`,
    );
  }
  await writeInto(dir, `${d.id}.json`, stableJson(d, { decimals: RESULT_DECIMALS }));
  return d;
}

/**
 * Deletes a user dashboard file.
 *
 * @param dir Folder.
 * @param id Dashboard id.
 * @returns `true` when a file was removed, `false` when there was none.
 * @throws {DashboardError} for a built-in id or an id that is not a valid file name.
 */
export async function deleteDashboard(dir: string, id: string): Promise<boolean> {
  if (BUILTIN_DASHBOARDS.some((b) => b.id === id)) {
    throw new DashboardError("dashboard", id, "id", "is built in and cannot be deleted");
  }
  return await remove(dir, id, "dashboard");
}

/**
 * The saved reports of a folder (a missing folder holds none).
 *
 * @param dir Folder of `<id>.json` reports.
 * @param dashboardIds Known dashboard ids (each report's `dashboardId` is checked).
 * @returns Reports by id.
 * @throws {DashboardError} on a malformed file.
 */
export async function loadReports(
  dir: string,
  dashboardIds?: readonly string[],
): Promise<ReportDef[]> {
  const out: ReportDef[] = [];
  for (const file of await readDir(dir)) {
    const path = join(dir, file);
    const r = validateReport(await readJson(path, "report"), dashboardIds, path);
    checkName("report", path, r.id, file);
    out.push(r);
  }
  return out;
}

/**
 * Validates and saves a report as `<dir>/<id>.json`; nothing is written when validation fails.
 *
 * @param dir Folder (created when missing).
 * @param value The report as received.
 * @param dashboardIds Known dashboard ids.
 * @returns The saved report.
 * @throws {DashboardError} on a bad shape or an unknown dashboard.
 */
export async function saveReport(
  dir: string,
  value: unknown,
  dashboardIds: readonly string[],
): Promise<ReportDef> {
  const r = validateReport(value, dashboardIds);
  await writeInto(dir, `${r.id}.json`, stableJson(r, { decimals: RESULT_DECIMALS }));
  return r;
}

/**
 * Deletes a report file.
 *
 * @param dir Folder.
 * @param id Report id.
 * @returns `true` when a file was removed.
 * @throws {DashboardError} for an id that is not a valid file name.
 */
export async function deleteReport(dir: string, id: string): Promise<boolean> {
  return await remove(dir, id, "report");
}

async function remove(dir: string, id: string, what: string): Promise<boolean> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) {
    throw new DashboardError(what, id, "id", 'is not lower-case words joined by "-"');
  }
  try {
    await Deno.remove(join(dir, `${id}.json`));
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** `file` in `dir` (made when missing), whole or not at all. */
async function writeInto(dir: string, file: string, text: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await writeAtomic(join(dir, file), text);
}
