/**
 * Gate checks as a Markdown summary (a CI job summary or a pull-request comment).
 *
 * @module
 */
import type { GateCheck, Verdict } from "./gate.ts";

/** What the Markdown summary says about the inputs. */
export interface GateContext {
  /** Baseline run id (or path). */
  readonly baseline?: string;
  /** Candidate run id (or path). */
  readonly candidate?: string;
  /** Bench reports compared, if any. */
  readonly reports?: { readonly baseline: string; readonly candidate: string };
  /** Thresholds, echoed as `name=value`. */
  readonly thresholds?: Readonly<Record<string, string | number | boolean>>;
}

/**
 * A Markdown summary for a CI step summary or a pull-request comment: the overall verdict,
 * counts, the inputs and thresholds, a table of every check (failures first) and the details of
 * checks that have any.
 *
 * @param checks Checks.
 * @param context Inputs and thresholds to echo.
 * @returns Markdown text ending in a newline.
 */
export function gateMarkdown(checks: readonly GateCheck[], context: GateContext = {}): string {
  const fails = checks.filter((c) => c.verdict === "fail").length;
  const icon: Record<Verdict, string> = {
    fail: "❌ fail",
    warn: "⚠️ warn",
    pass: "✅ pass",
    skip: "➖ skip",
  };
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const order: Record<Verdict, number> = { fail: 0, warn: 1, pass: 2, skip: 3 };
  const sorted = checks.map((c, i) => ({ c, i })).sort((a, b) =>
    order[a.c.verdict] - order[b.c.verdict] || a.i - b.i
  ).map((x) => x.c);
  const out = [
    `## mcpmeter gate: ${fails > 0 ? "FAIL" : "PASS"}`,
    "",
    `${checks.length} checks: ${fails} failed, ${
      checks.filter((c) => c.verdict === "warn").length
    } warned, ${checks.filter((c) => c.verdict === "pass").length} passed, ${
      checks.filter((c) => c.verdict === "skip").length
    } skipped.`,
    "",
  ];
  if (context.baseline || context.candidate) {
    out.push(
      `Baseline \`${context.baseline ?? "?"}\` → candidate \`${context.candidate ?? "?"}\`.`,
      "",
    );
  }
  if (context.reports) {
    out.push(
      `Bench reports: \`${context.reports.baseline}\` → \`${context.reports.candidate}\`.`,
      "",
    );
  }
  if (context.thresholds && Object.keys(context.thresholds).length > 0) {
    out.push(
      `Thresholds: ${
        Object.entries(context.thresholds).map(([k, v]) => `\`${k}=${v}\``).join(", ")
      }.`,
      "",
    );
  }
  out.push("| verdict | group | check | detail |", "|---|---|---|---|");
  for (const c of sorted) {
    out.push(`| ${icon[c.verdict]} | ${cell(c.group)} | ${cell(c.name)} | ${cell(c.message)} |`);
  }
  const detailed = sorted.filter((c) => c.details.length > 0);
  if (detailed.length > 0) {
    out.push("");
    for (const c of detailed) {
      out.push(`**${cell(c.group)} · ${cell(c.name)}**`, "", ...c.details.map((d) => `- ${d}`), "");
    }
  }
  return out.join("\n").trimEnd() + "\n";
}
