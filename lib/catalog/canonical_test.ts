import assert from "node:assert/strict";
import fc from "fast-check";
import {
  canonicalizeJsonText,
  canonicalJson,
  compareUtf8,
  iterativeCanonicalJson,
  jsonNodeCanonical,
  jsonNodeMember,
  parseJsonLossless,
  schemaText,
} from "./canonical.ts";
import type { JsonValue } from "./types.ts";

// --- number literals: kept exactly as written -------------------------------------------------

Deno.test("canonicalizeJsonText keeps number literals exactly as written", () => {
  // JSON.parse would rewrite each of these: 0.1, 1000, 0, 9007199254740992, 100, 0.
  assert.equal(canonicalizeJsonText("0.10"), "0.10");
  assert.equal(canonicalizeJsonText("1e3"), "1e3");
  assert.equal(canonicalizeJsonText("-0"), "-0");
  assert.equal(canonicalizeJsonText("9007199254740993"), "9007199254740993");
  assert.equal(canonicalizeJsonText("1E+2"), "1E+2");
  assert.equal(canonicalizeJsonText("-0.0e-0"), "-0.0e-0");
  assert.equal(
    canonicalizeJsonText('{"max": 9007199254740993, "step": 0.10, "scale": 1e3}'),
    '{"max":9007199254740993,"scale":1e3,"step":0.10}',
  );
  // Sanity: the plain parser really does lose these (why the lossless parser exists).
  assert.equal(JSON.stringify(JSON.parse("9007199254740993")), "9007199254740992");
  assert.equal(JSON.stringify(JSON.parse("0.10")), "0.1");
});

Deno.test("number nodes carry both the literal and the JS value", () => {
  const n = parseJsonLossless(" 1e3 ");
  assert.equal(n.kind, "number");
  if (n.kind !== "number") return;
  assert.equal(n.literal, "1e3");
  assert.equal(n.value, 1000);
  assert.equal(n.start, 1);
  assert.equal(n.end, 4);
  const z = parseJsonLossless("-0");
  assert.ok(Object.is(z.value, -0));
});

Deno.test("canonicalJson writes parsed numbers as JSON.stringify does", () => {
  assert.equal(canonicalJson(-0), "0");
  assert.equal(canonicalJson(0.1), "0.1");
  assert.equal(canonicalJson(1e21), "1e+21");
  assert.equal(canonicalJson([1.5, -2]), "[1.5,-2]");
});

// --- key order: UTF-8 bytes, not UTF-16 units -------------------------------------------------

Deno.test("keys sort by UTF-8 byte order, not UTF-16 code unit order", () => {
  // U+FF61 is EF BD A1 in UTF-8; U+1F600 is F0 9F 98 80. Bytes: EF < F0, so U+FF61 first.
  // In UTF-16, U+1F600 is D83D DE00, and D83D < FF61, so Array.prototype.sort puts it first.
  const text = '{"\uD83D\uDE00": 1, "\uFF61": 2}';
  assert.equal(canonicalizeJsonText(text), '{"\uFF61":2,"\uD83D\uDE00":1}');
  assert.equal(canonicalJson({ "\uD83D\uDE00": 1, "\uFF61": 2 }), '{"\uFF61":2,"\uD83D\uDE00":1}');
  assert.deepEqual(["\uFF61", "\uD83D\uDE00"].sort(), ["\uD83D\uDE00", "\uFF61"]);
  // CJK (U+4E2D, E4 B8 AD) after ASCII, "é" (C3 A9) between them; "Z" (5A) before "a" (61).
  assert.equal(
    canonicalJson({ "中": 1, "é": 2, a: 3, Z: 4, "": 5 }),
    '{"":5,"Z":4,"a":3,"é":2,"中":1}',
  );
  // A prefix sorts first.
  assert.equal(canonicalJson({ ab: 1, a: 2 }), '{"a":2,"ab":1}');
});

