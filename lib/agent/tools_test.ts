import assert from "node:assert/strict";
import { exposeTools, toolHashes } from "./tools.ts";

const LONG = "notes.search_every_note_in_the_workspace_by_keyword_and_return_the_matching_lines";

Deno.test("exposeTools() renames a dotted name and a name over 64 characters, recording both", () => {
  const tools = exposeTools([
    {
      server: "fs",
      item: {
        name: "fs.read",
        description: "Read",
        inputSchema: { type: "object", properties: {} },
      },
    },
    { server: "notes", item: { name: LONG, description: "Search" } },
  ], "anthropic");
  assert.deepEqual(tools.map((t) => [t.spec.name, `${t.server}:${t.tool}`]), [
    ["fs_read", "fs:fs.read"],
    // First 55 characters (dot replaced), "_", FNV-1a 32 of the original name (computed with
    // an independent Python implementation: 0x060b6840).
    ["notes_search_every_note_in_the_workspace_by_keyword_and_060b6840", `notes:${LONG}`],
  ]);
  assert.equal(tools[1].spec.name.length, 64);
  assert.deepEqual(tools[0].changes, [{
    kind: "rename",
    path: "#",
    detail: 'name "fs.read" exposed as "fs_read" (outside ^[a-zA-Z0-9_-]{1,64}$)',
    lossy: false,
  }]);
  // No inputSchema: renamed, then given an empty object schema.
  assert.deepEqual(tools[1].changes?.map((c) => c.kind), ["rename", "add-schema"]);
  assert.deepEqual(tools[1].spec.inputSchema, { type: "object", properties: {} });
});

Deno.test("exposeTools() keeps valid names, never lets a rename take one, and separates duplicates", () => {
  const tools = exposeTools([
    { server: "a", item: { name: "get.item", inputSchema: { type: "object" } } },
    { server: "a", item: { name: "get_item", inputSchema: { type: "object" } } },
    { server: "b", item: { name: "get_item", inputSchema: { type: "object" } } },
  ], "anthropic");
  // "get_item" is valid and reserved for a:get_item; "get.item" becomes "get_item_2";
  // b's duplicate becomes "b_get_item".
  assert.deepEqual(tools.map((t) => t.spec.name), ["get_item_2", "get_item", "b_get_item"]);
  assert.equal(tools[1].changes, undefined);
  assert.match(tools[2].changes![0].detail, /an earlier server uses the same name/);
});

Deno.test("exposeTools() applies normalizeForProvider per provider", () => {
  const listed = [{
    server: "s",
    item: { name: "t", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } },
  }];
  // Both providers get "type": "object"; only OpenAI also needs "properties".
  assert.deepEqual(exposeTools(listed, "anthropic")[0].changes?.map((c) => c.kind), [
    "add-type-object",
  ]);
  const openai = exposeTools(listed, "openai")[0];
  assert.deepEqual(openai.changes?.map((c) => c.kind), ["add-type-object", "add-properties"]);
  assert.deepEqual(openai.spec.inputSchema, {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {},
  });
  // The listed item is not modified.
  assert.deepEqual(listed[0].item.inputSchema, {
    $schema: "http://json-schema.org/draft-07/schema#",
  });
});

Deno.test("toolHashes() changes only for the tool whose definition changed", async () => {
  const { createHash } = await import("node:crypto");
  const listed = (description: string) =>
    exposeTools([
      {
        server: "fs",
        item: { name: "read", description: "Read", inputSchema: { type: "object" } },
      },
      { server: "fs", item: { name: "write", description, inputSchema: { type: "object" } } },
    ], "anthropic");
  const before = await toolHashes(listed("Write a file"));
  const after = await toolHashes(listed("Write a file, replacing it"));
  assert.deepEqual(Object.keys(before), ["read", "write"]);
  assert.equal(before.read, after.read);
  assert.notEqual(before.write, after.write);
  // Independent digest: node:crypto over the same sorted-key JSON of the exposed tool.
  const [read] = listed("x");
  const sortDeep = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortDeep) : v && typeof v === "object"
      ? Object.fromEntries(
        Object.keys(v).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
      )
      : v;
  assert.equal(
    before.read,
    createHash("sha256").update(JSON.stringify(sortDeep(read))).digest("hex"),
  );
});
