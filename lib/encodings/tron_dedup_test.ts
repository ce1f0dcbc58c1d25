import assert from "node:assert/strict";
import { measureArms } from "./measure.ts";
import { createTronDedupArm, SchemaClassCollisionError, tronDedup } from "./tron_dedup.ts";
import { toTool, words } from "../../testing/encodings.ts";

// Class names below come from `printf '%s' SCHEMA | sha256sum | cut -c1-8`.
const PATH_SCHEMA = '{"properties":{"path":{"type":"string"}},"type":"object"}'; // 53582d9d
const OBJECT_SCHEMA = '{"type":"object"}'; // a2c79926

Deno.test("tron_dedup declares each distinct schema once, in first-appearance order", () => {
  const tools = [
    toTool({
      server: "fs",
      name: "read",
      description: "Read a file",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    }),
    toTool({ server: "fs", name: "ping", description: "Ping", inputSchema: { type: "object" } }),
    toTool({
      server: "fs",
      name: "write",
      description: "Write a file",
      inputSchema: { properties: { path: { type: "string" } }, type: "object" },
    }),
    toTool({ server: "fs", name: "bare", description: "No schema" }),
  ];
  const listing = tronDedup.encodeListing(tools);
  assert.equal(
    listing.text,
    `class C53582d9d = ${PATH_SCHEMA}\nclass Ca2c79926 = ${OBJECT_SCHEMA}\n\n` +
      "read|Read a file|C53582d9d\n\nping|Ping|Ca2c79926\n\nwrite|Write a file|C53582d9d\n\n" +
      "bare|No schema",
  );
  assert.deepEqual(listing.encodedIds, ["fs:read", "fs:ping", "fs:write", "fs:bare"]);
});

Deno.test("tron_dedup encodeTool inlines the canonical schema", () => {
  const tool = toTool({
    server: "fs",
    name: "read",
    description: "Read",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  });
  assert.deepEqual(tronDedup.encodeTool(tool), { ok: true, text: `read|Read|${PATH_SCHEMA}` });
  assert.deepEqual(tronDedup.encodeTool(toTool({ server: "s", name: "n", description: "d" })), {
    ok: true,
    text: "n|d",
  });
});

Deno.test("tron_dedup has no preamble when no tool has a schema", () => {
  const tools = [
    toTool({ server: "s", name: "a", description: "A" }),
    toTool({ server: "s", name: "b", description: "B" }),
  ];
  assert.equal(tronDedup.encodeListing(tools).text, "a|A\n\nb|B");
  assert.equal(tronDedup.encodeListing([]).text, "");
});

Deno.test("tron_dedup throws SchemaClassCollisionError when two schemas share a class name", () => {
  const weak = createTronDedupArm({ className: () => "Cdeadbeef" });
  const a = toTool({ server: "s", name: "a", inputSchema: { type: "object" } });
  const b = toTool({ server: "s", name: "b", inputSchema: { type: "string" } });
  const a2 = toTool({ server: "s", name: "a2", inputSchema: { type: "object" } });
  assert.equal(weak.encodeListing([a, a2]).text.split("class ").length, 2);
  assert.throws(
    () => weak.encodeListing([a, a2, b]),
    (e: unknown) =>
      e instanceof SchemaClassCollisionError && e.className === "Cdeadbeef" &&
      e.toolIds[0] === "s:a" && e.toolIds[1] === "s:b",
  );
  const rows = measureArms({
    corpus: { id: "c", tools: [a, b] },
    arms: [weak],
    tokenizers: [words],
  });
  assert.equal(rows.length, 1);
  assert.ok(rows[0].skipped);
  assert.match(rows[0].reason, /^encodeListing failed: SchemaClassCollisionError: .*"Cdeadbeef"/);
});
