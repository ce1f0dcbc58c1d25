import assert from "node:assert/strict";
import { jsonText, stableJson } from "./json.ts";

Deno.test("stableJson() sorts keys at every depth, drops undefined, rounds only when asked", () => {
  const value = { z: { y: 2, x: [{ b: 0.123456789, a: -0.000001 }] }, a: null, u: undefined };
  assert.equal(
    stableJson(value, { decimals: 5 }),
    '{\n  "a": null,\n  "z": {\n    "x": [\n      {\n        "a": 0,\n        "b": 0.12346\n      }\n    ],\n    "y": 2\n  }\n}\n',
  );
  assert.equal(
    stableJson(value, { indent: 0 }),
    '{"a":null,"z":{"x":[{"a":-0.000001,"b":0.123456789}],"y":2}}',
  );
});

Deno.test("stableJson() rejects NaN and Infinity with the path", () => {
  assert.throws(
    () => stableJson({ rows: [{ v: NaN }] }),
    /\$\.rows\[0\]\.v is not a finite number/,
  );
  assert.throws(() => stableJson([Infinity], { indent: 0 }), RangeError);
});

Deno.test("stableJson() gives the same bytes whatever the insertion order", () => {
  assert.equal(stableJson({ a: 1, b: { c: 2, d: 3 } }), stableJson({ b: { d: 3, c: 2 }, a: 1 }));
});

Deno.test("stableJson() keeps a __proto__ key as an ordinary member", () => {
  const value = JSON.parse('{"__proto__": {"type": "string"}, "a": 1}');
  assert.equal(stableJson(value, { indent: 0 }), '{"__proto__":{"type":"string"},"a":1}');
});

Deno.test("jsonText() writes what JSON.stringify writes, at a depth where V8's own writer overflows", () => {
  // V8 writes an object held in dictionary mode (one a `delete` touched) recursively: at 3,000
  // levels JSON.stringify threw "Maximum call stack size exceeded", and the audit of a Gemini
  // CLI config holding such a captured schema stopped. The text is built here by hand.
  const depth = 5000;
  let value: Record<string, unknown> = { type: "string", gone: undefined, list: [1, undefined] };
  for (let i = 0; i < depth; i++) {
    const o: Record<string, unknown> = {
      type: "object",
      d: 'tab\t"q"',
      properties: { x: value },
      tmp: 1,
    };
    delete o.tmp;
    value = o;
  }
  assert.throws(() => JSON.stringify(value), RangeError);
  assert.equal(
    jsonText(value),
    `${'{"type":"object","d":"tab\\t\\"q\\"","properties":{"x":'.repeat(depth)}` +
      `{"type":"string","list":[1,null]}${"}}".repeat(depth)}`,
  );
  // Where JSON.stringify answers, its text.
  const shallow = { a: [1, "b", null, true, undefined], c: undefined, d: { e: -0, f: 1e21 } };
  assert.equal(jsonText(shallow), JSON.stringify(shallow));
});

Deno.test("stableJson() writes a value nested 10,000 levels, indented or not", () => {
  // Indented, JSON.stringify writes recursively whatever the objects: a capture file of a server
  // whose schema nested 3,000 levels was never written ("Maximum call stack size exceeded").
  const depth = 10_000;
  const value = JSON.parse(
    `${'{"n": '.repeat(depth)}{"b": 1, "a": {}, "c": []}${"}".repeat(depth)}`,
  );
  assert.throws(() => JSON.stringify(value, null, 2), RangeError);
  const pad = (n: number) => " ".repeat(2 * n);
  const lines = ["{"];
  for (let i = 1; i <= depth; i++) lines.push(`${pad(i)}"n": {`);
  lines.push(`${pad(depth + 1)}"a": {},`, `${pad(depth + 1)}"b": 1,`, `${pad(depth + 1)}"c": []`);
  for (let i = depth; i >= 0; i--) lines.push(`${pad(i)}}`);
  assert.equal(stableJson(value), `${lines.join("\n")}\n`);
  assert.equal(
    stableJson(value, { indent: 0 }),
    `${'{"n":'.repeat(depth)}{"a":{},"b":1,"c":[]}${"}".repeat(depth)}`,
  );
  // Where JSON.stringify answers, its text, indented too.
  const shallow = { z: [1, { y: undefined, x: [] }], a: {}, "__proto__": 2 };
  const own = JSON.parse('{"z": [1, {"x": []}], "a": {}, "__proto__": 2}');
  assert.equal(
    stableJson(own),
    '{\n  "__proto__": 2,\n  "a": {},\n  "z": [\n    1,\n    {\n      "x": []\n    }\n  ]\n}\n',
  );
  assert.equal(jsonText(shallow, 2), JSON.stringify(shallow, null, 2));
});
