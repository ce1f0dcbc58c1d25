/**
 * Parsing and validation of agent-benchmark configuration: agents, the model registry, tool
 * prices and suites, each checked against a committed JSON Schema (`lib/agent/schemas/`) with
 * ajv, then against the rules a schema cannot express (unique ids, compilable regexes).
 *
 * Everything here is pure: callers pass text (or parsed JSON) and a source name for messages;
 * `load_config.ts` reads the files.
 *
 * @module
 */

import { InputFileError } from "../core/errors.ts";
import { expandVariables } from "../core/secrets.ts";
import { badNumberIn } from "../core/numbers.ts";
import { judgeModels } from "./criteria.ts";
import {
  parseToolOverrides,
  type ToolOverrides,
  ToolOverridesError,
} from "../catalog/overrides.ts";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { parse as parseEnv } from "dotenv";
import type {
  AgentConfig,
  ContextStrategy,
  Criterion,
  ModelConfig,
  ModelPricing,
  Suite,
  SuiteCase,
  ToolPrices,
  ToolSearchConfig,
} from "./types.ts";
import { SEARCH_EXPOSURES } from "./types.ts";
import agentSchema from "./schemas/agent.schema.json" with { type: "json" };
import modelsSchema from "./schemas/models.schema.json" with { type: "json" };
import toolPricesSchema from "./schemas/tool_prices.schema.json" with { type: "json" };
import suiteSchema from "./schemas/suite.schema.json" with { type: "json" };

/**
 * A configuration file that does not parse or validate. The message names the file and the
 * field, e.g. `Cannot load suite "s.json": field "cases[1].criterion.pattern" must be string`.
 */
export class AgentConfigError extends InputFileError {
  /** File (or `<inline>`) the problem is in. */
  readonly file: string;
  /** Dotted path of the offending field, `""` for the whole document. */
  readonly field: string;
  /**
   * Builds the message from its parts.
   *
   * @param what Kind of document (`agent`, `model registry`, `tool prices`, `suite`, `.env`).
   * @param file Source name.
   * @param field Dotted field path, `""` for the document.
   * @param problem What is wrong, e.g. `must be string`.
   */
  constructor(what: string, file: string, field: string, problem: string) {
    super(
      file,
      `Cannot load ${what} "${file}": ${field === "" ? "" : `field "${field}" `}${problem}`,
    );
    this.name = "AgentConfigError";
    this.file = file;
    this.field = field;
  }
}

const SCHEMAS = {
  agent: agentSchema,
  models: modelsSchema,
  toolPrices: toolPricesSchema,
  suite: suiteSchema,
};
let ajv: Ajv | undefined;
const compiled = new Map<keyof typeof SCHEMAS, ValidateFunction>();

/** The validator of one schema, compiled on first use (a process that imports this may need none). */
function validatorOf(name: keyof typeof SCHEMAS): ValidateFunction {
  let fn = compiled.get(name);
  if (fn === undefined) {
    ajv ??= new Ajv({ allErrors: false, discriminator: true, strict: false });
    fn = ajv.compile(SCHEMAS[name]);
    compiled.set(name, fn);
  }
  return fn;
}

function fieldPath(instancePath: string): string {
  return instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce(
      (acc, part) => /^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part,
      "",
    );
}

function describe(error: ErrorObject): { field: string; problem: string } {
  let field = fieldPath(error.instancePath);
  let problem = error.message ?? "is invalid";
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") {
    const extra = String(params.additionalProperty);
    field = field ? `${field}.${extra}` : extra;
    problem = "is not a known field";
  } else if (error.keyword === "required") {
    const missing = String(params.missingProperty);
    field = field ? `${field}.${missing}` : missing;
    problem = "is required";
  } else if (error.keyword === "enum") {
    problem = `must be one of ${JSON.stringify(params.allowedValues)}`;
  } else if (error.keyword === "type" && Array.isArray(params.type)) {
    problem = `must be ${(params.type as string[]).join(" or ")}`;
  } else if (error.keyword === "const") {
    problem = `must be ${JSON.stringify(params.allowedValue)}`;
  } else if (error.keyword === "discriminator" && /(^|\.)contextStrategy$/.test(field)) {
    field = `${field}.type`;
    problem = params.error === "tag"
      ? "is required (contextStrategy needs a type)"
      : "is not a known context strategy (none, truncate-tool-results, drop-old-tool-results, summarize)";
  } else if (error.keyword === "discriminator") {
    field = field ? `${field}.type` : "type";
    problem =
      `is not a known criterion type (exact, contains, regex, tool_called, llm_judge, all, any)`;
  }
  return { field, problem };
}

