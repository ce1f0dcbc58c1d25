/**
 * MAVERIK config folders in one step: maps MAVERIK's `agents.json`, `llm-models.json`,
 * `mcp-servers.json`, `tool-costs.json`, `capability-overrides.json`, agent prompt files and
 * `maverik-suites/*.json` to mcpmeter's agents, model registry, servers config, tool prices,
 * tool-description overrides and suites, and records, field by field, everything it could not
 * map. Every output document is checked with mcpmeter's own parsers (the JSON Schemas of
 * `lib/agent/schemas/`, the servers config and the overrides parser) before it is kept, so what
 * is written loads with `deno task agents`. Pure: the folder's files come in as text, the output
 * files and the report come out; `maverik_io.ts` reads and writes.
 *
 * Field meanings follow MAVERIK's public README and config classes as described in
 * `../shared/research/maverik-behaviour.md` (JSON read with case-insensitive property names; a
 * missing single-file config falls back to its `*.example.json`).
 *
 * @module
 */

import { parseAgents, parseModels, parseSuite, parseToolPrices } from "./config.ts";
import { parseServersConfig } from "../mcp/config.ts";
import { parseToolOverrides } from "../catalog/overrides.ts";
import type { JsonValue } from "../catalog/types.ts";
import type { AgentConfig } from "./types.ts";
import { stableJson } from "../core/json.ts";
import { snapshotSha256 } from "./versions.ts";

/** Version of `import-report.json`. */
export const MAVERIK_IMPORT_REPORT_VERSION = 1;

/** The single-file configs of a MAVERIK `config/` folder, in the order they are mapped. */
export const MAVERIK_FILES = [
  "llm-models.json",
  "mcp-servers.json",
  "agents.json",
  "tool-costs.json",
  "capability-overrides.json",
] as const;

/** The files of a MAVERIK config folder, as text (`null`: the file does not exist). */
export interface MaverikFolder {
  /**
   * Single-file configs and their `*.example.json` siblings by file name (e.g.
   * `agents.json`, `agents.example.json`); a name absent or `null` means missing.
   */
  readonly files: Readonly<Record<string, string | null>>;
  /** Agent prompt files `prompts/agent/<id>.md` by agent id. */
  readonly prompts: Readonly<Record<string, string>>;
  /** Suite files under `maverik-suites/` by file name (`smoke.json`). */
  readonly suites: Readonly<Record<string, string>>;
  /** Version snapshots under `agent-versions/` by path below it (`<agentId>/<n>.json`). */
  readonly versions?: Readonly<Record<string, string>>;
}

/**
 * How serious an import note is: `error` (the item was not imported), `unmapped` (a field or
 * value mcpmeter has no place for; the item was imported without it), `changed` (imported with
 * a different value or meaning, said how), `info` (nothing lost, worth knowing).
 */
export type MaverikIssueLevel = "error" | "unmapped" | "changed" | "info";

/** One note of the import: a file, a field in it, and what happened. */
export interface MaverikIssue {
  /** File in the MAVERIK folder, e.g. `agents.json` or `maverik-suites/smoke.json`. */
  readonly file: string;
  /** Field path in that file, e.g. `agents[0].version`; `""` for the whole file. */
  readonly field: string;
  /** How serious. */
  readonly level: MaverikIssueLevel;
  /** One line: what was not mapped, or how it was mapped, and why. */
  readonly message: string;
}

/** What the import produced. */
export interface MaverikImport {
  /** Output files by path relative to `--out` (JSON with a final newline, prompt text as is). */
  readonly files: Readonly<Record<string, string>>;
  /** Notes, in mapping order (file by file, field by field). */
  readonly issues: readonly MaverikIssue[];
  /** What each input file was: read, read from its example, missing, or not JSON. */
  readonly inputs: readonly {
    readonly file: string;
    readonly status: "read" | "example" | "missing" | "malformed";
  }[];
  /** Counts of imported items. */
  readonly counts: {
    readonly agents: number;
    readonly versions: number;
    readonly models: number;
    readonly servers: number;
    readonly toolPrices: number;
    readonly overrides: number;
    readonly suites: number;
    readonly cases: number;
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** MAVERIK reads JSON case-insensitively: the value of `name` in any casing, and the key used. */
function pick(o: Obj, name: string): { key: string; value: unknown } | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(o).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : { key, value: o[key] };
}

function safeId(raw: string): string {
  const s = raw.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[^A-Za-z0-9]+/, "");
  return s === "" ? "x" : s;
}

function envName(...parts: string[]): string {
  return parts.join("_").toUpperCase().replace(/[^A-Z0-9_]/g, "_").replace(/^(\d)/, "_$1");
}

const VAR_ONLY = /^\$\{\w+\}$/;

/** Looks like a credential: a header an API key or token travels in. */
const SECRET_HEADER = /authorization|token|key|secret|cookie|password/i;

/** A single-file config as read: its root object and the file it came from (maybe the example). */
interface Root {
  readonly doc: Obj;
  readonly file: string;
}

type InputStatus = MaverikImport["inputs"][number]["status"];

/** What the import has found so far: the folder, its notes, the inputs read, the files made. */
class Importer {
  readonly issues: MaverikIssue[] = [];
  readonly inputs: { file: string; status: InputStatus }[] = [];
  readonly files: Record<string, string> = {};

  constructor(readonly folder: MaverikFolder) {}

  /** Records a note; returns undefined, so `return imp.note(...)` ends a mapping that skips. */
  note(file: string, field: string, level: MaverikIssueLevel, message: string): undefined {
    this.issues.push({ file, field, level, message });
    return undefined;
  }

