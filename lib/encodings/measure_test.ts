import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { compactSig } from "./compact_sig.ts";
import { type ArmMeasurement, measureArms } from "./measure.ts";
import type { EncodingArm } from "./types.ts";
import { joinedBy, joinedListing } from "./_private.ts";
import { toTool, words } from "../../testing/encodings.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const chars = { name: "chars", count: (t: string) => t.length };

const tools: Tool[] = [
  toTool({ server: "s", name: "a", description: "one two three" }),
  toTool({ server: "s", name: "b", description: "x" }),
  toTool({ server: "s", name: "c", description: "" }),
];

/** Test arm: renders the bare name, skips tools whose description is empty. */
const skipEmpty: EncodingArm = {
  name: "skip_empty",
  altersIndex: true,
  lowerBound: true,
  encodeTool: (t) =>
    t.description === "" ? { ok: false, reason: "empty description" } : { ok: true, text: t.name },
  encodeListing(ts) {
    return joinedListing(ts, (t) => this.encodeTool(t), joinedBy("\n"));
  },
  indexFields: (t) => ({ name: t.name, server: t.server, description: "", params: "" }),
};

const measured = (rows: ReturnType<typeof measureArms>) =>
  rows.filter((r): r is ArmMeasurement => !r.skipped);

Deno.test("measureArms() counts listing, mean, p95, heaviest and savings by hand", () => {
  const rows = measured(measureArms({
    corpus: { id: "hand", tools },
    arms: [compactSig],
    tokenizers: [words, chars],
  }));
  assert.equal(rows.length, 2);
  const [w, c] = rows;
  // compact_sig texts: "a()|one two three" (3 words, 17 chars), "b()|x" (1, 5), "c()|" (1, 4).
  // Listing joins with "\n\n": 5 words, 17 + 5 + 4 + 4 = 30 chars.
  // baseline_json texts: "a\none two three", "b\nx", "c\n"; listing 7 words, 15+3+2+4 = 24 chars.
  assert.deepEqual(
    { ...w, savings: w.savings?.toFixed(6) },
    {
      corpusId: "hand",
      arm: "compact_sig",
      tokenizer: "words",
      skipped: false,
      toolCount: 3,
      totalTokens: 5,
      meanTokens: 5 / 3,
      p95Tokens: 3,
      heaviest: [{ toolId: "s:a", tokens: 3 }, { toolId: "s:b", tokens: 1 }, {
        toolId: "s:c",
        tokens: 1,
      }],
      skippedTools: { count: 0, examples: [] },
      alteredTools: { count: 0, examples: [] },
      savings: (1 - 5 / 7).toFixed(6),
      savingsToolCount: 3,
      lowerBound: false,
      altersIndex: true,
    },
  );
  assert.equal(c.tokenizer, "chars");
  assert.equal(c.totalTokens, 30);
  assert.equal(c.meanTokens, 26 / 3);
  assert.equal(c.savings, 1 - 30 / 24);
});

Deno.test("measureArms() computes savings over the tools both arms encoded", () => {
  const [row] = measured(measureArms({
    corpus: { id: "hand", tools },
    arms: [skipEmpty],
    tokenizers: [words],
  }));
  // skip_empty encodes a and b: listing "a\nb" = 2 words. Baseline over {a, b}:
  // "a\none two three\n\nb\nx" = 6 words, so savings 1 - 2/6 (not 1 - 2/7).
  assert.equal(row.totalTokens, 2);
  assert.equal(row.savings, 1 - 2 / 6);
  assert.equal(row.savingsToolCount, 2);
  assert.equal(row.toolCount, 2);
  assert.deepEqual(row.skippedTools, {
    count: 1,
    examples: [{ toolId: "s:c", reason: "empty description" }],
  });
});

Deno.test("measureArms() keeps the first 5 skip examples and counts them all", () => {
  const many = Array.from({ length: 7 }, (_, i) => toTool({ server: "s", name: `t${i}` }));
  const [row] = measured(measureArms({
    corpus: { id: "empty-desc", tools: many },
    arms: [skipEmpty],
    tokenizers: [words],
  }));
  assert.equal(row.skippedTools.count, 7);
  assert.deepEqual(row.skippedTools.examples.map((e) => e.toolId), [
    "s:t0",
    "s:t1",
    "s:t2",
    "s:t3",
    "s:t4",
  ]);
  assert.equal(row.toolCount, 0);
  assert.equal(row.totalTokens, 0);
  assert.equal(row.meanTokens, null);
  assert.equal(row.p95Tokens, null);
  assert.equal(row.savings, null);
});

