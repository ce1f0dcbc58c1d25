/**
 * The production {@linkcode Runner}: a workbench run goes through `runSuite` from `lib/agent`,
 * the same runner as `deno task agents`, into the same run folder layout, so `deno task
 * report`, `deno task gate` and the notebooks read what the workbench made. Also keeps each
 * case's conversation under `transcripts/`.
 *
 * Processes (MCP servers) and the network (model endpoints) are reached through the injected
 * `prepareServers` and the model clients built from the working config.
 *
 * @module
 */

import { join } from "node:path";
import type { AgentConfig, ProviderKind } from "../agent/types.ts";
import { AgentConfigError, requiredModelIds } from "../agent/config.ts";
import { createModelClient } from "../agent/providers/client.ts";
import { realSleep } from "../agent/providers/retry.ts";
import type { ModelClient } from "../agent/providers/types.ts";
import type { ToolHost } from "../agent/tools.ts";
import { DEFAULT_CASE_TIMEOUT_MS, runSuite } from "../agent/run.ts";
import { versionRefsFor, versionsDirFor } from "../agent/io.ts";
import { DEFAULT_CONTEXT_TOKENIZER, needsContextTokenizer } from "../agent/context.ts";
import { toolSearchProblems } from "../agent/tool_search.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import { modelSecrets, runRedactor } from "../agent/secrets.ts";
import type { Redactor } from "../core/secrets.ts";
import type { ConfigStore } from "./config_store.ts";
import type { RunJob, Runner } from "./queue.ts";
import { stableJson } from "../core/json.ts";
import type { RunStore } from "./run_store.ts";

/** MCP servers ready to open per agent (what `tasks/_agent_servers.ts` prepares). */
export interface PreparedServers {
  /** The servers config's credentials (lib/mcp `serversSecrets`), for the run's redactor. */
  readonly secrets?: readonly string[];
  /** Starts an agent's servers under its exposure, shaped for its model's provider. */
  open(agent: AgentConfig, provider: ProviderKind): Promise<ToolHost & { close(): Promise<void> }>;
  /** Removes the session's data copy. */
  dispose(): Promise<void>;
}

/** Prepares the MCP servers of some agents from a servers config file. */
export type PrepareServers = (options: {
  readonly serversPath: string;
  readonly agents: readonly AgentConfig[];
}) => Promise<PreparedServers>;

/** Inputs of {@linkcode createAgentRunner}. */
export interface AgentRunnerOptions {
  /** The working config (models, tool prices, servers). */
  readonly config: ConfigStore;
  /** The runs folder (for transcripts). */
  readonly store: RunStore;
  /** Variables for `${VAR}` in the model registry (environment, `.env`, scripted model URLs). */
  readonly env: Readonly<Record<string, string>>;
  /** Starts MCP servers. */
  readonly prepareServers: PrepareServers;
  /** ms clock for durations. */
  readonly now: () => number;
  /** Epoch ms for `run.json` timestamps. */
  readonly epochNow: () => number;
  /** Per-case timeout, ms. @default DEFAULT_CASE_TIMEOUT_MS */
  readonly caseTimeoutMs?: number;
  /** Git state for `run.json` provenance. */
  readonly git?: Readonly<Record<string, string | boolean | null>>;
  /**
   * The workbench's secrets; each run adds what it resolves (its models' keys, its servers'
   * credentials) and writes its files, wire traffic and transcripts through it.
   * @default {a redactor of the environment}
   */
  readonly redactor?: Redactor;
}

/**
 * Builds the production runner.
 *
 * A resumed run takes its suite and agents from `run.json` when the runner had started (what
 * the finished cases ran with), else from `workbench.json`; models and tool prices come from
 * the working config.
 *
 * @param options See {@linkcode AgentRunnerOptions}.
 * @returns The runner.
 */
