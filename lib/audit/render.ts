/**
 * The audit report as the console prints it: one block per client config, a table of its
 * servers, its totals (never added up across configs), its deferral posture with where it was
 * read, the session-start cost where tools are deferred, the heaviest tools and what removing
 * them saves.
 *
 * @module
 */
import { counted, oneLine, printable } from "../core/text.ts";
import type { ConfigReport, ServerReport, SessionStart } from "./report.ts";

/** The whole audit: what the flow returns and `--json` prints. */
export interface AuditReport {
  /** Version of this shape (`AUDIT_SCHEMA_VERSION`). */
  readonly schemaVersion: number;
  /** Always `mcpmeter-audit`. */
  readonly kind: "mcpmeter-audit";
  /** When the audit ran (ISO 8601). */
  readonly createdAt: string;
  /** The encoding tokens are counted with. */
  readonly tokenizer: string;
  /** How the figures are obtained (provenance). */
  readonly counting: string;
  /** The home folder audited (`~` for this account's own). */
  readonly home: string;
  /** One report per client config. */
  readonly configs: readonly ConfigReport[];
  /** Config files that could not be read or parsed, one line each. */
  readonly problems: readonly string[];
  /** How many places were looked at. */
  readonly searched: number;
}

const int = (n: number) => n.toLocaleString("en-US");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function pad(cells: readonly string[][], right: ReadonlySet<number>): string[] {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells.map((r) =>
    r.map((c, i) => right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])).join("  ")
      .trimEnd()
  );
}

function serverRow(s: ServerReport): string[] {
  const n = (v: number | null) => v === null ? "-" : int(v);
  return [
    s.name,
    s.scope,
    s.launch,
    n(s.tools),
    n(s.billed?.tokens ?? null),
    n(s.sentTokens),
    n(s.wireTokens),
    s.share === null ? "-" : pct(s.share),
    s.status === "ok"
      ? `ok${s.alwaysLoad ? ", alwaysLoad" : ""}${
        s.disabledTools.length > 0
          ? `, ${s.disabledTools.length} of ${s.toolsListed} listed disabled in the config`
          : ""
      }`
      : `${s.status}: ${oneLine(s.cause ?? "", 240)}`,
  ];
}

/** A billing provider's name as the reports print it (`Google` for `gemini`). */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Google",
};

/** A sent format's name as the reports print it (`OpenAI Chat Completions`). */
export const FORMAT_NAMES: Readonly<Record<string, string>> = {
  "anthropic-messages": "Anthropic Messages",
  "openai-chat-completions": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  "gemini": "Gemini",
};

/**
 * The lines of one config's block.
 *
 * @param c The config's report.
 * @returns Lines, without a trailing blank line.
 */
export function renderConfig(c: ConfigReport): string[] {
  const out: string[] = [];
  out.push(`${c.label}${c.folder === undefined ? "" : ` · ${c.folder}`}  [${c.id}]`);
  out.push(`  files: ${c.files.join(", ")}`);
  const p = c.posture;
  out.push(`  deferral: ${p.state}. ${p.rule}`);
  out.push(
    `    read from: ${p.readFrom}${
      p.consulted.length === 0 ? "" : `; consulted: ${p.consulted.join(", ")}`
    }; source: ${p.source}`,
  );
  for (const note of p.notes) out.push(`    note: ${note}`);
  out.push(
    `  tokens: billed = ${
      PROVIDER_NAMES[c.billing.provider]
    }'s count, estimated (${c.billing.calibration}${
      c.billing.model === null ? "" : `, ${c.billing.model}`
    }); sent = the ${
      FORMAT_NAMES[c.format]
    } tools value (${c.formatWhy}); wire = tools/list as received`,
    `  context window ${int(c.contextWindow)} (${c.contextWindowFrom}); window share from billed`,
  );
  if (c.servers.length === 0) {
    out.push("  no MCP servers configured");
    for (const note of c.notes) out.push(`  note: ${note}`);
    return out.map(printable);
  }
  const t = c.totals;
  // A deferring client pays its session start, not the up-front total: that goes first.
  const start = c.sessionStart;
  if (start !== null) out.push(...sessionStartLines(c, start));
  const rows = [
    ["server", "scope", "launch", "tools", "billed", "sent", "wire", "window", "status"],
    ...c.servers.map(serverRow),
    [
      `total${start === null ? "" : " if sent up front"} (${t.measured} of ${
        counted(t.servers, "server")
      } measured)`,
      "",
      "",
      int(t.tools),
      int(t.billed.tokens),
      int(t.sentTokens),
      int(t.wireTokens),
      pct(t.share),
      t.tools === 0
        ? ""
        : `billed ${int(t.billed.low)}-${int(t.billed.high)} with the request's tool overhead`,
    ],
  ];
  out.push(...pad(rows, new Set([3, 4, 5, 6, 7])).map((l) => `  ${l}`));
  const ifDeferred = ifDeferredLine(c);
  if (ifDeferred !== undefined) out.push(`  ${ifDeferred}`);
  if (c.heaviest.length > 0) {
    out.push(
      `  heaviest tools: ${
        c.heaviest.map((h) => `${h.server}:${h.tool} ${int(h.sentTokens)}`).join(", ")
      }`,
    );
  }
  if (c.removal !== null) {
    const r = c.removal;
    out.push(
      `  removing those ${counted(r.tools.length, "tool")} saves ${
        int(r.sentTokens)
      } sent tokens per request up front (${pct(r.share)} of this config's tools)${
        r.sessionStartTokens === null
          ? ""
          : `; deferred, ${int(r.sessionStartTokens)} at session start`
      }`,
    );
  }
  for (const line of serverWarnings(c)) out.push(`  ${line}`);
  for (const note of c.notes) out.push(`  note: ${note}`);
  return out.map(printable);
}