  /** Reads a single-file config (or its example); notes what happened. */
  read(name: string): Root | null {
    const example = name.replace(/\.json$/, ".example.json");
    let file = name;
    let text = this.folder.files[name] ?? null;
    if (text === null && (this.folder.files[example] ?? null) !== null) {
      file = example;
      text = this.folder.files[example]!;
      this.inputs.push({ file: name, status: "example" });
      this.note(
        name,
        "",
        "info",
        `missing; read ${example} instead, as MAVERIK does on first start`,
      );
    }
    if (text === null) {
      this.inputs.push({ file: name, status: "missing" });
      this.note(name, "", "info", "missing (nor its example): nothing imported from it");
      return null;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      if (file === name) this.inputs.push({ file: name, status: "malformed" });
      this.note(file, "", "error", `is not valid JSON (${(e as Error).message}): nothing imported`);
      return null;
    }
    if (!isObj(doc)) {
      if (file === name) this.inputs.push({ file: name, status: "malformed" });
      this.note(file, "", "error", "is not a JSON object: nothing imported");
      return null;
    }
    if (file === name) this.inputs.push({ file: name, status: "read" });
    return { doc, file };
  }

  /** The array at `name` of a root object, noting other root fields as unmapped (`known`: why). */
  list(r: Root, name: string, known: Record<string, string>): unknown[] {
    for (const k of Object.keys(r.doc)) {
      const lower = k.toLowerCase();
      if (lower === name.toLowerCase() || lower === "$schema") continue;
      const why = Object.entries(known).find(([n]) => n.toLowerCase() === lower)?.[1];
      this.note(r.file, k, "unmapped", why ?? "is not a MAVERIK field of this file: ignored");
    }
    const v = pick(r.doc, name)?.value;
    if (v === undefined) {
      this.note(r.file, name, "error", "is missing: nothing imported");
      return [];
    }
    if (!Array.isArray(v)) {
      this.note(r.file, name, "error", "is not an array: nothing imported");
      return [];
    }
    return v;
  }

  /** Notes every field of `o` not in `known` (matched case-insensitively). */
  unknownFields(o: Obj, file: string, at: string, known: readonly string[]): void {
    const set = new Set(known.map((k) => k.toLowerCase()));
    for (const k of Object.keys(o)) {
      if (!set.has(k.toLowerCase())) {
        this.note(
          file,
          at === "" ? k : `${at}.${k}`,
          "unmapped",
          "is not a MAVERIK field: ignored",
        );
      }
    }
  }
}

/** The string value of `name` (any casing), or undefined. */
function str(o: Obj, name: string): string | undefined {
  const v = pick(o, name)?.value;
  return typeof v === "string" ? v : undefined;
}

/** What agents and suites may refer to; `null`: the file was not read, so nothing is checked. */
interface Known {
  /** Imported model ids. */
  readonly models: ReadonlySet<string> | null;
  /** Imported servers by name. */
  readonly servers: Readonly<Record<string, Obj>> | null;
}

/**
 * Maps a MAVERIK config folder to mcpmeter's configuration files.
 *
 * Output layout (relative to `--out`): `agents/<id>.json` (one agent per file),
 * `agents/prompts/<id>.md`, `agents/overrides/<id>.json`, `agents/models.json`,
 * `agents/servers.json`, `agents/tool_prices.json`, `agents/versions/<id>/<n>.json` (MAVERIK's
 * cut versions, prompt inlined, hashed as `deno task agents --cut-version` does),
 * `suites/<id>.json`. Never throws on content: a missing file, malformed JSON, an unknown field
 * or value is an issue, and the items that can be mapped still are.
 *
 * @param folder The folder's files as text.
 * @returns Output files, issues, input statuses and counts.
 *
 * @example Usage
 * ```ts
 * import { importMaverik } from "./maverik.ts";
 * const out = await importMaverik({ files: { "tool-costs.json":
 *   '{"toolCosts":[{"mcpServer":"github","tool":"search_code","costPerInvocation":0.5}]}' },
 *   prompts: {}, suites: {} });
 * if (!out.files["agents/tool_prices.json"].includes('"github:search_code": 0.5')) throw new Error();
 * ```
 */
export async function importMaverik(folder: MaverikFolder): Promise<MaverikImport> {
  const imp = new Importer(folder);
  const models = importModels(imp);
  const known: Known = { models: models.ids, servers: importServers(imp) };
  const { agents, agentIds } = importAgents(imp, known);
  const versions = importVersions(imp, agentIds, known);
  const toolPrices = importToolPrices(imp, known);
  const overrides = importOverrides(imp, agentIds);
  writeOverrides(imp, overrides, agents);
  // Agents are validated last: they may carry overrides.
  const agentCount = writeAgents(imp, agents);
  const versionCount = await writeVersions(imp, versions);
  const suites = importSuites(imp, agentIds, known);
  const servers = known.servers ?? {};
  writeRegistries(imp, models.entries, servers, toolPrices);
  return {
    files: imp.files,
    issues: imp.issues,
    inputs: imp.inputs,
    counts: {
      agents: agentCount,
      versions: versionCount,
      models: models.entries.length,
      servers: Object.keys(servers).length,
      toolPrices: Object.keys(toolPrices).length,
      overrides: [...overrides.values()].reduce((n, x) => n + Object.keys(x).length, 0),
      suites: suites.suites,
      cases: suites.cases,
    },
  };
}