function validate(
  fn: ValidateFunction,
  what: string,
  source: string,
  value: unknown,
): void {
  // The number rule first: a JSON Schema `number` accepts Infinity (1e999 parsed), which
  // JSON.stringify writes back as null.
  const bad = badNumberIn(value);
  if (bad !== undefined) {
    throw new AgentConfigError(what, source, bad.field, `${bad.problem} (${bad.value})`);
  }
  if (fn(value)) return;
  const errors = fn.errors ?? [];
  // Prefer the deepest error: it is the most specific (oneOf reports its branches first).
  const best = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  const { field, problem } = best ? describe(best) : { field: "", problem: "is invalid" };
  throw new AgentConfigError(what, source, field, problem);
}

function parseJson(input: unknown, what: string, source: string): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input) as unknown;
  } catch (e) {
    throw new AgentConfigError(what, source, "", `is not valid JSON (${(e as Error).message})`);
  }
}

function checkUniqueIds(
  ids: readonly string[],
  what: string,
  source: string,
  field: (i: number) => string,
): void {
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id)) throw new AgentConfigError(what, source, field(i), `duplicate id "${id}"`);
    seen.add(id);
  });
}

/** `"none"` as written is `{type: "none"}`; objects are already schema-checked. */
function contextStrategyOf(raw: unknown): ContextStrategy {
  return raw === "none" ? { type: "none" } : raw as ContextStrategy;
}

/** An agent as written, before its `systemPromptFile` (and an `overrides` path) is read. */
export interface AgentDraft extends Omit<AgentConfig, "systemPrompt"> {
  /** Inline prompt, when given. */
  readonly systemPrompt?: string;
  /** Prompt file path as written (relative to the agent file). */
  readonly systemPromptFile?: string;
  /** Tool-overrides file path as written (relative to the agent file), for the loader to read. */
  readonly overridesFile?: string;
}

/** An agent's `overrides`: a path left for the loader, or the inline document validated. */
function inlineOverrides(
  value: unknown,
  source: string,
  prefix: string,
): { overridesFile?: string; overrides?: ToolOverrides } {
  if (value === undefined) return {};
  if (typeof value === "string") return { overridesFile: value };
  const at = prefix ? `${prefix}.overrides` : "overrides";
  try {
    return { overrides: parseToolOverrides(value, source) };
  } catch (e) {
    if (!(e instanceof ToolOverridesError)) throw e;
    throw new AgentConfigError("agent", source, e.field ? `${at}.${e.field}` : at, e.problem);
  }
}

/**
 * An agent's `toolSearch`, checked against its exposure: only a search exposure takes one, and
 * only `anthropic_search` a `variant`.
 */
function toolSearchOf(
  raw: Record<string, unknown>,
  source: string,
  prefix: string,
): { toolSearch?: ToolSearchConfig } {
  const ts = raw.toolSearch as ToolSearchConfig | undefined;
  if (ts === undefined) return {};
  const at = prefix ? `${prefix}.toolSearch` : "toolSearch";
  const exposure = (raw.exposure as string | undefined) ?? "direct";
  if (!SEARCH_EXPOSURES.includes(exposure as AgentConfig["exposure"])) {
    throw new AgentConfigError(
      "agent",
      source,
      at,
      `applies to exposure anthropic_search or openai_search, not ${exposure}`,
    );
  }
  if (ts.variant !== undefined && exposure !== "anthropic_search") {
    throw new AgentConfigError(
      "agent",
      source,
      `${at}.variant`,
      "applies to anthropic_search only (OpenAI's tool_search has no variants)",
    );
  }
  return { toolSearch: ts };
}

