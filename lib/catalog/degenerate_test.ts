import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { countDegenerateDescriptions, DEFAULT_MIN_DESCRIPTION_CHARS } from "./degenerate.ts";
import { loadCatalog } from "./load.ts";
import type { Tool } from "./types.ts";

const tool = (name: string, description: string): Tool => ({
  id: `s:${name}`,
  server: "s",
  name,
  description,
});

Deno.test("each rule on hand-made descriptions; a tool counts once, under the first rule", () => {
  const tools = [
    tool("empty", ""),
    tool("blank", " \n\t "),
    tool("stub", "Proxy for github_create_issue and much more text here"), // long, but a stub
    tool("stubshort", "Proxy for x"), // stub and short: counted as stub
    tool("short19", "1234567890123456789"), // 19 characters
    tool("ok20", "12345678901234567890"), // exactly 20: not short
    tool("padded", "   short text   "), // 10 characters after trimming
    tool("cjk", "读取文件内容并返回给调用方使用的工具说明文字"), // 22 code points
    tool("emoji", "😀".repeat(19)), // 19 code points, 38 UTF-16 units: short
    tool("proxyinside", "A tool that is a Proxy for things"), // pattern is anchored
    tool("fine", "Create a new directory, including parents."),
  ];
  const r = countDegenerateDescriptions(tools);
  assert.deepEqual(r.byRule, { empty: 2, stub: 2, short: 3 });
  assert.equal(r.count, 7);
  assert.equal(r.total, 11);
  assert.deepEqual(r.examples, {
    empty: ["s:blank", "s:empty"],
    stub: ["s:stub", "s:stubshort"],
    short: ["s:emoji", "s:padded", "s:short19"],
  });
  assert.equal(DEFAULT_MIN_DESCRIPTION_CHARS, 20);
});

Deno.test("rules are configurable and echoed as text", () => {
  const tools = [
    tool("a", "TODO: describe"),
    tool("b", "Auto-generated wrapper"),
    tool("c", "A decent description."),
  ];
  const r = countDegenerateDescriptions(tools, {
    minChars: 5,
    stubPatterns: ["^TODO\\b", /wrapper$/gi],
  });
  assert.deepEqual(r.byRule, { empty: 0, stub: 2, short: 0 });
  assert.deepEqual(r.rules, [
    { id: "empty", description: "description is empty or whitespace only" },
    {
      id: "stub",
      description: "trimmed description matches a stub pattern: /^TODO\\b/u, /wrapper$/i",
    },
    {
      id: "short",
      description: "trimmed description has fewer than 5 characters (Unicode code points)",
    },
  ]);
  // A global pattern must not carry lastIndex from one tool to the next.
  const same = [tool("x", "wrapper"), tool("y", "wrapper"), tool("z", "wrapper")];
  assert.equal(countDegenerateDescriptions(same, { stubPatterns: [/wrapper/g] }).byRule.stub, 3);
  assert.equal(
    countDegenerateDescriptions([], {}).rules[1].description,
    "trimmed description matches a stub pattern: /^Proxy for /",
  );
  assert.equal(
    countDegenerateDescriptions(tools, { stubPatterns: [] }).rules[1].description.endsWith(
      "(no patterns)",
    ),
    true,
  );
});

Deno.test("examples keep at most 5 sorted ids per rule", () => {
  const tools = ["g", "f", "e", "d", "c", "b", "a"].map((n) => tool(n, ""));
  const r = countDegenerateDescriptions(tools);
  assert.equal(r.byRule.empty, 7);
  assert.deepEqual(r.examples.empty, ["s:a", "s:b", "s:c", "s:d", "s:e"]);
});

Deno.test("bad options are errors", () => {
  assert.throws(() => countDegenerateDescriptions([], { minChars: -1 }), RangeError);
  assert.throws(() => countDegenerateDescriptions([], { minChars: 2.5 }), /current value is 2.5/);
  assert.throws(() => countDegenerateDescriptions([], { stubPatterns: ["("] }), SyntaxError);
});

const LIVEMCPTOOL = fileURLToPath(
  new URL("../../../shared/corpora/livemcptool/tools.json", import.meta.url),
);
let hasLive = false;
try {
  hasLive = Deno.statSync(LIVEMCPTOOL).isFile;
} catch {
  console.warn(`skipping the LiveMCPBench degenerate-description test: ${LIVEMCPTOOL} is absent`);
}

Deno.test({
  name: "LiveMCPBench: 19 empty, 0 stub, 11 short descriptions (counted independently with Python)",
  ignore: !hasLive,
  async fn() {
    const r = countDegenerateDescriptions((await loadCatalog(LIVEMCPTOOL)).tools);
    assert.deepEqual(r.byRule, { empty: 19, stub: 0, short: 11 });
    assert.equal(r.count, 30);
    assert.deepEqual(r.examples.short, [
      "12306-mcp:get-tickets",
      "Bazi:buildBaziFromLunarDatetime",
      "Bazi:buildBaziFromSolarDatetime",
      "bing-cn-mcp:fetch_webpage",
      "git:git_branch",
    ]);
  },
});
