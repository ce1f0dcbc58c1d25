import assert from "node:assert/strict";
import { baselineProblem, gateAudit, parseGrowthLimit, toBaseline } from "./baseline.ts";
import type { AuditReport } from "./render.ts";
import type { ConfigReport, ServerReport } from "./report.ts";

function server(name: string, sentTokens: number | null, status = "ok"): ServerReport {
  return { name, status, sentTokens } as unknown as ServerReport;
}

function report(configs: { id: string; sent: number; servers: ServerReport[] }[]): AuditReport {
  return {
    tokenizer: "o200k_base",
    configs: configs.map((c) =>
      ({
        id: c.id,
        format: "anthropic-messages",
        totals: { sentTokens: c.sent },
        servers: c.servers,
      }) as unknown as ConfigReport
    ),
  } as unknown as AuditReport;
}

const before = report([
  { id: "claude-code ~/app", sent: 1000, servers: [server("fs", 700), server("mem", 300)] },
  { id: "cursor ~/.cursor/mcp.json", sent: 500, servers: [server("docs", 500)] },
]);
const baseline = toBaseline(before);

Deno.test("parseGrowthLimit() reads a percentage or a token count", () => {
  assert.deepEqual(parseGrowthLimit("5%"), { percent: 5 });
  assert.deepEqual(parseGrowthLimit("2.5%"), { percent: 2.5 });
  assert.deepEqual(parseGrowthLimit("500"), { tokens: 500 });
  assert.equal(parseGrowthLimit("5 percent"), undefined);
  assert.equal(parseGrowthLimit("-5%"), undefined);
});

Deno.test("gateAudit() passes growth within the limit", () => {
  // +50 on 1000 is +5.0%: at the limit, not beyond it
  const now = report([
    { id: "claude-code ~/app", sent: 1050, servers: [server("fs", 750), server("mem", 300)] },
    { id: "cursor ~/.cursor/mcp.json", sent: 500, servers: [server("docs", 500)] },
  ]);
  const r = gateAudit(now, baseline, { percent: 5 });
  assert.equal(r.ok, true, r.lines.join("\n"));
  assert.deepEqual(r.lines, [
    "PASS claude-code ~/app: 1,050 sent tokens, +50 (+5%) against 1,000 (limit +5%)",
    "PASS cursor ~/.cursor/mcp.json: 500 sent tokens, +0 (+0%) against 500 (limit +5%)",
  ]);
});

Deno.test("gateAudit() fails a config that grew beyond the limit, naming the servers that grew", () => {
  const now = report([
    {
      id: "claude-code ~/app",
      sent: 1400,
      servers: [server("fs", 760), server("mem", 290), server("web", 350)],
    },
    { id: "cursor ~/.cursor/mcp.json", sent: 520, servers: [server("docs", 520)] },
  ]);
  const r = gateAudit(now, baseline, { tokens: 100 });
  assert.equal(r.ok, false);
  assert.deepEqual(r.lines, [
    "FAIL claude-code ~/app: 1,400 sent tokens, +400 (+40%) against 1,000 (limit +100 tokens); grew: fs +60, web +350 (new)",
    "PASS cursor ~/.cursor/mcp.json: 520 sent tokens, +20 (+4%) against 500 (limit +100 tokens)",
  ]);
});

Deno.test("gateAudit() fails when a baseline server was not measured, and notes configs in one side only", () => {
  const now = report([
    {
      id: "claude-code ~/app",
      sent: 700,
      servers: [server("fs", 700), server("mem", null, "timeout")],
    },
    { id: "vscode ~/.config/Code/User", sent: 10, servers: [server("x", 10)] },
  ]);
  const r = gateAudit(now, baseline, { percent: 5 });
  assert.equal(r.ok, false);
  assert.deepEqual(r.lines, [
    "FAIL claude-code ~/app: mem (timeout) measured in the baseline but not now: growth unknown",
    "note vscode ~/.config/Code/User: not in the baseline (10 sent tokens now)",
    "note cursor ~/.cursor/mcp.json: in the baseline, not found now",
  ]);
  // a server set off in the config is a choice, not a failure
  const off = report([{
    id: "claude-code ~/app",
    sent: 700,
    servers: [server("fs", 700), server("mem", null, "disabled")],
  }]);
  assert.equal(gateAudit(off, baseline, { percent: 5 }).ok, true);
});

Deno.test("baselineProblem() refuses what is not a baseline", () => {
  assert.equal(baselineProblem(JSON.parse(JSON.stringify(baseline))), undefined);
  assert.match(baselineProblem({ configs: {} })!, /not an audit baseline/);
  assert.match(
    baselineProblem({ ...baseline, configs: { a: { servers: {} } } })!,
    /config "a" has no sentTokens/,
  );
  // A hand-edited baseline: 1e400 (Infinity) and -5 passed, and the gate printed
  // "PASS ...: 96 sent tokens, -∞ (-NaN%) against ∞".
  const [id] = Object.keys(baseline.configs);
  const edited = (sentTokens: unknown, fs: unknown) => ({
    ...baseline,
    configs: { [id]: { ...baseline.configs[id], sentTokens, servers: { fs, mem: 300 } } },
  });
  assert.equal(
    baselineProblem(edited(Infinity, 700)),
    `config "${id}": sentTokens is not finite`,
  );
  assert.equal(baselineProblem(edited(1000, -5)), `config "${id}": server "fs" is below 0`);
  assert.equal(
    baselineProblem(edited(1000, 0.5)),
    `config "${id}": server "fs" is not a whole number`,
  );
  // A server that was not measured when the baseline was written is null.
  assert.equal(baselineProblem(edited(1000, null)), undefined);
});