export function createAgentRunner(options: AgentRunnerOptions): Runner {
  const redactor = options.redactor ?? runRedactor({ env: options.env });
  return {
    async preflight(agents, suite) {
      const models = await options.config.loadModels();
      const needed = requiredModelIds(agents, suite);
      const missing = needed.filter((id) => !models.some((m) => m.id === id));
      if (missing.length > 0) {
        return `model(s) ${missing.join(", ")} are not in the model registry`;
      }
      // A search exposure on a model without tool search would fail every case.
      const cannotSearch = toolSearchProblems(agents, models, options.env);
      if (cannotSearch.length > 0) return cannotSearch.join("; ");
      // Building a client resolves its key variables and endpoint; it sends nothing.
      for (const id of needed) {
        try {
          createModelClient(models.find((m) => m.id === id)!, {
            env: options.env,
            now: options.now,
            sleep: realSleep,
            source: (await options.config.files()).models,
          });
        } catch (e) {
          if (e instanceof AgentConfigError) {
            return `${e.message}; restart the workbench once it is set, or pick another model`;
          }
          throw e;
        }
      }
      return null;
    },
    async run(job: RunJob, onRecord) {
      const prior = job.resume ? (await options.store.run(job.runId)).doc : null;
      const suite = (prior?.suite ?? job.sidecar.suite) as typeof job.sidecar.suite;
      const agents = (prior?.agents ?? job.sidecar.agents) as readonly AgentConfig[];
      const repetitions = Number(prior?.repetitions ?? job.sidecar.request.repetitions);
      const models = await options.config.loadModels();
      const toolPrices = await options.config.loadToolPrices();
      const needed = requiredModelIds(agents, suite);
      const missing = needed.filter((id) => !models.some((m) => m.id === id));
      if (missing.length > 0) {
        throw new Error(`model(s) ${missing.join(", ")} are not in the model registry`);
      }
      const paths = await options.config.files();
      const used = models.filter((m) => needed.includes(m.id));
      redactor.add(modelSecrets(used, options.env));
      const clients = new Map<string, ModelClient>();
      for (const config of used) {
        clients.set(
          config.id,
          createModelClient(config, {
            env: options.env,
            now: options.now,
            sleep: realSleep,
            source: paths.models,
            redactor,
          }),
        );
      }
      const servers = await options.prepareServers({ serversPath: paths.servers, agents });
      redactor.add(servers.secrets ?? []);
      const providerOf = (a: AgentConfig) => models.find((m) => m.id === a.model)!.provider;
      await Deno.mkdir(join(job.runDir, "transcripts"), { recursive: true });
      try {
        await runSuite({
          redactor,
          runDir: job.runDir,
          runId: job.runId,
          suite,
          agents,
          models: models.filter((m) => needed.includes(m.id)),
          toolPrices,
          clients,
          openTools: (a) => servers.open(a, providerOf(a)),
          repetitions,
          concurrency: job.sidecar.request.concurrency,
          caseTimeoutMs: options.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS,
          resume: job.resume,
          seed: 0,
          agentVersions: await versionRefsFor(agents, await versionsDirFor(paths.agentsDir)),
          ...(needsContextTokenizer(agents)
            ? { tokenizer: createTokenizer(DEFAULT_CONTEXT_TOKENIZER) }
            : {}),
          now: options.now,
          epochNow: options.epochNow,
          meta: {
            // The CLI can resume a workbench run from these (deno task agents --resume ID).
            args: {
              suite: join(paths.suitesDir, job.sidecar.suiteFile),
              "agents-dir": paths.agentsDir,
              models: paths.models,
              servers: paths.servers,
              "tool-prices": paths.toolPrices,
              agents: agents.map((a) => a.id).join(","),
              repetitions: String(repetitions),
              seed: "0",
            },
            workbench: { request: job.sidecar.request as never },
            git: (options.git ?? {}) as never,
          },
          onTranscript: async (item, messages) => {
            await Deno.writeTextFile(
              options.store.transcriptPath(
                job.runId,
                item.agentId,
                item.caseId,
                item.repetition,
              ),
              stableJson({ ...item, messages }),
            );
          },
          onRecord: (record) => onRecord(record),
        });
      } finally {
        await servers.dispose();
      }
    },
  };
}
