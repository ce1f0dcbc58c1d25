/**
 * The capture-results flow (`deno task capture-results`): captures real `tools/call` results from
 * reference MCP servers with fixed inputs over committed fixture data, and
 * freezes them as `fixtures/tool_results/results_v1.json` plus a manifest
 * (`results_v1.manifest.json`: server, package@version, tool, arguments,
 * sha256 per call; data, config and seed hashes; environment).
 *
 * Servers come from an `mcpServers` config (default
 * `fixtures/tool_results/servers.json`) with pinned npm packages, installed
 * through lib/mcp (`installPackages`, one prefix per package, in its own
 * folder `.scratch/tool_results/servers` because the SQLite server needs its
 * install scripts while `deno task capture` installs without) and started one
 * at a time as lib/mcp sessions (`openStdioSession`): throwaway HOME, no
 * network where `unshare` works, the whole process tree killed afterwards. `${DATA}` is a
 * scratch copy of `fixtures/tool_results/data`, so servers never touch the
 * committed files. Calls come from `fixtures/tool_results/calls.json`, after
 * an optional per-server setup (the SQLite server is seeded from a committed
 * SQL script through its own tools; setup results are not recorded).
 *
 * Run-to-run text is normalized in every string of a result: the data copy
 * becomes `<data>`, the run's folders `<home>`, `<scratch>`, `<tmpdir>`,
 * `<run>`, the install folder `<install>`, ISO-8601 date-times and JavaScript
 * `Date` strings `<timestamp>`.
 *
 * @module
 */

import { stableJson } from "../core/json.ts";
import { sdkPackages } from "../core/sdk.ts";
import { sha256Hex } from "../catalog/load.ts";
import { join, relative, resolve } from "node:path";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import {
  createSessionFolder,
  detectIsolation,
  installPackages,
  openStdioSession,
  readInstalledPackage,
} from "../mcp/io.ts";
import {
  checkStructuredContent,
  listAll,
  parseServersConfig,
  type ServerEntry,
  type StdioSession,
  type StructuredContentErrorKind,
} from "../mcp/mod.ts";
import { oneLine } from "../core/text.ts";
import { UsageError } from "../core/errors.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** Output format names. */
const RESULTS_FORMAT = "mcpmeter-tool-results";
const MANIFEST_FORMAT = "mcpmeter-tool-results-manifest";

interface CallSpec {
  readonly id: string;
  readonly server: string;
  readonly tool: string;
  readonly arguments: JsonObject;
}

interface SqlSetup {
  readonly sqlFile: string;
  readonly createTool: string;
  readonly writeTool: string;
}

interface Plan {
  readonly setup: Readonly<Record<string, SqlSetup>>;
  readonly calls: readonly CallSpec[];
}

/** One recorded `tools/call` outcome (before normalization). */
interface CallRecord {
  readonly id: string;
  readonly server: string;
  readonly package?: string;
  readonly version?: string;
  readonly tool: string;
  readonly arguments: JsonObject;
  /** `ok` (a result came back, maybe with isError) or `protocol_error` (thrown). */
  readonly outcome: "ok" | "protocol_error" | "server_failed";
  readonly isError?: boolean;
  readonly content?: JsonValue;
  readonly structuredContent?: JsonValue;
  readonly message?: string;
  /**
   * Present when the result breaks the tool's `outputSchema` (no or invalid
   * `structuredContent`), which real SDK clients reject; `message` says why.
   */
  readonly resultError?: StructuredContentErrorKind;
}

function log(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));
}

/** Options of {@linkcode captureToolResults}: paths relative to the working directory. */
export interface CaptureResultsOptions {
  /** Servers config with pinned packages. */
  readonly config: string;
  /** Calls plan. */
  readonly calls: string;
  /** Fixture data copied to `${DATA}`. */
  readonly data: string;
  /** Output folder. */
  readonly out: string;
  /** Output name (`<out>/<id>.json`, `<out>/<id>.manifest.json`). */
  readonly id: string;
  /** Where packages are installed. */
  readonly installDir: string;
  /** Timeout of initialize and of each call (ms). */
  readonly timeoutMs: number;
  /** Run npm for missing packages. Default true; false: their servers fail. */
  readonly install?: boolean;
  /** Progress lines. Default: stderr. */
  readonly log?: (line: string) => void;
}

/** What {@linkcode captureToolResults} captured. */
export interface CaptureResultsSummary {
  /** Calls that returned a result (maybe with isError). */
  readonly answered: number;
  /** Calls planned. */
  readonly total: number;
}

const sha256Text = (text: string) => sha256Hex(new TextEncoder().encode(text));

