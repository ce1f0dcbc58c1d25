/**
 * The audit's CI check: a baseline of each config's sent tokens per server, and the gate that
 * fails when a config grew beyond a limit (a percentage of its baseline, or a number of tokens),
 * naming the servers that grew.
 *
 * @module
 */
import { COUNT, numberProblem } from "../core/numbers.ts";
import type { AuditReport } from "./render.ts";
import type { SentFormat } from "../catalog/sent.ts";

/** The baseline file's shape. */
export interface AuditBaseline {
  /** Always `mcpmeter-audit-baseline`. */
  readonly kind: "mcpmeter-audit-baseline";
  /** Version of this shape. */
  readonly schemaVersion: 1;
  /** The encoding the tokens were counted with. */
  readonly tokenizer: string;
  /** Per config id: its sent form, total and servers (`null`: not measured then). */
  readonly configs: Readonly<
    Record<string, {
      readonly format: SentFormat;
      readonly sentTokens: number;
      readonly servers: Readonly<Record<string, number | null>>;
    }>
  >;
}

/** How much a config may grow. */
export type GrowthLimit =
  | { readonly percent: number }
  | { readonly tokens: number };

/**
 * Parses `--max-increase`: `PCT%` (a share of the baseline) or `TOKENS` (a count).
 *
 * @param text The flag's value, e.g. `5%` or `500`.
 * @returns The limit, or `undefined` when the text is neither.
 */
export function parseGrowthLimit(text: string): GrowthLimit | undefined {
  const t = text.trim();
  const p = /^(\d+(?:\.\d+)?)%$/.exec(t);
  if (p !== null) return { percent: Number(p[1]) };
  return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? { tokens: Number(t) } : undefined;
}

/**
 * The baseline of an audit: each config's sent tokens, in total and per server.
 *
 * @param report The audit.
 * @returns The baseline (keys sorted when written with stable JSON).
 */
export function toBaseline(report: AuditReport): AuditBaseline {
  return {
    kind: "mcpmeter-audit-baseline",
    schemaVersion: 1,
    tokenizer: report.tokenizer,
    configs: Object.fromEntries(report.configs.map((c) => [c.id, {
      format: c.format,
      sentTokens: c.totals.sentTokens,
      servers: Object.fromEntries(c.servers.map((s) => [s.name, s.sentTokens])),
    }])),
  };
}

/**
 * Checks that a value read from a file is an audit baseline.
 *
 * @param value The parsed file.
 * @returns The reason it is not, or `undefined` when it is.
 */
export function baselineProblem(value: unknown): string | undefined {
  const v = value as Partial<AuditBaseline> | null;
  if (v === null || typeof v !== "object" || v.kind !== "mcpmeter-audit-baseline") {
    return 'not an audit baseline (no "kind": "mcpmeter-audit-baseline"); write one with --write-baseline';
  }
  if (v.schemaVersion !== 1) return `baseline schemaVersion ${v.schemaVersion} is not 1`;
  if (typeof v.configs !== "object" || v.configs === null) return 'no "configs" object';
  for (const [id, c] of Object.entries(v.configs)) {
    if (typeof c?.sentTokens !== "number" || typeof c.servers !== "object" || c.servers === null) {
      return `config "${id}" has no sentTokens number and servers object`;
    }
    // Counts written by --write-baseline; a hand-edited one that is not (1e400 reads as Infinity)
    // would make the gate compare with infinity and print NaN.
    const total = numberProblem(c.sentTokens, COUNT);
    if (total !== undefined) return `config "${id}": sentTokens ${total}`;
    for (const [name, tokens] of Object.entries(c.servers)) {
      const problem = tokens === null ? undefined : numberProblem(tokens, COUNT);
      if (problem !== undefined) return `config "${id}": server "${name}" ${problem}`;
    }
  }
  return undefined;
}

/** The gate's verdict. */
export interface GateResult {
  /** True when no config grew beyond the limit and every baseline server was measured. */
  readonly ok: boolean;
  /** One line per config compared, plus notes (`PASS`, `FAIL`, `note`). */
  readonly lines: readonly string[];
}

const int = (n: number) => n.toLocaleString("en-US");
const signed = (n: number) => `${n >= 0 ? "+" : "-"}${int(Math.abs(n))}`;

