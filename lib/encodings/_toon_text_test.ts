// toonText writes what the library's `encode` writes, byte for byte, or declines (undefined) where
// the library would normalize or reject the value; the library is the reference throughout.
import assert from "node:assert/strict";
import fc from "fast-check";
import { encode } from "@toon-format/toon";
import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { toonText } from "./_toon_text.ts";

/** The library's text, or its error. */
function library(value: unknown): { text: string } | { error: string } {
  try {
    return { text: encode(value) };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Asserts toonText is the library's text where it answers, and answers on plain JSON. */
function same(value: JsonValue, label = JSON.stringify(value)): void {
  const ours = toonText(value);
  const ref = library(value);
  if (ours === undefined) {
    assert.ok("error" in ref, `declined a value the library encodes: ${label}`);
  } else {
    assert.ok("text" in ref, `answered where the library throws: ${label}`);
    assert.equal(ours, ref.text, label);
  }
}

Deno.test("toonText matches the library on hand-picked shapes", () => {
  const cases: JsonValue[] = [
    {},
    [],
    "",
    "\uFEFFbom",
    "plain",
    0,
    -0,
    1e21,
    1e-7,
    -1.5,
    true,
    null,
    { a: 1, b: "x" },
    { "": 1, "a b": 2, 'q"uote': 3, "back\\slash": 4, "1a": 5, "a.b_c": 6, "-x": 7 },
    { "10": 1, "2": 2, b: 3, "01": 4, "4294967295": 5 },
    { empty: {}, list: [], nested: { deeper: {} } },
    { tags: ["a", "b,c", "", " pad", "true", "12", "1e5", "-x", "#h", "a:b", "[x]", "{y}"] },
    { rows: [{ id: 1, name: "a" }, { id: 2, name: "b" }] },
    { rows: [{ id: 1, name: "a" }, { id: 2 }] },
    { rows: [{ id: 1, o: { x: 1, y: 2 } }, { id: 2, o: { x: 3, y: 4 } }] },
    { rows: [{ id: 1, o: { x: 1 } }, { id: 2, o: { x: [1] } }] },
    { rows: [{}, {}] },
    { rows: [{ a: 1 }, 2, "x", [3, 4], [], {}] },
    { matrix: [[1, 2], [3], []] },
    { deep: [[[1]], [2]] },
    { props: { a: { type: "string" }, b: { type: "number" } } },
    { props: { a: { type: "string" }, b: { type: "number", extra: 1 } } },
    { props: { a: { type: "string" } } },
    { props: { a: { t: { u: 1 } }, b: { t: { u: 2 } } } },
    { props: { a: { t: 1 }, b: {} } },
    [{ first: [{ a: 1 }, { a: 2 }], rest: 1 }],
    [{ first: [{ a: 1 }, { b: 2 }], rest: 1 }],
    [{ first: { k: { v: 1 }, l: { v: 2 } }, rest: { x: 1 } }],
    [{ first: [], rest: 1 }, { first: [1, 2] }, { first: [[1]] }, { first: {} }, {
      first: { x: 1 },
    }],
    [{}, [], [[]], "s", null],
    { a: { b: { c: { d: [{ e: 1 }, { e: 2 }] } } } },
    { text: "line\nbreak\ttab\r\u0001ctl\u001f", emoji: "😀 ok", wide: "日本語:x" },
    { "😀": "key", "é": "k2", "\uFF61": 3 },
    { big: 9007199254740993, neg: -0, tiny: 5e-324, exp: 1.5e300 },
    { a: "null", b: "false", c: "-", d: "- x", e: "x -", f: " ", g: "\t" },
  ];
  for (const value of cases) same(value);
});

Deno.test("toonText declines what the library normalizes or rejects", () => {
  const lone = { a: "x\uD800y" };
  assert.equal(toonText(lone), undefined);
  assert.ok("error" in library(lone));
  assert.equal(toonText({ ["k\uDC00"]: 1 }), undefined);
  assert.equal(toonText(["\uDBFF"]), undefined);
  // A paired surrogate is fine.
  same({ a: "\uD83D\uDE00" });
  const odd: unknown[] = [
    { a: undefined },
    { d: new Date(0) },
    { m: new Map([["a", 1]]) },
    { n: 1n },
    { f: () => 1 },
    [undefined],
    { c: new (class Thing {})() },
  ];
  for (const value of odd) {
    assert.equal(toonText(value as JsonValue), undefined, String(value));
    assert.ok("text" in library(value)); // the library has its own rule for each
  }
  // Non-finite numbers (not JSON, but a JS value may hold them): written as the library does.
  same({ a: Infinity, b: NaN } as unknown as JsonValue, "non-finite");
});

const key = fc.oneof(
  fc.constantFrom("type", "a", "b", "items", "0", "10", "2", "01", "x y", "-", "", 'q"', "é"),
  fc.string({ maxLength: 4 }),
);
const leaf: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom<JsonValue>(null, true, false, 0, -0, 1.5, 1e21, -1e-7, "", "true", "12", "a,b"),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const { node } = fc.letrec<{ node: JsonValue }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 4, depthIdentifier: "json" },
    leaf,
    fc.dictionary(key, tie("node"), { maxKeys: 4 }) as fc.Arbitrary<JsonObject>,
    fc.array(tie("node"), { maxLength: 4 }),
  ),
}));
// Rows of one shape, so tables and keyed tables come up often.
const row = fc.record({ id: leaf, o: fc.record({ x: leaf, y: leaf }) });
const tabular = fc.oneof(
  fc.array(row, { minLength: 1, maxLength: 3 }),
  fc.dictionary(key, row, { minKeys: 2, maxKeys: 3 }),
  fc.record({ first: fc.array(row, { maxLength: 2 }), rest: node }),
  fc.array(fc.record({ first: fc.dictionary(key, row, { maxKeys: 3 }), rest: node })),
);

Deno.test("toonText matches the library on arbitrary JSON values", () => {
  fc.assert(
    fc.property(fc.oneof(node, tabular, fc.jsonValue() as fc.Arbitrary<JsonValue>), (value) => {
      same(value);
    }),
    { seed: 20261202, numRuns: 3000 },
  );
});

Deno.test("toonText writes keys in the order it is given", () => {
  const value = { b: 1, a: { d: 2, c: 3 } };
  const sorted = (obj: JsonObject) => Object.keys(obj).sort();
  assert.equal(toonText(value, sorted), "a:\n  c: 3\n  d: 2\nb: 1");
  assert.equal(toonText(value), "b: 1\na:\n  d: 2\n  c: 3");
});
