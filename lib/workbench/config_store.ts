/**
 * The workbench's working configuration: a folder (default `results/config/`) created on first
 * start from the committed examples and edited from the browser or the API.
 *
 * Writes are serialized: one at a time, and no read of the store runs while one is under way,
 * so parallel requests see the config before or after each write, never between its files. A
 * write is checked first, as a whole document (the committed JSON Schemas in
 * `lib/agent/schemas/`, the servers-config parser, the number rule of `lib/core/numbers.ts`),
 * then against the whole config as it will be after it (each agent's model, judge models and
 * summarizers in the registry, each agent's servers in servers.json): a document that is wrong
 * in itself is refused with 400 naming its field, one that would break what another document
 * uses with 409 naming it; a refused write changes nothing. Files are written atomically (a
 * temporary file renamed over the old), and only inside the folder: a top-level file
 * (`models.json`, `servers.json`, `tool_prices.json`) whose real location is outside it, through
 * a symbolic link, is refused, and so is an `agents/` or `suites/` folder linked from outside;
 * symlinked agent and suite files are skipped.
 *
 * Layout (the CLI reads the same files: `deno task agents --agents-dir DIR/agents --models
 * DIR/models.json --servers DIR/servers.json --tool-prices DIR/tool_prices.json --suite
 * DIR/suites/FILE.json`):
 *
 * ```
 * agents/<id>.json      one agent per file (systemPromptFile relative to agents/)
 * agents/prompts/*.md   prompt files
 * models.json           model registry (plus the scripted local models)
 * servers.json          MCP servers (mcpServers shape)
 * tool_prices.json      USD per call by server:tool
 * suites/<file>.json    one suite per file
 * ```
 *
 * Secrets: values are stored as written (`${VAR}` references stay references). What the store
 * returns for display has literal secrets replaced by `[REDACTED]`; a PUT that sends a
 * `[REDACTED]` value back keeps the stored one.
 *
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { loadToolOverrides } from "../catalog/load_overrides.ts";
import {
  AgentConfigError,
  parseAgents,
  parseModels,
  parseSuite,
  parseToolPrices,
  requiredModelIds,
} from "../agent/config.ts";
import type { AgentConfig, ModelConfig, Suite, ToolPrices } from "../agent/types.ts";
import { parseServersConfig } from "../mcp/config.ts";
import { SCRIPTED_MODEL_IDS, SCRIPTED_MODELS } from "../agent/demo_policy.ts";
import { ConfigError } from "../mcp/errors.ts";
import { serversSecrets } from "../mcp/secrets.ts";
import { modelSecrets } from "../agent/secrets.ts";
import { argSecrets, isSecretName, REDACTED, redactText, urlSecrets } from "../core/secrets.ts";
import { checkId, confinedPath, WorkbenchError } from "./_paths.ts";
import { writeAtomic } from "../core/files.ts";
import { AsyncLocalStorage } from "node:async_hooks";

/** The placeholder shown instead of a secret value. */
export const REDACTED_VALUE: string = REDACTED;

/** The config documents editable as a whole. */
export type ConfigKind = "agents" | "models" | "servers" | "tool-prices";

/** File names of the whole-document kinds, inside the config folder. */
export const CONFIG_FILES: Readonly<Record<Exclude<ConfigKind, "agents">, string>> = {
  models: "models.json",
  servers: "servers.json",
  "tool-prices": "tool_prices.json",
};

export { SCRIPTED_MODEL_IDS, SCRIPTED_MODELS } from "../agent/demo_policy.ts";

/** Base URLs of the scripted models: the variables the workbench points at its scripted server. */
const SCRIPTED_URLS = new Set(SCRIPTED_MODELS.map((m) => String(m.baseUrl)));

const PURE_REF = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * What a config value looks like when shown: a pure `${VAR}` reference as written, a
 * `${VAR:-default}` with its default replaced, anything else replaced whole.
 *
 * @param value The stored value.
 * @returns The value safe to show.
 */
export function redactValue(value: string): string {
  if (PURE_REF.test(value)) return value;
  const withDefault = /^(\$\{[A-Za-z_][A-Za-z0-9_]*:-)[^}]*\}$/.exec(value);
  if (withDefault) return `${withDefault[1]}${REDACTED_VALUE}}`;
  return REDACTED_VALUE;
}

/** Inputs of {@linkcode openConfigStore}. */
export interface OpenConfigStoreOptions {
  /** The working config folder; created from the examples when missing. */
  readonly dir: string;
  /** Folder of the example agents, models, servers and tool prices (`fixtures/agents`). */
  readonly agentsExamples: string;
  /** Folder of the example suites (`fixtures/suites`). */
  readonly suitesExamples: string;
  /** Folder of the committed JSON Schemas, for the `$schema` of copied files. */
  readonly schemasDir: string;
}

/** An agent as written in its file, with the file name. */
export interface AgentEntry {
  /** File name inside `agents/`. */
  readonly file: string;
  /** The agent object as written. */
  readonly agent: JsonObject;
}

/** A suite file with its parsed suite. */
export interface SuiteEntry {
  /** File name inside `suites/`. */
  readonly file: string;
  /** The parsed suite. */
  readonly suite: Suite;
}