/** `llm-models.json` → the model registry entries, and their ids (`null`: file not read). */
function importModels(imp: Importer): { entries: Obj[]; ids: Set<string> | null } {
  const entries: Obj[] = [];
  const m = imp.read("llm-models.json");
  if (!m) return { entries, ids: null };
  const ids = new Set<string>();
  imp.list(m, "models", {
    defaultModelId: "mcpmeter has no default model: each agent and judge names its own",
  }).forEach((raw, i): void => {
    const at = `models[${i}]`;
    if (!isObj(raw)) return imp.note(m.file, at, "error", "is not an object: skipped");
    const entry = mapModel(imp, raw, m.file, at);
    if (entry === undefined) return;
    try {
      parseModels({ models: [entry] }, `${m.file} ${at}`);
    } catch (e) {
      return imp.note(m.file, at, "error", `${(e as Error).message}: skipped`);
    }
    const id = entry.id as string;
    if (ids.has(id)) return imp.note(m.file, `${at}.id`, "error", `duplicate id "${id}": skipped`);
    ids.add(id);
    entries.push(entry);
  });
  return { entries, ids };
}

/** One MAVERIK model → a registry entry (undefined: skipped, with a note). */
function mapModel(imp: Importer, raw: Obj, file: string, at: string): Obj | undefined {
  imp.unknownFields(raw, file, at, [
    "id",
    "provider",
    "model",
    "endpoint",
    "apiKey",
    "supportsTools",
    "inputPricePerMTok",
    "outputPricePerMTok",
    "cacheWriteMultiplier",
    "cacheWrite1hMultiplier",
    "cacheReadMultiplier",
  ]);
  const id = str(raw, "id");
  if (!id) return imp.note(file, `${at}.id`, "error", "is missing: model skipped");
  if (!ID.test(id)) {
    return imp.note(file, `${at}.id`, "error", `"${id}" is not a valid mcpmeter id: skipped`);
  }
  const providerRaw = str(raw, "provider") ?? "openai-compatible";
  const provider = providerRaw.toLowerCase() === "anthropic" ? "anthropic" : "openai";
  if (provider === "openai" && providerRaw !== "openai-compatible") {
    imp.note(
      file,
      `${at}.provider`,
      "changed",
      `"${providerRaw}" is not "anthropic", so MAVERIK treats it as OpenAI-compatible: provider "openai"`,
    );
  }
  const model = str(raw, "model");
  if (!model) return imp.note(file, `${at}.model`, "error", "is missing: model skipped");
  const endpoint = str(raw, "endpoint");
  if (provider === "openai" && !endpoint) {
    return imp.note(
      file,
      `${at}.endpoint`,
      "error",
      "is required for an OpenAI-compatible model (MAVERIK cannot build it either): skipped",
    );
  }
  if (provider === "anthropic" && endpoint) {
    imp.note(file, `${at}.endpoint`, "unmapped", "MAVERIK ignores it for Anthropic: not copied");
  }
  const apiKey = modelApiKey(imp, raw, file, at, id, provider);
  if (pick(raw, "supportsTools") !== undefined) {
    imp.note(file, `${at}.supportsTools`, "unmapped", "only logged by MAVERIK: not needed");
  }
  return {
    id,
    provider,
    model,
    ...(provider === "openai" ? { baseUrl: endpoint } : {}),
    apiKey,
    pricing: modelPricing(imp, raw, file, at),
  };
}

/** The model's `apiKey`: a single `${VAR}` as written, else a variable named after the model. */
function modelApiKey(
  imp: Importer,
  raw: Obj,
  file: string,
  at: string,
  id: string,
  provider: "anthropic" | "openai",
): string {
  const keyRaw = pick(raw, "apiKey")?.value;
  if (typeof keyRaw === "string" && VAR_ONLY.test(keyRaw.trim())) return keyRaw.trim();
  if (keyRaw === null || keyRaw === undefined) {
    const apiKey = provider === "anthropic"
      ? "${ANTHROPIC_API_KEY}"
      : `\${${envName(id, "API_KEY")}:-none}`;
    imp.note(
      file,
      `${at}.apiKey`,
      "changed",
      provider === "anthropic"
        ? "null: ${ANTHROPIC_API_KEY}, the variable the Anthropic SDK falls back to"
        : `null: MAVERIK sends "none"; here ${apiKey} (set the variable to send a key)`,
    );
    return apiKey;
  }
  const apiKey = `\${${envName(id, "API_KEY")}}`;
  imp.note(
    file,
    `${at}.apiKey`,
    "changed",
    `is not a single \${VAR} reference: not copied (mcpmeter never stores a key); set ${
      apiKey.slice(2, -1)
    } in the environment or .env`,
  );
  return apiKey;
}

/** The model's pricing: USD per million tokens, cache prices as multiples of the input price. */
function modelPricing(imp: Importer, raw: Obj, file: string, at: string): Obj {
  const num = (name: string): number | null | undefined => {
    const v = pick(raw, name)?.value;
    if (v === undefined || v === null) return v as null | undefined;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      imp.note(
        file,
        `${at}.${name}`,
        "error",
        `must be a number >= 0, got ${JSON.stringify(v)}: ignored`,
      );
      return null;
    }
    return v;
  };
  const inP = num("inputPricePerMTok");
  const outP = num("outputPricePerMTok");
  const readMul = num("cacheReadMultiplier");
  const writeMul = num("cacheWriteMultiplier");
  const write1h = num("cacheWrite1hMultiplier");
  if (inP == null || outP == null) {
    imp.note(
      file,
      `${at}.inputPricePerMTok`,
      "changed",
      "unpriced in MAVERIK (costs unknown): priced at 0 here, so its USD figures read 0; add prices to agents/models.json",
    );
  }
  const input = inP ?? 0;
  const pricing: Obj = { inputUsdPerMTok: input, outputUsdPerMTok: outP ?? 0 };
  if (readMul != null) pricing.cacheReadUsdPerMTok = input * readMul;
  if (writeMul != null) pricing.cacheWriteUsdPerMTok = input * writeMul;
  if (write1h != null) {
    pricing.cacheWrite1hUsdPerMTok = input * write1h;
    imp.note(
      file,
      `${at}.cacheWrite1hMultiplier`,
      "changed",
      "MAVERIK never applies it; mcpmeter prices one-hour cache writes with it",
    );
  }
  if ((readMul == null) !== (writeMul == null)) {
    imp.note(
      file,
      `${at}.cacheReadMultiplier`,
      "changed",
      "MAVERIK prices cache tokens only when both cache multipliers are set; mcpmeter prices the one given (the other at 0)",
    );
  }
  return pricing;
}

