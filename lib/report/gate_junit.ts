/**
 * Gate checks as JUnit XML, for CI test reporters.
 *
 * @module
 */
import type { GateCheck, Verdict } from "./gate.ts";

function xml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!,
    // XML 1.0 forbids C0 controls other than tab, newline and carriage return.
    // deno-lint-ignore no-control-regex
  ).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

/**
 * JUnit XML in the common Ant/Jenkins shape: `<testsuites>` holding one `<testsuite>` per group,
 * one `<testcase>` per check; `fail` → `<failure>`, `skip` → `<skipped>`, `warn` → a passing
 * test case with `<system-out>`. No timestamps, so equal checks give equal bytes. Validates
 * against `lib/report/junit.xsd`.
 *
 * @param checks Checks.
 * @param name Name of the whole run. @default {"mcpmeter gate"}
 * @returns XML text with an XML declaration and a trailing newline.
 */
export function gateJunit(checks: readonly GateCheck[], name = "mcpmeter gate"): string {
  const groups = [...new Set(checks.map((c) => c.group))];
  const count = (cs: readonly GateCheck[], v: Verdict) => cs.filter((c) => c.verdict === v).length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xml(name)}" tests="${checks.length}" failures="${
      count(checks, "fail")
    }" errors="0" skipped="${count(checks, "skip")}" time="0">`,
  ];
  for (const g of groups) {
    const cs = checks.filter((c) => c.group === g);
    lines.push(
      `  <testsuite name="${xml(g)}" tests="${cs.length}" failures="${
        count(cs, "fail")
      }" errors="0" skipped="${count(cs, "skip")}" time="0">`,
    );
    for (const c of cs) {
      const classname = `mcpmeter.gate.${g.replace(/[^A-Za-z0-9_.-]+/g, "_")}`;
      const open = `    <testcase classname="${xml(classname)}" name="${xml(c.name)}" time="0"`;
      const body = [c.message, ...c.details].join("\n");
      if (c.verdict === "pass") {
        lines.push(`${open}>`, `      <system-out>${xml(body)}</system-out>`, `    </testcase>`);
      } else if (c.verdict === "warn") {
        lines.push(
          `${open}>`,
          `      <system-out>${xml(`WARNING: ${body}`)}</system-out>`,
          `    </testcase>`,
        );
      } else if (c.verdict === "skip") {
        lines.push(`${open}>`, `      <skipped message="${xml(c.message)}"/>`, `    </testcase>`);
      } else {
        lines.push(
          `${open}>`,
          `      <failure message="${xml(c.message)}" type="regression">${xml(body)}</failure>`,
          `    </testcase>`,
        );
      }
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return lines.join("\n") + "\n";
}
