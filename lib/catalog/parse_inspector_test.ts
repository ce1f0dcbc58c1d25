// test:quick skips this file: its test starts the MCP Inspector CLI and a real MCP server.
// What `mcp-inspector --cli SERVER --method tools/list` prints, saved as a file, is a catalog:
// the official Inspector (a client nobody on the team wrote) against the reference memory server.
import assert from "node:assert/strict";
import { canonicalJson } from "./canonical.ts";
import { parseCatalog } from "./parse.ts";
import { wireServers } from "../billing/wire.ts";
import type { JsonObject } from "./types.ts";
import { INSPECTOR, installedBin, SERVER_MEMORY } from "../../testing/npm.ts";

Deno.test("the MCP Inspector CLI's tools/list output reads as one server's tools/list result", async (t) => {
  const memory = await installedBin(SERVER_MEMORY);
  const inspector = await installedBin(INSPECTOR, "mcp-inspector");
  if ("skip" in memory || "skip" in inspector) {
    await t.step(
      `skipped: ${"skip" in memory ? memory.skip : (inspector as { skip: string }).skip}`,
      () => {},
    );
    return;
  }
  const home = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command("node", {
      args: [inspector.bin, "--cli", "node", memory.bin, "--method", "tools/list"],
      env: { HOME: home, MEMORY_FILE_PATH: `${home}/memory.jsonl` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    // The expected tools, read from the output by JSON.parse alone.
    const listed = (JSON.parse(text) as { tools: { name: string; inputSchema: JsonObject }[] })
      .tools;
    assert.ok(listed.length > 0);
    const corpus = parseCatalog(text, { path: "captures/memory.json" });
    assert.equal(corpus.provenance.format, "mcp-tools-list");
    assert.deepEqual(
      corpus.tools.map((tool) => [tool.id, tool.inputSchemaCanonical]),
      listed.map((tool) => [`memory:${tool.name}`, canonicalJson(tool.inputSchema)])
        .sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    // The wire layer counts the printed tools array as received, whitespace aside.
    const [wire] = wireServers(text, corpus.provenance.format, "memory");
    assert.deepEqual(
      { order: wire.order, tools: JSON.parse(wire.text) },
      { order: "received", tools: listed },
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