/** `mcp-servers.json` → servers config entries by name (`null`: file not read). */
function importServers(imp: Importer): Record<string, Obj> | null {
  const s = imp.read("mcp-servers.json");
  if (!s) return null;
  const servers: Record<string, Obj> = {};
  imp.list(s, "servers", {}).forEach((raw, i): void => {
    const at = `servers[${i}]`;
    if (!isObj(raw)) return imp.note(s.file, at, "error", "is not an object: skipped");
    imp.unknownFields(raw, s.file, at, ["name", "description", "transport", "endpoint", "headers"]);
    const name = str(raw, "name");
    if (!name) return imp.note(s.file, `${at}.name`, "error", "is missing: server skipped");
    const transport = (str(raw, "transport") ?? "http").toLowerCase();
    if (transport !== "http") {
      return imp.note(
        s.file,
        `${at}.transport`,
        "error",
        `"${transport}" is unsupported in MAVERIK too (it skips the server): skipped`,
      );
    }
    const url = str(raw, "endpoint");
    if (!url) return imp.note(s.file, `${at}.endpoint`, "error", "is missing: server skipped");
    const headers = serverHeaders(imp, raw, s.file, at, name);
    const description = str(raw, "description");
    const entry: Obj = {
      url,
      type: "http",
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(description ? { notes: description } : {}),
    };
    try {
      parseServersConfig({ mcpServers: { [name]: entry } } as JsonValue, {
        source: `${s.file} ${at}`,
      });
    } catch (e) {
      return imp.note(s.file, at, "error", `${(e as Error).message}: skipped`);
    }
    if (servers[name]) {
      return imp.note(s.file, `${at}.name`, "error", `duplicate "${name}": skipped`);
    }
    servers[name] = entry;
    imp.note(
      s.file,
      `${at}.transport`,
      "info",
      "a remote (streamable HTTP) server: deno task agents, capture and lint-catalog reach it; set the ${VAR}s of its url and headers in the environment or .env",
    );
  });
  return servers;
}

/** A server's headers; a literal credential becomes a `${VAR}` named after server and header. */
function serverHeaders(
  imp: Importer,
  raw: Obj,
  file: string,
  at: string,
  name: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const h = pick(raw, "headers")?.value;
  if (h === undefined || h === null) return headers;
  if (!isObj(h)) {
    imp.note(file, `${at}.headers`, "error", "is not an object: ignored");
    return headers;
  }
  for (const [k, v] of Object.entries(h)) {
    if (typeof v !== "string") {
      imp.note(file, `${at}.headers.${k}`, "error", "is not a string: ignored");
    } else if (SECRET_HEADER.test(k) && !/\$\{\w+\}/.test(v)) {
      const variable = envName(name, k);
      headers[k] = `\${${variable}}`;
      imp.note(
        file,
        `${at}.headers.${k}`,
        "changed",
        `holds a literal credential: not copied; set ${variable} in the environment or .env`,
      );
    } else headers[k] = v;
  }
  return headers;
}

/** An agent mapped from MAVERIK: its MAVERIK id, mcpmeter id and document. */
interface MappedAgent {
  readonly rawId: string;
  readonly id: string;
  readonly doc: Obj;
}

/** `agents.json` (+ prompts) → agent documents, and MAVERIK id → mcpmeter id. */
function importAgents(
  imp: Importer,
  known: Known,
): { agents: { id: string; doc: Obj }[]; agentIds: Map<string, string> } {
  const agentIds = new Map<string, string>();
  const agents: { id: string; doc: Obj }[] = [];
  const a = imp.read("agents.json");
  if (!a) return { agents, agentIds };
  imp.list(a, "agents", {
    defaultAgent: "mcpmeter has no default agent: --agents names them (default: all)",
  }).forEach((raw, i): void => {
    const at = `agents[${i}]`;
    if (!isObj(raw)) return imp.note(a.file, at, "error", "is not an object: skipped");
    const mapped = mapAgent(imp, raw, a.file, at, false, known);
    if (mapped === undefined) return;
    const { rawId, id, doc } = mapped;
    if (agents.some((x) => x.id === id)) {
      return imp.note(a.file, `${at}.id`, "error", `duplicate id "${id}": skipped`);
    }
    const version = pick(raw, "version")?.value;
    const cut = Object.keys(imp.folder.versions ?? {}).some((k) => k.startsWith(`${rawId}/`));
    if (typeof version === "number" && version > 0 && !cut) {
      imp.note(
        a.file,
        `${at}.version`,
        "unmapped",
        `is ${version}, but agent-versions/${rawId}/ holds no version file: none imported`,
      );
    }
    agents.push({ id, doc });
    agentIds.set(rawId, id);
  });
  return { agents, agentIds };
}

/**
 * One MAVERIK AgentConfig → an mcpmeter agent document (notes on `file` at `at`); `inline` puts
 * a prompt file's text inline (a version snapshot), else it is copied beside the agent.
 */
