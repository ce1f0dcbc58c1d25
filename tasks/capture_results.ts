// deno task capture-results: freezes real tools/call results of pinned reference MCP servers
// (lib/flows/capture_results.ts) as results/tool_results/<id>.json plus its manifest
// (--out fixtures/tool_results refreshes the frozen ones).
import { helpText, intFlag, IO, parseFlags, runMain, UsageError } from "./_cli.ts";
import { captureToolResults } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "capture-results [options]",
  purpose: "Capture real tools/call results of pinned MCP servers over fixture data.",
  about: `Calls tools of pinned reference MCP servers with fixed inputs over fixture data
and writes <out>/<id>.json (normalized results) and <out>/<id>.manifest.json, which
deno task bench --tool-results prices as compact JSON against TOON.`,
  options: `  --config FILE       servers config (default: fixtures/tool_results/servers.json)
  --calls FILE        calls plan (default: fixtures/tool_results/calls.json)
  --data DIR          fixture data copied to \${DATA} (default: fixtures/tool_results/data)
  --out DIR           output folder (default: results/tool_results); --out fixtures/tool_results
                      refreshes the frozen results (then: deno task fixtures --write)
  --id ID             output name (default: results_v1)
  --install-dir DIR   where packages are installed (default: .scratch/tool_results/servers)
  --timeout-ms MS     timeout of initialize and of each call (default: 30000)
  --no-install        do not run npm; servers whose package is missing fail`,
  exitCodes: "0 every call answered, 1 some call unanswered (the rest written), 2 bad input",
});

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    config: { type: "string", default: "fixtures/tool_results/servers.json", path: true },
    calls: { type: "string", default: "fixtures/tool_results/calls.json", path: true },
    data: { type: "string", default: "fixtures/tool_results/data", path: true },
    out: { type: "string", default: "results/tool_results", path: true },
    id: { type: "string", default: "results_v1" },
    "install-dir": { type: "string", default: ".scratch/tool_results/servers", path: true },
    "timeout-ms": { type: "string" },
    "no-install": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!/^[A-Za-z0-9_.-]+$/.test(values.id)) {
    throw new UsageError(`--id must be letters, digits, "_", "." or "-", got "${values.id}"`);
  }
  const timeoutMs = intFlag("timeout-ms", values["timeout-ms"], 30_000, 1);
  const { answered, total } = await captureToolResults({
    config: values.config,
    calls: values.calls,
    data: values.data,
    out: values.out,
    id: values.id,
    installDir: values["install-dir"],
    timeoutMs,
    install: !values["no-install"],
  }, IO);
  return answered < total ? 1 : 0;
}

if (import.meta.main) await runMain("capture-results", () => main(Deno.args));