Deno.test("measureArms() yields one skip row for an arm whose listing throws and breaks heaviest ties by id", () => {
  const broken: EncodingArm = {
    ...compactSig,
    name: "broken",
    joined: undefined,
    listingParts: undefined,
    encodeListing: () => {
      throw new Error("absent");
    },
  };
  const rows = measureArms({
    corpus: { id: "hand", tools },
    arms: [broken, compactSig],
    tokenizers: [words, chars],
    heaviestCount: 2,
  });
  assert.deepEqual(rows[0], {
    corpusId: "hand",
    arm: "broken",
    skipped: true,
    reason: "encodeListing failed: Error: absent",
  });
  assert.equal(rows.length, 3);
  const w = rows[1] as ArmMeasurement;
  assert.deepEqual(w.heaviest, [{ toolId: "s:a", tokens: 3 }, { toolId: "s:b", tokens: 1 }]);
  assert.throws(
    () => measureArms({ corpus: { id: "x", tools }, arms: [], tokenizers: [], heaviestCount: -1 }),
    RangeError,
  );
});

Deno.test(
  "measureArms() with the real tokenizers gives the direct counts on the reference corpus and the hard cases",
  FULL_TIER_ONLY,
  async () => {
    const { armsNamed } = await import("./registry.ts");
    const BUILTIN_ARMS = armsNamed();
    const { createTokenizer, TOKENIZER_NAMES } = await import("../tokens/tokenizers.ts");
    const { readTools, hardCases } = await import("../../testing/encodings.ts");
    const real = TOKENIZER_NAMES.map((n) => createTokenizer(n));
    // The same counts through an unmarked tokenizer: every listing and tool text counted whole.
    const direct = real.map((t) => ({ name: t.name, count: (s: string) => t.count(s) }));
    const corpora = [
      readTools(new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url)),
      ...hardCases().values(),
    ];
    for (const tools of corpora) {
      const corpus = { id: "c", tools };
      assert.deepEqual(
        measureArms({ corpus, arms: BUILTIN_ARMS, tokenizers: real }),
        measureArms({ corpus, arms: BUILTIN_ARMS, tokenizers: direct }),
      );
    }
  },
);

Deno.test("every arm that declares its listing joined lists exactly that join of its tool texts", async () => {
  const { armsNamed } = await import("./registry.ts");
  const BUILTIN_ARMS = armsNamed();
  const { readTools, hardCases } = await import("../../testing/encodings.ts");
  const corpora = [
    readTools(new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url)),
    ...hardCases().values(),
    [],
  ];
  const joined = BUILTIN_ARMS.filter((a) => a.joined !== undefined);
  assert.deepEqual(joined.map((a) => a.name), [
    "baseline_json",
    "compact_sig",
    "minified_json",
    "markdown",
  ]);
  for (const arm of joined) {
    const join = arm.joined!;
    for (const tools of corpora) {
      const texts = tools.flatMap((t) => {
        const out = arm.encodeTool(t);
        return out.ok ? [out.text] : [];
      });
      const listing = arm.encodeListing(tools);
      assert.equal(
        listing.text,
        texts.length === 0 ? join.empty : join.header + texts.join(join.separator) + join.footer,
        arm.name,
      );
      assert.equal(listing.encodedIds.length, texts.length, arm.name);
    }
  }
  // minified_json is a JSON array even when empty (by hand).
  assert.equal(BUILTIN_ARMS.find((a) => a.name === "minified_json")!.encodeListing([]).text, "[]");
});

Deno.test("measureArms() counts a joined listing of skips, empty texts and no tools as its whole text", async () => {
  const { createTokenizer } = await import("../tokens/tokenizers.ts");
  const real = createTokenizer("cl100k_base");
  const direct = { name: real.name, count: (s: string) => real.count(s) };
  // Empty texts, a skip, and texts that join at cuts that are not hard (":" then "," then ":").
  const arm: EncodingArm = {
    ...skipEmpty,
    name: "joined_test",
    encodeTool: (t) =>
      t.description === "" ? { ok: false, reason: "empty" } : { ok: true, text: t.description },
    encodeListing(ts) {
      return joinedListing(ts, (t) => this.encodeTool(t), this.joined!);
    },
    joined: { header: "[:", separator: ",", footer: ":]", empty: "[]" },
  };
  const cases = [
    tools,
    [toTool({ server: "s", name: "e", description: "" })],
    [],
    ["a:", " b", "12", "3", "'s", "x\n", "\n\n", "é", ":"].map((d, i) =>
      toTool({ server: "s", name: `t${i}`, description: d })
    ),
  ];
  for (const ts of cases) {
    const corpus = { id: "c", tools: ts };
    assert.deepEqual(
      measureArms({ corpus, arms: [arm], tokenizers: [real] }),
      measureArms({ corpus, arms: [arm], tokenizers: [direct] }),
    );
  }
});