/**
 * Compares an audit with a baseline: each config present in both fails when its sent tokens
 * grew beyond the limit (naming each server that grew, new servers included), or when a server
 * measured in the baseline was not measured now (its growth cannot be known). Configs in only
 * one of the two are noted, not failed.
 *
 * @param report The audit now.
 * @param baseline The baseline.
 * @param limit The growth allowed.
 * @returns The verdict and its lines.
 *
 * @example Usage
 * ```ts
 * import { gateAudit } from "./baseline.ts";
 * const baseline = { kind: "mcpmeter-audit-baseline", schemaVersion: 1, tokenizer: "o200k_base",
 *   configs: { c: { format: "anthropic-messages", sentTokens: 100, servers: { a: 100 } } } } as const;
 * const report = { tokenizer: "o200k_base", configs: [{ id: "c", format: "anthropic-messages",
 *   totals: { sentTokens: 130 }, servers: [{ name: "a", status: "ok", sentTokens: 130 }] }] };
 * // deno-lint-ignore no-explicit-any
 * const r = gateAudit(report as any, baseline, { percent: 10 });
 * if (r.ok || !r.lines[0].includes("a +30")) throw new Error(r.lines.join("\n"));
 * ```
 */
export function gateAudit(
  report: AuditReport,
  baseline: AuditBaseline,
  limit: GrowthLimit,
): GateResult {
  const lines: string[] = [];
  let ok = true;
  const limitText = "percent" in limit ? `+${limit.percent}%` : `+${int(limit.tokens)} tokens`;
  if (baseline.tokenizer !== report.tokenizer) {
    return {
      ok: false,
      lines: [
        `FAIL the baseline was counted with ${baseline.tokenizer}, this audit with ${report.tokenizer}`,
      ],
    };
  }
  const seen = new Set<string>();
  for (const c of report.configs) {
    const base = baseline.configs[c.id];
    if (base === undefined) {
      lines.push(`note ${c.id}: not in the baseline (${int(c.totals.sentTokens)} sent tokens now)`);
      continue;
    }
    seen.add(c.id);
    if (base.format !== c.format) {
      ok = false;
      lines.push(
        `FAIL ${c.id}: counted in ${c.format} now and ${base.format} in the baseline: not comparable`,
      );
      continue;
    }
    const lost = c.servers.filter((s) =>
      typeof base.servers[s.name] === "number" && s.sentTokens === null && s.status !== "disabled"
    ).map((s) => `${s.name} (${s.status})`);
    const missing = Object.keys(base.servers).filter((n) =>
      typeof base.servers[n] === "number" && !c.servers.some((s) => s.name === n)
    );
    const increase = c.totals.sentTokens - base.sentTokens;
    const allowed = "percent" in limit ? base.sentTokens * limit.percent / 100 : limit.tokens;
    const change = `${int(c.totals.sentTokens)} sent tokens, ${signed(increase)}${
      base.sentTokens > 0 ? ` (${signed(Math.round(increase / base.sentTokens * 1000) / 10)}%)` : ""
    } against ${int(base.sentTokens)} (limit ${limitText})`;
    if (lost.length > 0) {
      ok = false;
      lines.push(
        `FAIL ${c.id}: ${lost.join(", ")} measured in the baseline but not now: growth unknown`,
      );
      continue;
    }
    if (increase > allowed) {
      ok = false;
      const grew = c.servers.flatMap((s) => {
        const before = base.servers[s.name];
        if (s.sentTokens === null) return [];
        if (typeof before !== "number") return [`${s.name} +${int(s.sentTokens)} (new)`];
        return s.sentTokens > before ? [`${s.name} ${signed(s.sentTokens - before)}`] : [];
      });
      lines.push(`FAIL ${c.id}: ${change}; grew: ${grew.length > 0 ? grew.join(", ") : "none"}`);
    } else {
      lines.push(`PASS ${c.id}: ${change}`);
    }
    if (missing.length > 0) lines.push(`note ${c.id}: no longer configured: ${missing.join(", ")}`);
  }
  for (const id of Object.keys(baseline.configs).sort()) {
    if (!seen.has(id)) lines.push(`note ${id}: in the baseline, not found now`);
  }
  return { ok, lines };
}
