// deno task chat: an interactive session with one agent, through the same loop as benchmarks.
import { createInterface } from "node:readline";
import process from "node:process";
import { parseFlags, runMain, UsageError } from "./_cli.ts";
import { AgentConfigError, type Message, runAgentLoop, usageCostUsd } from "../lib/agent/mod.ts";
import {
  createModelClient,
  loadAgents,
  loadEnv,
  loadModels,
  NO_MODEL_HELP,
  prepareAgentServers,
  realSleep,
} from "../lib/agent/io.ts";

const HELP = `Usage: deno task chat --agent ID [options]

An interactive session with one agent: each line you type is a user message; the agent
answers through the same loop as \`deno task agents\` (its model, servers, exposure mode and
loop), keeping the conversation. Tool calls and usage are printed per turn. /exit or end of
input (Ctrl-D) ends the session.

Options:
  --agent ID            agent id (required)
  --agents PATH         agents file or folder (default: fixtures/agents)
  --models FILE         model registry (default: fixtures/agents/models.json)
  --servers FILE        mcpServers config (default: fixtures/agents/servers.json)
  --install-dir DIR     where MCP server packages are installed (default: .scratch/servers)
  --data DIR            fixture data copied for the session, \${DATA} (default: fixtures/suites/data)
  --env-file FILE       dotenv file with API keys (default: .env)
  --timeout-ms MS       per-message timeout (default: 300000)
  --help                show this help
`;

const fmtTokens = (n: number | null) => n === null ? "n/a" : String(n);

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    agent: { type: "string" },
    agents: { type: "string", default: "fixtures/agents" },
    models: { type: "string", default: "fixtures/agents/models.json" },
    servers: { type: "string", default: "fixtures/agents/servers.json" },
    "install-dir": { type: "string", default: ".scratch/servers" },
    data: { type: "string", default: "fixtures/suites/data" },
    "env-file": { type: "string", default: ".env" },
    "timeout-ms": { type: "string", default: "300000" },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.agent === undefined) throw new UsageError("--agent ID is required (see --help)");
  const timeoutMs = Number(values["timeout-ms"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new UsageError(`--timeout-ms must be an integer >= 1, got "${values["timeout-ms"]}"`);
  }
  const env = await loadEnv(values["env-file"]);
  const agents = await loadAgents(values.agents);
  const agent = agents.find((a) => a.id === values.agent);
  if (agent === undefined) {
    throw new UsageError(
      `unknown agent "${values.agent}"; known: ${agents.map((a) => a.id).join(", ")}`,
    );
  }
  const models = await loadModels(values.models);
  const config = models.find((m) => m.id === agent.model);
  if (config === undefined) {
    throw new UsageError(`model "${agent.model}" is not in the registry ${values.models}`);
  }
  let model;
  try {
    model = createModelClient(config, {
      env,
      now: () => performance.now(),
      sleep: realSleep,
      source: values.models,
    });
  } catch (e) {
    if (e instanceof AgentConfigError) {
      console.error(`mcpmeter chat: ${e.message}\n\n${NO_MODEL_HELP}`);
      return 2;
    }
    throw e;
  }
  const servers = await prepareAgentServers({
    serversPath: values.servers,
    agents: [agent],
    installDir: values["install-dir"],
    dataDir: values.data,
    env,
    task: "chat",
  });
  const out = (line: string) => console.log(line);
  try {
    const host = await servers.open(agent, config.provider);
    try {
      out(
        `agent ${agent.id}: model ${config.id} (${config.provider}), ${agent.exposure} exposure, ` +
          `${host.tools.length} tools, ${agent.loop} loop. /exit to quit.`,
      );
      let history: readonly Message[] = [];
      const interactive = Deno.stdin.isTerminal();
      const rl = createInterface({ input: process.stdin, terminal: interactive });
      if (interactive) rl.setPrompt("> ");
      if (interactive) rl.prompt();
      for await (const raw of rl) {
        const line = raw.trim();
        if (line === "/exit") break;
        if (line === "") {
          if (interactive) rl.prompt();
          continue;
        }
        const r = await runAgentLoop({
          agent,
          question: line,
          history,
          model,
          tools: host,
          now: () => performance.now(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        for (const c of r.toolCalls) {
          const via = c.via === undefined ? "" : ` via ${c.via}`;
          out(
            `  tool ${c.name}${via} ${JSON.stringify(c.args)} -> ${c.tool ?? "unknown"} ` +
              `${Math.round(c.ms)} ms${c.isError ? " ERROR" : ""}`,
          );
        }
        if (r.error !== null) {
          out(`  error (${r.error.kind}): ${r.error.message}`);
          if (r.error.code === "unreachable") out(NO_MODEL_HELP);
        }
        if (r.finalAnswer !== null) out(r.finalAnswer);
        const cost = usageCostUsd(r.usage, config.pricing);
        out(
          `  [${r.iterations} model turn(s); tokens in ${fmtTokens(r.usage.inputTokens)}, ` +
            `out ${fmtTokens(r.usage.outputTokens)}, cache read ${
              fmtTokens(r.usage.cacheReadTokens)
            }, ` +
            `cache write ${fmtTokens(r.usage.cacheWriteTokens)}; ` +
            `${cost === null ? "cost n/a" : `$${cost.toFixed(6)}`}; ${Math.round(r.wallMs)} ms]`,
        );
        // A failed exchange is not kept: the next message starts from the last good state.
        if (r.error === null) history = r.messages;
        if (interactive) rl.prompt();
      }
      rl.close();
    } finally {
      await host.close();
    }
  } finally {
    await servers.dispose();
  }
  return 0;
}

if (import.meta.main) runMain("chat", main);
