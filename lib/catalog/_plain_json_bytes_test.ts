import assert from "node:assert/strict";
import { parseJsonPlainBytes } from "./_plain_json_bytes.ts";
import { loadCatalog } from "./load.ts";
import { parseCatalog, parseCatalogValue } from "./parse.ts";

const root = new URL("../../", import.meta.url);
const encode = (text: string) => new TextEncoder().encode(text);

/** Same value as JSON.parse, keys in the same order at every level (stringify keeps the order). */
function assertSameParse(text: string, chunkBytes?: number): void {
  const got = parseJsonPlainBytes(encode(text), chunkBytes);
  const want = JSON.parse(text);
  assert.deepStrictEqual(got, want, `chunk ${chunkBytes}: ${text.slice(0, 60)}`);
  assert.equal(JSON.stringify(got), JSON.stringify(want), `key order, chunk ${chunkBytes}`);
}

const FILES = [
  "fixtures/corpora/reference_v1.tools.json",
  "fixtures/proxies/reference_proxy.tools.json",
  "fixtures/proxies/reference_code.tools.json",
];

Deno.test("parseJsonPlainBytes: the fixture catalogs, whole, split at every level and in between", async () => {
  for (const file of FILES) {
    const text = await Deno.readTextFile(new URL(file, root));
    // 64: nearly every container split; 4096: servers or tools whole; default: all whole.
    for (const chunk of [64, 4096, undefined]) assertSameParse(text, chunk);
  }
});

Deno.test("parseJsonPlainBytes: escapes, brackets in strings, __proto__, integer-like keys, whitespace, BOM", () => {
  const text = String.raw` {
    "a\"": "x\\", "b": "\":[{", "c\\\"": [1, -2, 0.5, 1e+21, 5e-7, {"d": "é\u00e9\ud83d\ude00"}],
    "__proto__": {"e": true, "f": null, "__proto__": [ ]}, "": "",
    "2": [[], {}, [[]], ""], "1": "one", "k": "ü ] } ,", "0": {"10": 1, "9": 2, "z": 3}
  } `;
  for (const chunk of [0, 1, 8, 64, undefined]) assertSameParse(text, chunk);
  const got = parseJsonPlainBytes(encode(text), 0) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(got), Object.prototype);
  assert.ok(Object.hasOwn(got, "__proto__"));
  assert.deepEqual(Object.keys(got), ["0", "1", "2", 'a"', "b", 'c\\"', "__proto__", "", "k"]);
  // A byte order mark before the value is skipped, as TextDecoder skips it.
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(text)]);
  assert.deepStrictEqual(parseJsonPlainBytes(bom, 0), JSON.parse(text));
  for (const scalar of ["1", '"s"', "null", "true", " [ ] ", "{}"]) assertSameParse(scalar, 0);
});