/**
 * For a Claude Code config that loads its tools up front, what tool search would change: its
 * session start billed instead of the up-front total, with the per-search cost left to the bench.
 *
 * @param c The config's report.
 * @returns One line, or `undefined` when the report has no such figure.
 */
export function ifDeferredLine(c: ConfigReport): string | undefined {
  const b = c.ifDeferred?.billed;
  if (b === undefined) return undefined;
  return `with tool search on (ENABLE_TOOL_SEARCH=true) the session would start at ${
    int(b.tokens)
  } billed (${int(b.low)}-${int(b.high)}) instead of ${int(c.totals.billed.tokens)}, ` +
    `plus each search's results (deno task bench on a capture of these servers prices a search)`;
}

/**
 * The headline of a deferring client: its session start billed (when the report has it), then
 * how it was counted.
 *
 * @param c The config's report.
 * @param start Its session start.
 * @returns Indented lines.
 */
export function sessionStartLines(c: ConfigReport, start: SessionStart): string[] {
  const t = c.totals;
  const o200k = `${int(start.tokens)} tokens instead of ${int(t.sentTokens)} sent up front (both ` +
    `o200k_base): ${start.counted}`;
  if (start.billed === undefined) return [`  session start (deferred): ${o200k}`];
  const b = start.billed;
  return [
    `  pays at session start (deferred): ${int(b.tokens)} billed (${int(b.low)}-${int(b.high)}), ${
      pct(start.share ?? b.tokens / c.contextWindow)
    } of the window, plus each search's ` +
    `results; every tool up front would be ${int(t.billed.tokens)} billed (the total below)`,
    `    session start ${o200k}; ${sessionStartHow(c)}`,
  ];
}

/**
 * How a session start's billed figure is made from its count, for the console and the workbench.
 *
 * @param c The config's report.
 * @returns One clause.
 */
export function sessionStartHow(c: ConfigReport): string {
  return `billed ${
    c.family === "gpt"
      ? "is that count (OpenAI's models tokenize with o200k_base)"
      : "scales it by this config's billed/sent ratio"
  } and adds the request's tool overhead`;
}

/**
 * The measured servers' warnings of a config, as the console and the workbench print them:
 * one `warning: SERVER: ...` line each, the unpinned launches gathered in one `note:` line.
 *
 * @param c The config's report.
 * @returns Lines without indentation.
 */
export function serverWarnings(c: ConfigReport): string[] {
  const out: string[] = [];
  const unpinned: string[] = [];
  // A failed server's cause says what its warnings would repeat.
  for (const s of c.servers.filter((x) => x.status === "ok")) {
    for (const w of s.warnings) {
      const pin = /^unpinned launch "[^"]*": installed (\S+);/.exec(w);
      if (pin !== null) unpinned.push(`${s.name} as ${pin[1]}`);
      else out.push(`warning: ${s.name}: ${oneLine(w, 300)}`);
    }
  }
  if (unpinned.length > 0) {
    out.push(
      `note: launched without a version, measured at the version npx picks with this ` +
        `Node.js: ${unpinned.join(", ")} ` +
        `(pin NAME@VERSION in the config for a repeatable audit)`,
    );
  }
  return out;
}

/**
 * The whole report as printed: each config's block, then the files that could not be read.
 *
 * @param report The audit.
 * @returns Lines.
 */
export function renderAudit(report: AuditReport): string[] {
  const out: string[] = [];
  out.push(
    `MCP client configs under ${report.home}: ${counted(report.configs.length, "config")} found ` +
      `(${counted(report.searched, "place")} looked at). Tokens: ${report.counting}`,
  );
  for (const c of report.configs) out.push("", ...renderConfig(c));
  if (report.problems.length > 0) {
    out.push("", "not read:");
    for (const p of report.problems) out.push(`  ${p}`);
  }
  return out.map(printable);
}
