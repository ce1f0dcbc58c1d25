// deno task serve: the workbench, a local web app and HTTP API for the agent-benchmark loop.
import { fromRoot, gitState, intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { prepareAgentServers, startDemoModelServer } from "../lib/agent/io.ts";
import { createTokenizer } from "../lib/tokens/mod.ts";
import { createBenchService, isLoopback, startWorkbench } from "../lib/workbench/mod.ts";
import { loadEnv } from "../lib/agent/io.ts";

/** Corpora the Catalog page can bench: the committed ones, and LiveMCPBench when beside us. */
async function benchCorpora(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(fromRoot("fixtures/corpora"))) {
    if (e.isFile && e.name.endsWith(".tools.json")) {
      out[e.name.replace(/\.tools\.json$/, "")] = fromRoot(`fixtures/corpora/${e.name}`);
    }
  }
  const live = fromRoot("../shared/corpora/livemcptool/tools.json");
  if (await Deno.stat(live).then(() => true, () => false)) out.livemcptool = live;
  return out;
}

async function runBench(corpus: string, outDir: string): Promise<{ code: number; log: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fromRoot("tasks/bench.ts"), "--corpus", corpus, "--out", outDir],
    cwd: fromRoot("."),
    stdout: "null",
    stderr: "piped",
  }).output();
  const log = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-5).join("\n");
  return { code: out.code, log };
}

const HELP =
  `mcpmeter serve — the workbench: plan, run, watch, compare and configure agent benchmarks

Usage: deno task serve [options]

Serves the pages (Test plans, Runs, Chat, Config, Catalog) and the HTTP API (docs/api.md) and
prints the URL. On first start the working config DIR is created from fixtures/agents and
fixtures/suites (the fixtures are only read); runs go to RESULTS/runs like deno task agents'.
The model "scripted" (a local server with scripted replies, as in deno task demo-agents) needs
no API key.

Options:
  --port N            port (default: 5088; 0 picks a free one)
  --host ADDR         address to bind (default: 127.0.0.1); any other address needs a token
  --token-env VAR     environment variable holding the token every API call must carry
                      (Authorization: Bearer TOKEN; pages: open URL/?token=TOKEN once)
                      (default: MCPMETER_TOKEN when set)
  --allow-host NAME   also answer to this Host (name or name:port; repeatable), e.g. the
                      machine name when bound to 0.0.0.0
  --config DIR        working config folder (default: results/config)
  --results DIR       results folder; runs in DIR/runs (default: results)
  --max-runs N        runs executed at once (default: 1)
  --timeout-ms MS     per-case timeout (default: 300000)
  --install-dir DIR   where MCP server packages are installed (default: .scratch/servers)
  --data DIR          fixture data copied per run, \${DATA} (default: fixtures/suites/data)
  --env-file FILE     dotenv file with API keys (default: .env)
  --help              show this help
`;

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    "token-env": { type: "string" },
    "allow-host": { type: "string", multiple: true },
    config: { type: "string", default: "results/config" },
    results: { type: "string", default: "results" },
    "max-runs": { type: "string" },
    "timeout-ms": { type: "string" },
    "install-dir": { type: "string", default: ".scratch/servers" },
    data: { type: "string", default: "fixtures/suites/data" },
    "env-file": { type: "string", default: ".env" },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const port = intFlag("port", values.port, 5088);
  if (port > 65535) throw new UsageError(`--port must be at most 65535: current value is ${port}`);
  const maxRuns = intFlag("max-runs", values["max-runs"], 1);
  if (maxRuns < 1) throw new UsageError("--max-runs must be >= 1");
  const timeoutMs = intFlag("timeout-ms", values["timeout-ms"], 300_000);
  if (timeoutMs < 1) throw new UsageError("--timeout-ms must be >= 1");
  const tokenVar = values["token-env"] ?? "MCPMETER_TOKEN";
  const token = Deno.env.get(tokenVar) || undefined;
  if (values["token-env"] !== undefined && token === undefined) {
    throw new UsageError(`--token-env ${tokenVar}: the variable is not set or empty`);
  }
  if (!isLoopback(values.host) && token === undefined) {
    throw new UsageError(
      `--host ${values.host} reaches beyond this machine: set a token (export ${tokenVar}=...; --token-env ${tokenVar})`,
    );
  }

  const scripted = startDemoModelServer(createTokenizer("cl100k_base"));
  const env = {
    ...(await loadEnv(values["env-file"])),
    MCPMETER_SCRIPTED_URL: scripted.url,
    MCPMETER_SCRIPTED_OPENAI_URL: scripted.openaiBaseUrl,
    MCPMETER_SCRIPTED_KEY: "scripted-not-a-key",
  };
  const workbench = await startWorkbench({
    hostname: values.host,
    port,
    ...(token ? { token } : {}),
    ...(values["allow-host"] ? { allowedHosts: values["allow-host"] } : {}),
    configDir: values.config,
    resultsDir: values.results,
    agentsExamples: fromRoot("fixtures/agents"),
    suitesExamples: fromRoot("fixtures/suites"),
    schemasDir: fromRoot("lib/agent/schemas"),
    env,
    maxConcurrentRuns: maxRuns,
    caseTimeoutMs: timeoutMs,
    git: await gitState(),
    prepareServers: ({ serversPath, agents }) =>
      prepareAgentServers({
        serversPath,
        agents,
        installDir: values["install-dir"],
        dataDir: values.data,
        env,
        task: "serve",
      }),
    bench: createBenchService({
      corpora: await benchCorpora(),
      resultsDir: values.results,
      isoNow: () => new Date().toISOString(),
      runBench,
    }),
    log: (line) => console.error(line),
  });
  const ctx = workbench.context;
  console.log(`mcpmeter workbench: ${workbench.url}/`);
  console.log(
    `  config ${ctx.config.dir}${ctx.config.bootstrapped ? " (created from fixtures)" : ""}`,
  );
  console.log(`  runs   ${ctx.runs.dir}`);
  if (token) {
    console.log(`  token required: open ${workbench.url}/?token=<value of $${tokenVar}> once`);
  }
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  await stop.promise;
  console.error("[serve] stopping; unfinished runs show as interrupted and can be resumed");
  await Promise.race([workbench.close(), new Promise((r) => setTimeout(r, 2000))]);
  await scripted.close();
  return 0;
}

if (import.meta.main) runMain("serve", main);
