/**
 * `deno task lint-catalog [--corpus FILE | --servers CONFIG] [--json] [--max-schema-tokens N]`
 *
 * Lints a tool catalog: per-tool findings with severity and the providers or
 * clients they affect (see `LINT_RULES` in lib/catalog/lint.ts). Exits 1 when
 * any finding is an error, 2 on bad input, 0 otherwise.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { CatalogError } from "../lib/catalog/errors.ts";
import { LINT_RULES, lintCatalog, type LintReport } from "../lib/catalog/lint.ts";
import { loadCatalog } from "../lib/catalog/load.ts";
import { createTokenizer } from "../lib/tokens/mod.ts";

const DEFAULT_CORPUS = new URL("../fixtures/corpora/reference_v1.tools.json", import.meta.url)
  .pathname;

const HELP = `Usage: deno task lint-catalog [--corpus FILE | --servers CONFIG] [options]

Lists per-tool findings that a model provider or MCP client would reject.

  --corpus FILE            catalog file (mcpmeter capture, mcpproxy corpus, LiveMCPBench,
                           or a raw tools/list result); default ${DEFAULT_CORPUS}
  --servers CONFIG         an mcpServers config to capture live (not available yet)
  --max-schema-tokens N    schema-too-heavy threshold in cl100k_base tokens (default 2000)
  --json                   print the report as JSON instead of a table
  -h, --help               show this help

Rules:
${
  LINT_RULES.map((r) => `  ${r.id} [${r.severity}; ${r.affects.join(", ")}]: ${r.description}`)
    .join("\n")
}
`;

function formatTable(report: LintReport, source: string): string {
  const lines = [
    `${source}: ${report.toolCount} tools, ${report.findings.length} findings, ` +
    `${report.toolsWithErrors} tools with errors`,
  ];
  for (const r of LINT_RULES) lines.push(`  ${r.id}: ${report.countsByRule[r.id]}`);
  lines.push("");
  for (const f of report.findings) {
    lines.push(
      `${f.severity.padEnd(7)} ${f.toolId}  ${f.rule} [${f.affects.join(",")}]  ${f.message}` +
        (f.path === undefined ? "" : `  at ${f.path}`),
    );
  }
  return lines.join("\n");
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: "string" },
      servers: { type: "string" },
      "max-schema-tokens": { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.corpus !== undefined && values.servers !== undefined) {
    throw new RangeError("Cannot lint as --corpus and --servers are exclusive: give one");
  }
  if (values.servers !== undefined) {
    throw new RangeError(
      `Cannot lint servers from "${values.servers}" yet: live capture is not wired into lint-catalog; ` +
        "run `deno task capture` and pass the captured file with --corpus",
    );
  }
  const max = values["max-schema-tokens"] === undefined
    ? 2000
    : Number(values["max-schema-tokens"]);
  if (!(Number.isFinite(max) && max > 0)) {
    throw new RangeError(
      `Cannot lint as --max-schema-tokens must be a positive number: current value is "${
        values["max-schema-tokens"]
      }"`,
    );
  }
  const path = values.corpus ?? DEFAULT_CORPUS;
  const corpus = await loadCatalog(path);
  const report = lintCatalog(corpus.tools, {
    tokenizer: createTokenizer("cl100k_base"),
    maxSchemaTokens: max,
  });
  console.log(
    values.json
      ? JSON.stringify({ corpusId: corpus.id, ...report }, null, 2)
      : formatTable(report, path),
  );
  return report.toolsWithErrors > 0 ? 1 : 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    const known = error instanceof CatalogError || error instanceof RangeError ||
      error instanceof TypeError || error instanceof Deno.errors.NotFound ||
      (error as { code?: string })?.code?.startsWith("ERR_PARSE_ARGS");
    console.error(`lint-catalog: ${error instanceof Error ? error.message : String(error)}`);
    if (!known) console.error("(unexpected error; please report it)");
    Deno.exit(2);
  }
}
