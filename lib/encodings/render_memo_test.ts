// The per-tool render memo of compact_sig's signature (`perTool` in _private.ts; markdown's
// table is rendered each time, checked here too): a tool rendered again, through the arm or its
// index fields, gives
// what a fresh copy of the tool renders (the plain path: a new object the memo has not seen),
// on every tool of the reference corpus and on the hard cases; and the memo is keyed by the
// tool object, not by its id, so a changed tool of the same id renders its own parameters.
import assert from "node:assert/strict";
import { loadCatalog } from "../catalog/load.ts";
import type { Tool } from "../catalog/types.ts";
import { compactSig } from "./compact_sig.ts";
import { markdown } from "./markdown.ts";
import { hardCases, REFERENCE } from "../../testing/encodings.ts";

const ARMS = [markdown, compactSig];

Deno.test("render memo: a tool rendered again equals a fresh copy rendered once", async () => {
  const corpus = await loadCatalog(REFERENCE.pathname);
  const tools = [...corpus.tools, ...[...hardCases().values()].flat()];
  for (const arm of ARMS) {
    for (const tool of tools) {
      const first = arm.encodeTool(tool);
      const index = arm.indexFields(tool);
      const fresh = structuredClone(tool);
      assert.deepEqual(arm.encodeTool(tool), first, `${arm.name} ${tool.id}`);
      assert.deepEqual(arm.encodeTool(fresh), first, `${arm.name} ${tool.id}`);
      assert.deepEqual(arm.indexFields(tool), index, `${arm.name} ${tool.id}`);
      assert.deepEqual(index, arm.indexFields(structuredClone(tool)), `${arm.name} ${tool.id}`);
    }
  }
});

Deno.test("render memo: keyed by the tool object, so a changed tool of the same id is rendered", () => {
  const before: Tool = {
    id: "s:t",
    server: "s",
    name: "t",
    description: "Reads a file.",
    inputSchema: { properties: { path: { type: "string", description: "Where" } } },
  };
  const after: Tool = {
    ...before,
    inputSchema: { properties: { path: { type: "integer" } }, required: ["path"] },
  };
  for (const tool of [before, after, before]) {
    const wanted = tool === before
      ? { sig: "path?:string", row: "| path | string | no | Where |" }
      : { sig: "path:int", row: "| path | integer | yes |  |" };
    assert.equal(compactSig.indexFields(tool).params, wanted.sig);
    const out = compactSig.encodeTool(tool);
    assert.equal(out.ok && out.text, `t(${wanted.sig})|Reads a file.`);
    const table = markdown.indexFields(tool).params.split("\n");
    assert.equal(table.length, 3);
    assert.equal(table[2], wanted.row);
  }
});
