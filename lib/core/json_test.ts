import assert from "node:assert/strict";
import { sortKeysDeep } from "./json.ts";

Deno.test("sortKeysDeep() sorts keys at every depth, drops undefined, maps numbers with their path", () => {
  const seen: string[] = [];
  const out = sortKeysDeep({ b: [{ y: 1, x: 2.5 }], a: undefined, c: "s" }, (n, path) => {
    seen.push(path());
    return n * 2;
  });
  assert.equal(JSON.stringify(out), '{"b":[{"x":5,"y":2}],"c":"s"}');
  assert.deepEqual(seen, ["$.b[0].x", "$.b[0].y"]);
});

Deno.test("sortKeysDeep() keeps a __proto__ key as an ordinary member", () => {
  const value = JSON.parse('{"__proto__": {"type": "string"}, "a": 1}');
  assert.equal(
    JSON.stringify(sortKeysDeep(value, (n) => n)),
    '{"__proto__":{"type":"string"},"a":1}',
  );
});
