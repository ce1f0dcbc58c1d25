// bench --overrides: the same overrides file the agents read, applied to the corpus before tokens
// and retrieval. Counted with a whitespace tokenizer so every token figure is hand-countable.
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { runBench } from "./bench.ts";
import { renderDashboard } from "../report/dashboard.ts";
import { denoFlowIo } from "./io.ts";
import { sha256Hex } from "../catalog/load.ts";
import { ToolOverridesError } from "../catalog/overrides.ts";
import type { Tokenizer } from "../tokens/types.ts";
import schema from "../report/report.schema.json" with { type: "json" };

/** One token per whitespace-separated word. */
const words = (name: string): Tokenizer =>
  ({
    name,
    count: (text: string) => text.split(/\s+/).filter(Boolean).length,
  }) as Tokenizer;

const OVERRIDES = JSON.stringify({
  description: "point gamma at the weather questions",
  overrides: {
    "tiny:gamma_tool": { description: "Tells whether to take an umbrella in the rain." },
    "tiny:no_such_tool": { description: "stale" },
  },
});

async function bench(dir: string, overrides?: string) {
  return await runBench({
    corpora: [`${dir}/tiny.json`],
    golden: [`${dir}/tiny.test.json`],
    arms: "none",
    toolResults: "none",
    tokenizers: ["cl100k_base"],
    retrievers: ["bm25"],
    resamples: 10,
    createTokenizer: words,
    ...(overrides ? { overrides } : {}),
  }, { ...denoFlowIo(), progress: () => {} });
}

Deno.test("runBench({overrides}): the rewritten tool's tokens and retrieval rank change as counted by hand", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tools = [
      ["alpha_tool", "Mixes paint colors."],
      ["beta_tool", "Sorts a list of numbers."],
      ["gamma_tool", "Counts sheep."],
    ].map(([name, description]) => ({ name, description, inputSchema: { type: "object" } }));
    await Deno.writeTextFile(`${dir}/tiny.json`, JSON.stringify({ tools }));
    const q = (id: string, query: string, tool: string) => ({
      id,
      query,
      labels: [{ tool_id: tool, relevance: 2 }],
    });
    await Deno.writeTextFile(
      `${dir}/tiny.test.json`,
      JSON.stringify({
        queries: [
          q("q1", "umbrella rain", "tiny:gamma_tool"),
          q("q2", "paint colors", "tiny:alpha_tool"),
        ],
      }),
    );
    await Deno.writeTextFile(`${dir}/o.json`, OVERRIDES);

    const plain = await bench(dir);
    const over = await bench(dir, `${dir}/o.json`);

    // Tokens: "gamma_tool\nCounts sheep.\n{"type":"object"}" is 4 words; with the override,
    // "gamma_tool\nTells whether to take an umbrella in the rain.\n{"type":"object"}" is 11.
    const tokensOf = (r: typeof plain, id: string) =>
      r.heaviest.find((h) => h.tokenizer === "cl100k_base")!.tools.find((t) => t.id === id)!
        .tokens;
    assert.equal(tokensOf(plain, "tiny:gamma_tool"), 4);
    assert.equal(tokensOf(over, "tiny:gamma_tool"), 11);
    // The other tools are untouched: alpha 5 words, beta 7 words.
    assert.equal(tokensOf(over, "tiny:alpha_tool"), 5);
    assert.equal(tokensOf(over, "tiny:beta_tool"), 7);
    const direct = (r: typeof plain) =>
      r.modes.find((m) => m.mode === "direct" && m.tokenizer === "cl100k_base")!.tokensWithSchemas;
    assert.equal(direct(plain), 4 + 5 + 7);
    assert.equal(direct(over), 11 + 5 + 7);

    // Retrieval: no tool shares a word with "umbrella rain" until gamma's description does,
    // which makes gamma the only scoring document (rank 1); q2 is untouched (rank 1 both times).
    const rank = (r: typeof plain, query: string) =>
      r.retrieval!.find((x) => x.retriever === "bm25" && x.arm === null)!.perQuery.find((p) =>
        p.queryId === query
      )!.firstRelevantRank;
    assert.notEqual(rank(plain, "q1"), 1);
    assert.equal(rank(over, "q1"), 1);
    assert.equal(rank(plain, "q2"), 1);
    assert.equal(rank(over, "q2"), 1);

    // The record: file, content sha256 (of the canonical overrides map), what was applied and
    // the stale key, which is also a warning; the file's byte hash is among the inputs.
    const content = JSON.stringify({
      "tiny:gamma_tool": { description: "Tells whether to take an umbrella in the rain." },
      "tiny:no_such_tool": { description: "stale" },
    });
    assert.deepEqual(over.overrides, {
      path: `${dir}/o.json`,
      sha256: await sha256Hex(content),
      keys: 2,
      applied: 1,
      tools: ["tiny:gamma_tool"],
      corpora: [{ corpusId: "tiny", applied: 1 }],
      problems: ['override "tiny:no_such_tool": server "tiny" lists no tool "no_such_tool"'],
    });
    assert.ok(
      over.warnings.includes(
        'overrides: override "tiny:no_such_tool": server "tiny" lists no tool "no_such_tool"',
      ),
    );
    assert.deepEqual(over.inputs.at(-1), {
      path: `${dir}/o.json`,
      sha256: await sha256Hex(await Deno.readFile(`${dir}/o.json`)),
    });
    assert.equal(plain.overrides, undefined);
    // Both reports validate against the committed schema.
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const r of [plain, over]) {
      assert.ok(validate(JSON.parse(JSON.stringify(r))), JSON.stringify(validate.errors));
    }

    // The dashboard says what was rewritten; without overrides it says nothing of them.
    assert.match(
      renderDashboard(over),
      /Tool-description overrides <code>[^<]*o\.json<\/code> \(sha256 [0-9a-f]{12}\) rewrote 1 of its 2 tools before anything below was measured: <code>tiny:gamma_tool<\/code>; 1 named nothing/,
    );
    assert.doesNotMatch(renderDashboard(plain), /Tool-description overrides/);

    // A malformed file is bad input (exit 2), named.
    await Deno.writeTextFile(`${dir}/bad.json`, '{"overrides": {"tiny:gamma_tool": {}}}');
    await assert.rejects(
      () => bench(dir, `${dir}/bad.json`),
      (e: unknown) =>
        e instanceof ToolOverridesError &&
        e.message.includes("must give at least one of title, description, parameters"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
