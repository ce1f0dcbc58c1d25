/**
 * `deno task lint-catalog [--corpus FILE [--format NAME] | --servers CONFIG] [--json]
 * [--max-schema-tokens N] [--max-description-tokens N]`
 *
 * Lints a tool catalog: per-tool findings with severity and the providers or
 * clients they affect (see `LINT_RULES` in lib/catalog/lint.ts). With
 * `--servers`, the servers of an `mcpServers` config are captured live through
 * lib/mcp (`captureServers`: throwaway HOME, no network where `unshare` works,
 * whole process tree killed); a server that fails is listed with its outcome
 * and cause, and the lint goes on over the others. Exits 1 when any finding is
 * an error or any server failed, 2 on bad input, 3 when the linter itself fails, 0 otherwise.
 *
 * @module
 */
import { helpText, intFlag, parseFlags, runMain, UsageError } from "./_cli.ts";
import { captureCatalog, type FailedServer } from "../lib/flows/mod.ts";
import { createTokenizer } from "../lib/tokens/mod.ts";
import {
  CATALOG_FORMATS,
  catalogCarriesSchemas,
  type CatalogFormat,
  type Corpus,
  DEFAULT_MAX_DESCRIPTION_TOKENS,
  LINT_RULES,
  lintCatalog,
  type LintReport,
  printable,
} from "../lib/catalog/mod.ts";
import { loadCatalog } from "../lib/catalog/io.ts";

/** Exit code of an unexpected error: not 1, which is the verdict "a finding is an error". */
const CRASH_EXIT = 3;

const DEFAULT_CORPUS = new URL("../fixtures/corpora/reference_v1.tools.json", import.meta.url)
  .pathname;

const HELP = helpText({
  usage: "lint-catalog [--corpus FILE | --servers CONFIG] [options]",
  purpose: "Per-tool findings that a model provider or MCP client would reject.",
  options:
    `  --corpus FILE            catalog file (mcpmeter capture, mcpproxy corpus, LiveMCPBench,
                           a raw tools/list result, bare or in its JSON-RPC response, or one
                           server's tools as a provider takes them: Anthropic Messages, OpenAI
                           Chat Completions or Responses, Gemini; detected automatically);
                           default fixtures/corpora/reference_v1.tools.json
  --format NAME            format of the --corpus file when detection cannot tell:
                           ${CATALOG_FORMATS.slice(0, 4).join(", ")},
                           ${CATALOG_FORMATS.slice(4).join(", ")}
  --servers CONFIG         an mcpServers config: capture each server live (stdio or HTTP) and lint
                           what it lists; failed servers are listed with their cause
  --install-dir DIR        where pinned "package"/"version" entries are installed, for \${BIN}
                           (default .scratch/servers; run \`deno task capture\` to install)
  --timeout-ms MS          overall timeout per server with --servers (default 30000)
  --max-schema-tokens N    schema-too-heavy threshold in cl100k_base tokens (default 2000)
  --max-description-tokens N
                           description-too-heavy threshold in cl100k_base tokens (default 1000)
  --json                   print the report as JSON instead of a table`,
  exitCodes: `0 no finding is an error; 1 some finding is an error, or a server failed (a
linter's verdict, as in CI); 2 bad input (a flag, a file, a config); 3 lint-catalog itself failed
(a bug: MCPMETER_DEBUG=1 prints its stack).`,
  notes: `Rules:
${
    LINT_RULES.map((r) => `  ${r.id} [${r.severity}; ${r.affects.join(", ")}]: ${r.description}`)
      .join("\n")
  }`,
});

/** `n` with its noun, singular for one. */
const n = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

