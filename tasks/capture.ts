/**
 * `deno task capture`: installs the MCP servers of a config (pinned packages and pasted
 * npx/pnpm dlx/bunx launches) into a scratch folder, captures their tools/list offline and
 * writes `<id>.tools.json` and `<id>.manifest.json` (lib/flows/capture.ts).
 *
 * Progress goes to stderr. Exit codes: 0 captured, 1 no server captured, 2 bad input.
 *
 * @module
 */
import {
  DEFAULT_CAPTURE_CONCURRENCY,
  DEFAULT_SERVER_TIMEOUT_MS,
  DEFAULT_SETTLE_MS,
  REFERENCE_SERVERS_CONFIG,
  runCapture,
  writeCapture,
} from "../lib/flows/mod.ts";
import { helpText, intFlag, IO, listFlag, parseFlags, runMain } from "./_cli.ts";

const HELP = helpText({
  usage: "capture [--config FILE] [options]",
  purpose: "Capture the tools/list of the MCP servers of an mcpServers config, offline.",
  about:
    `Installs the MCP servers of a servers config (npm install --prefix, one prefix per package;
packages already present are skipped; pasted npx -y / pnpm dlx / bunx launches are pinned and
installed first), captures their tools/list (plus prompts/list and resources/list where
advertised) over stdio without network, and writes <out>/<id>.tools.json and
<out>/<id>.manifest.json. The config is read where it is, e.g.
~/.config/Claude/claude_desktop_config.json.`,
  options:
    `  --config FILE       servers config in the mcpServers shape (Claude Desktop, Cursor, VS Code)
                      (default: ${REFERENCE_SERVERS_CONFIG})
  --out DIR           output folder (default: results/captures); --out fixtures/corpora
                      refreshes the frozen reference corpus (then: deno task fixtures --write)
  --id ID             corpus id, used in the file names (default: reference_v1 for the
                      reference config, else the config file name without .json)
  --version V         corpus version string (default: 1)
  --concurrency N     servers captured at once (default: ${DEFAULT_CAPTURE_CONCURRENCY})
  --timeout-ms MS     overall timeout per server unless its entry sets timeoutMs
                      (default: ${DEFAULT_SERVER_TIMEOUT_MS})
  --settle-ms MS      for a server that declares tools.listChanged: how long to wait for
                      notifications/tools/list_changed (re-listing on each) after a
                      listing (default: ${DEFAULT_SETTLE_MS})
  --install-dir DIR   where packages are installed (default: .scratch/servers)
  --only A,B          capture only these servers (by config key)
  --no-install        do not run npm; servers whose package is missing fail`,
  exitCodes: "0 captured (failed servers listed), 1 no server captured, 2 bad input " +
    "(a flag, an unreadable or malformed config)",
});

async function main(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {
    config: { type: "string", path: true },
    out: { type: "string", path: true },
    id: { type: "string" },
    version: { type: "string" },
    concurrency: { type: "string" },
    "timeout-ms": { type: "string" },
    "settle-ms": { type: "string" },
    "install-dir": { type: "string", path: true },
    only: { type: "string" },
    "no-install": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const opt = <K extends string, V>(key: K, value: V | undefined) =>
    value === undefined ? {} : { [key]: value } as Record<K, V>;
  const run = await runCapture({
    ...opt("config", values.config),
    ...opt("out", values.out),
    ...opt("id", values.id),
    ...opt("version", values.version),
    ...opt("concurrency", intFlag("concurrency", values.concurrency, undefined, 1)),
    ...opt("timeoutMs", intFlag("timeout-ms", values["timeout-ms"], undefined, 1)),
    ...opt("settleMs", intFlag("settle-ms", values["settle-ms"], undefined, 1)),
    ...opt("installDir", values["install-dir"]),
    ...opt(
      "only",
      listFlag("only", values.only),
    ),
    install: !values["no-install"],
  }, IO);
  const log = (line: string) => IO.progress("capture", line);
  const failures = () => {
    for (const r of run.failed) log(`  failed: ${r.server} ${r.outcome}: ${r.message ?? ""}`);
  };
  if (run.serverCount === 0) {
    failures();
    log(`no server of ${values.config ?? REFERENCE_SERVERS_CONFIG} was captured; nothing written`);
    return 1;
  }
  const path = await writeCapture(run);
  log(
    `${run.serverCount}/${run.records.length} servers ok, ${run.toolCount} tools, ` +
      `${(run.wallMs / 1000).toFixed(1)} s; wrote ${IO.displayPath(path)} (sha256 ${
        run.corpusSha256.slice(0, 12)
      }...)`,
  );
  failures();
  return 0;
}

if (import.meta.main) await runMain("capture", () => main(Deno.args));
