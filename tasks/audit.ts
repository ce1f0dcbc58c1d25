/**
 * `deno task audit`: what the MCP servers configured in this account's clients (Claude Code,
 * Claude Desktop, Cursor, VS Code, Windsurf, Gemini CLI, Codex, Zed, Copilot CLI, Cline, Roo Code, Kiro, Amazon Q CLI, opencode, LM Studio) cost each request, per client config
 * (lib/flows/audit.ts). Relative paths start in the folder deno task was run from.

Exit codes: 0 measured, 1 a config grew beyond --max-increase or no
 * server was measured, 2 bad input.
 *
 * @module
 */
import {
  AUDIT_INSTALL_DIR,
  AUDIT_TOKENIZER,
  type ClientId,
  DEFAULT_CAPTURE_CONCURRENCY,
  DEFAULT_SERVER_TIMEOUT_MS,
  runAuditCommand,
  type SentFormat,
} from "../lib/flows/mod.ts";
import { CLIENTS, DEFAULT_CONTEXT_WINDOW, isClientId } from "../lib/audit/mod.ts";
import { SENT_FORMATS } from "../lib/catalog/mod.ts";
import { helpText, intFlag, IO, parseFlags, printOutcome, runMain, UsageError } from "./_cli.ts";

const HELP = helpText({
  usage: "audit [options]",
  purpose: "The MCP clients configured on this machine: their servers, tools and per-request cost.",
  about: `Finds the MCP client configs of this account (Claude Code: ~/.claude.json user and
per-project servers, the .mcp.json of the working folder and its parents; Claude Desktop; Cursor:
~/.cursor/mcp.json and .cursor/mcp.json; VS Code: the user mcp.json and settings.json,
.vscode/mcp.json; Windsurf; Gemini CLI: ~/.gemini/settings.json and .gemini/settings.json;
Codex: ~/.codex/config.toml (CODEX_HOME) and a trusted project's .codex/config.toml; Zed:
~/.config/zed/settings.json and .zed/settings.json; Copilot CLI: ~/.copilot/mcp-config.json
(COPILOT_HOME), the .mcp.json files up to the git root and .github/mcp.json; Cline: ~/.cline/data/settings/
cline_mcp_settings.json; Roo Code: its mcp_settings.json in the editor's extension storage and
.roo/mcp.json; Kiro: ~/.kiro/settings/mcp.json and
.kiro/settings/mcp.json; Amazon Q CLI: its default agent and ~/.aws/amazonq/mcp.json,
.amazonq/mcp.json; opencode: ~/.config/opencode/opencode.json(c), OPENCODE_CONFIG and the
project's opencode.json(c) files; LM Studio: ~/.lmstudio/mcp.json),
captures each server once (npx/pnpm dlx/bunx launches pinned and installed into
${AUDIT_INSTALL_DIR}, a throwaway HOME, no network where possible), and prints per client
config: servers, tools, tokens per server in that client's provider format (sent) and as
received (wire), share of the context window, heaviest tools, the deferral posture with where
it was read, the session-start cost where tools are deferred, and what removing the heaviest
tools would save. Totals are per config, never added across clients. Tokens are ${AUDIT_TOKENIZER}
counts. Environment values are never printed, only their names; config files are only read.`,
  options:
    `  --config FILE          audit this file instead of discovering (repeatable): a .claude.json,
                         .mcp.json, claude_desktop_config.json, .cursor/mcp.json,
                         .vscode/mcp.json, Windsurf's mcp_config.json, .gemini/settings.json,
                         a Codex config.toml (any .toml), a Zed settings.json, Copilot
                         CLI's mcp-config.json, cline_mcp_settings.json, Roo Code's
                         mcp_settings.json or .roo/mcp.json, .kiro/settings/mcp.json,
                         .amazonq/mcp.json, opencode.json(c), or any mcpServers file
  --home DIR             audit this home folder (another account's, a copy) instead of this
                         account's; this shell's environment is then not read
  --project DIR          the working folder whose project files are read (default: here)
  --context-window N     context window in tokens for every config (default per model family:
                         claude ${DEFAULT_CONTEXT_WINDOW.claude}, gpt ${DEFAULT_CONTEXT_WINDOW.gpt}, gemini ${DEFAULT_CONTEXT_WINDOW.gemini})
  --sent-form [CLIENT=]FORMAT
                         count this client's tools (or every client's) in FORMAT, one of
                         ${SENT_FORMATS.join(", ")}
                         (repeatable); CLIENT one of ${Object.keys(CLIENTS).slice(0, 4).join(", ")},
                         ${Object.keys(CLIENTS).slice(4).join(", ")}
  --heaviest N           heaviest tools listed and removed in the estimate (default 5)
  --json                 print the report as JSON
  --out FILE             write the report here (default results/audits/audit-DATE.json)
  --write-baseline FILE  write each config's sent tokens per server, for --baseline
  --baseline FILE        compare with a baseline; needs --max-increase
  --max-increase L       the growth a config may show: PCT% of its baseline, or TOKENS; exit 1
                         naming the servers that grew when a config grew more
  --concurrency N        servers captured at once (default ${DEFAULT_CAPTURE_CONCURRENCY})
  --timeout-ms MS        overall timeout per server (default ${DEFAULT_SERVER_TIMEOUT_MS})
  --install-dir DIR      where packages are installed (default ${AUDIT_INSTALL_DIR})
  --no-install           do not run npm: an unpinned launch runs the newest version in
                         --install-dir; servers whose package is not installed fail`,
  exitCodes: `0 measured, 1 a config grew beyond --max-increase or no server was measured,
2 bad input (a flag, a baseline that cannot be read, no --config file readable, a --home
or --project folder that does not exist).`,
  notes: "Relative paths start in the folder deno task was run from.",
});

