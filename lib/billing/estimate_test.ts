import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import o200kData from "js-tiktoken/ranks/o200k_base";
import {
  anthropicFeatures,
  calibrationEntry,
  DEFAULT_CALIBRATION,
  estimateTokens,
  geminiFeatures,
  openAiFeatures,
} from "./estimate.ts";
import { type SentTool, sentTools } from "../catalog/sent.ts";
import { fitEntry, parseCalibration } from "./calibration.ts";

const reference = new Tiktoken(o200kData);
const n = (text: string) => reference.encode(text, [], []).length;

Deno.test("estimateTokens(): intercept plus coefficients times features, at low, mid and high", () => {
  const entry = {
    provider: "gemini" as const,
    models: null,
    label: "t",
    intercept: { low: 10, mid: 10, high: 20 },
    coefficients: { a: { low: 1, mid: 2, high: 3 } },
    sources: [],
  };
  assert.deepEqual(estimateTokens(entry, { a: 5 }, true), { tokens: 20, low: 15, high: 35 });
  assert.deepEqual(estimateTokens(entry, { a: 5 }, false), { tokens: 10, low: 5, high: 15 });
});

const weather: SentTool = {
  name: "get_weather",
  description: "Get the weather.",
  inputSchema: {
    type: "object",
    properties: {
      location: { type: "string", description: "City name." },
      unit: { type: "string", enum: ["c", "f"] },
      where: { type: "object", properties: { lat: { type: "number", description: "Lat" } } },
    },
  },
};

/** Tools whose texts hold long member values (counted once wherever they recur) and none. */
const sentSamples: SentTool[] = [
  weather,
  {
    name: "search_issues",
    description: "Searches the issues of a repository by a free-text query — naïve café 😀.",
    inputSchema: {
      type: "object",
      properties: { q: { type: "string", description: "Free-text query, in GitHub's syntax." } },
      required: ["q"],
    },
  },
  { name: "ping", description: "", inputSchema: { type: "object", properties: {} } },
];

Deno.test("openAiFeatures(): the Cookbook's rule, computed by hand with js-tiktoken", () => {
  const [f] = openAiFeatures([weather]);
  const top = 7 + n("get_weather:Get the weather") + 3 +
    (3 + n("location:string:City name")) +
    (3 - 3 + (3 + n("c")) + (3 + n("f")) + n("unit:string:")) +
    (3 + n("where:object:"));
  assert.equal(f.cookbookTop, top);
  assert.equal(f.cookbookNested, 3 + 3 + n("lat:number:Lat"));
});

Deno.test("openAiFeatures(): nested counts every properties block declared, $defs and branches once each", () => {
  // notion-mcp-server's shape: a property is a $ref into $defs, used twice; a oneOf branch
  // declares its own properties; items of items hold an object.
  const [f] = openAiFeatures([{
    name: "move",
    description: "",
    inputSchema: {
      type: "object",
      $defs: {
        page: { type: "object", properties: { page_id: { type: "string", description: "Id." } } },
      },
      properties: {
        from: { $ref: "#/$defs/page" },
        to: { $ref: "#/$defs/page" },
        parent: {
          oneOf: [
            { type: "object", properties: { workspace: { type: "boolean" } } },
            { type: "string" },
          ],
        },
        grid: { type: "array", items: { type: "array", items: { properties: { x: {} } } } },
      },
    },
  }]);
  const top = 7 + n("move:") + 3 + (3 + n("from::")) + (3 + n("to::")) + (3 + n("parent::")) +
    (3 + n("grid:array:"));
  assert.equal(f.cookbookTop, top);
  // $defs' page once (not once per $ref), the oneOf branch, the object two items down
  assert.equal(
    f.cookbookNested,
    3 + 3 + n("page_id:string:Id") + (3 + 3 + n("workspace:boolean:")) + (3 + 3 + n("x::")),
  );
});

Deno.test("openAiFeatures() and geminiFeatures(): json is js-tiktoken's count of the text sent", () => {
  const openai = openAiFeatures(sentSamples);
  const gemini = geminiFeatures(sentSamples);
  sentSamples.forEach((t, i) => {
    assert.equal(openai[i].json, n(JSON.stringify(sentTools([t], "openai-responses"))));
    const decl = (sentTools([t], "gemini")[0].functionDeclarations as unknown[])[0];
    assert.equal(gemini[i].json, n(JSON.stringify(decl)), t.name);
  });
});

Deno.test("anthropicFeatures(): the <functions> layout, its tokens split into classes", () => {
  const tools = [{ name: "add", description: "Add two numbers", inputSchema: { type: "object" } }];
  const { perTool, wrapper } = anthropicFeatures(tools);
  const line = '<function>{"description": "Add two numbers", "name": "add", "parameters": ' +
    '{"type": "object"}}</function>\n';
  const total = n(`<functions>\n${line}</functions>`);
  const sum = (f: Record<string, number>) => f.prose + f.structure + f.nonAscii;
  assert.equal(sum(perTool[0]) + sum(wrapper), total);
  assert.ok(perTool[0].prose >= n(' "Add two numbers"') - 1);
  assert.equal(perTool[0].nonAscii, 0);
  const [cjk] =
    anthropicFeatures([{ name: "a", description: "日本語の説明", inputSchema: {} }]).perTool;
  assert.ok(cjk.nonAscii > 0);
});