/**
 * Parses an agents file: one agent object, or `{agents: [...]}`. Defaults are applied
 * (`exposure` direct, `loop` sequential, `maxIterations` 10, `maxOutputTokens` 1024).
 *
 * @param input JSON text (a string) or an already parsed value.
 * @param source File name for messages.
 * @returns The agents in file order; a `systemPromptFile` and an `overrides` path are left for
 *   the loader to read (inline `overrides` are validated here).
 * @throws {AgentConfigError} on invalid JSON, a schema violation, duplicate ids, or an agent
 *   with both or neither of `systemPrompt` and `systemPromptFile`.
 *
 * @example Usage
 * ```ts
 * import { parseAgents } from "./config.ts";
 * const [a] = parseAgents(
 *   '{"id":"a","description":"d","model":"m","mcpServers":["fs"],"systemPrompt":"Be brief."}',
 *   "a.json",
 * );
 * if (a.exposure !== "direct" || a.maxIterations !== 10) throw new Error("unexpected");
 * ```
 */
export function parseAgents(input: unknown, source = "<inline>"): AgentDraft[] {
  const value = parseJson(input, "agent", source);
  validate(validatorOf("agent"), "agent", source, value);
  const obj = value as Record<string, unknown>;
  const list = (Array.isArray(obj.agents) ? obj.agents : [obj]) as Record<string, unknown>[];
  const prefix = Array.isArray(obj.agents) ? (i: number) => `agents[${i}]` : () => "";
  const out = list.map((raw, i): AgentDraft => {
    const hasInline = typeof raw.systemPrompt === "string";
    const hasFile = typeof raw.systemPromptFile === "string";
    if (hasInline === hasFile) {
      const p = prefix(i);
      throw new AgentConfigError(
        "agent",
        source,
        p ? `${p}.systemPrompt` : "systemPrompt",
        "exactly one of systemPrompt and systemPromptFile is required",
      );
    }
    return {
      id: raw.id as string,
      description: raw.description as string,
      model: raw.model as string,
      ...(hasInline ? { systemPrompt: raw.systemPrompt as string } : {}),
      ...(hasFile ? { systemPromptFile: raw.systemPromptFile as string } : {}),
      mcpServers: raw.mcpServers as string[],
      exposure: (raw.exposure as AgentConfig["exposure"] | undefined) ?? "direct",
      ...toolSearchOf(raw, source, prefix(i)),
      loop: (raw.loop as AgentConfig["loop"] | undefined) ?? "sequential",
      maxIterations: (raw.maxIterations as number | undefined) ?? 10,
      ...(raw.temperature === undefined ? {} : { temperature: raw.temperature as number }),
      maxOutputTokens: (raw.maxOutputTokens as number | undefined) ?? 1024,
      ...(raw.tools === undefined ? {} : { tools: raw.tools as AgentConfig["tools"] }),
      ...(raw.toolResultMaxChars === undefined
        ? {}
        : { toolResultMaxChars: raw.toolResultMaxChars as number }),
      ...(raw.promptCaching === undefined
        ? {}
        : { promptCaching: raw.promptCaching as AgentConfig["promptCaching"] }),
      ...(raw.contextStrategy === undefined
        ? {}
        : { contextStrategy: contextStrategyOf(raw.contextStrategy) }),
      ...(raw.retryOnToolError === undefined
        ? {}
        : { retryOnToolError: raw.retryOnToolError as number }),
      ...inlineOverrides(raw.overrides, source, prefix(i)),
    };
  });
  checkUniqueIds(out.map((a) => a.id), "agent", source, (i) => `${prefix(i) || "id"}`);
  return out;
}

