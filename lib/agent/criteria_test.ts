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

/** A judge that answers from a table: model → verdicts, one per vote, in call order. */
function tableJudge(table: Record<string, boolean[]>) {
  const calls: string[] = [];
  const judge: JudgeCaller = (model, _system, _user, options) => {
    calls.push(`${model}@${options?.temperature}`);
    const pass = table[model].shift()!;
    return Promise.resolve({
      text: JSON.stringify({ pass, reasoning: `${model} says ${pass}` }),
      usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: null, cacheWriteTokens: null },
      costUsd: 0.001,
    });
  };
  return { judge, calls };
}

Deno.test("llm_judge with judges × votes keeps every verdict and takes the majority of judges", async () => {
  // a: pass, pass, fail -> pass (2 of 3); b: fail, fail, pass -> fail; c: pass x3 -> pass.
  // Judges: 2 of 3 pass -> the criterion passes.
  const { judge, calls } = tableJudge({
    a: [true, true, false],
    b: [false, false, true],
    c: [true, true, true],
  });
  const c: Criterion = {
    type: "llm_judge",
    rubric: "Says 4",
    judges: ["a", "b", "c"],
    votes: 3,
    temperature: 0.7,
  };
  const r = await evaluateCriterion(c, outcome("4"), { judge });
  assert.equal(r.result.passed, true);
  assert.equal(
    r.result.detail,
    "judges passed the answer, 2 of 3 judge(s) passed it (passing votes: a 2/3, b 1/3, c 3/3)",
  );
  assert.equal(r.judgeCalls.length, 9);
  assert.deepEqual(calls, [
    "a@0.7",
    "a@0.7",
    "a@0.7",
    "b@0.7",
    "b@0.7",
    "b@0.7",
    "c@0.7",
    "c@0.7",
    "c@0.7",
  ]);
  assert.deepEqual(
    r.verdicts.map((v) => `${v.model}#${v.vote}:${v.pass}`),
    [
      "a#0:true",
      "a#1:true",
      "a#2:false",
      "b#0:false",
      "b#1:false",
      "b#2:true",
      "c#0:true",
      "c#1:true",
      "c#2:true",
    ],
  );
  assert.deepEqual(r.verdicts[2], {
    criterion: "criterion",
    model: "a",
    vote: 2,
    pass: false,
    reasoning: "a says false",
    inputTokens: 200,
    outputTokens: 20,
    costUsd: 0.001,
  });
});

Deno.test("llm_judge: a tie between judges fails, and so does a tie within a judge's votes", async () => {
  const two = await evaluateCriterion(
    { type: "llm_judge", rubric: "r", judges: ["a", "b"] },
    outcome("x"),
    { judge: tableJudge({ a: [true], b: [false] }).judge },
  );
  assert.equal(two.result.passed, false);
  assert.match(two.result.detail, /1 of 2 judge\(s\) passed it \(a tie fails\)/);
  const votes = await evaluateCriterion(
    { type: "llm_judge", rubric: "r", model: "a", votes: 2 },
    outcome("x"),
    { judge: tableJudge({ a: [true, false] }).judge },
  );
  assert.equal(votes.result.passed, false);
  assert.equal(votes.verdicts.length, 2);
  // One judge, one vote: the verdict as it was, at temperature 0.
  const one = tableJudge({ a: [true] });
  const single = await evaluateCriterion(
    { type: "llm_judge", rubric: "r", model: "a" },
    outcome("x"),
    {
      judge: one.judge,
    },
  );
  assert.equal(single.result.detail, "judge passed the answer: a says true");
  assert.deepEqual(one.calls, ["a@0"]);
});

Deno.test("llm_judge verdicts name their criterion inside all/any; an unusable vote is a judge error", async () => {
  const { judge } = tableJudge({ a: [true, false], b: [true] });
  const r = await evaluateCriterion(
    {
      type: "all",
      criteria: [
        { type: "contains", values: ["x"] },
        { type: "llm_judge", rubric: "r", judges: ["a", "b"] },
        { type: "llm_judge", rubric: "r2", model: "a" },
      ],
    },
    outcome("x"),
    { judge },
  );
  assert.deepEqual(r.verdicts.map((v) => `${v.criterion}|${v.model}|${v.pass}`), [
    "criterion.criteria[1]|a|true",
    "criterion.criteria[1]|b|true",
    "criterion.criteria[2]|a|false",
  ]);
  assert.equal(r.result.children![2].detail, "judge failed the answer: a says false");
  const texts = ['{"pass": true}', "no idea"];
  const bad: JudgeCaller = () =>
    Promise.resolve({
      text: texts.shift()!,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: null, cacheWriteTokens: null },
      costUsd: 0.5,
    });
  const e = await evaluateCriterion(
    { type: "llm_judge", rubric: "r", model: "a", votes: 3 },
    outcome("x"),
    { judge: bad },
  ).catch((x) => x);
  assert.ok(e instanceof JudgeReplyError);
  assert.match(e.message, /^judge "a" \(vote 2 of 3\): judge reply contains no JSON object/);
  assert.equal(e.judgeCalls.length, 2);
});