const errorOf = (e: unknown, prefix = ""): WorkbenchError => {
  if (e instanceof WorkbenchError) return e;
  if (e instanceof AgentConfigError) {
    const field = e.field === "" ? prefix : prefix ? `${prefix}.${e.field}` : e.field;
    const problem = e.message.replace(/^Cannot load [^"]*"[^"]*": (field "[^"]*" )?/, "");
    return new WorkbenchError(
      400,
      field ? `field "${field}" ${problem}` : problem,
      field || undefined,
    );
  }
  if (e instanceof ConfigError) {
    const parts = [e.server, e.field].filter((x) => x !== undefined);
    const field = parts.length === 0 ? prefix : ["mcpServers", ...parts].join(".");
    return new WorkbenchError(400, e.message, field || undefined);
  }
  return new WorkbenchError(400, (e as Error).message);
};

async function readJson(path: string): Promise<JsonValue> {
  return JSON.parse(await Deno.readTextFile(path)) as JsonValue;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

async function jsonFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".json")) out.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort();
}

const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Restores stored secrets where a document sent back shows them redacted.
 *
 * @param incoming The new value (from the browser).
 * @param stored The stored value it replaces, if any.
 * @param shown How the stored value was shown (what a browser sends back unchanged).
 * @param field Field name for the error.
 * @returns The value to store.
 * @throws {WorkbenchError} 400 when a redacted value has no stored counterpart.
 */
function unredact(
  incoming: string,
  stored: string | undefined,
  shown: string | undefined,
  field: string,
): string {
  if (!incoming.includes(REDACTED_VALUE)) return incoming;
  if (stored !== undefined && shown === incoming) return stored;
  throw new WorkbenchError(
    400,
    `field "${field}" holds ${REDACTED_VALUE}: write the value or a \${VAR} reference`,
    field,
  );
}

/** A reference one document makes to another that the config does not hold. */
interface Dangling {
  /** Stable identity of the problem (to tell the ones a write brings from those it found). */
  readonly key: string;
  /** The document holding the reference: `agent:ID` or `suite:ID`. */
  readonly owner: string;
  /** The reference, e.g. `agent "a" uses model "m"`. */
  readonly uses: string;
  /** What does not hold its target: `the model registry` or `servers.json`. */
  readonly holder: string;
}

/** What cross-references are read from: the ids and names each document offers and uses. */
interface Refs {
  /** Chat model registry ids (`null`: the registry is unreadable, nothing checked against it). */
  readonly models: ReadonlySet<string> | null;
  /** Server names of servers.json (`null`: unreadable). */
  readonly servers: ReadonlySet<string> | null;
  /** Agents as written. */
  readonly agents: readonly JsonObject[];
  /** Suites by id. */
  readonly suites: readonly Suite[];
}

/** The references of `refs` that point at nothing, every document checked. */
function danglingRefs(refs: Refs): Dangling[] {
  const out: Dangling[] = [];
  const add = (owner: string, what: string, id: string, holder: string) => {
    const [kind, name] = [owner.slice(0, owner.indexOf(":")), owner.slice(owner.indexOf(":") + 1)];
    out.push({
      key: `${owner}\u0000${what}\u0000${id}`,
      owner,
      uses: `${kind} "${name}" uses ${what} "${id}"`,
      holder,
    });
  };
  const model = (owner: string, what: string, id: unknown) => {
    if (refs.models !== null && typeof id === "string" && !refs.models.has(id)) {
      add(owner, what, id, "the model registry (chat models)");
    }
  };
  for (const a of refs.agents) {
    const owner = `agent:${a.id}`;
    model(owner, "model", a.model);
    const cs = a.contextStrategy;
    if (isObject(cs) && cs.type === "summarize") model(owner, "summarizer model", cs.model);
    if (refs.servers === null || !Array.isArray(a.mcpServers)) continue;
    for (const s of a.mcpServers) {
      if (typeof s === "string" && !refs.servers.has(s)) add(owner, "server", s, "servers.json");
    }
  }
  for (const suite of refs.suites) {
    for (const id of requiredModelIds([], suite)) model(`suite:${suite.id}`, "judge model", id);
  }
  return out;
}

/**
 * The chat model a field names.
 *
 * @param models The registry.
 * @param id Registry id as given.
 * @param field Field name for the error.
 * @returns The model.
 * @throws {WorkbenchError} 400 naming the field when the id is not registered or is an
 *   embedding model (which answers no chat request).
 */
export function chatModel(models: readonly ModelConfig[], id: unknown, field: string): ModelConfig {
  const chat = models.filter((m) => m.kind !== "embedding").map((m) => m.id);
  const found = models.find((m) => m.id === id);
  if (found === undefined) {
    throw new WorkbenchError(
      400,
      `field "${field}" names ${
        JSON.stringify(id)
      }, which is not in the model registry (chat models: ${chat.join(", ")})`,
      field,
    );
  }
  if (found.kind === "embedding") {
    throw new WorkbenchError(
      400,
      `field "${field}" names "${found.id}", an embedding model (for the dense and hybrid retrievers); a chat model is needed here: ${
        chat.join(", ")
      }`,
      field,
    );
  }
  return found;
}

/** The working config folder: reads, validated serialized writes, redacted views. */
export class ConfigStore {
  /** Absolute path of the folder. */
  readonly dir: string;
  /** `true` when this process created the folder from the examples. */
  readonly bootstrapped: boolean;
  /** Tail of the queue of operations; each runs alone (see {@linkcode ConfigStore.#serial}). */
  #tail: Promise<unknown> = Promise.resolve();
  /** Set while an operation of this store runs: a nested call joins it instead of queueing. */
  readonly #inside = new AsyncLocalStorage<true>();

  /**
   * Runs `f` alone: after every operation queued before it, before any queued after. A call
   * made from inside another (a write that reads the registry) runs at once.
   */
  #serial<T>(f: () => Promise<T>): Promise<T> {
    if (this.#inside.getStore()) return f();
    const run = this.#tail.then(() => this.#inside.run(true, f));
    this.#tail = run.catch(() => {});
    return run;
  }

  /**
   * A top-level file of the folder, refused when its real location (symbolic links followed)
   * is outside it.
   */
  async #file(name: string): Promise<string> {
    try {
      return await confinedPath(this.dir, name, name);
    } catch (e) {
      if (!(e instanceof WorkbenchError)) throw e;
      throw new WorkbenchError(
        400,
        `${name} is a link to a file outside the config folder, which the workbench does not read: put the file itself in the folder`,
        name,
      );
    }
  }

  /**
   * The `agents/` or `suites/` folder, refused (like a top-level file) when its real location is
   * outside the config folder: a folder linked from elsewhere had every file in it read.
   */
  async #dir(name: "agents" | "suites"): Promise<string> {
    try {
      return await confinedPath(this.dir, name, name);
    } catch (e) {
      if (!(e instanceof WorkbenchError)) throw e;
      throw new WorkbenchError(
        400,
        `${name}/ is a link to a folder outside the config folder, which the workbench does not read: put the folder itself in it`,
        name,
      );
    }
  }

  /**
   * Wraps an existing folder (use {@linkcode openConfigStore} to create one).
   *
   * @param dir Config folder (absolute).
   * @param bootstrapped Whether it was just created.
   */
  constructor(dir: string, bootstrapped: boolean) {
    this.dir = dir;
    this.bootstrapped = bootstrapped;
  }

  /** Paths the CLI takes for the same config. */
  paths(): {
    agentsDir: string;
    models: string;
    servers: string;
    toolPrices: string;
    suitesDir: string;
  } {
    return {
      agentsDir: join(this.dir, "agents"),
      models: join(this.dir, CONFIG_FILES.models),
      servers: join(this.dir, CONFIG_FILES.servers),
      toolPrices: join(this.dir, CONFIG_FILES["tool-prices"]),
      suitesDir: join(this.dir, "suites"),
    };
  }

  /**
   * {@linkcode ConfigStore.paths}, each top-level file checked to be really inside the folder:
   * what the runner and chat hand to the CLI's loaders.
   *
   * @returns The paths.
   * @throws {WorkbenchError} 400 when a top-level file links out of the folder.
   */
  files(): Promise<ReturnType<ConfigStore["paths"]>> {
    return this.#serial(async () => {
      const paths = this.paths();
      for (const name of Object.values(CONFIG_FILES)) await this.#file(name);
      await this.#dir("agents");
      await this.#dir("suites");
      return paths;
    });
  }

  /** The cross-references of the config as it is on disk. */
  async #refs(): Promise<Refs> {
    const ids = async (name: string, read: (doc: JsonValue) => string[]) => {
      try {
        return new Set(read(await readJson(await this.#file(name))));
      } catch {
        return null;
      }
    };
    return {
      // Agents, summarizers and judges need chat models: an embedding model is no target.
      models: await ids(
        CONFIG_FILES.models,
        (doc) =>
          isObject(doc) && Array.isArray(doc.models)
            ? doc.models.flatMap((m) =>
              isObject(m) && typeof m.id === "string" && m.kind !== "embedding" ? [m.id] : []
            )
            : [],
      ),
      servers: await ids(CONFIG_FILES.servers, (doc) => {
        const table = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
        return isObject(table) ? Object.keys(table) : [];
      }),
      agents: (await this.#agentEntries()).map((e) => e.agent),
      suites: (await this.#suiteEntries()).suites.map((e) => e.suite),
    };
  }

  /**
   * Refuses a write that would leave a reference pointing at nothing where the config had none:
   * a reference the written document makes is its own fault (400), one another document makes
   * is a conflict with it (409). References that dangled before the write are not its doing.
   *
   * @param written The written document: `agent:ID` or `suite:ID`, or the field a whole
   *   registry, servers config or agent set is named by (`models`, `mcpServers`, `agents`).
   * @param change The config after the write, from the one before.
   */
  async #checkRefs(written: string, change: (refs: Refs) => Refs): Promise<void> {
    const before = await this.#refs();
    const known = new Set(danglingRefs(before).map((d) => d.key));
    const brought = danglingRefs(change(before)).filter((d) => !known.has(d.key));
    if (brought.length === 0) return;
    const own = brought.find((d) => d.owner === written);
    if (own !== undefined) {
      throw new WorkbenchError(400, `${own.uses}, which ${own.holder} does not hold`);
    }
    const field = written.includes(":") ? undefined : written;
    throw new WorkbenchError(
      409,
      `${field === undefined ? "" : `${field}: `}${
        brought.map((d) => d.uses).join("; ")
      }, which this write drops: change ${
        brought.length === 1 ? "that document" : "those documents"
      } first`,
      field,
    );
  }

  // ---- agents -------------------------------------------------------------------------------

  /** Agents as written, one per file, sorted by id. */
  agentEntries(): Promise<AgentEntry[]> {
    return this.#serial(() => this.#agentEntries());
  }

  async #agentEntries(): Promise<AgentEntry[]> {
    const dir = await this.#dir("agents");
    const out: AgentEntry[] = [];
    for (const file of await jsonFiles(dir)) {
      const doc = await readJson(join(dir, file));
      if (isObject(doc) && Array.isArray(doc.agents)) {
        for (const a of doc.agents) if (isObject(a)) out.push({ file, agent: a });
      } else if (isObject(doc)) out.push({ file, agent: doc });
    }
    return out.sort((a, b) => String(a.agent.id) < String(b.agent.id) ? -1 : 1);
  }

  /**
   * Agents resolved for running (prompt files read). Server-side only: a prompt is not a
   * secret, but this is what the runner uses.
   *
   * @returns Agents sorted by id.
   * @throws {WorkbenchError} 400 when a file does not validate.
   */
  loadAgents(): Promise<AgentConfig[]> {
    return this.#serial(() => this.#loadAgents());
  }

  async #loadAgents(): Promise<AgentConfig[]> {
    const dir = await this.#dir("agents");
    const out: AgentConfig[] = [];
    for (const { file, agent } of await this.#agentEntries()) {
      let draft;
      try {
        [draft] = parseAgents(agent, file);
      } catch (e) {
        throw errorOf(e);
      }
      let systemPrompt = draft.systemPrompt;
      if (systemPrompt === undefined) {
        const path = await confinedPath(dir, draft.systemPromptFile!, "systemPromptFile");
        systemPrompt = await Deno.readTextFile(path);
      }
      const { systemPromptFile: _f, overridesFile, ...rest } = draft;
      // An overrides path, like a prompt file, must stay inside agents/.
      const overrides = overridesFile === undefined ? rest.overrides : await loadToolOverrides(
        await confinedPath(dir, overridesFile, "overrides"),
        overridesFile,
      ).catch((e) => {
        throw e instanceof WorkbenchError
          ? e
          : new WorkbenchError(400, (e as Error).message, "overrides");
      });
      out.push({ ...rest, systemPrompt, ...(overrides === undefined ? {} : { overrides }) });
    }
    return out;
  }

  /**
   * Validates one agent against the schema and the rest of the config: its model (and a
   * summarizer's) is a chat model of the registry, its servers are in the servers config, its prompt file (and an `overrides` file,
   * which must also validate) is inside the folder.
   */
  async #checkAgent(agent: unknown, prefix: string): Promise<JsonObject> {
    if (!isObject(agent)) {
      throw new WorkbenchError(400, `${prefix || "body"} must be an agent object`, prefix);
    }
    let draft;
    try {
      [draft] = parseAgents(agent, prefix || "agent");
    } catch (e) {
      throw errorOf(e, prefix);
    }
    const at = (f: string) => prefix ? `${prefix}.${f}` : f;
    const models = await this.loadModels();
    chatModel(models, draft.model, at("model"));
    if (draft.contextStrategy?.type === "summarize") {
      chatModel(models, draft.contextStrategy.model, at("contextStrategy.model"));
    }
    const servers = await this.serverNames();
    draft.mcpServers.forEach((s, i) => {
      if (!servers.includes(s)) {
        throw new WorkbenchError(
          400,
          `field "${at(`mcpServers[${i}]`)}" names "${s}", which is not in servers.json (${
            servers.join(", ")
          })`,
          at(`mcpServers[${i}]`),
        );
      }
    });
    if (draft.systemPromptFile !== undefined) {
      const path = await confinedPath(
        await this.#dir("agents"),
        draft.systemPromptFile,
        at("systemPromptFile"),
      );
      if (!(await exists(path))) {
        throw new WorkbenchError(
          400,
          `field "${
            at("systemPromptFile")
          }" names "${draft.systemPromptFile}", which does not exist`,
          at("systemPromptFile"),
        );
      }
    }
    if (draft.overridesFile !== undefined) {
      const path = await confinedPath(
        await this.#dir("agents"),
        draft.overridesFile,
        at("overrides"),
      );
      await loadToolOverrides(path, draft.overridesFile).catch((e) => {
        throw new WorkbenchError(
          400,
          `field "${at("overrides")}" names "${draft.overridesFile}", which cannot be used: ${
            (e as Error).message
          }`,
          at("overrides"),
        );
      });
    }
    return agent;
  }

  /**
   * Replaces one agent (or adds it as `agents/<id>.json`).
   *
   * @param id Agent id from the URL.
   * @param agent The agent object as it should be written.
   * @throws {WorkbenchError} 400 on an invalid agent or an id that differs from the URL's.
   */
  putAgent(id: string, agent: unknown): Promise<void> {
    return this.#serial(() => this.#putAgent(id, agent));
  }

  async #putAgent(id: string, agent: unknown): Promise<void> {
    checkId(id, "id");
    const checked = await this.#checkAgent(agent, "");
    if (checked.id !== id) {
      throw new WorkbenchError(400, `field "id" must be "${id}" (the id in the URL)`, "id");
    }
    const entries = await this.#agentEntries();
    const current = entries.find((e) => e.agent.id === id);
    if (current !== undefined && entries.filter((e) => e.file === current.file).length > 1) {
      throw new WorkbenchError(
        409,
        `agent "${id}" shares ${current.file} with other agents; edit the whole list with PUT /api/config/agents`,
      );
    }
    const file = current?.file ?? `${id}.json`;
    const path = await confinedPath(await this.#dir("agents"), file, "id");
    await this.#checkRefs(`agent:${id}`, (refs) => ({
      ...refs,
      agents: [...refs.agents.filter((a) => a.id !== id), checked],
    }));
    await writeAtomic(path, JSON.stringify(checked, null, 2) + "\n");
  }

  /**
   * Adds an agent as `agents/<id>.json`.
   *
   * @param agent The agent object as it should be written (its `id` names the file).
   * @returns Its id.
   * @throws {WorkbenchError} 400 on an invalid agent, 409 when the id is taken.
   */
  createAgent(agent: unknown): Promise<string> {
    return this.#serial(async () => {
      const id = checkId((agent as { id?: unknown } | null)?.id, "id");
      if ((await this.#agentEntries()).some((e) => e.agent.id === id)) {
        throw new WorkbenchError(409, `agent "${id}" exists; edit it on its page`, "id");
      }
      const path = await confinedPath(await this.#dir("agents"), `${id}.json`, "id");
      if (await exists(path)) {
        throw new WorkbenchError(409, `agents/${id}.json exists (with another id inside)`, "id");
      }
      const checked = await this.#checkAgent(agent, "");
      await this.#checkRefs(`agent:${id}`, (refs) => ({
        ...refs,
        agents: [...refs.agents, checked],
      }));
      await writeAtomic(path, JSON.stringify(checked, null, 2) + "\n");
      return id;
    });
  }

  /**
   * Removes an agent's file. Its versions and the runs that used it stay; its prompt file stays
   * (another agent may share it).
   *
   * @param id Agent id.
   * @throws {WorkbenchError} 404 when unknown, 409 when its file holds other agents too.
   */
  deleteAgent(id: string): Promise<void> {
    return this.#serial(async () => {
      checkId(id, "id");
      const entries = await this.#agentEntries();
      const entry = entries.find((e) => e.agent.id === id);
      if (entry === undefined) throw new WorkbenchError(404, `no agent "${id}"`, "id");
      if (entries.filter((e) => e.file === entry.file).length > 1) {
        throw new WorkbenchError(
          409,
          `agent "${id}" shares ${entry.file} with other agents; edit the whole list with PUT /api/config/agents`,
        );
      }
      await Deno.remove(await confinedPath(await this.#dir("agents"), entry.file, "id"));
    });
  }

  /**
   * Replaces the whole agent set (`{agents: [...]}`): every agent validated first, then one
   * file per agent; files of agents no longer listed are removed.
   *
   * @param doc `{agents: [...]}`.
   * @throws {WorkbenchError} 400 naming `agents[i].field` on the first invalid agent.
   */
  putAgents(doc: unknown): Promise<void> {
    return this.#serial(() => this.#putAgents(doc));
  }

  async #putAgents(doc: unknown): Promise<void> {
    if (!isObject(doc) || !Array.isArray(doc.agents)) {
      throw new WorkbenchError(400, `body must be {"agents": [...]}`, "agents");
    }
    const checked: JsonObject[] = [];
    const seen = new Set<string>();
    for (const [i, a] of doc.agents.entries()) {
      const agent = await this.#checkAgent(a, `agents[${i}]`);
      checkId(agent.id, `agents[${i}].id`);
      if (seen.has(String(agent.id))) {
        throw new WorkbenchError(
          400,
          `field "agents[${i}].id" duplicates "${agent.id}"`,
          `agents[${i}].id`,
        );
      }
      seen.add(String(agent.id));
      checked.push(agent);
    }
    await this.#checkRefs("agents", (refs) => ({ ...refs, agents: checked }));
    const dir = await this.#dir("agents");
    const before = await jsonFiles(dir);
    // Every agent's file first, then the files of agents no longer listed: each file is whole at
    // any moment, and no read of the store runs between the two steps.
    for (const agent of checked) {
      const path = await confinedPath(dir, `${agent.id}.json`, "agents");
      await writeAtomic(path, JSON.stringify(agent, null, 2) + "\n");
    }
    const keep = new Set(checked.map((a) => `${a.id}.json`));
    for (const file of before) if (!keep.has(file)) await Deno.remove(join(dir, file));
  }

  // ---- models, servers, tool prices -----------------------------------------------------------

  /**
   * A whole document as stored, with secrets redacted.
   *
   * @param kind Which document.
   * @returns The JSON document.
   */
  getDoc(kind: Exclude<ConfigKind, "agents">): Promise<JsonValue> {
    return this.#serial(() => this.#getDoc(kind));
  }

  async #getDoc(kind: Exclude<ConfigKind, "agents">): Promise<JsonValue> {
    const doc = await readJson(await this.#file(CONFIG_FILES[kind]));
    if (kind === "models" && isObject(doc) && Array.isArray(doc.models)) {
      return {
        ...doc,
        models: doc.models.map((m) =>
          isObject(m) && typeof m.apiKey === "string" ? { ...m, apiKey: redactValue(m.apiKey) } : m
        ),
      };
    }
    if (kind === "servers" && isObject(doc)) return shownServers(doc);
    return doc;
  }

  /**
   * Validates and writes a whole document; `[REDACTED]` values keep the stored secret.
   *
   * @param kind Which document.
   * @param doc The new document.
   * @throws {WorkbenchError} 400 naming the field when it does not validate, 409 when an agent
   *   or suite uses a model or server it drops (nothing written).
   */
  putDoc(kind: Exclude<ConfigKind, "agents">, doc: unknown): Promise<void> {
    return this.#serial(() => this.#putDoc(kind, doc));
  }

  async #putDoc(kind: Exclude<ConfigKind, "agents">, doc: unknown): Promise<void> {
    const path = await this.#file(CONFIG_FILES[kind]);
    const stored = await readJson(path).catch(() => null);
    let value = doc;
    if (kind === "models") {
      if (!isObject(doc) || !Array.isArray(doc.models)) {
        throw new WorkbenchError(400, `body must be {"models": [...]}`, "models");
      }
      const old = isObject(stored) && Array.isArray(stored.models) ? stored.models : [];
      value = {
        ...doc,
        models: doc.models.map((m, i) => {
          if (!isObject(m) || typeof m.apiKey !== "string") return m;
          const before = old.find((o) => isObject(o) && o.id === m.id) as JsonObject | undefined;
          const stored = before?.apiKey as string | undefined;
          return {
            ...m,
            apiKey: unredact(
              m.apiKey,
              stored,
              stored === undefined ? undefined : redactValue(stored),
              `models[${i}].apiKey`,
            ),
          };
        }),
      };
      let models: ModelConfig[];
      try {
        models = parseModels(value, CONFIG_FILES.models);
      } catch (e) {
        throw errorOf(e);
      }
      // Agents and suites must keep naming registered chat models.
      await this.#checkRefs("models", (refs) => ({
        ...refs,
        models: new Set(models.filter((m) => m.kind !== "embedding").map((m) => m.id)),
      }));
    } else if (kind === "servers") {
      if (!isObject(doc)) throw new WorkbenchError(400, "body must be a JSON object", "mcpServers");
      const old = isObject(stored) ? stored : {};
      const shownOld = shownServers(old);
      value = mapServerStrings(
        doc,
        (v, path) => unredact(v, getAt(old, path), getAt(shownOld, path), path.join(".")),
      );
      let names: Set<string>;
      try {
        const parsed = parseServersConfig(value as JsonValue, { source: CONFIG_FILES.servers });
        names = new Set(parsed.servers.map((s) => s.name));
      } catch (e) {
        throw errorOf(e);
      }
      // Agents must keep naming configured servers (as they must keep naming registered models).
      await this.#checkRefs("mcpServers", (refs) => ({ ...refs, servers: names }));
    } else {
      try {
        parseToolPrices(doc, CONFIG_FILES["tool-prices"]);
      } catch (e) {
        throw errorOf(e);
      }
    }
    await writeAtomic(path, JSON.stringify(value, null, 2) + "\n");
  }

  /**
   * Adds servers to `servers.json` (its other entries kept as stored).
   *
   * @param entries Servers-config entries by name.
   * @throws {WorkbenchError} 409 naming the servers already configured; 400 when the result
   *   does not validate (nothing written).
   */
  addServers(entries: Readonly<Record<string, JsonObject>>): Promise<void> {
    return this.#serial(async () => {
      const path = await this.#file(CONFIG_FILES.servers);
      const stored = await readJson(path).catch(() => ({})) as JsonValue;
      const doc = isObject(stored) ? stored : {};
      const key = "servers" in doc && !("mcpServers" in doc) ? "servers" : "mcpServers";
      const table = isObject(doc[key]) ? doc[key] as JsonObject : {};
      const taken = Object.keys(entries).filter((n) => n in table);
      if (taken.length > 0) {
        throw new WorkbenchError(
          409,
          `server${taken.length > 1 ? "s" : ""} ${
            taken.map((n) => `"${n}"`).join(", ")
          } already configured: edit ${
            taken.length > 1 ? "them" : "it"
          } below, or rename in the pasted text`,
          "text",
        );
      }
      const value = { ...doc, [key]: { ...table, ...entries } };
      try {
        parseServersConfig(value as JsonValue, { source: CONFIG_FILES.servers });
      } catch (e) {
        throw errorOf(e);
      }
      await writeAtomic(path, JSON.stringify(value, null, 2) + "\n");
    });
  }

  /**
   * The parsed model registry. A model served by the workbench's scripted server (its base URL
   * is `${MCPMETER_SCRIPTED_URL}` or `${MCPMETER_SCRIPTED_OPENAI_URL}`) is `simulated`, also
   * in a config created before the field existed.
   */
  loadModels(): Promise<ModelConfig[]> {
    return this.#serial(async () => {
      const path = await this.#file(CONFIG_FILES.models);
      let models: ModelConfig[];
      try {
        models = parseModels(await Deno.readTextFile(path), CONFIG_FILES.models);
      } catch (e) {
        throw errorOf(e);
      }
      return models.map((m) => SCRIPTED_URLS.has(m.baseUrl ?? "") ? { ...m, simulated: true } : m);
    });
  }

  /** The parsed tool prices (none when the file is absent). */
  loadToolPrices(): Promise<ToolPrices> {
    return this.#serial(async () => {
      const path = await this.#file(CONFIG_FILES["tool-prices"]);
      if (!(await exists(path))) return {};
      try {
        return parseToolPrices(await Deno.readTextFile(path), CONFIG_FILES["tool-prices"]);
      } catch (e) {
        throw errorOf(e);
      }
    });
  }

  /**
   * What the config resolves from secrets (each model's key and variables, each server's
   * credentials: lib/agent `modelSecrets`, lib/mcp `serversSecrets`), for the workbench's
   * redactor. A document that cannot be read adds nothing.
   *
   * @param env The variables the config is expanded from.
   * @returns Secret values.
   */
  secrets(env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
    return this.#serial(async () => {
      const out: string[] = [];
      try {
        out.push(...modelSecrets(await this.loadModels(), env));
      } catch { /* an unreadable registry resolves nothing */ }
      try {
        const path = await this.#file(CONFIG_FILES.servers);
        const parsed = parseServersConfig(await Deno.readTextFile(path), {
          source: CONFIG_FILES.servers,
        });
        out.push(...serversSecrets(parsed, env));
      } catch { /* nor does an unreadable servers config */ }
      return out;
    });
  }

  /** Names of the servers in `servers.json`, sorted. */
  serverNames(): Promise<string[]> {
    return this.#serial(async () => {
      const path = await this.#file(CONFIG_FILES.servers);
      const doc = await readJson(path).catch(() => ({}));
      const table = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
      return isObject(table) ? Object.keys(table).sort() : [];
    });
  }

  // ---- prompts --------------------------------------------------------------------------------

  async #promptTarget(
    agentId: string,
  ): Promise<{ entry: AgentEntry; path: string | null }> {
    checkId(agentId, "agentId");
    const entry = (await this.#agentEntries()).find((e) => e.agent.id === agentId);
    if (entry === undefined) throw new WorkbenchError(404, `no agent "${agentId}"`, "agentId");
    const file = entry.agent.systemPromptFile;
    if (typeof file !== "string") return { entry, path: null };
    return {
      entry,
      path: await confinedPath(await this.#dir("agents"), file, "systemPromptFile"),
    };
  }

  /**
   * An agent's system prompt.
   *
   * @param agentId Agent id.
   * @returns The prompt text and the file it is in (`null` for an inline prompt).
   * @throws {WorkbenchError} 404 for an unknown agent, 400 for a prompt path outside the folder.
   */
  getPrompt(agentId: string): Promise<{ content: string; file: string | null }> {
    return this.#serial(async () => {
      const { entry, path } = await this.#promptTarget(agentId);
      if (path === null) return { content: String(entry.agent.systemPrompt ?? ""), file: null };
      return {
        content: await Deno.readTextFile(path),
        file: String(entry.agent.systemPromptFile),
      };
    });
  }

  /**
   * Writes an agent's system prompt: its prompt file, or the inline `systemPrompt` field.
   *
   * @param agentId Agent id.
   * @param content New prompt text.
   * @throws {WorkbenchError} 400 when `content` is not a string.
   */
  putPrompt(agentId: string, content: unknown): Promise<void> {
    return this.#serial(async () => {
      if (typeof content !== "string") {
        throw new WorkbenchError(400, `field "content" must be a string`, "content");
      }
      const { entry, path } = await this.#promptTarget(agentId);
      if (path === null) {
        await this.#putAgent(agentId, { ...entry.agent, systemPrompt: content });
        return;
      }
      await Deno.mkdir(dirname(path), { recursive: true });
      await writeAtomic(path, content);
    });
  }

  // ---- suites ---------------------------------------------------------------------------------

  /**
   * Every suite file that parses (sorted by id); a file that does not is skipped with a warning
   * in `invalid`.
   */
  suiteEntries(): Promise<{ suites: SuiteEntry[]; invalid: string[] }> {
    return this.#serial(() => this.#suiteEntries());
  }

  async #suiteEntries(): Promise<{ suites: SuiteEntry[]; invalid: string[] }> {
    const dir = await this.#dir("suites");
    const suites: SuiteEntry[] = [];
    const invalid: string[] = [];
    for (const file of await jsonFiles(dir)) {
      try {
        suites.push({ file, suite: parseSuite(await Deno.readTextFile(join(dir, file)), file) });
      } catch (e) {
        invalid.push((e as Error).message);
      }
    }
    suites.sort((a, b) => a.suite.id < b.suite.id ? -1 : 1);
    return { suites, invalid };
  }

  /**
   * One suite by id.
   *
   * @param id Suite id.
   * @returns The entry.
   * @throws {WorkbenchError} 404 when there is none.
   */
  suite(id: string): Promise<SuiteEntry> {
    return this.#serial(() => this.#suite(id));
  }

  async #suite(id: string): Promise<SuiteEntry> {
    checkId(id, "suiteId");
    const found = (await this.#suiteEntries()).suites.find((s) => s.suite.id === id);
    if (found === undefined) throw new WorkbenchError(404, `no suite "${id}"`, "suiteId");
    return found;
  }

  #checkSuite(body: unknown): Suite {
    try {
      return parseSuite(body, "suite");
    } catch (e) {
      throw errorOf(e);
    }
  }

  /**
   * Adds a suite as `suites/<id>.json`.
   *
   * @param body The suite.
   * @returns Its id.
   * @throws {WorkbenchError} 400 when invalid or a judge model is not in the registry, 409 when
   *   the id exists.
   */
  createSuite(body: unknown): Promise<string> {
    return this.#serial(() => this.#createSuite(body));
  }

  async #createSuite(body: unknown): Promise<string> {
    const suite = this.#checkSuite(body);
    checkId(suite.id, "id");
    if ((await this.#suiteEntries()).suites.some((s) => s.suite.id === suite.id)) {
      throw new WorkbenchError(409, `suite "${suite.id}" exists; PUT /api/suites/${suite.id}`);
    }
    const path = await confinedPath(await this.#dir("suites"), `${suite.id}.json`, "id");
    if (await exists(path)) {
      throw new WorkbenchError(409, `suites/${suite.id}.json exists (with another id inside)`);
    }
    await this.#checkRefs(`suite:${suite.id}`, (refs) => ({
      ...refs,
      suites: [...refs.suites, suite],
    }));
    await writeAtomic(path, JSON.stringify(body, null, 2) + "\n");
    return suite.id;
  }

  /**
   * Replaces a suite (same file).
   *
   * @param id Suite id from the URL.
   * @param body The suite.
   * @throws {WorkbenchError} 400 when invalid or the id differs, 404 when unknown.
   */
  updateSuite(id: string, body: unknown): Promise<void> {
    return this.#serial(async () => {
      const { file } = await this.#suite(id);
      const suite = this.#checkSuite(body);
      if (suite.id !== id) {
        throw new WorkbenchError(400, `field "id" must be "${id}" (the id in the URL)`, "id");
      }
      const path = await confinedPath(await this.#dir("suites"), file, "id");
      await this.#checkRefs(`suite:${id}`, (refs) => ({
        ...refs,
        suites: [...refs.suites.filter((s) => s.id !== id), suite],
      }));
      await writeAtomic(path, JSON.stringify(body, null, 2) + "\n");
    });
  }

  /**
   * Removes a suite's file.
   *
   * @param id Suite id.
   * @throws {WorkbenchError} 404 when unknown.
   */
  deleteSuite(id: string): Promise<void> {
    return this.#serial(async () => {
      const { file } = await this.#suite(id);
      await Deno.remove(await confinedPath(await this.#dir("suites"), file, "id"));
    });
  }

  /** The raw suite file as written (for the editor). */
  suiteDoc(id: string): Promise<JsonValue> {
    return this.#serial(async () => {
      const { file } = await this.#suite(id);
      return await readJson(join(await this.#dir("suites"), file));
    });
  }
}