function mapAgent(
  imp: Importer,
  raw: Obj,
  file: string,
  at: string,
  inline: boolean,
  known: Known,
): MappedAgent | undefined {
  imp.unknownFields(raw, file, at, [
    "id",
    "name",
    "description",
    "model",
    "loopType",
    "systemPrompt",
    "mcpServers",
    "maxIterations",
    "promptCaching",
    "promptCachingTtl",
    "version",
  ]);
  const rawId = str(raw, "id");
  if (!rawId) return imp.note(file, `${at}.id`, "error", "is missing: agent skipped");
  const id = ID.test(rawId) ? rawId : safeId(rawId);
  if (id !== rawId) imp.note(file, `${at}.id`, "changed", `"${rawId}" is written "${id}"`);
  const name = str(raw, "name");
  const desc = str(raw, "description");
  const description = [name, desc].filter((x) => x && x.trim() !== "").join(": ");
  if (name) {
    imp.note(
      file,
      `${at}.name`,
      "changed",
      "folded into description (mcpmeter has no display name)",
    );
  }
  const model = str(raw, "model");
  if (!model) return imp.note(file, `${at}.model`, "error", "is missing: agent skipped");
  if (known.models && !known.models.has(model)) {
    imp.note(
      file,
      `${at}.model`,
      "info",
      `"${model}" is not an imported model: the agent fails at run time, as in MAVERIK, until agents/models.json has it`,
    );
  }
  const loopRaw = (str(raw, "loopType") ?? "manual").trim().toLowerCase() || "manual";
  let loop = "sequential";
  if (loopRaw === "parallel-tools") loop = "parallel";
  else if (loopRaw !== "manual") {
    imp.note(
      file,
      `${at}.loopType`,
      "changed",
      `"${loopRaw}" is unknown (MAVERIK fails the run): loop "sequential"`,
    );
  }
  const prompt = agentPrompt(imp, raw, file, at, rawId, id, inline);
  if (prompt === undefined) return;
  const mcpServers = agentServers(imp, raw, file, at, known);
  const maxIterations = agentMaxIterations(imp, raw, file, at);
  const promptCaching = agentCaching(imp, raw, file, at);
  const doc: Obj = {
    id,
    description,
    model,
    ...prompt,
    mcpServers,
    exposure: "direct",
    loop,
    maxIterations,
    ...(promptCaching ? { promptCaching } : {}),
  };
  return { rawId, id, doc };
}

/** The agent's prompt: inline text, or its prompt file (copied, or inlined into a version). */
function agentPrompt(
  imp: Importer,
  raw: Obj,
  file: string,
  at: string,
  rawId: string,
  id: string,
  inline: boolean,
): Obj | undefined {
  const inlinePrompt = str(raw, "systemPrompt");
  const promptFile = imp.folder.prompts[rawId];
  if (inlinePrompt && inlinePrompt.trim() !== "") return { systemPrompt: inlinePrompt };
  if (promptFile !== undefined && inline) return { systemPrompt: promptFile };
  if (promptFile !== undefined) {
    imp.files[`agents/prompts/${id}.md`] = promptFile;
    return { systemPromptFile: `prompts/${id}.md` };
  }
  return imp.note(
    file,
    `${at}.systemPrompt`,
    "error",
    `is empty and prompts/agent/${rawId}.md does not exist (MAVERIK refuses the agent too): skipped`,
  );
}

/** The agent's servers: names of imported servers, each once. */
function agentServers(imp: Importer, raw: Obj, file: string, at: string, known: Known): string[] {
  const serverList = pick(raw, "mcpServers")?.value ?? [];
  const mcpServers: string[] = [];
  if (!Array.isArray(serverList)) {
    imp.note(file, `${at}.mcpServers`, "error", "is not an array: no servers");
    return mcpServers;
  }
  serverList.forEach((n, j): void => {
    if (typeof n !== "string") {
      return imp.note(file, `${at}.mcpServers[${j}]`, "error", "is not a string: ignored");
    }
    if (known.servers && !known.servers[n]) {
      return imp.note(
        file,
        `${at}.mcpServers[${j}]`,
        "unmapped",
        `"${n}" is not an imported server: dropped (MAVERIK skips it with a warning)`,
      );
    }
    if (!mcpServers.includes(n)) mcpServers.push(n);
  });
  return mcpServers;
}

/** The agent's turn limit: MAVERIK's default 8; a value below 1 becomes 1, as MAVERIK behaves. */
function agentMaxIterations(imp: Importer, raw: Obj, file: string, at: string): number {
  const it = pick(raw, "maxIterations")?.value;
  if (it === undefined || it === null) return 8;
  if (typeof it !== "number" || !Number.isInteger(it) || it < 1) {
    imp.note(
      file,
      `${at}.maxIterations`,
      "changed",
      `${JSON.stringify(it)} is not an integer >= 1 (MAVERIK: every case hits the limit): 1`,
    );
    return 1;
  }
  return it;
}

/** The agent's prompt caching (`{enabled, ttl}`), or undefined when off. */
function agentCaching(imp: Importer, raw: Obj, file: string, at: string): Obj | undefined {
  const caching = pick(raw, "promptCaching")?.value;
  const ttlRaw = pick(raw, "promptCachingTtl")?.value;
  if (caching === true) {
    let ttl = "5m";
    if (ttlRaw === "1h" || ttlRaw === "5m") ttl = ttlRaw;
    else if (ttlRaw !== null && ttlRaw !== undefined) {
      imp.note(
        file,
        `${at}.promptCachingTtl`,
        "changed",
        `${JSON.stringify(ttlRaw)} is neither "5m" nor "1h" (MAVERIK throws): "5m"`,
      );
    }
    return { enabled: true, ttl };
  }
  if (caching !== undefined && caching !== false && caching !== null) {
    imp.note(file, `${at}.promptCaching`, "error", "is not true or false: caching off");
  }
  return undefined;
}