function parsePlan(text: string, path: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`calls plan "${path}" is not valid JSON: ${oneLine(error)}`);
  }
  const root = data as { setup?: unknown; calls?: unknown };
  if (!Array.isArray(root?.calls)) {
    throw new UsageError(`calls plan "${path}" has no "calls" array`);
  }
  const ids = new Set<string>();
  for (const [i, c] of (root.calls as Record<string, unknown>[]).entries()) {
    for (const key of ["id", "server", "tool"]) {
      if (typeof c?.[key] !== "string" || c[key] === "") {
        throw new UsageError(`calls plan "${path}": calls[${i}] field "${key}" is not a string`);
      }
    }
    if (typeof c.arguments !== "object" || c.arguments === null || Array.isArray(c.arguments)) {
      throw new UsageError(`calls plan "${path}": calls[${i}] field "arguments" is not an object`);
    }
    if (ids.has(c.id as string)) {
      throw new UsageError(`calls plan "${path}": call id "${c.id}" appears twice`);
    }
    ids.add(c.id as string);
  }
  return {
    setup: (root.setup ?? {}) as Record<string, SqlSetup>,
    calls: root.calls as CallSpec[],
  };
}

/** Replaces `${DATA}` in every string of a JSON value. */
function withData(value: JsonValue, data: string): JsonValue {
  if (typeof value === "string") return value.replaceAll("${DATA}", data);
  if (Array.isArray(value)) return value.map((v) => withData(v, data));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withData(v, data)]));
  }
  return value;
}

/** SQL statements of a script: `--` comments dropped, split on `;` at line ends. */
function sqlStatements(text: string): string[] {
  return text.split("\n").filter((l) => !l.trimStart().startsWith("--")).join("\n")
    .split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s !== "");
}

/** Normalization rules, applied in order to every string of a result. */
interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly placeholder: string;
}

const TIME_RULES: readonly Rule[] = [
  {
    name: "iso-datetime",
    pattern: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g,
    placeholder: "<timestamp>",
  },
  {
    name: "js-date-string",
    pattern:
      /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{4} \d{2}:\d{2}:\d{2} GMT[+-]\d{4}(?: \([^)]*\))?/g,
    placeholder: "<timestamp>",
  },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function normalizer(paths: readonly { path: string; placeholder: string }[]) {
  const rules: Rule[] = [...paths].sort((a, b) => b.path.length - a.path.length).map((p) => ({
    name: `path ${p.placeholder}`,
    pattern: new RegExp(escapeRegExp(p.path), "g"),
    placeholder: p.placeholder,
  }));
  rules.push(...TIME_RULES);
  const counts = new Map<string, number>();
  const fix = (text: string): string => {
    let out = text;
    for (const rule of rules) {
      out = out.replace(rule.pattern, () => {
        counts.set(rule.name, (counts.get(rule.name) ?? 0) + 1);
        return rule.placeholder;
      });
    }
    return out;
  };
  const walk = (value: JsonValue): JsonValue => {
    if (typeof value === "string") return fix(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [fix(k), walk(v)]));
    }
    return value;
  };
  return { walk, counts };
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyDir(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/** sha256 of every file under `dir`, keyed by `/`-separated relative path, sorted. */
async function hashTree(dir: string, base = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = [];
  for await (const e of Deno.readDir(dir)) entries.push(e);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) Object.assign(out, await hashTree(path, base));
    else if (e.isFile) out[relative(base, path)] = await sha256Hex(await Deno.readFile(path));
  }
  return out;
}

interface ServerRun {
  readonly records: CallRecord[];
  readonly status: { outcome: "ok" | "failed"; message?: string; setupCalls: number };
  readonly paths: { path: string; placeholder: string }[];
}

