/**
 * File-reading edge of the agent configuration: reads agents (a file or a folder of files),
 * the model registry, tool prices, suites and `.env`, and delegates to the pure parsers in
 * `config.ts`.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { loadToolOverrides } from "../catalog/load_overrides.ts";
import { ToolOverridesError } from "../catalog/overrides.ts";
import type { AgentConfig, ModelConfig, Suite, ToolPrices } from "./types.ts";
import {
  AgentConfigError,
  parseAgents,
  parseDotEnv,
  parseModels,
  parseSuite,
  parseToolPrices,
} from "./config.ts";

async function readText(path: string, what: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    throw new AgentConfigError(what, path, "", `cannot be read (${(e as Error).message})`);
  }
}

/**
 * Loads agents from a JSON file, or from every `*.json` file of a folder (sorted by name;
 * `models.json`, `tool_prices.json` and `servers.json` in that folder are skipped). Prompt
 * files and `overrides` files are read relative to the agent file.
 *
 * @param path File or folder.
 * @returns Agents sorted by id.
 * @throws {AgentConfigError} on unreadable or invalid files, missing prompt files, an
 *   unreadable or invalid overrides file, or an id defined twice across files.
 */
export async function loadAgents(path: string): Promise<AgentConfig[]> {
  const stat = await Deno.stat(path).catch(() => null);
  if (stat === null) throw new AgentConfigError("agent", path, "", "does not exist");
  const files: string[] = [];
  if (stat.isDirectory) {
    for await (const e of Deno.readDir(path)) {
      if (
        e.isFile && e.name.endsWith(".json") &&
        !["models.json", "tool_prices.json", "servers.json"].includes(e.name)
      ) files.push(join(path, e.name));
    }
    files.sort();
  } else {
    files.push(path);
  }
  const out = new Map<string, AgentConfig>();
  for (const file of files) {
    const drafts = parseAgents(await readText(file, "agent"), file);
    for (const [i, d] of drafts.entries()) {
      let systemPrompt = d.systemPrompt;
      if (systemPrompt === undefined) {
        const promptPath = resolve(dirname(file), d.systemPromptFile!);
        try {
          systemPrompt = await Deno.readTextFile(promptPath);
        } catch {
          throw new AgentConfigError(
            "agent",
            file,
            drafts.length > 1 ? `agents[${i}].systemPromptFile` : "systemPromptFile",
            `names "${d.systemPromptFile}", which cannot be read`,
          );
        }
      }
      if (out.has(d.id)) {
        throw new AgentConfigError(
          "agent",
          file,
          "id",
          `duplicate id "${d.id}" (also defined earlier)`,
        );
      }
      const { systemPromptFile: _drop, overridesFile, ...rest } = d;
      const overrides = overridesFile === undefined
        ? rest.overrides
        : await loadToolOverrides(resolve(dirname(file), overridesFile), overridesFile).catch(
          (e) => {
            if (!(e instanceof ToolOverridesError)) throw e;
            throw new AgentConfigError(
              "agent",
              file,
              drafts.length > 1 ? `agents[${i}].overrides` : "overrides",
              `names "${overridesFile}", which cannot be used: ${e.message}`,
            );
          },
        );
      out.set(d.id, { ...rest, systemPrompt, ...(overrides === undefined ? {} : { overrides }) });
    }
  }
  return [...out.values()].sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Loads a model registry file.
 *
 * @param path JSON file.
 * @returns Entries in file order.
 * @throws {AgentConfigError} on an unreadable or invalid file.
 */
export async function loadModels(path: string): Promise<ModelConfig[]> {
  return parseModels(await readText(path, "model registry"), path);
}

/**
 * Loads tool prices; a missing file means no tool prices.
 *
 * @param path JSON file, or `undefined` for none.
 * @returns `server:tool` → USD per call.
 * @throws {AgentConfigError} on an invalid file.
 */
export async function loadToolPrices(path: string | undefined): Promise<ToolPrices> {
  if (path === undefined) return {};
  return parseToolPrices(await readText(path, "tool prices"), path);
}

/**
 * Loads a suite file.
 *
 * @param path JSON file.
 * @returns The suite.
 * @throws {AgentConfigError} on an unreadable or invalid file.
 */
export async function loadSuite(path: string): Promise<Suite> {
  return parseSuite(await readText(path, "suite"), path);
}

/**
 * The environment merged with a `.env` file (the environment wins). A missing `.env` is fine.
 *
 * @param dotEnvPath Path of the `.env` file; default `.env` in the working directory.
 * @returns Variables by name.
 * @throws {AgentConfigError} on a malformed `.env`.
 */
export async function loadEnv(dotEnvPath = ".env"): Promise<Record<string, string>> {
  let fromFile: Record<string, string> = {};
  try {
    fromFile = parseDotEnv(await Deno.readTextFile(dotEnvPath), dotEnvPath);
  } catch (e) {
    if (e instanceof AgentConfigError) throw e;
  }
  return { ...fromFile, ...Deno.env.toObject() };
}