function formatTable(report: LintReport, source: string, failed: readonly FailedServer[]): string {
  const lines = [
    `${source}: ${n(report.toolCount, "tool")}, ${n(report.findings.length, "finding")}, ` +
    `${n(report.toolsWithErrors, "tool")} with errors`,
  ];
  if (failed.length > 0) {
    lines.push(`  servers failed (not linted): ${failed.length}`);
    for (const f of failed) lines.push(`    ${f.server}: ${f.outcome}: ${f.message}`);
  }
  for (const r of LINT_RULES) lines.push(`  ${r.id}: ${report.countsByRule[r.id]}`);
  lines.push("");
  for (const f of report.findings) {
    lines.push(
      `${f.severity.padEnd(7)} ${f.toolId}  ${f.rule} [${f.affects.join(",")}]  ${f.message}` +
        (f.path === undefined ? "" : `  at ${f.path}`),
    );
  }
  // Tool and server names are the catalog's text: their control characters are shown escaped,
  // not sent to the terminal.
  return lines.map(printable).join("\n");
}

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    corpus: { type: "string", path: true },
    servers: { type: "string", path: true },
    "max-schema-tokens": { type: "string" },
    "max-description-tokens": { type: "string" },
    "install-dir": { type: "string", default: ".scratch/servers", path: true },
    "timeout-ms": { type: "string" },
    format: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.corpus !== undefined && values.servers !== undefined) {
    throw new UsageError("Cannot lint as --corpus and --servers are exclusive: give one");
  }
  const max = intFlag("max-schema-tokens", values["max-schema-tokens"], 2000, 1);
  const maxDescription = intFlag(
    "max-description-tokens",
    values["max-description-tokens"],
    DEFAULT_MAX_DESCRIPTION_TOKENS,
    1,
  );
  const format = values.format;
  if (format !== undefined && !(CATALOG_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--format must be one of ${CATALOG_FORMATS.join(", ")}, got ${JSON.stringify(format)}`,
    );
  }
  if (format !== undefined && values.servers !== undefined) {
    // Servers answer in MCP's own format: there is nothing to tell.
    throw new UsageError("--format applies to --corpus only (see --help)");
  }
  if (values.servers === undefined && values["timeout-ms"] !== undefined) {
    // A catalog file starts no server: the timeout would be ignored without a word.
    throw new UsageError("--timeout-ms applies to --servers only (see --help)");
  }
  let corpus: Corpus;
  let source: string;
  let failed: FailedServer[] = [];
  if (values.servers !== undefined) {
    const timeout = values["timeout-ms"] === undefined
      ? undefined
      : intFlag("timeout-ms", values["timeout-ms"], 0, 1);
    source = values.servers;
    ({ corpus, failed } = await captureCatalog(values.servers, {
      installDir: values["install-dir"],
      timeoutMs: timeout,
      task: "lint-catalog",
    }));
  } else {
    source = values.corpus ?? DEFAULT_CORPUS;
    corpus = await loadCatalog(
      source,
      format === undefined ? {} : { format: format as CatalogFormat },
    );
  }
  if (corpus.tools.length === 0 && failed.length > 0) {
    // Every server failed: a measured outcome (exit 1), as `deno task capture` reports it.
    console.error(`lint-catalog: no server of ${source} was captured; nothing to lint`);
    for (const f of failed) console.error(`  failed: ${f.server} ${f.outcome}: ${f.message}`);
    return 1;
  }
  if (corpus.tools.length === 0) {
    throw new UsageError(`${source} has no tools: nothing to lint`);
  }
  const report = lintCatalog(corpus.tools, {
    tokenizer: createTokenizer("cl100k_base"),
    maxSchemaTokens: max,
    maxDescriptionTokens: maxDescription,
    schemasExpected: catalogCarriesSchemas(corpus),
  });
  console.log(
    values.json
      ? JSON.stringify(
        {
          corpusId: corpus.id,
          ...(values.servers === undefined ? {} : { failedServers: failed }),
          ...report,
        },
        null,
        2,
      )
      : formatTable(report, source, failed),
  );
  return report.toolsWithErrors > 0 || failed.length > 0 ? 1 : 0;
}

if (import.meta.main) {
  await runMain("lint-catalog", () => main(Deno.args), { crashCode: CRASH_EXIT });
}