Deno.test("calibrationEntry(): Opus 4.7 and later get the new tokenizer's entry", () => {
  const label = (m: string | null) => calibrationEntry(DEFAULT_CALIBRATION, "anthropic", m)?.label;
  assert.equal(label("claude-opus-4-7"), "Claude, Opus 4.7 tokenizer and later");
  assert.equal(label("claude-sonnet-4-5-20250929"), "Claude, tokenizer of Claude 3 to Opus 4.6");
  assert.equal(label(null), "Claude, tokenizer of Claude 3 to Opus 4.6");
  // Every default entry names sources the calibration lists.
  const ids = new Set(DEFAULT_CALIBRATION.sources.map((s) => s.id));
  for (const e of DEFAULT_CALIBRATION.entries) for (const s of e.sources) assert.ok(ids.has(s), s);
});

Deno.test("fitEntry() recovers the coefficients of exact samples; parseCalibration() checks files", () => {
  const samples = [
    [10, 20, 0],
    [40, 5, 3],
    [7, 70, 1],
    [100, 30, 0],
    [0, 12, 9],
    [55, 55, 5],
  ].map(([prose, structure, nonAscii], i) => ({
    tool: `t${i}`,
    tokens: 300 + 1.2 * prose + 1.5 * structure + 2 * nonAscii,
    features: { prose, structure, nonAscii },
  }));
  const { entry, medianAbsError } = fitEntry("anthropic", "claude-x", samples);
  assert.ok(Math.abs(entry.intercept.mid - 300) < 1e-6);
  assert.ok(Math.abs(entry.coefficients.prose.mid - 1.2) < 1e-6);
  assert.ok(Math.abs(entry.coefficients.structure.mid - 1.5) < 1e-6);
  assert.ok(Math.abs(entry.coefficients.nonAscii.mid - 2) < 1e-6);
  assert.ok(medianAbsError < 1e-9);
  assert.equal(entry.models, "^claude-x$");
  assert.throws(() => fitEntry("gemini", "g", samples.slice(0, 2)), /need at least 3/);
  const back = parseCalibration(JSON.stringify(DEFAULT_CALIBRATION));
  assert.deepEqual(back, DEFAULT_CALIBRATION);
  assert.throws(
    () => parseCalibration('{"format":"x"}', "c.json"),
    /c\.json: not a token calibration/,
  );
  // Tokens per feature cannot be negative (the fit clamps them at 0): a file that says so gave
  // "billed -50,164 estimated" as the figure the bench prints first.
  const negative = structuredClone(DEFAULT_CALIBRATION) as unknown as {
    entries: { coefficients: object }[];
  };
  negative.entries[1].coefficients = { prose: { low: 3, mid: -2, high: 1 } };
  assert.throws(
    () => parseCalibration(JSON.stringify(negative), "c.json"),
    /entries\[1\]\.coefficients\.prose is below 0/,
  );
});

/** A tool whose schema nests `depth` object properties: x.x.x... down to a string. */
function nestedTool(depth: number): SentTool {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { x: schema } };
  return { name: "d", description: "", inputSchema: schema as SentTool["inputSchema"] };
}

Deno.test("openAiFeatures() and anthropicFeatures(): a schema 5,000 levels deep, no stack overflow", () => {
  // Both walked the schema recursively and overflowed the call stack (bench exit 1) on valid
  // JSON. Cookbook rule by hand: the top level is 3 + 3 + n("x:object:"); each of the 4,998
  // nested object levels adds the same, and the innermost string property 3 + 3 + n("x:string:").
  const depth = 5000;
  const [f] = openAiFeatures([nestedTool(depth)]);
  assert.equal(f.cookbookTop, 7 + n("d:") + 6 + n("x:object:"));
  assert.equal(f.cookbookNested, (depth - 2) * (6 + n("x:object:")) + 6 + n("x:string:"));
  // Python's json.dumps(sort_keys=True) of the line, built by hand: keys in sorted order.
  let params = '{"type": "string"}';
  for (let i = 0; i < depth; i++) params = `{"properties": {"x": ${params}}, "type": "object"}`;
  const line = `<function>{"description": "", "name": "d", "parameters": ${params}}</function>\n`;
  const { perTool, wrapper } = anthropicFeatures([nestedTool(depth)]);
  const sum = (x: Record<string, number>) => x.prose + x.structure + x.nonAscii;
  assert.equal(sum(perTool[0]) + sum(wrapper), n(`<functions>\n${line}</functions>`));
});
