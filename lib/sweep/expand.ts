/**
 * Parameter sweeps over agent configurations: parse `name=v1,v2` specs and expand a base agent
 * into the cross product of the varied values, each agent named after what varies. Pure; the
 * caller reads prompt files and writes the agent files.
 *
 * @module
 */
import { type AgentConfig, type ContextStrategy, EXPOSURES } from "../agent/types.ts";
import type { ToolOverrides } from "../catalog/overrides.ts";

/** One varied parameter and its values, in command-line order. */
export interface SweepParameter {
  /** Agent field, one of {@linkcode SWEEP_FIELDS}. */
  readonly name: SweepField;
  /** Values as written (e.g. `claude`, `p1.md`, `fs+memory`). */
  readonly values: readonly string[];
}

/** Agent fields a sweep may vary. */
export type SweepField =
  | "model"
  | "exposure"
  | "loop"
  | "systemPrompt"
  | "maxIterations"
  | "temperature"
  | "maxOutputTokens"
  | "mcpServers"
  | "overrides"
  | "promptCaching"
  | "toolResultMaxChars"
  | "tools"
  | "retryOnToolError"
  | "contextStrategy";

/** Fields a sweep may vary, in a fixed order. */
export const SWEEP_FIELDS: readonly SweepField[] = [
  "model",
  "exposure",
  "loop",
  "systemPrompt",
  "maxIterations",
  "temperature",
  "maxOutputTokens",
  "mcpServers",
  "overrides",
  "promptCaching",
  "toolResultMaxChars",
  "tools",
  "retryOnToolError",
  "contextStrategy",
];

/**
 * Parses one `--vary` value, `name=v1,v2,...`.
 *
 * @param text E.g. `model=claude,gpt`.
 * @returns The parameter.
 * @throws {RangeError} on a missing `=`, an unknown field, no values, or a repeated value.
 *
 * @example Usage
 * ```ts
 * import { parseVary } from "./expand.ts";
 * const p = parseVary("exposure=direct, proxy");
 * if (p.name !== "exposure" || p.values.join("|") !== "direct|proxy") throw new Error();
 * ```
 */
export function parseVary(text: string): SweepParameter {
  const eq = text.indexOf("=");
  const name = eq < 0 ? text.trim() : text.slice(0, eq).trim();
  if (eq < 0) {
    throw new RangeError(`Cannot parse --vary "${text}": expected name=value1,value2`);
  }
  if (!(SWEEP_FIELDS as readonly string[]).includes(name)) {
    throw new RangeError(
      `Cannot vary "${name}": expected one of ${SWEEP_FIELDS.join(", ")}`,
    );
  }
  const values = text.slice(eq + 1).split(",").map((v) => v.trim()).filter((v) => v !== "");
  if (values.length === 0) throw new RangeError(`Cannot parse --vary "${text}": no values`);
  const dup = values.find((v, i) => values.indexOf(v) !== i);
  if (dup !== undefined) throw new RangeError(`Cannot parse --vary "${text}": "${dup}" twice`);
  return { name: name as SweepField, values };
}

/** One generated agent of a sweep. */
export interface SweepAgent {
  /** Agent id: `<base>__<name>-<value>__...`, characters outside `[A-Za-z0-9._-]` as `-`. */
  readonly id: string;
  /** Varied parameter → value as written. */
  readonly params: Readonly<Record<string, string>>;
  /** The configuration. */
  readonly agent: AgentConfig;
}

/** Short, id-safe form of a value: a prompt path's file stem; other characters as `-`. */
function slug(name: SweepField, value: string): string {
  const v = name === "systemPrompt" && /\.(md|txt)$/i.test(value)
    ? value.replace(/^.*[\\/]/, "").replace(/\.(md|txt)$/i, "")
    : name === "overrides" && /\.json$/i.test(value)
    ? value.replace(/^.*[\\/]/, "").replace(/(\.overrides)?\.json$/i, "")
    : value;
  return v.replace(/[^A-Za-z0-9._-]+/g, "-");
}

