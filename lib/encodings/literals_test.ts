import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fragileNumberLiterals, literalLoss } from "./literals.ts";
import { measureArms } from "./measure.ts";
import { baselineJson } from "./baseline_json.ts";
import { toonListing } from "./toon_listing.ts";
import { markdown } from "./markdown.ts";
import { minifiedJson } from "./minified_json.ts";
import { parseCatalog } from "../catalog/parse.ts";

Deno.test("fragileNumberLiterals() finds the literals a JS number cannot reproduce", async (t) => {
  await t.step("the three literals of the issue, and the round-tripping ones left alone", () => {
    const text =
      '{"a":0.10,"b":1e400,"c":9007199254740993,"d":5,"e":-2.5,"f":1.0,"g":1E5,"h":-0,"i":0.10}';
    // 0.10 -> 0.1, 1e400 -> null, 9007199254740993 -> 9007199254740992, 1.0 -> 1,
    // 1E5 -> 100000, -0 -> 0; 5 and -2.5 round-trip; 0.10 is listed once.
    assertEquals(fragileNumberLiterals(text), [
      "0.10",
      "1e400",
      "9007199254740993",
      "1.0",
      "1E5",
      "-0",
    ]);
  });
  await t.step("number-looking text inside strings is not a literal", () => {
    assertEquals(fragileNumberLiterals('{"description":"ratio :1.50 [0.10,2.0]","x":3}'), []);
  });
  await t.step("literals inside arrays and nested objects count", () => {
    assertEquals(fragileNumberLiterals('{"enum":[1,2.50],"p":{"q":{"default":1e-7}}}'), ["2.50"]);
  });
});

Deno.test("literalLoss() checks whole number tokens", () => {
  assertEquals(literalLoss(["0.10"], '{"default":0.10}'), undefined);
  assertEquals(literalLoss(["0.10"], "default: 0.1"), "number literals not kept as written: 0.10");
  // 0.100 and 10.10 contain "0.10" but are other numbers.
  assertEquals(
    literalLoss(["0.10"], "a: 0.100, b: 10.10"),
    "number literals not kept as written: 0.10",
  );
  assertEquals(
    literalLoss(["1", "2", "3", "4"], "nothing"),
    "number literals not kept as written: 1, 2, 3, … (4 in all)",
  );
});

Deno.test("measureArms() counts a tool as altered when its arm rewrites a literal", () => {
  // Loaded from text, so inputSchemaCanonical keeps the literals as written.
  const corpus = parseCatalog(
    JSON.stringify({
      tools: [
        {
          name: "set_rate",
          description: "Set a rate",
          inputSchema: {
            type: "object",
            properties: { rate: { type: "number", enum: ["__A__", "__B__"] } },
          },
        },
        { name: "plain", description: "No literals", inputSchema: { type: "object" } },
      ],
    }).replace('"__A__"', "0.10").replace('"__B__"', "9007199254740993"),
    { id: "lit", server: "s" },
  );
  const words = { name: "words", count: (t: string) => t.split(/\s+/).filter(Boolean).length };
  const rows = measureArms({
    corpus,
    arms: [baselineJson, minifiedJson, toonListing, markdown],
    tokenizers: [words],
  });
  const altered = Object.fromEntries(
    rows.map((r) => [r.arm, r.skipped ? undefined : r.alteredTools]),
  );
  const lost = {
    count: 1,
    examples: [{
      toolId: "s:set_rate",
      reason: "number literals not kept as written: 0.10, 9007199254740993",
    }],
  };
  assertEquals(altered, {
    baseline_json: { count: 0, examples: [] },
    minified_json: { count: 0, examples: [] },
    toon_listing: lost,
    markdown: lost,
  });
});

Deno.test("fragileNumberLiterals() reads literals outside strings only, in order, and keeps the lossless parser's errors", async () => {
  const { throws } = await import("node:assert/strict");
  // By hand: 0.10 and 1e400 are fragile, "1.50" and the escaped "x\":1.0" are strings, 5 and -2 round-trip.
  assertEquals(
    fragileNumberLiterals(
      String.raw`{"a":"1.50","b":[0.10,1e400,5],"c":{"d":0.10,"e":"x\":1.0","f":-2}}`,
    ),
    ["0.10", "1e400"],
  );
  assertEquals(fragileNumberLiterals(String.raw`{"k\\":[1.0,"\\",-0]}`), ["1.0", "-0"]);
  // A repeated key or invalid text with a candidate: the lossless parser's SyntaxError.
  throws(() => fragileNumberLiterals(`{"a":1.0,"a":2}`), /Duplicate key "a"/);
  throws(() => fragileNumberLiterals(`{"a":1.0,}`), SyntaxError);
});
