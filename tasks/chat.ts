// deno task chat: an interactive session with one agent, through the same loop as benchmarks
// (lib/flows/chat.ts).
import { createInterface } from "node:readline";
import process from "node:process";
import { helpText, intFlag, IO, parseFlags, progress, runMain, UsageError } from "./_cli.ts";
import { CHAT_DEFAULTS, openChat } from "../lib/flows/mod.ts";
import { CONFIG_HELP, workingConfig } from "./_config.ts";

const HELP = helpText({
  usage: "chat --agent ID [options]",
  purpose: "Talk to one agent interactively, through the same loop as a benchmark run.",
  about: `Each line you type is a user message; the agent answers through the same loop as
\`deno task agents\` (its model, servers, exposure mode and loop), keeping the conversation.
Tool calls and usage are printed per turn. /exit or end of input (Ctrl-D) ends the session.`,
  options: `  --agent ID            agent id (required)
${CONFIG_HELP}
  --agents PATH         agents file or folder (default: <config>/agents)
  --models FILE         model registry (default: <config>/models.json)
  --servers FILE        mcpServers config (default: <config>/servers.json)
  --install-dir DIR     where MCP server packages are installed (default: .scratch/servers)
  --data DIR            fixture data copied for the session, \${DATA} (default: fixtures/suites/data)
  --env-file FILE       dotenv file with API keys (default: .env)
  --timeout-ms MS       per-message timeout (default: 300000)`,
  exitCodes: "0 session ended, 2 bad input (a flag, a config, a model without its API key)",
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    agent: { type: "string" },
    config: { type: "string", path: true },
    agents: { type: "string", path: true },
    models: { type: "string", path: true },
    servers: { type: "string", path: true },
    "install-dir": { type: "string", default: CHAT_DEFAULTS.installDir, path: true },
    data: { type: "string", default: CHAT_DEFAULTS.data, path: true },
    "env-file": { type: "string", default: CHAT_DEFAULTS.envFile, path: true },
    "timeout-ms": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.agent === undefined) throw new UsageError("--agent ID is required (see --help)");
  const given = [values.agents, values.models, values.servers];
  const config = given.includes(undefined) ? await workingConfig(values.config) : undefined;
  if (config) progress("chat", config.note);
  const session = await openChat({
    agent: values.agent,
    agents: values.agents ?? config!.agentsDir,
    models: values.models ?? config!.models,
    servers: values.servers ?? config!.servers,
    installDir: values["install-dir"],
    data: values.data,
    envFile: values["env-file"],
    timeoutMs: intFlag("timeout-ms", values["timeout-ms"], CHAT_DEFAULTS.timeoutMs, 1),
  }, IO);
  if ("noModel" in session) {
    console.error(`mcpmeter chat: ${session.noModel}`);
    return 2;
  }
  try {
    console.log(session.banner);
    const interactive = Deno.stdin.isTerminal();
    const rl = createInterface({ input: process.stdin, terminal: interactive });
    if (interactive) rl.setPrompt("> ");
    if (interactive) rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === "/exit") break;
      if (line !== "") { for (const out of await session.send(line)) console.log(out); }
      if (interactive) rl.prompt();
    }
    rl.close();
  } finally {
    await session.close();
  }
  return 0;
}

if (import.meta.main) runMain("chat", main);