/** A version snapshot to write: agent id, number, source file, cut time and agent document. */
interface VersionDraft {
  readonly id: string;
  readonly n: number;
  readonly file: string;
  readonly createdAt: string;
  readonly doc: Obj;
}

/** `agent-versions/<id>/<n>.json` → version drafts (the prompt inlined). */
function importVersions(
  imp: Importer,
  agentIds: ReadonlyMap<string, string>,
  known: Known,
): VersionDraft[] {
  const versions: VersionDraft[] = [];
  for (const key of Object.keys(imp.folder.versions ?? {}).sort()) {
    const file = `agent-versions/${key}`;
    const km = /^([^/]+)\/([1-9]\d*)\.json$/.exec(key);
    if (km === null) {
      imp.note(file, "", "unmapped", "is not agent-versions/<agentId>/<n>.json: ignored");
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(imp.folder.versions![key]);
    } catch (e) {
      imp.note(file, "", "error", `is not valid JSON (${(e as Error).message}): version skipped`);
      continue;
    }
    if (!isObj(v)) {
      imp.note(file, "", "error", "is not a JSON object: version skipped");
      continue;
    }
    imp.unknownFields(v, file, "", ["agentId", "version", "cutAt", "config"]);
    const cfg = pick(v, "config")?.value;
    if (!isObj(cfg)) {
      imp.note(file, "config", "error", "is missing: version skipped");
      continue;
    }
    const mapped = mapAgent(imp, cfg, file, "config", true, known);
    if (mapped === undefined) continue;
    const id = agentIds.get(km[1]) ?? (ID.test(km[1]) ? km[1] : safeId(km[1]));
    const cutAt = str(v, "cutAt");
    const createdAt = cutAt && Number.isFinite(Date.parse(cutAt))
      ? new Date(Date.parse(cutAt)).toISOString()
      : "1970-01-01T00:00:00.000Z";
    if (createdAt.startsWith("1970")) {
      imp.note(
        file,
        "cutAt",
        "changed",
        "is missing or not a time: createdAt 1970-01-01T00:00:00.000Z",
      );
    }
    versions.push({ id, n: Number(km[2]), file, createdAt, doc: { ...mapped.doc, id } });
  }
  return versions;
}

/** `tool-costs.json` → USD per call by `server:tool`. */
function importToolPrices(imp: Importer, known: Known): Record<string, number> {
  const toolPrices: Record<string, number> = {};
  const t = imp.read("tool-costs.json");
  if (!t) return toolPrices;
  imp.list(t, "toolCosts", {}).forEach((raw, i): void => {
    const at = `toolCosts[${i}]`;
    if (!isObj(raw)) return imp.note(t.file, at, "error", "is not an object: skipped");
    imp.unknownFields(raw, t.file, at, ["mcpServer", "tool", "costPerInvocation"]);
    const server = str(raw, "mcpServer");
    const tool = str(raw, "tool");
    const cost = pick(raw, "costPerInvocation")?.value;
    if (!server || !tool) {
      return imp.note(t.file, at, "error", "needs mcpServer and tool: skipped");
    }
    if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) {
      return imp.note(
        t.file,
        `${at}.costPerInvocation`,
        "error",
        `must be a number >= 0, got ${JSON.stringify(cost)}: skipped`,
      );
    }
    if (known.servers && !known.servers[server]) {
      imp.note(t.file, `${at}.mcpServer`, "info", `"${server}" is not an imported server`);
    }
    toolPrices[`${server}:${tool}`] = cost;
  });
  return toolPrices;
}

/** `capability-overrides.json` → tool descriptions by mcpmeter agent id, then `server:tool`. */
function importOverrides(
  imp: Importer,
  agentIds: ReadonlyMap<string, string>,
): Map<string, Record<string, { description: string }>> {
  const overrides = new Map<string, Record<string, { description: string }>>();
  const o = imp.read("capability-overrides.json");
  if (!o) return overrides;
  imp.list(o, "overrides", {}).forEach((raw, i): void => {
    const at = `overrides[${i}]`;
    if (!isObj(raw)) return imp.note(o.file, at, "error", "is not an object: skipped");
    imp.unknownFields(raw, o.file, at, ["agentId", "mcpServer", "tool", "description"]);
    const agentId = str(raw, "agentId");
    const server = str(raw, "mcpServer");
    const tool = str(raw, "tool");
    const description = pick(raw, "description")?.value;
    if (!agentId || !server || !tool) {
      return imp.note(o.file, at, "error", "needs agentId, mcpServer and tool: skipped");
    }
    if (description === null || description === undefined) {
      return imp.note(o.file, `${at}.description`, "info", "is null: ignored, as MAVERIK does");
    }
    if (typeof description !== "string") {
      return imp.note(o.file, `${at}.description`, "error", "is not a string: skipped");
    }
    const target = agentIds.get(agentId);
    if (target === undefined) {
      return imp.note(
        o.file,
        `${at}.agentId`,
        "error",
        `"${agentId}" is not an imported agent: skipped`,
      );
    }
    const map = overrides.get(target) ?? {};
    map[`${server}:${tool}`] = { description };
    overrides.set(target, map);
  });
  return overrides;
}

