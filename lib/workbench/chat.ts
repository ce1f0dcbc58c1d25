/**
 * Chat sessions for the workbench: one agent, the same loop as `deno task chat`
 * ({@linkcode runAgentLoop} with the conversation so far), its MCP servers kept open for the
 * session, each tool call reported as it starts and as it returns.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../catalog/types.ts";
import type { AgentConfig } from "../agent/types.ts";
import type { Message, ModelClient } from "../agent/providers/types.ts";
import { createModelClient } from "../agent/providers/client.ts";
import { realSleep } from "../agent/providers/retry.ts";
import { runAgentLoop } from "../agent/loop.ts";
import { contextCollaborators } from "../agent/context_setup.ts";
import { usageCostUsd } from "../agent/usage.ts";
import type { ExposedTool, ToolHost } from "../agent/tools.ts";
import type { ChatService } from "./app.ts";
import type { ConfigStore } from "./config_store.ts";
import type { PreparedServers, PrepareServers } from "./runner.ts";
import { checkId, WorkbenchError } from "./_paths.ts";
import { modelSecrets, runRedactor } from "../agent/secrets.ts";
import type { Redactor } from "../core/secrets.ts";

/** Inputs of {@linkcode createChatService}. */
export interface ChatServiceOptions {
  /** The working config. */
  readonly config: ConfigStore;
  /** Variables for `${VAR}` in the model registry. */
  readonly env: Readonly<Record<string, string>>;
  /** Starts MCP servers. */
  readonly prepareServers: PrepareServers;
  /** ms clock. */
  readonly now: () => number;
  /** Per-message timeout, ms. @default 300000 */
  readonly timeoutMs?: number;
  /** Sessions kept open at once; the least recently used one is closed beyond it. @default 4 */
  readonly maxSessions?: number;
  /**
   * The workbench's secrets: a session adds its model's and servers' and writes its wire
   * traffic through it (the answers are redacted where they are served).
   * @default {a redactor of the environment}
   */
  readonly redactor?: Redactor;
}

interface Session {
  readonly agentId: string;
  /** The model chosen in place of the agent's, or `""`. */
  readonly modelChoice: string;
  readonly agent: AgentConfig;
  readonly model: ModelClient;
  /** Tokenizer and summarizer client of the agent's context strategy, when it needs them. */
  readonly context: ReturnType<typeof contextCollaborators>;
  readonly pricing: Parameters<typeof usageCostUsd>[1];
  /** The model is a scripted stand-in: its cost is simulated. */
  readonly simulated: boolean;
  readonly servers: PreparedServers;
  readonly host: ToolHost & { close(): Promise<void> };
  history: readonly Message[];
  busy: boolean;
  used: number;
  emit: ((event: string, data: JsonObject) => Promise<void>) | null;
}

const preview = (text: string) => text.length > 2000 ? `${text.slice(0, 2000)}…` : text;

/**
 * Builds the chat service.
 *
 * @param options See {@linkcode ChatServiceOptions}.
 * @returns The service.
 */