function getAt(doc: JsonValue, path: readonly string[]): string | undefined {
  let v: JsonValue | undefined = doc;
  for (const p of path) v = isObject(v) ? v[p] : Array.isArray(v) ? v[Number(p)] : undefined;
  return typeof v === "string" ? v : undefined;
}

/**
 * Applies `f` to every string of a servers document that can hold a secret: each `env` and
 * `headers` value, each `args` element and the `url`, with its path and its server's entry.
 */
function mapServerStrings(
  doc: JsonObject,
  f: (value: string, path: string[], entry: JsonObject) => string,
): JsonObject {
  const key = "mcpServers" in doc ? "mcpServers" : "servers";
  const table = doc[key];
  if (!isObject(table)) return doc;
  const servers: Record<string, JsonValue> = {};
  for (const [name, entry] of Object.entries(table)) {
    if (!isObject(entry)) {
      servers[name] = entry;
      continue;
    }
    const copy: Record<string, JsonValue> = { ...entry };
    for (const part of ["env", "headers"]) {
      const vars = entry[part];
      if (!isObject(vars)) continue;
      copy[part] = Object.fromEntries(
        Object.entries(vars).map((
          [k, v],
        ) => [k, typeof v === "string" ? f(v, [key, name, part, k], entry) : v]),
      );
    }
    if (Array.isArray(entry.args)) {
      copy.args = entry.args.map((v, i) =>
        typeof v === "string" ? f(v, [key, name, "args", String(i)], entry) : v
      );
    }
    if (typeof entry.url === "string") copy.url = f(entry.url, [key, name, "url"], entry);
    servers[name] = copy;
  }
  return { ...doc, [key]: servers };
}