/**
 * Asserts that `arm` measures with the real tokenizers (counted in runs, cut at hard cuts inside
 * its texts) as with the same tokenizers unmarked (each text and the listing counted whole), on
 * tools whose descriptions are drawn from pieces that stretch runs across every kind of cut.
 */
async function assertCountedAsWhole(arm: EncodingArm): Promise<void> {
  const fc = (await import("fast-check")).default;
  const { createTokenizer } = await import("../tokens/tokenizers.ts");
  const real = [createTokenizer("cl100k_base"), createTokenizer("o200k_base")];
  const direct = real.map((tok) => ({ name: tok.name, count: (s: string) => tok.count(s) }));
  const piece = fc.constantFrom(
    "a",
    "Zq",
    " ",
    "  ",
    "7",
    "42",
    ":",
    ",",
    '"',
    "'s",
    "\n",
    "\n\n",
    "é",
    "日本",
    "-",
    "/",
    "x".repeat(70),
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(piece, { maxLength: 24 }).map((ps) => ps.join("")), { maxLength: 8 }),
      (texts: string[]) => {
        const corpus = {
          id: "c",
          tools: texts.map((d, i) => toTool({ server: "s", name: `t${i}`, description: d })),
        };
        assert.deepEqual(
          measureArms({ corpus, arms: [arm], tokenizers: real }),
          measureArms({ corpus, arms: [arm], tokenizers: direct }),
        );
      },
    ),
    { seed: 20261203, numRuns: 300 },
  );
}

Deno.test("measureArms() counts a joined listing whose texts hold hard cuts, with no hard cut between them, as its whole text", async () => {
  // Texts start and end with punctuation, as JSON entries do ("{...}"), so the listing has no
  // hard cut between them and the counter cuts inside the texts (letter then space, digit then
  // letter, ...), within 64 code units of their ends or not at all.
  const arm: EncodingArm = {
    ...skipEmpty,
    name: "joined_cuts",
    encodeTool: (t) => ({ ok: true, text: `{${t.description}}` }),
    encodeListing(ts) {
      return joinedListing(ts, (t) => this.encodeTool(t), this.joined!);
    },
    joined: { header: "[", separator: ",", footer: "]", empty: "[]" },
  };
  await assertCountedAsWhole(arm);
});

Deno.test("measureArms() counts a listing given in parts, its first run held for a header, as its whole text", async () => {
  const { listingOfParts } = await import("./_private.ts");
  // Each tool is given as a part of its own text between separators that make no hard cut with
  // it ("{" ... "}" then ","), so the runner cuts inside the parts; the header comes last.
  const arm: EncodingArm = {
    ...skipEmpty,
    name: "parts_cuts",
    encodeTool: (t) => ({ ok: true, text: `{${t.description}}` }),
    encodeListing(ts) {
      return listingOfParts(this.listingParts!(ts));
    },
    *listingParts(ts) {
      for (const [i, tool] of ts.entries()) {
        if (i > 0) yield ",";
        yield { text: `{${tool.description}}`, tool };
      }
      return { encodedIds: ts.map((t) => t.id), skipped: { count: 0, examples: [] }, header: "[:" };
    },
  };
  await assertCountedAsWhole(arm);
});

Deno.test("heaviestFirst() is a stable sort by tokens descending and id ascending, cut at k", async () => {
  const fc = (await import("fast-check")).default;
  const { heaviestFirst } = await import("./_private.ts");
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom("a", "b", "s:x", "s:y", "t"), fc.nat(4)), {
        maxLength: 40,
      }),
      fc.nat(45),
      (tools: [string, number][], k: number) => {
        const ids = tools.map(([id]) => id);
        const tokens = tools.map(([, n]) => n);
        // The definition: every tool sorted (Array.prototype.sort is stable), then cut.
        const want = tools.map(([toolId, n]) => ({ toolId, tokens: n }))
          .sort((a, b) =>
            b.tokens - a.tokens || (a.toolId < b.toolId ? -1 : a.toolId > b.toolId ? 1 : 0)
          )
          .slice(0, k);
        assert.deepEqual(heaviestFirst(ids, tokens, k), want);
      },
    ),
    { seed: 20261204, numRuns: 500 },
  );
});
