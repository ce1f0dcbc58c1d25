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

/**
 * Maps a MAVERIK config folder to mcpmeter's configuration files.
 *
 * Output layout (relative to `--out`): `agents/<id>.json` (one agent per file),
 * `agents/prompts/<id>.md`, `agents/overrides/<id>.json`, `agents/models.json`,
 * `agents/servers.json`, `agents/tool_prices.json`, `agents/versions/<id>/<n>.json` (MAVERIK's
 * cut versions, prompt inlined, hashed as `deno task agents --cut-version` does),
 * `suites/<id>.json`. Never throws on
 * content: a missing file, malformed JSON, an unknown field or value is an issue, and the items
 * that can be mapped still are.
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
  const issues: MaverikIssue[] = [];
  const inputs: { file: string; status: "read" | "example" | "missing" | "malformed" }[] = [];
  const files: Record<string, string> = {};
  const note = (file: string, field: string, level: MaverikIssueLevel, message: string): void => {
    issues.push({ file, field, level, message });
  };

  /** Reads a single-file config (or its example); notes what happened. */
  const read = (name: string): { doc: Obj; file: string } | null => {
    const example = name.replace(/\.json$/, ".example.json");
    let file = name;
    let text = folder.files[name] ?? null;
    if (text === null && (folder.files[example] ?? null) !== null) {
      file = example;
      text = folder.files[example]!;
      inputs.push({ file: name, status: "example" });
      note(name, "", "info", `missing; read ${example} instead, as MAVERIK does on first start`);
    }
    if (text === null) {
      inputs.push({ file: name, status: "missing" });
      note(name, "", "info", "missing (nor its example): nothing imported from it");
      return null;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      if (file === name) inputs.push({ file: name, status: "malformed" });
      note(file, "", "error", `is not valid JSON (${(e as Error).message}): nothing imported`);
      return null;
    }
    if (!isObj(doc)) {
      if (file === name) inputs.push({ file: name, status: "malformed" });
      note(file, "", "error", "is not a JSON object: nothing imported");
      return null;
    }
    if (file === name) inputs.push({ file: name, status: "read" });
    return { doc, file };
  };

  /** The array at `name` of a root object, noting other root fields as unmapped. */
  const list = (
    r: { doc: Obj; file: string },
    name: string,
    known: Record<string, string>,
  ): unknown[] => {
    for (const k of Object.keys(r.doc)) {
      const lower = k.toLowerCase();
      if (lower === name.toLowerCase() || lower === "$schema") continue;
      const why = Object.entries(known).find(([n]) => n.toLowerCase() === lower)?.[1];
      note(r.file, k, "unmapped", why ?? "is not a MAVERIK field of this file: ignored");
    }
    const v = pick(r.doc, name)?.value;
    if (v === undefined) {
      note(r.file, name, "error", "is missing: nothing imported");
      return [];
    }
    if (!Array.isArray(v)) {
      note(r.file, name, "error", "is not an array: nothing imported");
      return [];
    }
    return v;
  };

  /** Reports every field of `o` not in `known` (matched case-insensitively). */
  const unknownFields = (o: Obj, file: string, at: string, known: readonly string[]) => {
    const set = new Set(known.map((k) => k.toLowerCase()));
    for (const k of Object.keys(o)) {
      if (!set.has(k.toLowerCase())) {
        note(file, at === "" ? k : `${at}.${k}`, "unmapped", "is not a MAVERIK field: ignored");
      }
    }
  };
  const str = (o: Obj, name: string): string | undefined => {
    const v = pick(o, name)?.value;
    return typeof v === "string" ? v : undefined;
  };

  // ---- llm-models.json → agents/models.json
  const models: Obj[] = [];
  const modelIds = new Set<string>();
  const m = read("llm-models.json");
  if (m) {
    const entries = list(m, "models", {
      defaultModelId: "mcpmeter has no default model: each agent and judge names its own",
    });
    entries.forEach((raw, i): void => {
      const at = `models[${i}]`;
      if (!isObj(raw)) return note(m.file, at, "error", "is not an object: skipped");
      unknownFields(raw, m.file, at, [
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
      if (!id) return note(m.file, `${at}.id`, "error", "is missing: model skipped");
      if (!ID.test(id)) {
        return note(m.file, `${at}.id`, "error", `"${id}" is not a valid mcpmeter id: skipped`);
      }
      const providerRaw = str(raw, "provider") ?? "openai-compatible";
      const provider = providerRaw.toLowerCase() === "anthropic" ? "anthropic" : "openai";
      if (provider === "openai" && providerRaw !== "openai-compatible") {
        note(
          m.file,
          `${at}.provider`,
          "changed",
          `"${providerRaw}" is not "anthropic", so MAVERIK treats it as OpenAI-compatible: provider "openai"`,
        );
      }
      const model = str(raw, "model");
      if (!model) return note(m.file, `${at}.model`, "error", "is missing: model skipped");
      const endpoint = str(raw, "endpoint");
      if (provider === "openai" && !endpoint) {
        return note(
          m.file,
          `${at}.endpoint`,
          "error",
          "is required for an OpenAI-compatible model (MAVERIK cannot build it either): skipped",
        );
      }
      if (provider === "anthropic" && endpoint) {
        note(m.file, `${at}.endpoint`, "unmapped", "MAVERIK ignores it for Anthropic: not copied");
      }
      const keyRaw = pick(raw, "apiKey")?.value;
      let apiKey: string;
      if (typeof keyRaw === "string" && VAR_ONLY.test(keyRaw.trim())) apiKey = keyRaw.trim();
      else if (keyRaw === null || keyRaw === undefined) {
        apiKey = provider === "anthropic"
          ? "${ANTHROPIC_API_KEY}"
          : `\${${envName(id, "API_KEY")}:-none}`;
        note(
          m.file,
          `${at}.apiKey`,
          "changed",
          provider === "anthropic"
            ? "null: ${ANTHROPIC_API_KEY}, the variable the Anthropic SDK falls back to"
            : `null: MAVERIK sends "none"; here ${apiKey} (set the variable to send a key)`,
        );
      } else {
        apiKey = `\${${envName(id, "API_KEY")}}`;
        note(
          m.file,
          `${at}.apiKey`,
          "changed",
          `is not a single \${VAR} reference: not copied (mcpmeter never stores a key); set ${
            apiKey.slice(2, -1)
          } in the environment or .env`,
        );
      }
      if (pick(raw, "supportsTools") !== undefined) {
        note(m.file, `${at}.supportsTools`, "unmapped", "only logged by MAVERIK: not needed");
      }
      const num = (name: string): number | null | undefined => {
        const v = pick(raw, name)?.value;
        if (v === undefined || v === null) return v as null | undefined;
        if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
          note(
            m.file,
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
        note(
          m.file,
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
        note(
          m.file,
          `${at}.cacheWrite1hMultiplier`,
          "changed",
          "MAVERIK never applies it; mcpmeter prices one-hour cache writes with it",
        );
      }
      if ((readMul == null) !== (writeMul == null)) {
        note(
          m.file,
          `${at}.cacheReadMultiplier`,
          "changed",
          "MAVERIK prices cache tokens only when both cache multipliers are set; mcpmeter prices the one given (the other at 0)",
        );
      }
      const entry: Obj = {
        id,
        provider,
        model,
        ...(provider === "openai" ? { baseUrl: endpoint } : {}),
        apiKey,
        pricing,
      };
      try {
        parseModels({ models: [entry] }, `${m.file} ${at}`);
      } catch (e) {
        return note(m.file, at, "error", `${(e as Error).message}: skipped`);
      }
      if (modelIds.has(id)) {
        return note(m.file, `${at}.id`, "error", `duplicate id "${id}": skipped`);
      }
      modelIds.add(id);
      models.push(entry);
    });
  }

  // ---- mcp-servers.json → agents/servers.json
  const servers: Record<string, Obj> = {};
  const s = read("mcp-servers.json");
  if (s) {
    list(s, "servers", {}).forEach((raw, i): void => {
      const at = `servers[${i}]`;
      if (!isObj(raw)) return note(s.file, at, "error", "is not an object: skipped");
      unknownFields(raw, s.file, at, ["name", "description", "transport", "endpoint", "headers"]);
      const name = str(raw, "name");
      if (!name) return note(s.file, `${at}.name`, "error", "is missing: server skipped");
      const transport = (str(raw, "transport") ?? "http").toLowerCase();
      if (transport !== "http") {
        return note(
          s.file,
          `${at}.transport`,
          "error",
          `"${transport}" is unsupported in MAVERIK too (it skips the server): skipped`,
        );
      }
      const url = str(raw, "endpoint");
      if (!url) return note(s.file, `${at}.endpoint`, "error", "is missing: server skipped");
      const headers: Record<string, string> = {};
      const h = pick(raw, "headers")?.value;
      if (h !== undefined && h !== null) {
        if (!isObj(h)) note(s.file, `${at}.headers`, "error", "is not an object: ignored");
        else {
          for (const [k, v] of Object.entries(h)) {
            if (typeof v !== "string") {
              note(s.file, `${at}.headers.${k}`, "error", "is not a string: ignored");
            } else if (SECRET_HEADER.test(k) && !/\$\{\w+\}/.test(v)) {
              const variable = envName(name, k);
              headers[k] = `\${${variable}}`;
              note(
                s.file,
                `${at}.headers.${k}`,
                "changed",
                `holds a literal credential: not copied; set ${variable} in the environment or .env`,
              );
            } else headers[k] = v;
          }
        }
      }
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
        return note(s.file, at, "error", `${(e as Error).message}: skipped`);
      }
      if (servers[name]) return note(s.file, `${at}.name`, "error", `duplicate "${name}": skipped`);
      servers[name] = entry;
      note(
        s.file,
        `${at}.transport`,
        "info",
        "a remote (streamable HTTP) server: deno task agents, capture and lint-catalog reach it; set the ${VAR}s of its url and headers in the environment or .env",
      );
    });
  }

  // ---- agents.json (+ prompts) → agents/<id>.json
  const agentIds = new Map<string, string>(); // MAVERIK id → mcpmeter id
  const agents: { id: string; doc: Obj }[] = [];
  /**
   * One MAVERIK AgentConfig → an mcpmeter agent document (notes on `file` at `at`); `inline`
   * puts a prompt file's text inline (a version snapshot), else it is copied beside the agent.
   */
  const mapAgent = (
    raw: Obj,
    file: string,
    at: string,
    inline: boolean,
  ): { rawId: string; id: string; doc: Obj } | null => {
    const a = { file };
    const skip = (f: string, field: string, level: MaverikIssueLevel, message: string) => {
      note(f, field, level, message);
      return null;
    };
    {
      unknownFields(raw, a.file, at, [
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
      if (!rawId) return skip(a.file, `${at}.id`, "error", "is missing: agent skipped");
      const id = ID.test(rawId) ? rawId : safeId(rawId);
      if (id !== rawId) note(a.file, `${at}.id`, "changed", `"${rawId}" is written "${id}"`);
      const name = str(raw, "name");
      const desc = str(raw, "description");
      const description = [name, desc].filter((x) => x && x.trim() !== "").join(": ");
      if (name) {
        note(
          a.file,
          `${at}.name`,
          "changed",
          "folded into description (mcpmeter has no display name)",
        );
      }
      const model = str(raw, "model");
      if (!model) return skip(a.file, `${at}.model`, "error", "is missing: agent skipped");
      if (m && !modelIds.has(model)) {
        note(
          a.file,
          `${at}.model`,
          "info",
          `"${model}" is not an imported model: the agent fails at run time, as in MAVERIK, until agents/models.json has it`,
        );
      }
      const loopRaw = (str(raw, "loopType") ?? "manual").trim().toLowerCase() || "manual";
      let loop = "sequential";
      if (loopRaw === "parallel-tools") loop = "parallel";
      else if (loopRaw !== "manual") {
        note(
          a.file,
          `${at}.loopType`,
          "changed",
          `"${loopRaw}" is unknown (MAVERIK fails the run): loop "sequential"`,
        );
      }
      const inlinePrompt = str(raw, "systemPrompt");
      let prompt: Obj;
      if (inlinePrompt && inlinePrompt.trim() !== "") prompt = { systemPrompt: inlinePrompt };
      else if (folder.prompts[rawId] !== undefined && inline) {
        prompt = { systemPrompt: folder.prompts[rawId] };
      } else if (folder.prompts[rawId] !== undefined) {
        files[`agents/prompts/${id}.md`] = folder.prompts[rawId];
        prompt = { systemPromptFile: `prompts/${id}.md` };
      } else {
        return skip(
          a.file,
          `${at}.systemPrompt`,
          "error",
          `is empty and prompts/agent/${rawId}.md does not exist (MAVERIK refuses the agent too): skipped`,
        );
      }
      const serverList = pick(raw, "mcpServers")?.value ?? [];
      const mcpServers: string[] = [];
      if (!Array.isArray(serverList)) {
        note(a.file, `${at}.mcpServers`, "error", "is not an array: no servers");
      } else {
        serverList.forEach((n, j): void => {
          if (typeof n !== "string") {
            return note(a.file, `${at}.mcpServers[${j}]`, "error", "is not a string: ignored");
          }
          if (s && !servers[n]) {
            return note(
              a.file,
              `${at}.mcpServers[${j}]`,
              "unmapped",
              `"${n}" is not an imported server: dropped (MAVERIK skips it with a warning)`,
            );
          }
          if (!mcpServers.includes(n)) mcpServers.push(n);
        });
      }
      let maxIterations = 8;
      const it = pick(raw, "maxIterations")?.value;
      if (it !== undefined && it !== null) {
        if (typeof it !== "number" || !Number.isInteger(it) || it < 1) {
          note(
            a.file,
            `${at}.maxIterations`,
            "changed",
            `${JSON.stringify(it)} is not an integer >= 1 (MAVERIK: every case hits the limit): 1`,
          );
          maxIterations = 1;
        } else maxIterations = it;
      }
      const caching = pick(raw, "promptCaching")?.value;
      const ttlRaw = pick(raw, "promptCachingTtl")?.value;
      let promptCaching: Obj | undefined;
      if (caching === true) {
        let ttl = "5m";
        if (ttlRaw === "1h" || ttlRaw === "5m") ttl = ttlRaw;
        else if (ttlRaw !== null && ttlRaw !== undefined) {
          note(
            a.file,
            `${at}.promptCachingTtl`,
            "changed",
            `${JSON.stringify(ttlRaw)} is neither "5m" nor "1h" (MAVERIK throws): "5m"`,
          );
        }
        promptCaching = { enabled: true, ttl };
      } else if (caching !== undefined && caching !== false && caching !== null) {
        note(a.file, `${at}.promptCaching`, "error", "is not true or false: caching off");
      }
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
  };
  const a = read("agents.json");
  if (a) {
    list(a, "agents", {
      defaultAgent: "mcpmeter has no default agent: --agents names them (default: all)",
    }).forEach((raw, i): void => {
      const at = `agents[${i}]`;
      if (!isObj(raw)) return note(a.file, at, "error", "is not an object: skipped");
      const mapped = mapAgent(raw, a.file, at, false);
      if (mapped === null) return;
      const { rawId, id, doc } = mapped;
      if (agents.some((x) => x.id === id)) {
        return note(a.file, `${at}.id`, "error", `duplicate id "${id}": skipped`);
      }
      const version = pick(raw, "version")?.value;
      const cut = Object.keys(folder.versions ?? {}).some((k) => k.startsWith(`${rawId}/`));
      if (typeof version === "number" && version > 0 && !cut) {
        note(
          a.file,
          `${at}.version`,
          "unmapped",
          `is ${version}, but agent-versions/${rawId}/ holds no version file: none imported`,
        );
      }
      agents.push({ id, doc });
      agentIds.set(rawId, id);
    });
  }

  // ---- agent-versions/<id>/<n>.json → agents/versions/<id>/<n>.json (prompt inlined)
  const versions: { id: string; n: number; file: string; createdAt: string; doc: Obj }[] = [];
  for (const key of Object.keys(folder.versions ?? {}).sort()) {
    const file = `agent-versions/${key}`;
    const km = /^([^/]+)\/([1-9]\d*)\.json$/.exec(key);
    if (km === null) {
      note(file, "", "unmapped", "is not agent-versions/<agentId>/<n>.json: ignored");
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(folder.versions![key]);
    } catch (e) {
      note(file, "", "error", `is not valid JSON (${(e as Error).message}): version skipped`);
      continue;
    }
    if (!isObj(v)) {
      note(file, "", "error", "is not a JSON object: version skipped");
      continue;
    }
    unknownFields(v, file, "", ["agentId", "version", "cutAt", "config"]);
    const cfg = pick(v, "config")?.value;
    if (!isObj(cfg)) {
      note(file, "config", "error", "is missing: version skipped");
      continue;
    }
    const mapped = mapAgent(cfg, file, "config", true);
    if (mapped === null) continue;
    const id = agentIds.get(km[1]) ?? (ID.test(km[1]) ? km[1] : safeId(km[1]));
    const cutAt = str(v, "cutAt");
    const createdAt = cutAt && Number.isFinite(Date.parse(cutAt))
      ? new Date(Date.parse(cutAt)).toISOString()
      : "1970-01-01T00:00:00.000Z";
    if (createdAt.startsWith("1970")) {
      note(
        file,
        "cutAt",
        "changed",
        "is missing or not a time: createdAt 1970-01-01T00:00:00.000Z",
      );
    }
    versions.push({ id, n: Number(km[2]), file, createdAt, doc: { ...mapped.doc, id } });
  }

  // ---- tool-costs.json → agents/tool_prices.json
  const toolPrices: Record<string, number> = {};
  const t = read("tool-costs.json");
  if (t) {
    list(t, "toolCosts", {}).forEach((raw, i): void => {
      const at = `toolCosts[${i}]`;
      if (!isObj(raw)) return note(t.file, at, "error", "is not an object: skipped");
      unknownFields(raw, t.file, at, ["mcpServer", "tool", "costPerInvocation"]);
      const server = str(raw, "mcpServer");
      const tool = str(raw, "tool");
      const cost = pick(raw, "costPerInvocation")?.value;
      if (!server || !tool) {
        return note(t.file, at, "error", "needs mcpServer and tool: skipped");
      }
      if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) {
        return note(
          t.file,
          `${at}.costPerInvocation`,
          "error",
          `must be a number >= 0, got ${JSON.stringify(cost)}: skipped`,
        );
      }
      if (s && !servers[server]) {
        note(t.file, `${at}.mcpServer`, "info", `"${server}" is not an imported server`);
      }
      toolPrices[`${server}:${tool}`] = cost;
    });
  }

  // ---- capability-overrides.json → agents/overrides/<id>.json (+ the agent's overrides field)
  const overrides = new Map<string, Record<string, { description: string }>>();
  const o = read("capability-overrides.json");
  if (o) {
    list(o, "overrides", {}).forEach((raw, i): void => {
      const at = `overrides[${i}]`;
      if (!isObj(raw)) return note(o.file, at, "error", "is not an object: skipped");
      unknownFields(raw, o.file, at, ["agentId", "mcpServer", "tool", "description"]);
      const agentId = str(raw, "agentId");
      const server = str(raw, "mcpServer");
      const tool = str(raw, "tool");
      const description = pick(raw, "description")?.value;
      if (!agentId || !server || !tool) {
        return note(o.file, at, "error", "needs agentId, mcpServer and tool: skipped");
      }
      if (description === null || description === undefined) {
        return note(o.file, `${at}.description`, "info", "is null: ignored, as MAVERIK does");
      }
      if (typeof description !== "string") {
        return note(o.file, `${at}.description`, "error", "is not a string: skipped");
      }
      const target = agentIds.get(agentId);
      if (target === undefined) {
        return note(
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
  }
  for (const [id, map] of overrides) {
    const doc = {
      description:
        `tool descriptions for agent ${id}, imported from MAVERIK capability-overrides.json`,
      overrides: map,
    };
    try {
      parseToolOverrides(doc, `agents/overrides/${id}.json`);
    } catch (e) {
      note("capability-overrides.json", "", "error", `${(e as Error).message}: not written`);
      continue;
    }
    files[`agents/overrides/${id}.json`] = json(doc);
    agents.find((x) => x.id === id)!.doc.overrides = `overrides/${id}.json`;
  }

  // Agents are validated last: they may carry overrides.
  let agentCount = 0;
  for (const { id, doc } of agents) {
    try {
      parseAgents(doc, `agents/${id}.json`);
    } catch (e) {
      note("agents.json", id, "error", `${(e as Error).message}: skipped`);
      continue;
    }
    files[`agents/${id}.json`] = json(doc);
    agentCount++;
  }

  let versionCount = 0;
  for (const v of versions) {
    const path = `agents/versions/${v.id}/${v.n}.json`;
    let config: AgentConfig;
    try {
      const [draft] = parseAgents(v.doc, path);
      config = { ...draft, systemPrompt: draft.systemPrompt ?? "" };
    } catch (e) {
      note(v.file, "config", "error", `${(e as Error).message}: version skipped`);
      continue;
    }
    const version = {
      agentId: v.id,
      version: v.n,
      sha256: await snapshotSha256(config, v.id),
      createdAt: v.createdAt,
      config,
    };
    files[path] = stableJson(version);
    versionCount++;
  }

  // ---- maverik-suites/*.json → suites/<id>.json
  let suiteCount = 0;
  let caseCount = 0;
  const suiteIds = new Set<string>();
  for (const name of Object.keys(folder.suites).sort()) {
    const file = `maverik-suites/${name}`;
    let doc: unknown;
    try {
      doc = JSON.parse(folder.suites[name]);
    } catch (e) {
      inputs.push({ file, status: "malformed" });
      note(file, "", "error", `is not valid JSON (${(e as Error).message}): suite skipped`);
      continue;
    }
    if (!isObj(doc)) {
      inputs.push({ file, status: "malformed" });
      note(file, "", "error", "is not a JSON object: suite skipped");
      continue;
    }
    inputs.push({ file, status: "read" });
    unknownFields(doc, file, "", [
      "id",
      "name",
      "description",
      "agents",
      "judgeModel",
      "questions",
    ]);
    const rawId = str(doc, "id");
    if (!rawId) {
      note(file, "id", "error", "is missing: suite skipped");
      continue;
    }
    const id = ID.test(rawId) ? rawId : safeId(rawId);
    if (id !== rawId) note(file, "id", "changed", `"${rawId}" is written "${id}"`);
    if (suiteIds.has(id)) {
      note(file, "id", "error", `duplicate suite id "${id}": skipped`);
      continue;
    }
    const suiteAgents = pick(doc, "agents")?.value;
    if (Array.isArray(suiteAgents) && suiteAgents.length > 0) {
      note(
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
      note(file, "questions", "error", "is missing or not an array: suite skipped");
      continue;
    }
    const cases: Obj[] = [];
    qs.forEach((q, i): void => {
      const at = `questions[${i}]`;
      if (!isObj(q)) return note(file, at, "error", "is not an object: question skipped");
      unknownFields(q, file, at, ["id", "text", "criterion"]);
      const qRaw = str(q, "id");
      if (!qRaw) return note(file, `${at}.id`, "error", "is missing: question skipped");
      const qid = ID.test(qRaw) ? qRaw : safeId(qRaw);
      if (qid !== qRaw) note(file, `${at}.id`, "changed", `"${qRaw}" is written "${qid}"`);
      if (cases.some((c) => c.id === qid)) {
        return note(file, `${at}.id`, "error", `duplicate question id "${qid}": skipped`);
      }
      const text = str(q, "text");
      if (!text || text.trim() === "") {
        return note(file, `${at}.text`, "error", "is empty: question skipped");
      }
      const c = pick(q, "criterion")?.value;
      if (!isObj(c)) return note(file, `${at}.criterion`, "error", "is missing: question skipped");
      const cat = `${at}.criterion`;
      unknownFields(c, file, cat, [
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
      let criterion: Obj;
      if (type === "exact" || type === "contains") {
        if (!expected) {
          return note(file, `${cat}.expected`, "error", `is empty for ${type}: question skipped`);
        }
        criterion = type === "exact"
          ? { type: "exact", value: expected, caseSensitive: cs }
          : { type: "contains", values: [expected], caseSensitive: cs };
      } else if (type === "regex") {
        let pattern = str(c, "pattern") ?? "";
        let flags = "";
        const inline = /^\(\?([imsx]+)\)/.exec(pattern);
        if (inline && /^[ims]+$/.test(inline[1])) {
          flags = inline[1];
          pattern = pattern.slice(inline[0].length);
          note(
            file,
            `${cat}.pattern`,
            "changed",
            `.NET inline options (?${inline[1]}) became flags "${flags}"`,
          );
        }
        if (pattern === "") {
          return note(file, `${cat}.pattern`, "error", "is empty: question skipped");
        }
        try {
          new RegExp(pattern, flags);
        } catch (e) {
          return note(
            file,
            `${cat}.pattern`,
            "error",
            `does not compile as a JavaScript regex (${(e as Error).message}): question skipped`,
          );
        }
        if (pick(c, "caseSensitive") !== undefined) {
          note(
            file,
            `${cat}.caseSensitive`,
            "info",
            "MAVERIK ignores it for regex: the pattern stays case-sensitive",
          );
        }
        criterion = { type: "regex", pattern, ...(flags ? { flags } : {}) };
      } else if (type === "llm-judge") {
        const rubric = str(c, "rubric");
        if (!rubric || rubric.trim() === "") {
          return note(file, `${cat}.rubric`, "error", "is empty: question skipped");
        }
        const model = str(c, "judgeModel") ?? judge;
        if (!model) {
          return note(
            file,
            `${cat}.judgeModel`,
            "error",
            "no judge model here nor on the suite: question skipped",
          );
        }
        if (m && !modelIds.has(model)) {
          note(file, `${cat}.judgeModel`, "info", `"${model}" is not an imported model`);
        }
        criterion = { type: "llm_judge", rubric, model };
      } else {
        return note(
          file,
          `${cat}.type`,
          "error",
          `${
            JSON.stringify(str(c, "type") ?? null)
          } is not exact, contains, regex or llm-judge: question skipped`,
        );
      }
      cases.push({ id: qid, question: text, criterion });
    });
    if (cases.length === 0) {
      note(file, "questions", "error", "no question could be imported: suite skipped");
      continue;
    }
    const description = [str(doc, "name"), str(doc, "description")].filter((x) => x).join(": ");
    const out = {
      id,
      description,
      cases,
    };
    try {
      parseSuite(out, `suites/${id}.json`);
    } catch (e) {
      note(file, "", "error", `${(e as Error).message}: suite skipped`);
      continue;
    }
    suiteIds.add(id);
    files[`suites/${id}.json`] = json(out);
    suiteCount++;
    caseCount += cases.length;
  }

  if (models.length > 0) files["agents/models.json"] = json({ models });
  if (Object.keys(servers).length > 0) {
    files["agents/servers.json"] = json({
      mcpServers: Object.fromEntries(Object.entries(servers).sort(([x], [y]) => x < y ? -1 : 1)),
    });
  }
  if (Object.keys(toolPrices).length > 0) {
    const sorted = Object.fromEntries(
      Object.entries(toolPrices).sort(([x], [y]) => x < y ? -1 : 1),
    );
    parseToolPrices({ toolPrices: sorted });
    files["agents/tool_prices.json"] = json({ toolPrices: sorted });
  }
  return {
    files,
    issues,
    inputs,
    counts: {
      agents: agentCount,
      versions: versionCount,
      models: models.length,
      servers: Object.keys(servers).length,
      toolPrices: Object.keys(toolPrices).length,
      overrides: [...overrides.values()].reduce((n, x) => n + Object.keys(x).length, 0),
      suites: suiteCount,
      cases: caseCount,
    },
  };
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