Deno.test("compareUtf8 agrees with comparing TextEncoder bytes (property)", () => {
  const enc = new TextEncoder();
  const byteCompare = (a: string, b: string) => {
    const x = enc.encode(a), y = enc.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] - y[i];
    }
    return x.length - y.length;
  };
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      assert.equal(Math.sign(compareUtf8(a, b)), Math.sign(byteCompare(a, b)));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("keys are sorted at every depth; arrays keep their order", () => {
  const text = `{
    "type": "object",
    "properties": {"zeta": {"type": "string", "enum": ["b", "a"]}, "alpha": {"items": [{"y": 1, "x": 2}]}},
    "required": ["zeta", "alpha"]
  }`;
  assert.equal(
    canonicalizeJsonText(text),
    '{"properties":{"alpha":{"items":[{"x":2,"y":1}]},"zeta":{"enum":["b","a"],"type":"string"}},' +
      '"required":["zeta","alpha"],"type":"object"}',
  );
});

// --- strings ---------------------------------------------------------------------------------

Deno.test("string escapes are normalized the way JSON.stringify writes strings", () => {
  assert.equal(canonicalizeJsonText('"\\u00e9"'), '"é"');
  assert.equal(canonicalizeJsonText('"\\u003c\\u003e\\u0026"'), '"<>&"');
  assert.equal(canonicalizeJsonText('"<b>&amp;</b>"'), '"<b>&amp;</b>"');
  assert.equal(canonicalizeJsonText('"\\/"'), '"/"');
  assert.equal(canonicalizeJsonText('"a\\tb\\nc\\r\\b\\f"'), '"a\\tb\\nc\\r\\b\\f"');
  assert.equal(canonicalizeJsonText('"\\u0001\\u001f"'), '"\\u0001\\u001f"');
  assert.equal(canonicalizeJsonText('"\\"\\\\"'), '"\\"\\\\"');
  // An escaped surrogate pair becomes the raw character; a lone surrogate stays escaped.
  assert.equal(canonicalizeJsonText('"\\ud83d\\ude00"'), '"\uD83D\uDE00"');
  assert.equal(canonicalizeJsonText('"\\ud83d"'), '"\\ud83d"');
  // Escaped keys are decoded before sorting: "\u0062" is "b".
  assert.equal(canonicalizeJsonText('{"\\u0062": 1, "a": 2}'), '{"a":2,"b":1}');
  // U+2028 is written raw, as JSON.stringify does.
  assert.equal(canonicalizeJsonText('"\\u2028"'), '"\u2028"');
});