async function runServer(
  entry: ServerEntry,
  calls: readonly CallSpec[],
  setup: SqlSetup | undefined,
  ctx: {
    installDir: string;
    dataDir: string;
    root: string;
    timeoutMs: number;
    env: Record<string, string>;
  },
): Promise<ServerRun> {
  const pkg = {
    ...(entry.meta.package === undefined ? {} : { package: entry.meta.package }),
    ...(entry.meta.version === undefined ? {} : { version: entry.meta.version }),
  };
  const failAll = (message: string): ServerRun => ({
    records: calls.map((c) => ({
      id: c.id,
      server: c.server,
      ...pkg,
      tool: c.tool,
      arguments: c.arguments,
      outcome: "server_failed",
      message,
    })),
    status: { outcome: "failed", message, setupCalls: 0 },
    paths: [],
  });
  if (entry.kind !== "stdio") return failAll("only stdio servers are supported");
  // The servers get a private copy of the fixture data (`${DATA}`).
  const data = await createSessionFolder(`data-${entry.name}`);
  let session: StdioSession | undefined;
  try {
    await copyDir(ctx.dataDir, data);
    session = await openStdioSession(entry, {
      timeoutMs: ctx.timeoutMs,
      env: ctx.env,
      vars: { DATA: data },
      installDir: ctx.installDir,
    });
    const client = session.client;
    const paths = [{ path: data, placeholder: "<data>" }, ...session.runPaths];
    const call = (name: string, args: JsonObject) =>
      client.callTool({ name, arguments: args as Record<string, unknown> }, undefined, {
        timeout: ctx.timeoutMs,
      });
    let setupCalls = 0;
    if (setup !== undefined) {
      const sql = await Deno.readTextFile(join(ctx.root, setup.sqlFile));
      for (const statement of sqlStatements(sql)) {
        const tool = /^CREATE\s+TABLE/i.test(statement) ? setup.createTool : setup.writeTool;
        const result = await call(tool, { query: statement });
        setupCalls++;
        if (result.isError === true) {
          return failAll(
            `setup ${tool} failed: ${oneLine(JSON.stringify(result.content)).slice(0, 200)}`,
          );
        }
      }
    }
    // The tools' outputSchemas, to record results that SDK clients would reject.
    const outputSchemas = new Map<string, JsonObject>();
    const listed = await listAll(client, "tools/list", { requestTimeoutMs: ctx.timeoutMs });
    for (const t of listed.items) {
      const schema = t.outputSchema;
      if (schema !== null && typeof schema === "object" && !Array.isArray(schema)) {
        outputSchemas.set(String(t.name), schema as JsonObject);
      }
    }
    const records: CallRecord[] = [];
    for (const c of calls) {
      const base = { id: c.id, server: c.server, ...pkg, tool: c.tool, arguments: c.arguments };
      try {
        const result = await call(c.tool, withData(c.arguments, data) as JsonObject);
        const broken = checkStructuredContent(outputSchemas.get(c.tool), result);
        records.push({
          ...base,
          outcome: "ok",
          isError: result.isError === true,
          content: (result.content ?? []) as JsonValue,
          ...(result.structuredContent === undefined
            ? {}
            : { structuredContent: result.structuredContent as JsonValue }),
          ...(broken === undefined ? {} : { resultError: broken.kind, message: broken.message }),
        });
      } catch (error) {
        records.push({ ...base, outcome: "protocol_error", message: oneLine(error) });
      }
    }
    return { records, status: { outcome: "ok", setupCalls }, paths };
  } catch (error) {
    return failAll(oneLine(error));
  } finally {
    await session?.close();
    await Deno.remove(data, { recursive: true }).catch(() => {});
  }
}

async function nodeVersion(): Promise<string> {
  try {
    const out = await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output();
    return new TextDecoder().decode(out.stdout).trim() || "unknown";
  } catch {
    return "not found";
  }
}