/** A `${NAME:-default}` whose NAME looks secret: its default is shown as `[REDACTED]`. */
const SECRET_DEFAULT = /(\$\{([A-Za-z_][A-Za-z0-9_]*):-)[^}]*\}/g;

/**
 * A servers document as shown: secret-named `env`/`headers` values by {@linkcode redactValue};
 * in `args` and `url`, the values the capture treats as secrets (a secret-named flag's or
 * query parameter's value, a URL's password, a well-known key: `argSecrets`, `urlSecrets`) and
 * the default of a secret-named `${NAME:-default}` replaced by `[REDACTED]`.
 */
function shownServers(doc: JsonObject): JsonObject {
  return mapServerStrings(doc, (v, path, entry) => {
    const part = path[2];
    if (part === "env" || part === "headers") return isSecretName(path[3]) ? redactValue(v) : v;
    const args = Array.isArray(entry.args)
      ? entry.args.filter((a): a is string => typeof a === "string")
      : [];
    const secrets = [
      ...argSecrets(args),
      ...(typeof entry.url === "string" ? urlSecrets(entry.url) : []),
    ];
    return redactText(v, secrets).replace(
      SECRET_DEFAULT,
      (ref, head: string, name: string) => isSecretName(name) ? `${head}${REDACTED_VALUE}}` : ref,
    );
  });
}