function sentForms(values: readonly string[]): Partial<Record<ClientId, SentFormat>> {
  const out: Partial<Record<ClientId, SentFormat>> = {};
  for (const v of values) {
    const [client, format] = v.includes("=") ? v.split("=", 2) : [undefined, v];
    if (!(SENT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(
        `--sent-form: unknown format ${JSON.stringify(format)} (known: ${SENT_FORMATS.join(", ")})`,
      );
    }
    if (client !== undefined && !isClientId(client)) {
      throw new UsageError(
        `--sent-form: unknown client ${JSON.stringify(client)} (known: ${
          Object.keys(CLIENTS).join(", ")
        })`,
      );
    }
    for (const id of client === undefined ? Object.keys(CLIENTS) as ClientId[] : [client]) {
      out[id] = format as SentFormat;
    }
  }
  return out;
}

async function main(args: string[]): Promise<number> {
  const { values: v } = parseFlags(args, {
    config: { type: "string", multiple: true, path: true },
    home: { type: "string", path: true },
    project: { type: "string", path: true },
    "context-window": { type: "string" },
    "sent-form": { type: "string", multiple: true },
    heaviest: { type: "string" },
    json: { type: "boolean", default: false },
    out: { type: "string", path: true },
    "write-baseline": { type: "string", path: true },
    baseline: { type: "string", path: true },
    "max-increase": { type: "string" },
    concurrency: { type: "string" },
    "timeout-ms": { type: "string" },
    "install-dir": { type: "string", path: true },
    "no-install": { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const given = <K extends string, T>(key: K, value: T | undefined) =>
    value === undefined ? {} : { [key]: value } as Record<K, T>;
  return printOutcome(
    await runAuditCommand({
      ...given("configs", v.config),
      ...given("home", v.home),
      ...given("project", v.project),
      ...given("contextWindow", intFlag("context-window", v["context-window"], undefined, 1)),
      ...given("formats", v["sent-form"] === undefined ? undefined : sentForms(v["sent-form"])),
      ...given("heaviest", intFlag("heaviest", v.heaviest, undefined, 0)),
      json: v.json,
      ...given("out", v.out),
      ...given("writeBaseline", v["write-baseline"]),
      ...given("baseline", v.baseline),
      ...given("maxIncrease", v["max-increase"]),
      ...given("concurrency", intFlag("concurrency", v.concurrency, undefined, 1)),
      ...given("timeoutMs", intFlag("timeout-ms", v["timeout-ms"], undefined, 1)),
      ...given("installDir", v["install-dir"]),
      install: !v["no-install"],
    }, IO),
  );
}

if (import.meta.main) await runMain("audit", () => main(Deno.args));