async function readInput(path: string, flag: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read ${flag} "${path}": ${oneLine(error)}`);
  }
}

/**
 * Captures the calls plan against the servers and writes `<out>/<id>.json` (normalized results,
 * in plan order) and `<out>/<id>.manifest.json` (hashes of every input, environment, installs,
 * per-server outcome, per-call sha256, normalization counts).
 *
 * @param options Paths, id, timeout, install switch, progress.
 * @param io Environment of the servers, the wall clock of `capturedAt`. @default {denoFlowIo()}
 * @returns How many calls answered.
 * @throws {UsageError} On an unreadable config or plan, a malformed plan, or a call naming a
 *   server missing from the config.
 * @throws {ConfigError} On a servers config that does not validate.
 */
export async function captureToolResults(
  options: CaptureResultsOptions,
  io: Pick<FlowIo, "env" | "epochNow"> = denoFlowIo(),
): Promise<CaptureResultsSummary> {
  const say = options.log ?? log;
  const installDir = resolve(options.installDir);
  const dataDir = resolve(options.data);
  const root = resolve(join(options.calls, ".."));
  const configBytes = await readInput(options.config, "--config");
  const callsBytes = await readInput(options.calls, "--calls");
  const config = parseServersConfig(new TextDecoder().decode(configBytes), {
    source: options.config,
  });
  const plan = parsePlan(new TextDecoder().decode(callsBytes), options.calls);
  const byName = new Map(config.servers.map((s) => [s.name, s]));
  for (const c of plan.calls) {
    if (!byName.has(c.server)) {
      throw new UsageError(`call "${c.id}" names server "${c.server}", not in ${options.config}`);
    }
  }
  const serverNames = [...new Set(plan.calls.map((c) => c.server))];
  const entries = serverNames.map((n) => byName.get(n)!);

  const installs: Record<string, string> = {};
  if (options.install !== false) {
    const specs = entries.flatMap((e) =>
      e.meta.package !== undefined && e.meta.version !== undefined
        ? [{ package: e.meta.package, version: e.meta.version, scripts: e.meta.installScripts }]
        : []
    );
    say(`capture-results: installing ${specs.length} package(s) into ${options.installDir}`);
    const results = await installPackages(specs, { installDir });
    for (const r of results) {
      installs[`${r.package}@${r.version}`] = r.status === "failed"
        ? `failed: ${r.message}`
        : r.status;
      if (r.status !== "present") {
        say(`  ${r.package}@${r.version}: ${r.status} ${r.message ?? ""}`);
      }
    }
  }

  const env = io.env();
  const startedAt = io.epochNow();
  const records: CallRecord[] = [];
  const servers: JsonObject[] = [];
  const pathRules: { path: string; placeholder: string }[] = [
    { path: installDir, placeholder: "<install>" },
  ];
  for (const entry of entries) {
    const calls = plan.calls.filter((c) => c.server === entry.name);
    say(`capture-results: ${entry.name}: ${calls.length} call(s)`);
    const run = await runServer(entry, calls, plan.setup[entry.name], {
      installDir,
      dataDir,
      root,
      timeoutMs: options.timeoutMs,
      env,
    });
    records.push(...run.records);
    pathRules.push(...run.paths);
    const installed = entry.meta.package === undefined
      ? undefined
      : await readInstalledPackage(installDir, entry.meta.package, entry.meta.version ?? "");
    servers.push({
      server: entry.name,
      ...(entry.meta.package === undefined ? {} : { package: entry.meta.package }),
      ...(entry.meta.version === undefined ? {} : { version: entry.meta.version }),
      ...(installed?.license === undefined ? {} : { license: installed.license }),
      outcome: run.status.outcome,
      ...(run.status.message === undefined ? {} : { message: run.status.message }),
      setupCalls: run.status.setupCalls,
    });
    if (run.status.outcome !== "ok") say(`  FAILED: ${run.status.message}`);
  }

  const norm = normalizer(pathRules);
  const normalized = records.map((r) => norm.walk(r as unknown as JsonValue) as JsonObject);
  // Order: the calls plan order.
  const order = new Map(plan.calls.map((c, i) => [c.id, i]));
  normalized.sort((a, b) => order.get(a.id as string)! - order.get(b.id as string)!);

  const resultsFile = `${options.id}.json`;
  const resultsText = stableJson({
    format: RESULTS_FORMAT,
    formatVersion: 1,
    id: options.id,
    note:
      "tools/call results (content, structuredContent, isError) as sent by each server, run-specific paths and times normalized; see the manifest",
    results: normalized,
  });
  const calls: JsonObject[] = [];
  for (const r of normalized) {
    calls.push({
      id: r.id,
      server: r.server,
      package: r.package === undefined ? null : `${r.package}@${r.version}`,
      tool: r.tool,
      arguments: r.arguments,
      outcome: r.outcome,
      ...(r.resultError === undefined ? {} : { resultError: r.resultError }),
      sha256: await sha256Text(stableJson(r)),
    });
  }
  const seeds: Record<string, string> = {};
  for (const s of Object.values(plan.setup)) {
    seeds[s.sqlFile] = await sha256Hex(await Deno.readFile(join(root, s.sqlFile)));
  }
  const manifest = {
    format: MANIFEST_FORMAT,
    formatVersion: 1,
    id: options.id,
    capturedAt: new Date(startedAt).toISOString(),
    task: "tasks/capture_results.ts",
    files: {
      results: { file: resultsFile, sha256: await sha256Text(resultsText) },
      config: { file: options.config, sha256: await sha256Hex(configBytes) },
      calls: { file: options.calls, sha256: await sha256Hex(callsBytes) },
      seeds,
      data: await hashTree(dataDir),
    },
    environment: {
      deno: Deno.version.deno,
      node: await nodeVersion(),
      sdk: sdkPackages().client,
      sdkStdioTransport: sdkPackages().stdioTransport,
      os: Deno.build.os,
      arch: Deno.build.arch,
      isolation: await detectIsolation(),
    },
    installs,
    servers,
    calls,
    normalizations: Object.fromEntries([...norm.counts.entries()].sort()),
  };
  await Deno.mkdir(options.out, { recursive: true });
  await Deno.writeTextFile(join(options.out, resultsFile), resultsText);
  await Deno.writeTextFile(
    join(options.out, `${options.id}.manifest.json`),
    stableJson(manifest),
  );
  const bad = normalized.filter((r) => r.outcome !== "ok");
  say(
    `capture-results: ${normalized.length - bad.length}/${normalized.length} calls answered; ` +
      `wrote ${join(options.out, resultsFile)}`,
  );
  for (const r of bad) say(`  ${r.id}: ${r.outcome}: ${r.message ?? ""}`);
  return { answered: normalized.length - bad.length, total: normalized.length };
}
