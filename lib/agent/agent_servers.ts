/**
 * The agents' MCP servers from a servers config (pinned packages installed when missing,
 * `${BIN}` resolved, a private copy of the fixture data as `${DATA}`; remote `url` entries
 * reached over streamable HTTP or SSE), opened per agent under its exposure mode. Shared by `deno task agents`, `deno task chat` and the workbench.
 *
 * @module
 */
import { serversSecrets } from "../mcp/secrets.ts";
import { join, resolve } from "node:path";
import { UsageError } from "../core/errors.ts";
import { oneLine } from "../core/text.ts";
import { McpHostError, type McpServerSpec, type McpToolHost, openMcpHost } from "./mcp_host.ts";
import type { AgentConfig, ProviderKind } from "./types.ts";
import { parseServersConfig } from "../mcp/config.ts";
import { packageVars } from "../mcp/install.ts";
import { installLaunches } from "../mcp/prepare.ts";
import { createSessionFolder, removeStaleSessionFolders } from "../mcp/session.ts";

/** What to print when no model endpoint answers. */
export const NO_MODEL_HELP = `No model endpoint is reachable. Configure one of:
  Anthropic: set ANTHROPIC_API_KEY (environment or .env) for a registry entry with "provider": "anthropic".
  OpenAI:    set OPENAI_API_KEY for an entry with "provider": "openai".
  Ollama:    run \`ollama serve\` (listens on 127.0.0.1:11434) and use an "openai" entry with
             "baseUrl": "http://127.0.0.1:11434/v1" and "apiKey": "\${OLLAMA_API_KEY:-ollama}".
Registry: the models.json of the working config (results/config/models.json) or --models FILE;
without a key, the workbench (deno task serve) runs any suite on the scripted model.`;

/** Options of {@linkcode prepareAgentServers}. */
export interface PrepareOptions {
  /** Servers config path (`mcpServers` shape). */
  readonly serversPath: string;
  /** Agents whose servers are needed. */
  readonly agents: readonly AgentConfig[];
  /** Install folder of pinned packages. */
  readonly installDir: string;
  /** Fixture data folder copied to a private folder per session (`${DATA}`). */
  readonly dataDir: string;
  /** Variables for `${VAR}` expansion (environment merged with `.env`). */
  readonly env: Readonly<Record<string, string>>;
  /** Task name for progress lines. */
  readonly task: string;
  /** Progress lines (install, stale-folder sweep). Default: `[task] message` on stderr. */
  readonly onProgress?: (message: string) => void;
  /** Monotonic clock (ms) for tool-call durations. Default `performance.now`. */
  readonly now?: () => number;
}

/** Servers ready to open per agent. */
export interface AgentServers {
  /**
   * The servers config's credentials (lib/mcp `serversSecrets`), for the run's redactor: what a
   * tool may echo back.
   */
  readonly secrets: readonly string[];
  /** Starts an agent's servers under its exposure, shaped for its model's provider. */
  open(agent: AgentConfig, provider: ProviderKind): Promise<McpToolHost>;
  /** Removes the data copy. */
  dispose(): Promise<void>;
}

async function copyDir(from: string, to: string): Promise<void> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(from));
  } catch {
    throw new UsageError(`cannot read data folder "${from}"`);
  }
  for (const e of entries) {
    if (e.isDirectory) {
      await Deno.mkdir(join(to, e.name));
      await copyDir(join(from, e.name), join(to, e.name));
    } else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/**
 * Reads the servers config, pins and installs package-runner launches (`npx -y pkg`, as
 * `deno task capture` does) and missing pinned packages, sweeps folders left by killed
 * runs, and copies the fixture data.
 *
 * @param options Servers config, agents, install and data folders, variables, progress.
 * @returns Servers ready to open per agent.
 * @throws {UsageError} On an unreadable config or data folder, or a server missing from the
 *   config. A launch that cannot be pinned or installed, or a remote server that cannot be
 *   reached, is no error here: opening an agent that uses it fails with the reason (the run
 *   records it as an `mcp` error and goes on).
 */
export async function prepareAgentServers(options: PrepareOptions): Promise<AgentServers> {
  const { serversPath, task } = options;
  const say = options.onProgress ?? ((m: string) => console.error(`[${task}] ${m}`));
  let serversText: string;
  try {
    serversText = await Deno.readTextFile(serversPath);
  } catch {
    throw new UsageError(`cannot read servers config "${serversPath}"`);
  }
  const servers = parseServersConfig(serversText, { source: serversPath });
  const installDir = resolve(options.installDir);
  const neededServers = [...new Set(options.agents.flatMap((a) => a.mcpServers))].sort();
  for (const name of neededServers) {
    if (!servers.servers.some((s) => s.name === name)) {
      throw new UsageError(`server "${name}" is not in ${serversPath}`);
    }
  }
  // Once per run, before any case: npx/pnpm dlx/bunx entries pinned and installed as capture
  // does, pinned packages installed when missing. An entry that cannot be is its agents' cause.
  const prepared = await installLaunches(servers, {
    installDir,
    only: neededServers,
    onProgress: say,
  });
  const cannotStart = new Map(prepared.failed.map((f) => [f.server, f.message ?? "cannot start"]));
  // Folders of earlier runs killed with SIGKILL (server HOMEs, data copies) are removed here.
  const stale = await removeStaleSessionFolders();
  if (stale.length > 0) {
    say(`removed ${stale.length} folder(s) left by killed runs`);
  }
  // Servers get a private copy of the fixture data, so a tool that writes never edits a fixture.
  const dataCopy = await createSessionFolder("data");
  const entries = new Map<string, McpServerSpec>();
  try {
    await copyDir(resolve(options.dataDir), dataCopy);
    for (const name of neededServers) {
      if (cannotStart.has(name)) continue;
      const entry = prepared.config.servers.find((s) => s.name === name)!;
      let vars: Record<string, string>;
      try {
        vars = {
          ...(entry.kind === "stdio" && entry.meta.package && entry.meta.version
            ? await packageVars(entry, installDir)
            : {}),
          DATA: dataCopy,
        };
      } catch (e) {
        cannotStart.set(name, oneLine(e));
        continue;
      }
      entries.set(name, { entry, vars });
    }
  } catch (e) {
    await Deno.remove(dataCopy, { recursive: true }).catch(() => {});
    throw e;
  }
  return {
    secrets: serversSecrets(servers, options.env),
    open: (agent, provider) => {
      const down = agent.mcpServers.find((n) => cannotStart.has(n));
      if (down !== undefined) {
        return Promise.reject(new McpHostError(down, `cannot start: ${cannotStart.get(down)}`));
      }
      return openMcpHost(agent.mcpServers.map((n) => entries.get(n)!), {
        exposure: agent.exposure,
        ...(agent.toolSearch === undefined ? {} : { toolSearch: agent.toolSearch }),
        provider,
        env: options.env,
        source: serversPath,
        ...(agent.tools === undefined ? {} : { tools: agent.tools }),
        ...(agent.overrides === undefined ? {} : { overrides: agent.overrides }),
        ...(options.now ? { now: options.now } : {}),
      });
    },
    dispose: () => Deno.remove(dataCopy, { recursive: true }).catch(() => {}),
  };
}