export function createChatService(options: ChatServiceOptions): ChatService {
  const redactor = options.redactor ?? runRedactor({ env: options.env });
  const sessions = new Map<string, Session>();
  let clock = 0;

  async function end(id: string) {
    const s = sessions.get(id);
    if (s === undefined) return;
    sessions.delete(id);
    await s.host.close().catch(() => {});
    await s.servers.dispose().catch(() => {});
  }

  async function open(id: string, agentId: string, modelChoice: string): Promise<Session> {
    const configured = (await options.config.loadAgents()).find((a) => a.id === agentId);
    if (configured === undefined) {
      throw new WorkbenchError(400, `no agent "${agentId}"`, "agentId");
    }
    const models = await options.config.loadModels();
    if (modelChoice !== "") {
      const chat = models.filter((m) => m.kind !== "embedding").map((m) => m.id);
      if (!chat.includes(modelChoice)) {
        throw new WorkbenchError(
          400,
          `field "model": "${modelChoice}" is not a registered chat model (known: ${
            chat.join(", ")
          })`,
          "model",
        );
      }
    }
    // The run form's model override, for one conversation: the agent as configured otherwise.
    const agent = modelChoice === "" ? configured : { ...configured, model: modelChoice };
    const config = models.find((m) => m.id === agent.model);
    if (config === undefined) {
      throw new WorkbenchError(400, `agent "${agentId}": model "${agent.model}" is not registered`);
    }
    const paths = await options.config.files();
    redactor.add(modelSecrets(models, options.env));
    const deps = {
      env: options.env,
      now: options.now,
      sleep: realSleep,
      source: paths.models,
      redactor,
    };
    const model = createModelClient(config, deps);
    let context;
    try {
      context = contextCollaborators(agent, models, (c) => createModelClient(c, deps));
    } catch (e) {
      throw new WorkbenchError(400, (e as Error).message);
    }
    const servers = await options.prepareServers({
      serversPath: paths.servers,
      agents: [agent],
    });
    redactor.add(servers.secrets ?? []);
    let inner: ToolHost & { close(): Promise<void> };
    try {
      inner = await servers.open(agent, config.provider);
    } catch (e) {
      await servers.dispose();
      throw e;
    }
    const session: Session = {
      agentId,
      modelChoice,
      agent,
      model,
      context,
      pricing: config.pricing,
      simulated: config.simulated === true,
      servers,
      host: inner,
      history: [],
      busy: false,
      used: ++clock,
      emit: null,
    };
    // Tool calls are reported as they happen.
    const host: ToolHost & { close(): Promise<void> } = {
      tools: inner.tools,
      close: () => inner.close(),
      async call(tool: ExposedTool, args: JsonValue, signal?: AbortSignal) {
        const started = options.now();
        await session.emit?.("tool_call", {
          name: tool.spec.name,
          tool: `${tool.server}:${tool.tool}`,
          args,
        });
        const out = await inner.call(tool, args, signal);
        await session.emit?.("tool_result", {
          name: tool.spec.name,
          isError: out.isError,
          ms: options.now() - started,
          text: preview(out.text),
        });
        return out;
      },
    };
    (session as { host: typeof host }).host = host;
    while (sessions.size >= (options.maxSessions ?? 4)) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].used - b[1].used)[0];
      await end(oldest[0]);
    }
    sessions.set(id, session);
    return session;
  }

  return {
    async send(sessionId, agentId, message, emit, modelId) {
      checkId(sessionId, "sessionId");
      checkId(agentId, "agentId");
      if (typeof message !== "string" || message.trim() === "") {
        throw new WorkbenchError(400, `field "message" must be a non-empty string`, "message");
      }
      if (modelId !== undefined && typeof modelId !== "string") {
        throw new WorkbenchError(400, `field "model" must be a model id`, "model");
      }
      const modelChoice = modelId ?? "";
      let s = sessions.get(sessionId);
      // Another agent or model is another conversation.
      if (s !== undefined && (s.agentId !== agentId || s.modelChoice !== modelChoice)) {
        await end(sessionId);
        s = undefined;
      }
      if (s === undefined) {
        await emit("status", { message: `starting ${agentId}'s servers…` });
        s = await open(sessionId, agentId, modelChoice);
        await emit("status", {
          message:
            `${agentId}: ${s.host.tools.length} tools, ${s.agent.exposure} exposure, ${s.agent.loop} loop, model ${s.agent.model}${
              s.simulated ? " (simulated)" : ""
            }`,
        });
      }
      if (s.busy) throw new WorkbenchError(409, "this session is answering a message already");
      s.busy = true;
      s.used = ++clock;
      s.emit = emit;
      try {
        const r = await runAgentLoop({
          agent: s.agent,
          question: message,
          history: s.history,
          model: s.model,
          tools: s.host,
          now: options.now,
          signal: AbortSignal.timeout(options.timeoutMs ?? 300_000),
          ...s.context,
        });
        if (r.error !== null) {
          await emit("error", { kind: r.error.kind, message: r.error.message });
        }
        if (r.finalAnswer !== null) await emit("answer", { text: r.finalAnswer });
        await emit("usage", {
          iterations: r.iterations,
          inputTokens: r.usage.inputTokens,
          outputTokens: r.usage.outputTokens,
          costUsd: usageCostUsd(r.usage, s.pricing),
          simulated: s.simulated,
          wallMs: r.wallMs,
        });
        // A failed exchange is not kept: the next message starts from the last good state.
        if (r.error === null) s.history = r.messages;
      } finally {
        s.busy = false;
        s.emit = null;
      }
    },
    end,
    async close() {
      for (const id of [...sessions.keys()]) await end(id);
    },
  };
}
