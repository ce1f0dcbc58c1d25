/**
 * The flow behind `deno task chat`: one agent in conversation, through the same loop as the
 * benchmarks (its model, servers, exposure mode and loop). The caller feeds lines and prints
 * what comes back; the history keeps every exchange that ended without error.
 *
 * @module
 */
import {
  AgentConfigError,
  type Message,
  runAgentLoop,
  toolSearchProblems,
  usageCostUsd,
} from "../agent/mod.ts";
import {
  contextCollaborators,
  createModelClient,
  loadAgents,
  loadEnv,
  loadModels,
  NO_MODEL_HELP,
  prepareAgentServers,
  realSleep,
} from "../agent/io.ts";
import { UsageError } from "../core/errors.ts";
import { runRedactor } from "../agent/secrets.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";

/** Defaults of `deno task chat` (repository-relative paths). */
export const CHAT_DEFAULTS = {
  agents: "fixtures/agents",
  models: "fixtures/agents/models.json",
  servers: "fixtures/agents/servers.json",
  installDir: ".scratch/servers",
  data: "fixtures/suites/data",
  envFile: ".env",
  timeoutMs: 300_000,
} as const;

/** What a chat session runs. */
export interface OpenChatOptions {
  /** Agent id. */
  readonly agent: string;
  /** Agents file or folder. @default {CHAT_DEFAULTS.agents} */
  readonly agents?: string;
  /** Model registry. @default {CHAT_DEFAULTS.models} */
  readonly models?: string;
  /** mcpServers config. @default {CHAT_DEFAULTS.servers} */
  readonly servers?: string;
  /** Installed server packages. @default {CHAT_DEFAULTS.installDir} */
  readonly installDir?: string;
  /** Fixture data copied for the session, `${DATA}`. @default {CHAT_DEFAULTS.data} */
  readonly data?: string;
  /** dotenv file with API keys. @default {CHAT_DEFAULTS.envFile} */
  readonly envFile?: string;
  /** Per-message timeout, ms. @default {CHAT_DEFAULTS.timeoutMs} */
  readonly timeoutMs?: number;
}

/** An open chat: a banner, one call per user line, and a close that stops the servers. */
export interface ChatSession {
  /** One line naming the agent, model, exposure, tool count and loop. */
  readonly banner: string;
  /** Sends one user message; resolves to the lines to print (tool calls, answer, usage). */
  send(line: string): Promise<string[]>;
  /** Closes the MCP host and disposes the servers' scratch folders. */
  close(): Promise<void>;
}

const fmtTokens = (n: number | null) => n === null ? "n/a" : String(n);

/**
 * Opens a chat session with one agent.
 *
 * @param options The agent and where its configuration lives.
 * @param io Monotonic clock. @default {denoFlowIo()}
 * @returns The session, or `{ noModel }` (the message, with setup help) when the agent's model
 *   cannot be built, e.g. its API key is missing.
 * @throws {UsageError} On an unknown agent or a model missing from the registry.
 * @throws {InputFileError} On a malformed agents, models or servers file.
 */
export async function openChat(
  options: OpenChatOptions,
  io: Pick<FlowIo, "now"> = denoFlowIo(),
): Promise<ChatSession | { noModel: string }> {
  const modelsPath = options.models ?? CHAT_DEFAULTS.models;
  const env = await loadEnv(options.envFile ?? CHAT_DEFAULTS.envFile);
  const agents = await loadAgents(options.agents ?? CHAT_DEFAULTS.agents);
  const agent = agents.find((a) => a.id === options.agent);
  if (agent === undefined) {
    throw new UsageError(
      `unknown agent "${options.agent}"; known: ${agents.map((a) => a.id).join(", ")}`,
    );
  }
  const models = await loadModels(modelsPath);
  const config = models.find((m) => m.id === agent.model);
  if (config === undefined) {
    throw new UsageError(`model "${agent.model}" is not in the registry ${modelsPath}`);
  }
  const cannotSearch = toolSearchProblems([agent], models, env);
  if (cannotSearch.length > 0) throw new UsageError(cannotSearch.join("\n"));
  // The session's secrets: every line it prints goes through them (a tool or the model may echo
  // a key).
  const redactor = runRedactor({ models, env });
  let model, context;
  try {
    const deps = { env, now: io.now, sleep: realSleep, source: modelsPath, redactor };
    model = createModelClient(config, deps);
    context = contextCollaborators(agent, models, (c) => createModelClient(c, deps));
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    if (e instanceof AgentConfigError) return { noModel: `${e.message}\n\n${NO_MODEL_HELP}` };
    throw e;
  }
  const servers = await prepareAgentServers({
    serversPath: options.servers ?? CHAT_DEFAULTS.servers,
    agents: [agent],
    installDir: options.installDir ?? CHAT_DEFAULTS.installDir,
    dataDir: options.data ?? CHAT_DEFAULTS.data,
    env,
    task: "chat",
    onProgress: (m) => console.error(`[chat] ${redactor.text(m)}`),
  });
  redactor.add(servers.secrets);
  let host;
  try {
    host = await servers.open(agent, config.provider);
  } catch (e) {
    await servers.dispose();
    throw e;
  }
  const timeoutMs = options.timeoutMs ?? CHAT_DEFAULTS.timeoutMs;
  let history: readonly Message[] = [];
  return {
    banner: `agent ${agent.id}: model ${config.id} (${config.provider}), ${agent.exposure} ` +
      `exposure, ${host.tools.length} tools, ${agent.loop} loop. /exit to quit.`,
    async send(line) {
      const r = await runAgentLoop({
        agent,
        question: line,
        history,
        model,
        tools: host,
        now: io.now,
        signal: AbortSignal.timeout(timeoutMs),
        ...context,
      });
      const out: string[] = [];
      for (const c of r.toolCalls) {
        const via = c.via === undefined ? "" : ` via ${c.via}`;
        out.push(
          `  tool ${c.name}${via} ${JSON.stringify(c.args)} -> ${c.tool ?? "unknown"} ` +
            `${Math.round(c.ms)} ms${c.isError ? " ERROR" : ""}`,
        );
      }
      if (r.error !== null) {
        out.push(`  error (${r.error.kind}): ${r.error.message}`);
        if (r.error.code === "unreachable") out.push(NO_MODEL_HELP);
      }
      if (r.finalAnswer !== null) out.push(r.finalAnswer);
      const cost = usageCostUsd(r.usage, config.pricing);
      out.push(
        `  [${r.iterations} model turn(s); tokens in ${fmtTokens(r.usage.inputTokens)}, ` +
          `out ${fmtTokens(r.usage.outputTokens)}, cache read ${
            fmtTokens(r.usage.cacheReadTokens)
          }, cache write ${fmtTokens(r.usage.cacheWriteTokens)}; ` +
          `${cost === null ? "cost n/a" : `$${cost.toFixed(6)}`}; ${Math.round(r.wallMs)} ms]`,
      );
      // A failed exchange is not kept: the next message starts from the last good state.
      if (r.error === null) history = r.messages;
      return out.map((l) => redactor.text(l));
    },
    async close() {
      try {
        await host.close();
      } finally {
        await servers.dispose();
      }
    },
  };
}