Deno.test("__proto__ is an ordinary key", () => {
  const root = parseJsonLossless('{"__proto__": {"x": 1}, "a": 2}');
  const value = root.value as Record<string, JsonValue>;
  assert.deepEqual(Object.keys(value), ["__proto__", "a"]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(jsonNodeCanonical(root), '{"__proto__":{"x":1},"a":2}');
});

// --- strictness ------------------------------------------------------------------------------

Deno.test("any non-whitespace after the first value is a SyntaxError quoting the position", () => {
  assert.throws(() => canonicalizeJsonText('{"a":1} x'), {
    name: "SyntaxError",
    message: /Unexpected "x" after the JSON value at line 1 column 9 \(offset 8\)/,
  });
  assert.throws(
    () => canonicalizeJsonText("{}\n{}"),
    /after the JSON value at line 2 column 1 \(offset 3\)/,
  );
  assert.throws(() => canonicalizeJsonText("1 2"), /offset 2/);
  assert.throws(() => canonicalizeJsonText("[1]\u0000"), /U\+0000 after the JSON value/);
  // Trailing JSON whitespace is fine; other whitespace is not.
  assert.equal(canonicalizeJsonText(" \t\r\n[] \t\r\n"), "[]");
  assert.throws(() => canonicalizeJsonText("[]\u00a0"), SyntaxError);
  assert.throws(() => canonicalizeJsonText("\uFEFF[]"), SyntaxError);
});

Deno.test("duplicate keys are rejected, naming the key", () => {
  assert.throws(() => canonicalizeJsonText('{"a": 1, "b": 2, "a": 3}'), {
    name: "SyntaxError",
    message: /Duplicate key "a" in object at line 1 column 18/,
  });
  // Same key after escape decoding.
  assert.throws(() => canonicalizeJsonText('{"a": 1, "\\u0061": 3}'), /Duplicate key "a"/);
  // Same key in different objects is fine.
  assert.equal(canonicalizeJsonText('[{"a":1},{"a":2}]'), '[{"a":1},{"a":2}]');
});

Deno.test("invalid JSON is a SyntaxError", () => {
  const bad = [
    "",
    " ",
    "{",
    "[1,]",
    "[1 2]",
    '{"a" 1}',
    '{"a":1,}',
    "{a:1}",
    "'a'",
    "01",
    "1.",
    ".5",
    "+1",
    "-",
    "1e",
    "0x10",
    "NaN",
    "Infinity",
    "tru",
    "nul",
    '"abc',
    '"\\x"',
    '"\\u12"',
    '"\\u12G4"',
    '"a\nb"',
    '"tab\there"',
    "[",
    "]",
    '{"a":1]',
    "[1}",
  ];
  for (const text of bad) {
    assert.throws(
      () => canonicalizeJsonText(text),
      SyntaxError,
      `should reject ${JSON.stringify(text)}`,
    );
    // Independent oracle: V8's JSON.parse rejects the same texts.
    assert.throws(
      () => JSON.parse(text),
      SyntaxError,
      `JSON.parse accepts ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("error positions name line and column", () => {
  assert.throws(() => canonicalizeJsonText('{\n  "a": tru\n}'), /line 2 column 8 \(offset 9\)/);
  assert.throws(
    () => canonicalizeJsonText('"abc'),
    /Unterminated string starting at line 1 column 1/,
  );
});

Deno.test("deep nesting does not overflow the stack", () => {
  const depth = 20_000;
  const text = "[".repeat(depth) + "]".repeat(depth);
  assert.equal(canonicalizeJsonText(text), text);
  const objText = '{"a":'.repeat(depth) + "0.10" + "}".repeat(depth);
  assert.equal(canonicalizeJsonText(objText), objText);
  const root = parseJsonLossless(objText);
  assert.equal(canonicalJson(root.value), objText.replace("0.10", "0.1"));
});

// --- parsed values and subtrees --------------------------------------------------------------

Deno.test("node values equal JSON.parse and keep source key order", () => {
  const text = '{"z": [1, {"b": true, "a": null}], "y": "s", "x": -1.5e2}';
  const root = parseJsonLossless(text);
  assert.deepEqual(root.value, JSON.parse(text));
  assert.deepEqual(Object.keys(root.value as object), ["z", "y", "x"]);
  const z = jsonNodeMember(root, "z")!;
  assert.equal(text.slice(z.start, z.end), '[1, {"b": true, "a": null}]');
  assert.equal(jsonNodeCanonical(z), '[1,{"a":null,"b":true}]');
  assert.equal(jsonNodeMember(root, "missing"), undefined);
  assert.equal(jsonNodeMember(z, "z"), undefined);
});

/** An independent reference: recursive, sorts with TextEncoder bytes. */
function referenceCanonical(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(referenceCanonical).join(",") + "]";
  if (v !== null && typeof v === "object") {
    const enc = new TextEncoder();
    const keys = Object.keys(v).sort((a, b) => {
      const x = enc.encode(a), y = enc.encode(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    return "{" +
      keys.map((k) =>
        JSON.stringify(k) + ":" + referenceCanonical((v as Record<string, unknown>)[k])
      )
        .join(",") +
      "}";
  }
  return JSON.stringify(v);
}

Deno.test("canonical text matches an independent reference on random JSON (property)", () => {
  fc.assert(
    fc.property(fc.jsonValue({ stringUnit: "binary" }), (value) => {
      const expected = referenceCanonical(value);
      assert.equal(canonicalJson(value as JsonValue), expected);
      // Pretty text in, canonical text out (JSON.stringify writes numbers as JS does).
      assert.equal(canonicalizeJsonText(JSON.stringify(value, null, 2)), expected);
      assert.deepEqual(
        parseJsonLossless(JSON.stringify(value)).value,
        JSON.parse(JSON.stringify(value)),
      );
    }),
    { numRuns: 500 },
  );
});

Deno.test("the recursive writer and the iterative one write the same text (property)", () => {
  // Keys past U+D800 (surrogates, U+E000..U+FFFF) are where UTF-16 and UTF-8 orders part.
  const key = fc.oneof(
    fc.string({ unit: "binary", maxLength: 4 }),
    fc.constantFrom("a", "\uffff", "\ud83d\ude00", "\ue000", "__proto__", "10", "2"),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, true, false, -0, 0.1, 1e21, 5e-324),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: "binary" }),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(key, tie("v"), { maxKeys: 5 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, (v) => {
      const expected = referenceCanonical(v);
      assert.equal(iterativeCanonicalJson(v as JsonValue), expected);
      assert.equal(canonicalJson(v as JsonValue), expected);
    }),
    { numRuns: 1000 },
  );
  // Either side of the recursive writer's depth (256): nested objects and arrays.
  for (const depth of [255, 256, 257, 600]) {
    const text = '{"b":['.repeat(depth) + '{"y":1,"x":2}' + "]}".repeat(depth);
    const want = '{"b":['.repeat(depth) + '{"x":2,"y":1}' + "]}".repeat(depth);
    assert.equal(canonicalJson(JSON.parse(text)), want);
  }
});

Deno.test("values already in canonical order take JSON.stringify and give the same text (property)", () => {
  // Objects built with their keys in ascending code unit order (what a catalog mcpmeter wrote
  // holds), with and without keys past U+D800 and integer-like keys (enumerated first by JS).
  const key = fc.oneof(
    fc.string({ unit: "binary", maxLength: 4 }),
    fc.constantFrom("a", "b", "type", "\uffff", "\ud83d\ude00", "\ue000", "__proto__", "10", "2"),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, true, false, -0, 0.1, 1e21, 5e-324),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: "binary" }),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.array(fc.tuple(key, tie("v")), { maxLength: 5 }).map((entries) => {
        const sorted = [...new Map(entries)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        const out: Record<string, unknown> = {};
        for (const [k, x] of sorted) {
          Object.defineProperty(out, k, {
            value: x,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return out;
      }),
    ),
  })).v;
  fc.assert(
    fc.property(value, (v) => {
      assert.equal(canonicalJson(v as JsonValue), iterativeCanonicalJson(v as JsonValue));
    }),
    { numRuns: 1000 },
  );
  // In order, out of order, integer-like keys, a key past U+D800, a null-prototype object.
  const bare = Object.assign(Object.create(null), { a: 1, b: [-0, "\ud800"] });
  for (
    const v of [
      { a: { c: 1, d: [true, null] }, b: "x" },
      { type: "object", properties: {} },
      { "10": 1, "2": 2, a: 3 },
      { a: 1, "\ud83d\ude00": 2, "\uffff": 3 },
      bare,
    ]
  ) assert.equal(canonicalJson(v as JsonValue), iterativeCanonicalJson(v as JsonValue));
  assert.equal(canonicalJson(bare), '{"a":1,"b":[0,"\\ud800"]}');
  // Out of order or past the depth: still refused where the writers refuse.
  assert.throws(() => canonicalJson({ a: 1, b: undefined } as unknown as JsonValue), /key "b"/);
  assert.throws(() => canonicalJson({ a: [1, NaN] } as unknown as JsonValue), /NaN/);
});

Deno.test("canonicalJson rejects values JSON cannot represent", () => {
  assert.throws(() => canonicalJson(NaN), { name: "TypeError", message: /NaN/ });
  assert.throws(() => canonicalJson([Infinity]), TypeError);
  assert.throws(() => canonicalJson(undefined as unknown as JsonValue), TypeError);
  assert.throws(() => canonicalJson({ a: undefined } as unknown as JsonValue), /key "a"/);
  assert.throws(() => canonicalJson(new Date(0) as unknown as JsonValue), /Date/);
  assert.throws(() => canonicalJson(1n as unknown as JsonValue), TypeError);
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.throws(() => canonicalJson(loop as JsonValue), /circular/);
  assert.throws(() => canonicalJson([{ a: [loop] }] as JsonValue), /circular/);
  assert.throws(() => canonicalJson([1, [2, undefined]] as unknown as JsonValue), TypeError);
  assert.throws(() => canonicalJson({ a: { f: () => 1 } } as unknown as JsonValue), /function/);
  // Shared (non-circular) references are fine.
  const shared = { a: 1 };
  assert.equal(canonicalJson({ x: shared, y: [shared] }), '{"x":{"a":1},"y":[{"a":1}]}');
  assert.equal(canonicalJson(Object.create(null)), "{}");
});

Deno.test("schemaText prefers the loader's canonical text, else canonicalizes, else undefined", () => {
  const base = { id: "s:t", server: "s", name: "t", description: "" };
  assert.equal(schemaText(base), undefined);
  assert.equal(schemaText({ ...base, inputSchema: { b: 1, a: 0.5 } }), '{"a":0.5,"b":1}');
  assert.equal(
    schemaText({ ...base, inputSchema: { a: 0.1 }, inputSchemaCanonical: '{"a":0.10}' }),
    '{"a":0.10}',
  );
});