/**
 * Parses a model registry `{models: [...]}`.
 *
 * @param input JSON text (a string) or an already parsed value.
 * @param source File name for messages.
 * @returns The entries in file order, cache prices defaulted to 0.
 * @throws {AgentConfigError} on invalid JSON, a schema violation (including an `apiKey` that is
 *   not a `${ENV_VAR}` reference), or duplicate ids.
 *
 * @example Usage
 * ```ts
 * import { parseModels } from "./config.ts";
 * const [m] = parseModels({ models: [{ id: "x", provider: "openai", model: "gpt", apiKey: "${K}",
 *   pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 } }] });
 * if (m.pricing.cacheReadUsdPerMTok !== 0) throw new Error("unexpected");
 * ```
 */
export function parseModels(input: unknown, source = "<inline>"): ModelConfig[] {
  const value = parseJson(input, "model registry", source);
  validate(validatorOf("models"), "model registry", source, value);
  const list = (value as { models: Record<string, unknown>[] }).models;
  checkUniqueIds(
    list.map((m) => m.id as string),
    "model registry",
    source,
    (i) => `models[${i}].id`,
  );
  return list.map((raw): ModelConfig => {
    const p = raw.pricing as Record<string, number>;
    const pricing: ModelPricing = {
      inputUsdPerMTok: p.inputUsdPerMTok,
      outputUsdPerMTok: p.outputUsdPerMTok ?? 0,
      cacheReadUsdPerMTok: p.cacheReadUsdPerMTok ?? 0,
      cacheWriteUsdPerMTok: p.cacheWriteUsdPerMTok ?? 0,
      ...(p.cacheWrite1hUsdPerMTok === undefined
        ? {}
        : { cacheWrite1hUsdPerMTok: p.cacheWrite1hUsdPerMTok }),
    };
    return {
      id: raw.id as string,
      ...(raw.kind === "embedding" ? { kind: "embedding" as const } : {}),
      provider: raw.provider as ModelConfig["provider"],
      ...(raw.simulated === true ? { simulated: true } : {}),
      model: raw.model as string,
      ...(raw.baseUrl === undefined ? {} : { baseUrl: raw.baseUrl as string }),
      apiKey: raw.apiKey as string,
      pricing,
    };
  });
}

/**
 * Parses tool prices `{toolPrices: {"server:tool": usdPerCall}}`.
 *
 * @param input JSON text (a string) or an already parsed value.
 * @param source File name for messages.
 * @returns `server:tool` → USD per call.
 * @throws {AgentConfigError} on invalid JSON or a schema violation.
 */
export function parseToolPrices(input: unknown, source = "<inline>"): ToolPrices {
  const value = parseJson(input, "tool prices", source);
  validate(validatorOf("toolPrices"), "tool prices", source, value);
  return { ...(value as { toolPrices: Record<string, number> }).toolPrices };
}

function checkCriterion(c: Criterion, source: string, field: string): void {
  if (c.type === "regex") {
    try {
      new RegExp(c.pattern, c.flags ?? "");
    } catch (e) {
      throw new AgentConfigError("suite", source, `${field}.pattern`, (e as Error).message);
    }
  } else if (c.type === "llm_judge") {
    if (c.model !== undefined && c.judges !== undefined) {
      throw new AgentConfigError(
        "suite",
        source,
        `${field}.judges`,
        `cannot be given with "model": use "model" for one judge or "judges" for several`,
      );
    }
    if (c.model === undefined && c.judges === undefined) {
      throw new AgentConfigError(
        "suite",
        source,
        `${field}.model`,
        `is required: name the judge ("model": "ID") or a panel ("judges": ["ID", ...])`,
      );
    }
  } else if (c.type === "all" || c.type === "any") {
    c.criteria.forEach((child, i) => checkCriterion(child, source, `${field}.criteria[${i}]`));
  }
}

