// deno task serve: the workbench, a local web app and HTTP API for the agent-benchmark loop
// (lib/workbench/serve.ts).
import {
  fromRoot,
  gitState,
  helpText,
  intFlag,
  parseFlags,
  runMain,
  taskRunArgs,
  UsageError,
} from "./_cli.ts";
import { pageTitles, SERVE_DEFAULTS, serveWorkbench } from "../lib/workbench/mod.ts";

const HELP = helpText({
  usage: "serve [options]",
  purpose: "The workbench: plan, run, watch, compare and configure agent benchmarks in a browser.",
  about: `Serves the HTTP API (docs/api.md) and the pages
${pageTitles().join(", ")},
and prints the URL. On first start the working config DIR is created from
fixtures/agents and fixtures/suites (the fixtures are only read; deno task agents reads the
same folder); runs go to RESULTS/runs like deno task agents'. The model "scripted" (a local
server with scripted replies, as in deno task demo-agents) needs no API key.`,
  options: `  --port N            port (default: 5088; 0 picks a free one)
  --host ADDR         address to bind (default: 127.0.0.1); any other address needs a
                      token (16+ characters, 6+ of them different, no whitespace)
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
  --env-file FILE     dotenv file with API keys (default: .env)`,
  exitCodes: `0 stopped (Ctrl-C), 2 bad input (a flag, a port in use, an off-loopback bind
without a token)`,
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    port: { type: "string" },
    host: { type: "string", default: SERVE_DEFAULTS.hostname },
    "token-env": { type: "string" },
    "allow-host": { type: "string", multiple: true },
    config: { type: "string", default: SERVE_DEFAULTS.configDir, path: true },
    results: { type: "string", default: SERVE_DEFAULTS.resultsDir, path: true },
    "max-runs": { type: "string" },
    "timeout-ms": { type: "string" },
    "install-dir": { type: "string", default: SERVE_DEFAULTS.installDir, path: true },
    data: { type: "string", default: SERVE_DEFAULTS.data, path: true },
    "env-file": { type: "string", default: SERVE_DEFAULTS.envFile, path: true },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const tokenVar = values["token-env"] ?? SERVE_DEFAULTS.tokenVar;
  const token = Deno.env.get(tokenVar) || undefined;
  if (values["token-env"] !== undefined && token === undefined) {
    throw new UsageError(`--token-env ${tokenVar}: the variable is not set or empty`);
  }
  const served = await serveWorkbench({
    hostname: values.host,
    port: intFlag("port", values.port, SERVE_DEFAULTS.port),
    ...(token ? { token } : {}),
    tokenVar,
    ...(values["allow-host"] ? { allowedHosts: values["allow-host"] } : {}),
    configDir: values.config,
    resultsDir: values.results,
    maxRuns: intFlag("max-runs", values["max-runs"], SERVE_DEFAULTS.maxRuns, 1),
    timeoutMs: intFlag("timeout-ms", values["timeout-ms"], SERVE_DEFAULTS.timeoutMs, 1),
    installDir: values["install-dir"],
    data: values.data,
    envFile: values["env-file"],
    fromRoot,
    // Bench jobs run with the permissions deno.json declares for deno task bench, not -A.
    benchArgs: await taskRunArgs("bench"),
    auditArgs: await taskRunArgs("audit"),
    git: await gitState(),
    log: (line) => console.error(line),
  });
  for (const line of served.banner) console.log(line);
  const stop = Promise.withResolvers<void>();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stop.resolve());
  }
  await stop.promise;
  console.error("[serve] stopping; unfinished runs show as interrupted and can be resumed");
  await served.close();
  return 0;
}

if (import.meta.main) runMain("serve", main);