/**
 * Expands a base agent into the cross product of the parameters' values (first parameter
 * slowest), each with its own id and a description naming the varied values.
 *
 * Values are converted per field: `maxIterations`/`maxOutputTokens` integers ≥ 1, `temperature`
 * a number in [0, 2], `exposure` one of `EXPOSURES` (`direct|proxy|code|anthropic_search|openai_search`), `loop` `sequential|parallel`, `mcpServers`
 * server names joined by `+`, `systemPrompt` the prompt text from `prompts` (keyed by value)
 * when given there, else the value itself as inline text, `overrides` the document from
 * `overrides` (keyed by value, the caller reads the files) or `none` for no overrides. The
 * levers:
 * - `promptCaching`: `off`, `5m` or `1h`, with `+results` for the tool-result breakpoint
 *   (`1h+results`);
 * - `toolResultMaxChars`: an integer ≥ 1, or `none` (no cap);
 * - `tools`: `all`, or `server:tool` globs joined by `+`, a glob starting with `!` denied
 *   (`fs:read_*+fs:list_*`, `!fs:write_*`);
 * - `retryOnToolError`: an integer ≥ 0, or `none` (no limit);
 * - `contextStrategy`: `none`, `truncate:MAX_TOKENS`, `drop:KEEP_LAST` or
 *   `summarize:MODEL:AFTER_TOKENS` (the long type names work too, e.g.
 *   `drop-old-tool-results:2`).
 *
 * @param base The base agent (resolved, as `loadAgents` returns it).
 * @param parameters Varied parameters (at least one; names unique).
 * @param prompts Prompt texts by `systemPrompt` value (e.g. file contents by path).
 * @param overrides Tool-description overrides by `overrides` value (e.g. parsed files by path).
 * @returns Agents in cross-product order.
 * @throws {RangeError} on a repeated parameter, a value of the wrong kind, or two agents with
 *   the same id.
 *
 * @example Usage
 * ```ts
 * import { expandSweep } from "./expand.ts";
 * const base = { id: "b", description: "", model: "m", systemPrompt: "s", mcpServers: ["fs"],
 *   exposure: "direct" as const, loop: "sequential" as const, maxIterations: 10,
 *   maxOutputTokens: 512 };
 * const out = expandSweep(base, [
 *   { name: "model", values: ["a", "b"] }, { name: "loop", values: ["sequential", "parallel"] },
 * ]);
 * if (out.length !== 4 || out[1].id !== "b__model-a__loop-parallel") throw new Error(out[1].id);
 * ```
 */
export function expandSweep(
  base: AgentConfig,
  parameters: readonly SweepParameter[],
  prompts: Readonly<Record<string, string>> = {},
  overrides: Readonly<Record<string, ToolOverrides>> = {},
): SweepAgent[] {
  if (parameters.length === 0) throw new RangeError("Cannot expand a sweep: nothing varies");
  const names = parameters.map((p) => p.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new RangeError(`Cannot expand a sweep: "${dup}" is varied twice`);
  let combos: Record<string, string>[] = [{}];
  for (const p of parameters) {
    combos = combos.flatMap((c) => p.values.map((v) => ({ ...c, [p.name]: v })));
  }
  const seen = new Map<string, string>();
  return combos.map((params) => {
    let agent: AgentConfig = { ...base };
    for (const p of parameters) {
      agent = apply(agent, p.name, params[p.name], prompts, overrides);
    }
    const id = [base.id, ...parameters.map((p) => `${p.name}-${slug(p.name, params[p.name])}`)]
      .join("__");
    const text = parameters.map((p) => `${p.name}=${params[p.name]}`).join(", ");
    if (seen.has(id)) {
      throw new RangeError(
        `Cannot expand a sweep: "${text}" and "${seen.get(id)}" both give the id "${id}"`,
      );
    }
    seen.set(id, text);
    return {
      id,
      params,
      agent: { ...agent, id, description: `sweep of "${base.id}": ${text}` },
    };
  });
}

function apply(
  agent: AgentConfig,
  name: SweepField,
  value: string,
  prompts: Readonly<Record<string, string>>,
  overrides: Readonly<Record<string, ToolOverrides>>,
): AgentConfig {
  const bad = (want: string) =>
    new RangeError(`Cannot set ${name} to "${value}" in a sweep: expected ${want}`);
  switch (name) {
    case "model":
      return { ...agent, model: value };
    case "exposure":
      if (!(EXPOSURES as readonly string[]).includes(value)) throw bad(EXPOSURES.join(", "));
      return { ...agent, exposure: value as AgentConfig["exposure"] };
    case "loop":
      if (!["sequential", "parallel"].includes(value)) throw bad("sequential or parallel");
      return { ...agent, loop: value as AgentConfig["loop"] };
    case "systemPrompt":
      return { ...agent, systemPrompt: prompts[value] ?? value };
    case "maxIterations":
    case "maxOutputTokens": {
      const n = Number(value);
      // Decimal digits only: Number() also reads "1e3", "0x10" and "2.0" as integers.
      if (!/^\d+$/.test(value) || n < 1) throw bad("an integer >= 1");
      return { ...agent, [name]: n };
    }
    case "temperature": {
      const n = Number(value);
      if (value.trim() === "" || !(n >= 0 && n <= 2)) throw bad("a number in [0, 2]");
      return { ...agent, temperature: n };
    }
    case "mcpServers":
      return { ...agent, mcpServers: value.split("+").filter(Boolean) };
    case "overrides": {
      if (value === "none") {
        const { overrides: _drop, ...rest } = agent;
        return rest;
      }
      const doc = overrides[value];
      if (doc === undefined) throw bad(`"none" or an overrides file the caller read`);
      return { ...agent, overrides: doc };
    }
    case "promptCaching": {
      const m = /^(off|5m|1h)(\+results)?$/.exec(value);
      if (!m || (m[1] === "off" && m[2])) throw bad("off, 5m, 1h, 5m+results or 1h+results");
      if (m[1] === "off") return { ...agent, promptCaching: { enabled: false } };
      const ttl = m[1] as "5m" | "1h";
      return { ...agent, promptCaching: { enabled: true, ttl, toolResults: m[2] !== undefined } };
    }
    case "toolResultMaxChars":
    case "retryOnToolError": {
      const { [name]: _drop, ...rest } = agent;
      if (value === "none") return rest;
      const min = name === "toolResultMaxChars" ? 1 : 0;
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < min) throw bad(`an integer >= ${min}, or none`);
      return { ...rest, [name]: n };
    }
    case "tools": {
      const { tools: _drop, ...rest } = agent;
      if (value === "all") return rest;
      const globs = value.split("+").map((g) => g.trim());
      if (globs.some((g) => g === "" || g === "!")) throw bad("all, or globs joined by +");
      const allow = globs.filter((g) => !g.startsWith("!"));
      const deny = globs.filter((g) => g.startsWith("!")).map((g) => g.slice(1));
      return {
        ...rest,
        tools: { ...(allow.length > 0 ? { allow } : {}), ...(deny.length > 0 ? { deny } : {}) },
      };
    }
    case "contextStrategy":
      return { ...agent, contextStrategy: parseStrategy(value, bad) };
  }
}

