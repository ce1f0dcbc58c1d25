import assert from "node:assert/strict";
import { stableJson } from "./json.ts";

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
