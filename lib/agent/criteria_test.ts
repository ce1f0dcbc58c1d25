import assert from "node:assert/strict";
import {
  argsMatch,
  evaluateCriterion,
  type JudgeCaller,
  JudgeReplyError,
  parseJudgeAnswer,
} from "./criteria.ts";
import type { Criterion, ToolCallRecord } from "./types.ts";

const call = (tool: string, args: Record<string, unknown>, isError = false): ToolCallRecord => ({
  name: tool.split(":")[1],
  tool,
  args: args as never,
  ms: 1,
  isError,
});

const outcome = (finalAnswer: string | null, toolCalls: ToolCallRecord[] = []) => ({
  question: "How many lines?",
  finalAnswer,
  toolCalls,
});

async function passes(c: Criterion, answer: string | null, calls: ToolCallRecord[] = []) {
  return (await evaluateCriterion(c, outcome(answer, calls))).result.passed;
}

Deno.test("exact is trimmed and case-insensitive unless caseSensitive", async () => {
  assert.equal(await passes({ type: "exact", value: "Paris" }, "  paris\n"), true);
  assert.equal(
    await passes({ type: "exact", value: "Paris", caseSensitive: true }, "paris"),
    false,
  );
  assert.equal(await passes({ type: "exact", value: "Paris" }, "Paris."), false);
  assert.equal(await passes({ type: "exact", value: "" }, null), false);
});

Deno.test("contains checks any (default) or all of its strings", async () => {
  const c: Criterion = { type: "contains", values: ["alpha", "beta"] };
  assert.equal(await passes(c, "only BETA here"), true);
  assert.equal(await passes({ ...c, mode: "all" }, "only beta here"), false);
  assert.equal(await passes({ ...c, mode: "all" }, "Alpha and beta"), true);
  assert.equal(await passes({ ...c, caseSensitive: true }, "ALPHA BETA"), false);
  const r = await evaluateCriterion({ ...c, mode: "all" }, outcome("beta"));
  assert.equal(r.result.detail, 'answer lacks "alpha"');
});

Deno.test("regex honours flags", async () => {
  assert.equal(await passes({ type: "regex", pattern: "^\\s*4\\s*$" }, " 4 "), true);
  assert.equal(await passes({ type: "regex", pattern: "lines: 4" }, "LINES: 4"), false);
  assert.equal(await passes({ type: "regex", pattern: "lines: 4", flags: "i" }, "LINES: 4"), true);
  assert.equal(await passes({ type: "regex", pattern: "^b", flags: "m" }, "a\nb"), true);
});

Deno.test("tool_called matches server:tool and an argument subset", async () => {
  const calls = [call("fs:read_file", { path: "notes/todo.txt", opts: { head: 2, x: 1 } })];
  assert.equal(await passes({ type: "tool_called", tool: "fs:read_file" }, null, calls), true);
  assert.equal(await passes({ type: "tool_called", tool: "fs:write_file" }, "x", calls), false);
  assert.equal(
    await passes(
      { type: "tool_called", tool: "fs:read_file", args: { opts: { head: 2 } } },
      null,
      calls,
    ),
    true,
  );
  assert.equal(
    await passes({ type: "tool_called", tool: "fs:read_file", args: { path: "x" } }, null, calls),
    false,
  );
});

Deno.test("argsMatch() treats objects as subsets and arrays as exact", () => {
  assert.equal(argsMatch({ a: [1, 2] }, { a: [1, 2], b: 3 }), true);
  assert.equal(argsMatch({ a: [1] }, { a: [1, 2] }), false);
  assert.equal(argsMatch({ a: null }, { a: null }), true);
  assert.equal(argsMatch({ a: { b: 1 } }, { a: [1] }), false);
});

Deno.test("all/any combine every child", async () => {
  const all: Criterion = {
    type: "all",
    criteria: [{ type: "contains", values: ["4"] }, { type: "tool_called", tool: "fs:read_file" }],
  };
  assert.equal(await passes(all, "4 lines"), false);
  assert.equal(await passes(all, "4 lines", [call("fs:read_file", {})]), true);
  const any: Criterion = { type: "any", criteria: all.criteria };
  const r = await evaluateCriterion(any, outcome("4 lines"));
  assert.equal(r.result.passed, true);
  assert.equal(r.result.detail, "1 of 2 sub-criteria passed");
});

Deno.test("llm_judge parses {pass, reasoning}, an unparseable reply is a judge error, usage apart", async () => {
  const replies = [
    'Sure! {"pass": true, "reasoning": "counts 4"}',
    "I think it passes.",
    '{"pass": "yes"}',
  ];
  const seen: string[] = [];
  const judge: JudgeCaller = (model, _system, user) => {
    seen.push(`${model}|${user.split("\n")[1]}`);
    return Promise.resolve({
      text: replies.shift()!,
      usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: null },
      costUsd: 0.0005,
    });
  };
  const c: Criterion = { type: "llm_judge", rubric: "Says 4", model: "judge" };
  const a = await evaluateCriterion(c, outcome("4"), { judge });
  assert.equal(a.result.passed, true);
  assert.equal(a.judgeCalls.length, 1);
  assert.equal(a.judgeCalls[0].costUsd, 0.0005);
  // An unusable reply is a judge error (not an agent failure), and keeps the call's usage.
  const b = await evaluateCriterion(c, outcome("4"), { judge }).catch((e) => e);
  assert.ok(b instanceof JudgeReplyError);
  assert.equal(
    b.message,
    'judge "judge": judge reply contains no JSON object; reply began "I think it passes."',
  );
  assert.equal(b.judgeCalls.length, 1);
  assert.equal(b.judgeCalls[0].costUsd, 0.0005);
  const d = await evaluateCriterion(c, outcome("4"), { judge }).catch((e) => e);
  assert.ok(d instanceof JudgeReplyError);
  assert.match(d.message, /"pass" is "yes", not a boolean/);
  assert.deepEqual(seen, ["judge|Says 4", "judge|Says 4", "judge|Says 4"]);
  await assert.rejects(() => evaluateCriterion(c, outcome("4")), TypeError);
});

Deno.test("parseJudgeAnswer() reports invalid JSON", () => {
  const r = parseJudgeAnswer("{pass: true}");
  assert.ok("error" in r && /not valid JSON/.test(r.error));
});