/** Writes `agents/overrides/<id>.json` and points the agent's `overrides` field at it. */
function writeOverrides(
  imp: Importer,
  overrides: ReadonlyMap<string, Record<string, { description: string }>>,
  agents: readonly { id: string; doc: Obj }[],
): void {
  for (const [id, map] of overrides) {
    const doc = {
      description:
        `tool descriptions for agent ${id}, imported from MAVERIK capability-overrides.json`,
      overrides: map,
    };
    try {
      parseToolOverrides(doc, `agents/overrides/${id}.json`);
    } catch (e) {
      imp.note("capability-overrides.json", "", "error", `${(e as Error).message}: not written`);
      continue;
    }
    imp.files[`agents/overrides/${id}.json`] = json(doc);
    agents.find((x) => x.id === id)!.doc.overrides = `overrides/${id}.json`;
  }
}

/** Writes each agent that validates as `agents/<id>.json`; returns how many. */
function writeAgents(imp: Importer, agents: readonly { id: string; doc: Obj }[]): number {
  let count = 0;
  for (const { id, doc } of agents) {
    try {
      parseAgents(doc, `agents/${id}.json`);
    } catch (e) {
      imp.note("agents.json", id, "error", `${(e as Error).message}: skipped`);
      continue;
    }
    imp.files[`agents/${id}.json`] = json(doc);
    count++;
  }
  return count;
}

/** Writes each version that validates, hashed as `--cut-version` does; returns how many. */
async function writeVersions(imp: Importer, versions: readonly VersionDraft[]): Promise<number> {
  let count = 0;
  for (const v of versions) {
    const path = `agents/versions/${v.id}/${v.n}.json`;
    let config: AgentConfig;
    try {
      const [draft] = parseAgents(v.doc, path);
      config = { ...draft, systemPrompt: draft.systemPrompt ?? "" };
    } catch (e) {
      imp.note(v.file, "config", "error", `${(e as Error).message}: version skipped`);
      continue;
    }
    const version = {
      agentId: v.id,
      version: v.n,
      sha256: await snapshotSha256(config, v.id),
      createdAt: v.createdAt,
      config,
    };
    imp.files[path] = stableJson(version);
    count++;
  }
  return count;
}

/** `maverik-suites/*.json` → `suites/<id>.json`; returns how many suites and cases. */
function importSuites(
  imp: Importer,
  agentIds: ReadonlyMap<string, string>,
  known: Known,
): { suites: number; cases: number } {
  let suites = 0;
  let caseCount = 0;
  const suiteIds = new Set<string>();
  for (const name of Object.keys(imp.folder.suites).sort()) {
    const file = `maverik-suites/${name}`;
    let doc: unknown;
    try {
      doc = JSON.parse(imp.folder.suites[name]);
    } catch (e) {
      imp.inputs.push({ file, status: "malformed" });
      imp.note(file, "", "error", `is not valid JSON (${(e as Error).message}): suite skipped`);
      continue;
    }
    if (!isObj(doc)) {
      imp.inputs.push({ file, status: "malformed" });
      imp.note(file, "", "error", "is not a JSON object: suite skipped");
      continue;
    }
    imp.inputs.push({ file, status: "read" });
    const suite = mapSuite(imp, doc, file, agentIds, known, suiteIds);
    if (suite === undefined) continue;
    try {
      parseSuite(suite, `suites/${suite.id}.json`);
    } catch (e) {
      imp.note(file, "", "error", `${(e as Error).message}: suite skipped`);
      continue;
    }
    suiteIds.add(suite.id);
    imp.files[`suites/${suite.id}.json`] = json(suite);
    suites++;
    caseCount += suite.cases.length;
  }
  return { suites, cases: caseCount };
}

/** One MAVERIK suite → an mcpmeter suite document (undefined: skipped, with a note). */
function mapSuite(
  imp: Importer,
  doc: Obj,
  file: string,
  agentIds: ReadonlyMap<string, string>,
  known: Known,
  suiteIds: ReadonlySet<string>,
): { id: string; description: string; cases: Obj[] } | undefined {
  imp.unknownFields(doc, file, "", [
    "id",
    "name",
    "description",
    "agents",
    "judgeModel",
    "questions",
  ]);
  const rawId = str(doc, "id");
  if (!rawId) return imp.note(file, "id", "error", "is missing: suite skipped");
  const id = ID.test(rawId) ? rawId : safeId(rawId);
  if (id !== rawId) imp.note(file, "id", "changed", `"${rawId}" is written "${id}"`);
  if (suiteIds.has(id)) {
    return imp.note(file, "id", "error", `duplicate suite id "${id}": skipped`);
  }
  const suiteAgents = pick(doc, "agents")?.value;
  if (Array.isArray(suiteAgents) && suiteAgents.length > 0) {
    imp.note(
      file,
      "agents",
      "unmapped",
      `mcpmeter suites do not name agents: run them with --agents ${
        suiteAgents.map((x) => agentIds.get(String(x)) ?? String(x)).join(",")
      }`,
    );
  }
  const judge = str(doc, "judgeModel");
  const qs = pick(doc, "questions")?.value;
  if (!Array.isArray(qs)) {
    return imp.note(file, "questions", "error", "is missing or not an array: suite skipped");
  }
  const cases: Obj[] = [];
  qs.forEach((q, i): void => {
    const at = `questions[${i}]`;
    if (!isObj(q)) return imp.note(file, at, "error", "is not an object: question skipped");
    imp.unknownFields(q, file, at, ["id", "text", "criterion"]);
    const qRaw = str(q, "id");
    if (!qRaw) return imp.note(file, `${at}.id`, "error", "is missing: question skipped");
    const qid = ID.test(qRaw) ? qRaw : safeId(qRaw);
    if (qid !== qRaw) imp.note(file, `${at}.id`, "changed", `"${qRaw}" is written "${qid}"`);
    if (cases.some((c) => c.id === qid)) {
      return imp.note(file, `${at}.id`, "error", `duplicate question id "${qid}": skipped`);
    }
    const text = str(q, "text");
    if (!text || text.trim() === "") {
      return imp.note(file, `${at}.text`, "error", "is empty: question skipped");
    }
    const c = pick(q, "criterion")?.value;
    if (!isObj(c)) {
      return imp.note(file, `${at}.criterion`, "error", "is missing: question skipped");
    }
    const criterion = mapCriterion(imp, c, file, `${at}.criterion`, judge, known);
    if (criterion !== undefined) cases.push({ id: qid, question: text, criterion });
  });
  if (cases.length === 0) {
    return imp.note(file, "questions", "error", "no question could be imported: suite skipped");
  }
  const description = [str(doc, "name"), str(doc, "description")].filter((x) => x).join(": ");
  return { id, description, cases };
}

