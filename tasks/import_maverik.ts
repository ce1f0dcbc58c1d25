// deno task import-maverik: maps a MAVERIK config folder to mcpmeter's agents, models, servers,
// tool prices, overrides and suites (lib/agent/maverik.ts), with import-report.json listing,
// field by field, what could not be mapped. Exit 0: something imported; 1: nothing could be;
// 2: unusable input (no such folder, a non-empty --out without --force, a bad flag).
import { helpText, parseFlags, printOutcome, runMain, UsageError } from "./_cli.ts";
import { runImportMaverik } from "../lib/flows/mod.ts";

const HELP = helpText({
  usage: "import-maverik --from DIR --out DIR [--force]",
  purpose: "Convert a MAVERIK config folder into mcpmeter agents, models, servers and suites.",
  about: `Reads a MAVERIK config folder (agents.json, llm-models.json, mcp-servers.json,
tool-costs.json, capability-overrides.json, prompts/agent/<id>.md, maverik-suites/*.json,
agent-versions/<id>/<n>.json;
a missing file falls back to its *.example.json, as MAVERIK does; a MAVERIK checkout is
read from its config/ folder) and writes mcpmeter's configuration into --out:

  agents/<id>.json            one agent per file (prompts/ and overrides/ beside them)
  agents/versions/<id>/<n>.json   MAVERIK's cut versions (agent-versions/), run as <id>@<n>
  agents/models.json          model registry (USD per million tokens from MAVERIK's prices)
  agents/servers.json         mcpServers config (MAVERIK servers are streamable HTTP)
  agents/tool_prices.json     USD per call by server:tool
  suites/<id>.json            one suite per MAVERIK suite
  import-report.json          every field that could not be mapped, or was mapped differently

Each output is validated with mcpmeter's own schemas, so it loads with deno task agents.
Unknown fields, missing files and malformed JSON are recorded in the report, never fatal.
API keys and credential headers are never copied: they become \${VAR} references.`,
  options: `  --from DIR    the MAVERIK config folder (required)
  --out DIR     where to write (required; must be new or empty unless --force)
  --force       write into a non-empty --out (files of the same name are replaced)`,
  exitCodes: `0 imported (issues listed), 1 nothing could be imported, 2 unusable input
(a missing folder, one holding none of MAVERIK's files, a non-empty --out).`,
});

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    from: { type: "string", path: true },
    out: { type: "string", path: true },
    force: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.from === undefined) throw new UsageError("--from DIR is required (see --help)");
  if (values.out === undefined) throw new UsageError("--out DIR is required (see --help)");
  return printOutcome(
    await runImportMaverik({ from: values.from, out: values.out, force: values.force }),
  );
}

if (import.meta.main) await runMain("import-maverik", main);