function parseStrategy(value: string, bad: (want: string) => RangeError): ContextStrategy {
  const want = "none, truncate:MAX_TOKENS, drop:KEEP_LAST or summarize:MODEL:AFTER_TOKENS";
  if (value === "none") return { type: "none" };
  const count = (text: string) => {
    if (!/^\d+$/.test(text) || Number(text) < 1) throw bad(want);
    return Number(text);
  };
  const colon = value.indexOf(":");
  const kind = colon < 0 ? value : value.slice(0, colon);
  const rest = colon < 0 ? "" : value.slice(colon + 1);
  if (kind === "truncate" || kind === "truncate-tool-results") {
    return { type: "truncate-tool-results", maxTokens: count(rest) };
  }
  if (kind === "drop" || kind === "drop-old-tool-results") {
    return { type: "drop-old-tool-results", keepLast: count(rest) };
  }
  if (kind === "summarize") {
    const last = rest.lastIndexOf(":");
    if (last < 1) throw bad(want);
    return {
      type: "summarize",
      model: rest.slice(0, last),
      afterTokens: count(rest.slice(last + 1)),
    };
  }
  throw bad(want);
}

/**
 * Reads the varied values back from a sweep agent's description (`sweep of "<base>": a=1, b=2`),
 * so a run folder remembers its sweep even after `deno task merge`.
 *
 * @param description An agent's description.
 * @returns `{base, params}`, or `null` when it is not a sweep description.
 *
 * @example Usage
 * ```ts
 * import { parseSweepDescription } from "./expand.ts";
 * const s = parseSweepDescription('sweep of "b": model=a, loop=parallel');
 * if (s?.base !== "b" || s.params.loop !== "parallel") throw new Error();
 * ```
 */
export function parseSweepDescription(
  description: string,
): { base: string; params: Record<string, string> } | null {
  const m = /^sweep of "([^"]+)": (.+)$/.exec(description);
  if (!m) return null;
  const params: Record<string, string> = {};
  for (const part of m[2].split(", ")) {
    const eq = part.indexOf("=");
    if (eq < 1) return null;
    params[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return { base: m[1], params };
}