/** One MAVERIK criterion → an mcpmeter criterion (undefined: question skipped, with a note). */
function mapCriterion(
  imp: Importer,
  c: Obj,
  file: string,
  cat: string,
  suiteJudge: string | undefined,
  known: Known,
): Obj | undefined {
  imp.unknownFields(c, file, cat, [
    "type",
    "expected",
    "caseSensitive",
    "pattern",
    "rubric",
    "judgeModel",
  ]);
  const type = (str(c, "type") ?? "").toLowerCase();
  const cs = pick(c, "caseSensitive")?.value === true;
  const expected = str(c, "expected");
  if (type === "exact" || type === "contains") {
    if (!expected) {
      return imp.note(file, `${cat}.expected`, "error", `is empty for ${type}: question skipped`);
    }
    return type === "exact"
      ? { type: "exact", value: expected, caseSensitive: cs }
      : { type: "contains", values: [expected], caseSensitive: cs };
  }
  if (type === "regex") return mapRegex(imp, c, file, cat);
  if (type === "llm-judge") {
    const rubric = str(c, "rubric");
    if (!rubric || rubric.trim() === "") {
      return imp.note(file, `${cat}.rubric`, "error", "is empty: question skipped");
    }
    const model = str(c, "judgeModel") ?? suiteJudge;
    if (!model) {
      return imp.note(
        file,
        `${cat}.judgeModel`,
        "error",
        "no judge model here nor on the suite: question skipped",
      );
    }
    if (known.models && !known.models.has(model)) {
      imp.note(file, `${cat}.judgeModel`, "info", `"${model}" is not an imported model`);
    }
    return { type: "llm_judge", rubric, model };
  }
  return imp.note(
    file,
    `${cat}.type`,
    "error",
    `${
      JSON.stringify(str(c, "type") ?? null)
    } is not exact, contains, regex or llm-judge: question skipped`,
  );
}

/** A .NET regex criterion → a JavaScript one (inline `(?ims)` options become flags). */
function mapRegex(imp: Importer, c: Obj, file: string, cat: string): Obj | undefined {
  let pattern = str(c, "pattern") ?? "";
  let flags = "";
  const inline = /^\(\?([imsx]+)\)/.exec(pattern);
  if (inline && /^[ims]+$/.test(inline[1])) {
    flags = inline[1];
    pattern = pattern.slice(inline[0].length);
    imp.note(
      file,
      `${cat}.pattern`,
      "changed",
      `.NET inline options (?${inline[1]}) became flags "${flags}"`,
    );
  }
  if (pattern === "") {
    return imp.note(file, `${cat}.pattern`, "error", "is empty: question skipped");
  }
  try {
    new RegExp(pattern, flags);
  } catch (e) {
    return imp.note(
      file,
      `${cat}.pattern`,
      "error",
      `does not compile as a JavaScript regex (${(e as Error).message}): question skipped`,
    );
  }
  if (pick(c, "caseSensitive") !== undefined) {
    imp.note(
      file,
      `${cat}.caseSensitive`,
      "info",
      "MAVERIK ignores it for regex: the pattern stays case-sensitive",
    );
  }
  return { type: "regex", pattern, ...(flags ? { flags } : {}) };
}

/** Writes `agents/models.json`, `agents/servers.json` and `agents/tool_prices.json` (when any). */
function writeRegistries(
  imp: Importer,
  models: readonly Obj[],
  servers: Readonly<Record<string, Obj>>,
  toolPrices: Readonly<Record<string, number>>,
): void {
  if (models.length > 0) imp.files["agents/models.json"] = json({ models });
  if (Object.keys(servers).length > 0) {
    imp.files["agents/servers.json"] = json({
      mcpServers: Object.fromEntries(Object.entries(servers).sort(([x], [y]) => x < y ? -1 : 1)),
    });
  }
  if (Object.keys(toolPrices).length > 0) {
    const sorted = Object.fromEntries(
      Object.entries(toolPrices).sort(([x], [y]) => x < y ? -1 : 1),
    );
    parseToolPrices({ toolPrices: sorted });
    imp.files["agents/tool_prices.json"] = json({ toolPrices: sorted });
  }
}

/**
 * The `import-report.json` document: inputs, counts, what was written and every issue, field by
 * field. Deterministic (no clock).
 *
 * @param result The import.
 * @param from The folder read, as given.
 * @returns A JSON-ready object.
 */
export function maverikReport(result: MaverikImport, from: string): Record<string, unknown> {
  return {
    schemaVersion: MAVERIK_IMPORT_REPORT_VERSION,
    task: "tasks/import_maverik.ts",
    from,
    inputs: result.inputs,
    counts: result.counts,
    written: Object.keys(result.files).sort(),
    issues: result.issues,
  };
}