Deno.test("parseJsonPlainBytes: undefined on invalid JSON, at a split level or inside a piece", () => {
  const bad = [
    `{"a": 1,}`,
    `[1, 2,]`,
    `{"a" 1}`,
    `{"a": 1 "b": 2}`,
    `[1 2]`,
    `{"a": [1, 2}`,
    `{"a": "x}`,
    `{"a": tru}`,
    `{"a": 1} x`,
    `{a: 1}`,
    `[,1]`,
    `{"a": "line\nbreak"}`,
    ``,
    `   `,
  ];
  for (const text of bad) {
    assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse accepts ${text}`);
    for (const chunk of [0, undefined]) {
      assert.equal(parseJsonPlainBytes(encode(text), chunk), undefined, `${chunk}: ${text}`);
    }
  }
});

Deno.test("parseJsonPlainBytes: undefined where the whole-text path would go lossless (literals, repeated keys)", () => {
  // Each literal is written otherwise by JSON.stringify (by hand: 1, 1000, 0, 0.1, 2^53, null, 100000).
  for (const literal of ["1.0", "1e3", "-0", "0.10", "9007199254740993", "1e400", "1E5"]) {
    for (const chunk of [0, undefined]) {
      const text = `{"a": {"b": [${literal}]}, "c": [2]}`;
      assert.equal(parseJsonPlainBytes(encode(text), chunk), undefined, `${chunk}: ${literal}`);
    }
  }
  for (const text of [`{"a": 1, "a": 2}`, `{"x": [{"a": 1, "b": {}, "a": 2}]}`]) {
    for (const chunk of [0, undefined]) {
      assert.equal(parseJsonPlainBytes(encode(text), chunk), undefined, `${chunk}: ${text}`);
    }
  }
});

Deno.test("parseJsonPlainBytes: an integer literal is taken exactly when JSON.stringify writes it back the same", () => {
  const integers = [
    "0",
    "-0",
    "7",
    "-7",
    "100",
    "999999999999999",
    "-999999999999999",
    "1000000000000000",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "12345678901234567890",
    "100000000000000000000000",
  ];
  for (const literal of integers) {
    const text = `{"a": [${literal}, {"b": ${literal}}]}`;
    const same = JSON.stringify(Number(literal)) === literal;
    for (const chunk of [0, undefined]) {
      const got = parseJsonPlainBytes(encode(text), chunk);
      if (same) assert.deepStrictEqual(got, JSON.parse(text), `${chunk}: ${literal}`);
      else assert.equal(got, undefined, `${chunk}: ${literal}`);
    }
  }
});

Deno.test("parseJsonPlainBytes: undefined on invalid UTF-8, in a string or between tokens", () => {
  const inString = new Uint8Array([...encode(`{"a": "x`), 0xff, ...encode(`"}`)]);
  const truncated = new Uint8Array([...encode(`{"a": "x`), 0xc3, ...encode(`"}`)]);
  const between = new Uint8Array([...encode(`{"a": 1,`), 0xc3, 0xa9, ...encode(`"b": 2}`)]);
  for (const bytes of [inString, truncated, between]) {
    for (const chunk of [0, undefined]) assert.equal(parseJsonPlainBytes(bytes, chunk), undefined);
  }
});

Deno.test("loadCatalog and parseCatalogValue of the pieces: the same corpus as parseCatalog of the text, lossless too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fragile = JSON.stringify({
      tools: [{ name: "t", description: "d", inputSchema: { type: "object", maximum: 1 } }],
    }).replace('"maximum":1', '"maximum":1.0');
    await Deno.writeTextFile(`${dir}/fragile.json`, fragile);
    for (const path of [...FILES.map((f) => new URL(f, root).pathname), `${dir}/fragile.json`]) {
      const text = await Deno.readTextFile(path);
      const loaded = await loadCatalog(path);
      const { sha256, ...provenance } = loaded.provenance;
      assert.match(sha256 ?? "", /^[0-9a-f]{64}$/);
      assert.deepStrictEqual({ ...loaded, provenance }, parseCatalog(text, { path }), path);
      assert.deepEqual(
        loaded.tools.map((t) => t.inputSchemaCanonical),
        parseCatalog(text, { path }).tools.map((t) => t.inputSchemaCanonical),
      );
      // The piece path itself (loadCatalog takes it from PIECES_MIN_BYTES up), split or not.
      for (const chunk of [4096, undefined]) {
        const value = parseJsonPlainBytes(await Deno.readFile(path), chunk);
        if (path.endsWith("fragile.json")) assert.equal(value, undefined);
        else {assert.deepStrictEqual(
            parseCatalogValue(value!, { path }),
            parseCatalog(text, { path }),
          );}
      }
    }
    // The literal as written: only the lossless path keeps it.
    const corpus = await loadCatalog(`${dir}/fragile.json`);
    assert.equal(corpus.tools[0].inputSchemaCanonical, '{"maximum":1.0,"type":"object"}');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
