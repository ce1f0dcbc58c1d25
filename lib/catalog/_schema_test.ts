import assert from "node:assert/strict";
import { cloneJson, walkSchemas } from "./_schema.ts";
import type { JsonObject, JsonValue } from "./types.ts";

Deno.test("cloneJson() copies every value, keeps key order and a member named __proto__", () => {
  const source = JSON.parse(
    '{"b":1,"a":[true,null,{"__proto__":{"x":"y"},"n":-0.5}],"s":"t\\ud800","e":{}}',
  ) as JsonValue;
  const copy = cloneJson(source) as JsonObject;
  assert.equal(JSON.stringify(copy), JSON.stringify(source));
  assert.deepEqual(Object.keys(copy), ["b", "a", "s", "e"]);
  const inner = (copy.a as JsonValue[])[2] as JsonObject;
  assert.equal(Object.getPrototypeOf(inner), Object.prototype);
  assert.ok(Object.hasOwn(inner, "__proto__"));
  // A copy, not a share: changing it leaves the source as it was.
  (inner.n as unknown) = 1;
  assert.equal(((source as JsonObject).a as JsonObject[])[2].n, -0.5);
});

Deno.test("cloneJson() copies 100,000 levels of nesting", () => {
  let value: JsonValue = "leaf";
  for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { k: value };
  let copy = cloneJson(value);
  for (let i = 99_999; i >= 0; i--) {
    assert.notEqual(copy, null);
    copy = i % 2 === 0 ? (copy as JsonValue[])[0] : (copy as JsonObject).k;
  }
  assert.equal(copy, "leaf");
});

Deno.test("walkSchemas() gives each subschema its path, and only subschemas", () => {
  const schema = {
    type: "object",
    properties: {
      items: { type: "array", items: { anyOf: [{ type: "string" }, { type: "a/b~c" }] } },
      x: { $defs: { d: { not: {} } } },
    },
  } as JsonObject;
  const seen: string[] = [];
  walkSchemas(
    schema,
    ({ path, insideItems }) => seen.push(`${path().join(">")}${insideItems ? " (items)" : ""}`),
  );
  assert.deepEqual(seen.sort(), [
    "",
    "properties>items",
    "properties>items>items (items)",
    "properties>items>items>anyOf>0 (items)",
    "properties>items>items>anyOf>1 (items)",
    "properties>x",
    "properties>x>$defs>d",
    "properties>x>$defs>d>not",
  ]);
});
