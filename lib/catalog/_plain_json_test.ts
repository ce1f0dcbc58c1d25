import assert from "node:assert/strict";
import { type JsonNode, jsonNodeCanonical, parseJsonLossless } from "./canonical.ts";
import { nodeCanonical, parseJsonPlain } from "./_plain_json.ts";
import { parseCatalog } from "./parse.ts";
import { CatalogError } from "./errors.ts";

const root = new URL("../../", import.meta.url);

/** Walks both trees together: same kinds, keys in order, values, literals, canonical texts. */
function assertSameTree(plain: JsonNode, lossless: JsonNode, path = "$"): void {
  assert.equal(plain.kind, lossless.kind, path);
  assert.equal(nodeCanonical(plain), jsonNodeCanonical(lossless), path);
  assert.deepEqual(plain.value, lossless.value, path);
  if (plain.kind === "number" && lossless.kind === "number") {
    assert.equal(plain.literal, lossless.literal, path);
  }
  if (plain.kind === "array" && lossless.kind === "array") {
    assert.equal(plain.items.length, lossless.items.length, path);
    plain.items.forEach((item, i) => assertSameTree(item, lossless.items[i], `${path}[${i}]`));
  }
  if (plain.kind === "object" && lossless.kind === "object") {
    assert.deepEqual(plain.members.map((m) => m.key), lossless.members.map((m) => m.key), path);
    plain.members.forEach((m, i) =>
      assertSameTree(m.node, lossless.members[i].node, `${path}.${m.key}`)
    );
  }
}

Deno.test("parseJsonPlain: the fixture catalogs take the fast path and read as the lossless tree", async () => {
  for (
    const file of [
      "fixtures/corpora/reference_v1.tools.json",
      "fixtures/proxies/reference_proxy.tools.json",
      "fixtures/proxies/reference_code.tools.json",
    ]
  ) {
    const text = await Deno.readTextFile(new URL(file, root));
    const plain = parseJsonPlain(text);
    assert.ok(plain !== undefined, `${file}: fast path not taken`);
    assertSameTree(plain, parseJsonLossless(text), file);
  }
});

Deno.test("parseJsonPlain: strings with escaped quotes, colons and backslashes, unicode, __proto__", () => {
  const text = String
    .raw`{"a\"": "x\\", "b": "\":", "c\\\"": [1, -2, 0.5, 1e+21, 5e-7, {"d": "é\u00e9\ud83d\ude00"}],
    "__proto__": {"e": true, "f": null}, "": ""}`;
  const plain = parseJsonPlain(text);
  assert.ok(plain !== undefined);
  assertSameTree(plain, parseJsonLossless(text));
  assert.equal(Object.getPrototypeOf(plain.value), Object.prototype);
  assert.deepEqual(Object.keys(plain.value as object), ['a"', "b", 'c\\"', "__proto__", ""]);
});

Deno.test("parseJsonPlain: undefined where JSON.parse's value would canonicalize otherwise", () => {
  // Each literal is written otherwise by JSON.stringify (by hand: 1, 1000, 0, 0.1, 9007199254740992, null, 100000).
  for (const literal of ["1.0", "1e3", "-0", "0.10", "9007199254740993", "1e400", "1E5"]) {
    assert.equal(parseJsonPlain(`{"a": {"b": [${literal}]}}`), undefined, literal);
  }
  // A repeated key, at the top or nested (JSON.parse would keep the last one).
  assert.equal(parseJsonPlain(`{"a": 1, "a": 2}`), undefined);
  assert.equal(parseJsonPlain(`{"x": [{"k": 1, "j": 2, "k": 3}]}`), undefined);
  // Invalid JSON: the lossless parser gives the positioned error.
  for (const text of [`{"a": 1,}`, `{"a" 1}`, `[1] x`, ""]) {
    assert.equal(parseJsonPlain(text), undefined);
  }
});

Deno.test("parseCatalog: a message quoting a value shows its literal on either path", () => {
  const row = (schema: string) =>
    `{"tools": [{"name": "t", "description": "d", "inputSchema": ${schema}}]}`;
  const message = (text: string) => {
    try {
      parseCatalog(text, { server: "s" });
    } catch (e) {
      assert.ok(e instanceof CatalogError);
      return e.message;
    }
    throw new Error("no error");
  };
  // [1.5] takes the fast path, [1.50] the lossless one.
  assert.ok(
    parseJsonPlain(row("[1.5]")) !== undefined && parseJsonPlain(row("[1.50]")) === undefined,
  );
  assert.match(message(row("[1.5]")), /is not an object \(got array \[1\.5\]\)/);
  assert.match(message(row("[1.50]")), /is not an object \(got array \[1\.50\]\)/);
  // The canonical schema text keeps a literal the fast path cannot write (lossless path).
  const tools = parseCatalog(row(`{"type": "object", "maximum": 1.50}`), { server: "s" }).tools;
  assert.equal(tools[0].inputSchemaCanonical, `{"maximum":1.50,"type":"object"}`);
  const fast = parseCatalog(row(`{"type": "object", "maximum": 1.5}`), { server: "s" }).tools;
  assert.equal(fast[0].inputSchemaCanonical, `{"maximum":1.5,"type":"object"}`);
});