/**
 * Parses a suite `{id, description, cases: [{id, question, criterion, tags?}]}`.
 *
 * @param input JSON text (a string) or an already parsed value.
 * @param source File name for messages.
 * @returns The suite, cases in file order.
 * @throws {AgentConfigError} on invalid JSON, a schema violation (unknown criterion type,
 *   missing field), duplicate case ids, or a regex that does not compile.
 *
 * @example Usage
 * ```ts
 * import { parseSuite } from "./config.ts";
 * const s = parseSuite({ id: "s", description: "", cases: [
 *   { id: "c1", question: "2+2?", criterion: { type: "exact", value: "4" } },
 * ] });
 * if (s.cases[0].criterion.type !== "exact") throw new Error("unexpected");
 * ```
 */
export function parseSuite(input: unknown, source = "<inline>"): Suite {
  const value = parseJson(input, "suite", source);
  validate(validatorOf("suite"), "suite", source, value);
  const raw = value as unknown as Suite;
  checkUniqueIds(raw.cases.map((c) => c.id), "suite", source, (i) => `cases[${i}].id`);
  raw.cases.forEach((c, i) => checkCriterion(c.criterion, source, `cases[${i}].criterion`));
  return {
    id: raw.id,
    description: raw.description,
    cases: raw.cases.map((c): SuiteCase => ({ ...c })),
  };
}

/**
 * Model registry ids an agent set and a suite need (agent models, `summarize` context-strategy
 * models and judge models), sorted.
 */
export function requiredModelIds(
  agents: readonly Pick<AgentConfig, "model" | "contextStrategy">[],
  suite: Suite,
): string[] {
  const ids = new Set(agents.map((a) => a.model));
  for (const a of agents) {
    if (a.contextStrategy?.type === "summarize") ids.add(a.contextStrategy.model);
  }
  const walk = (c: Criterion) => {
    if (c.type === "llm_judge") judgeModels(c).forEach((id) => ids.add(id));
    if (c.type === "all" || c.type === "any") c.criteria.forEach(walk);
  };
  suite.cases.forEach((c) => walk(c.criterion));
  return [...ids].sort();
}

/**
 * Parses a `.env` file with `npm:dotenv` (`KEY=value` lines, `#` comments, optional `export `,
 * values optionally in single, double or back quotes; double quotes understand `\n`), one
 * variable per line, and refuses a line dotenv would silently skip.
 *
 * @param text File contents.
 * @param source File name for messages.
 * @returns The variables in file order (a later line wins).
 * @throws {AgentConfigError} on a line that is not a comment, blank or `KEY=value` (the
 *   message gives the line number, never the value).
 *
 * @example Usage
 * ```ts
 * import { parseDotEnv } from "./config.ts";
 * const env = parseDotEnv('# keys\nexport A=1\nB="x y"\n');
 * if (env.A !== "1" || env.B !== "x y") throw new Error("unexpected");
 * ```
 */
export function parseDotEnv(text: string, source = ".env"): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    const entries = Object.entries(parseEnv(line));
    if (entries.length !== 1) {
      throw new AgentConfigError(".env", source, `line ${i + 1}`, "is not KEY=value");
    }
    out[entries[0][0]] = entries[0][1];
  });
  return out;
}

/**
 * Expands a `${VAR}` / `${VAR:-default}` reference (an `apiKey` or `baseUrl`).
 *
 * @param text Value as written in the registry.
 * @param env Variables (environment merged with `.env`).
 * @param where Context for the message, e.g. `model "claude" field "apiKey"`.
 * @returns The expanded string.
 * @throws {AgentConfigError} when a variable is undefined and has no default; the message names
 *   the variable, never a value.
 */
export function expandVars(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  where: { file: string; field: string },
): string {
  // An empty value counts as unset here: an empty API key or base URL is never meant.
  const set = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  return expandVariables(text, set, (name) => {
    throw new AgentConfigError(
      "model registry",
      where.file,
      where.field,
      `needs environment variable ${name}, which is not set (set it in the environment or in .env)`,
    );
  });
}
