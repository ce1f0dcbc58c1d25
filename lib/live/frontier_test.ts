import assert from "node:assert/strict";
import fc from "fast-check";
import type { Tool } from "../catalog/types.ts";
import { contentWords } from "../retrieval/audit.ts";
import { parseMcpproxyGolden } from "../retrieval/golden.ts";
import type { Retriever } from "../retrieval/types.ts";
import { retrieveResponseText } from "../proxy/responses.ts";
import { sharedDefaultTokenizer } from "../tokens/default_tokenizer.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import { measureFrontier, unreachableTools } from "./frontier.ts";

const tools = [
  { id: "a:x", server: "a", name: "x", description: "Read" },
  { id: "a:y", server: "a", name: "y", description: "Write" },
  { id: "a:z", server: "a", name: "z", description: "Zap" },
];
// A fixed ranking for every query: y, x, z.
const fixed: Retriever = {
  name: "fixed",
  config: {},
  search: (_q, limit) =>
    [{ id: "a:y", score: 3 }, { id: "a:x", score: 2 }, { id: "a:z", score: 1 }].slice(0, limit),
};
const golden = parseMcpproxyGolden(
  JSON.stringify({
    queries: [
      { id: "q1", query: "read", labels: [{ tool_id: "a:x", relevance: 2 }] },
      {
        id: "q2",
        query: "write or zap",
        labels: [{ tool_id: "a:y", relevance: 2 }, { tool_id: "a:z", relevance: 1 }],
      },
    ],
  }),
  { id: "g" },
);
const chars = { name: "cl100k_base" as const, count: (t: string) => t.length };

Deno.test("measureFrontier() prices the response text of the top k and averages recall@k", () => {
  const row = measureFrontier({
    retriever: fixed,
    golden,
    corpus: { id: "c", tools },
    tokenizer: chars,
    detail: "compact",
    maxK: 3,
    checkEvery: 1,
  });
  const usage =
    "Call call_tool with name set to a tool's name and arguments matching its signature (p?: optional); describe_tool gives the full schema.";
  const y = '{"name":"a:y","signature":"y()","description":"Write","score":3}';
  const x = '{"name":"a:x","signature":"x()","description":"Read","score":2}';
  const z = '{"name":"a:z","signature":"z()","description":"Zap","score":1}';
  const len = (items: string[]) =>
    `{"tools":[${items.join(",")}],"usage":${JSON.stringify(usage)}}`.length;
  // Envelope + each item alone: with score 0, then the score's digits in place of the "0".
  const env = len([]);
  const one = (i: string) => len([i]) - env;
  assert.deepEqual(row.points.map((p) => p.meanTokens), [
    env + one(y),
    env + one(y) + one(x),
    env + one(y) + one(x) + one(z),
  ]);
  // Characters are additive but for the commas between items: 2 commas short at k = 3.
  assert.equal(row.check.meanExactTokens, len([y, x, z]));
  assert.equal(row.points[2].meanTokens - len([y, x, z]), -2);
  assert.equal(row.check.meanRelativeError, 2 / len([y, x, z]));
  assert.equal(row.provenance, "estimated");
  // q1 (x at rank 2): 0, 1, 1. q2 (y at 1, z at 3, two relevant): 1/2, 1/2, 1.
  assert.deepEqual(row.points.map((p) => p.recall), [0.25, 0.75, 1]);
  assert.equal(row.queryCount, 2);
  assert.equal(row.retriever, "fixed");
});

Deno.test("unreachableTools() lists never-retrieved tools and isolated vocabularies", () => {
  const u = unreachableTools("g", {
    id: "c",
    tools: [
      ...tools,
      { id: "a:w", server: "a", name: "read_more", description: "Read again" },
    ],
  }, [["a:y", "a:x"], ["a:y"]]);
  assert.deepEqual(u.neverRetrieved, ["a:w", "a:z"]);
  // "read" is shared by a:x and a:w; y and z share no word with another description.
  assert.deepEqual(u.isolatedVocabulary, ["a:y", "a:z"]);
  assert.equal(u.toolCount, 4);
});

Deno.test("unreachableTools() finds the isolated vocabularies a plain set-by-set reading finds", () => {
  // The plain reading: a tool is isolated when no word of its name or description appears in
  // another tool's description.
  const plain = (tools: readonly Tool[]) =>
    tools.filter((t, i) => {
      const own = new Set([...contentWords(t.name), ...contentWords(t.description)]);
      return !tools.some((o, j) => j !== i && contentWords(o.description).some((w) => own.has(w)));
    }).map((t) => t.id).sort();
  const words = ["read", "File", "the", "writeFile", "zebra", "quagga", "list_dirs", "HTTPServer"];
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.array(fc.constantFrom(...words), { maxLength: 3 }),
          fc.array(fc.constantFrom(...words), { maxLength: 4 }),
        ),
        { minLength: 1, maxLength: 8 },
      ),
      (rows) => {
        const tools: Tool[] = rows.map(([name, desc], i) => ({
          id: `s:t${i}`,
          server: "s",
          name: name.join("_") || `t${i}`,
          description: desc.join(" "),
        }));
        assert.deepEqual(
          unreachableTools("g", { id: "c", tools }, []).isolatedVocabulary,
          plain(tools),
        );
      },
    ),
    { numRuns: 2000, seed: 3 },
  );
});

Deno.test("measureFrontier() counts the response texts exactly with the piecewise counter (js-tiktoken as reference)", () => {
  // Long descriptions (one with quotes and a line break, so escaped in the JSON) and schemas:
  // the strings the counter's shared memo knows; the figures must be js-tiktoken's.
  const long = (i: number) => ({
    id: `s:t${i}`,
    server: "s",
    name: `tool_${i}`,
    description: i === 1
      ? 'Reads the "config" file at the given path.\nReturns its contents as text, or an error.'
      : `Tool number ${i} lists the items of a folder and returns their names, sizes and dates.`,
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: `The folder to read, tool ${i}.` } },
      required: ["path"],
    },
  });
  const many = [long(1), long(2), long(3)];
  const ranked: Retriever = {
    name: "ranked",
    config: {},
    search: (_q, limit) =>
      [{ id: "s:t2", score: 2.5 }, { id: "s:t1", score: 1.25 }, { id: "s:t3", score: 0.5 }]
        .slice(0, limit),
  };
  const set = parseMcpproxyGolden(
    JSON.stringify({
      queries: [{ id: "q", query: "read", labels: [{ tool_id: "s:t1", relevance: 1 }] }],
    }),
    { id: "g" },
  );
  const reference = createTokenizer("cl100k_base");
  const lookup = (id: string) => many.find((t) => t.id === id);
  const text = (hits: { id: string; score: number }[]) =>
    retrieveResponseText(hits, lookup, "full");
  const env = reference.count(text([]));
  const item = (id: string, score: number) =>
    reference.count(text([{ id, score: 0 }])) - env - reference.count("0") +
    reference.count(String(score));
  const row = measureFrontier({
    retriever: ranked,
    golden: set,
    corpus: { id: "c", tools: many },
    tokenizer: sharedDefaultTokenizer("cl100k_base"),
    maxK: 3,
    checkEvery: 1,
  });
  const hits = [{ id: "s:t2", score: 2.5 }, { id: "s:t1", score: 1.25 }, {
    id: "s:t3",
    score: 0.5,
  }];
  let sum = env;
  assert.deepEqual(
    row.points.map((p) => p.meanTokens),
    hits.map((h) => (sum += item(h.id, h.score))),
  );
  assert.equal(row.check.meanExactTokens, reference.count(text(hits)));
});