async function copyTree(from: string, to: string, skip: (name: string) => boolean) {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (skip(e.name)) continue;
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name), () => false);
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Rewrites a copied file's `$schema` to point at the committed schema from its new place. */
async function fixSchema(file: string, schemasDir: string): Promise<void> {
  const doc = await readJson(file).catch(() => null);
  if (!isObject(doc) || typeof doc.$schema !== "string") return;
  const name = doc.$schema.split("/").pop()!;
  const rel = relative(dirname(file), join(schemasDir, name));
  await Deno.writeTextFile(file, JSON.stringify({ ...doc, $schema: rel }, null, 2) + "\n");
}

/**
 * Opens the working config, creating it from the examples when the folder does not exist
 * (copied into a temporary sibling, then renamed, so a crash leaves no half folder). The
 * examples are only read. The bootstrapped model registry gets the scripted local models.
 *
 * @param options Folders.
 * @returns The store.
 */
export async function openConfigStore(options: OpenConfigStoreOptions): Promise<ConfigStore> {
  const dir = resolve(options.dir);
  if (await exists(dir)) return new ConfigStore(dir, false);
  await Deno.mkdir(dirname(dir), { recursive: true });
  const tmp = `${dir}.tmp-${crypto.randomUUID()}`;
  try {
    const whole = new Set(["models.json", "servers.json", "tool_prices.json", "README.md"]);
    await copyTree(options.agentsExamples, join(tmp, "agents"), (n) => whole.has(n));
    await Deno.mkdir(join(tmp, "suites"));
    for (const file of await jsonFiles(options.suitesExamples)) {
      await Deno.copyFile(join(options.suitesExamples, file), join(tmp, "suites", file));
    }
    for (const name of ["models.json", "servers.json", "tool_prices.json"]) {
      const from = join(options.agentsExamples, name);
      if (await exists(from)) await Deno.copyFile(from, join(tmp, name));
    }
    const models = await readJson(join(tmp, "models.json")) as JsonObject;
    const list = (models.models as JsonObject[]).filter((m) =>
      !(SCRIPTED_MODEL_IDS as readonly string[]).includes(String(m.id))
    );
    await Deno.writeTextFile(
      join(tmp, "models.json"),
      JSON.stringify({ ...models, models: [...list, ...SCRIPTED_MODELS] }, null, 2) + "\n",
    );
    for (const f of await jsonFiles(join(tmp, "agents"))) {
      await fixSchema(join(tmp, "agents", f), options.schemasDir);
    }
    for (const f of await jsonFiles(join(tmp, "suites"))) {
      await fixSchema(join(tmp, "suites", f), options.schemasDir);
    }
    for (const f of ["models.json", "tool_prices.json"]) {
      await fixSchema(join(tmp, f), options.schemasDir);
    }
    await Deno.rename(tmp, dir);
  } catch (e) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw e;
  }
  return new ConfigStore(dir, true);
}
