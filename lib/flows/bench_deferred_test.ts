import assert from "node:assert/strict";
import { meanRetrieveTokens, measureDeferred } from "./bench_deferred.ts";
import { loadCatalog } from "../catalog/load.ts";
import type { Tool } from "../catalog/types.ts";
import { retrieveResponseText } from "../proxy/responses.ts";
import { createDefaultTokenizer } from "../tokens/default_tokenizer.ts";

Deno.test("meanRetrieveTokens: the tokenizers' counts of each whole response, averaged", () => {
  const schema = {
    properties: { path: { description: "File path.", type: "string" } },
    type: "object",
  };
  const tools: Tool[] = [
    ["fs", "read", 'Read a file\'s text: UTF-8, 10 MB at most, "quoted".'],
    ["fs", "write", "Write text to a file, creating it and its folders when missing."],
    ["web", "fetch", "Fetch a page and return its text, links kept as Markdown."],
  ].map(([server, name, description]) => ({
    id: `${server}:${name}`,
    server,
    name,
    description,
    inputSchema: schema,
  }));
  const tokenizers = [createDefaultTokenizer("cl100k_base"), createDefaultTokenizer("o200k_base")];
  // Two per response: [read, write] and [fetch, read] (the last wraps to the start).
  const byId = new Map(tools.map((t) => [t.id, t]));
  const texts = [[0, 1], [2, 0]].map((ids) =>
    retrieveResponseText(
      ids.map((i) => ({ id: tools[i].id, score: 1 })),
      (id) => byId.get(id),
      "full",
    )
  );
  assert.deepEqual(
    meanRetrieveTokens(tools, 2, tokenizers),
    tokenizers.map((tok) => (tok.count(texts[0]) + tok.count(texts[1])) / 2),
  );
  assert.deepEqual(meanRetrieveTokens([], 2, tokenizers), [0, 0]);
});

Deno.test("measureDeferred: Claude Code loads the instructions a capture keeps, however the key is written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tool = (name: string) => ({
      name,
      description: `${name} it.`,
      inputSchema: { type: "object" },
    });
    const server = (name: string, extra: string) =>
      `{"server": "${name}", "toolCount": 1, "tools": [${
        JSON.stringify(tool(`${name}_get`))
      }]${extra}}`;
    const capture = (servers: string[]) =>
      `{"format": "mcpmeter-capture", "formatVersion": 1, "id": "c", "version": "1", "source": {}, "serverCount": ${servers.length}, "toolCount": ${servers.length}, "servers": [${
        servers.join(", ")
      }]}`;
    const tokenizer = createDefaultTokenizer("o200k_base");
    const instructionsOf = async (text: string) => {
      const file = `${dir}/capture.json`;
      await Deno.writeTextFile(file, text);
      const corpus = await loadCatalog(file);
      const out = await measureDeferred([{ corpus, file }], corpus.tools, [tokenizer], 1, () => {});
      return out.deferredModes.find((r) => r.mode === "client_deferred")!.start.instructions;
    };
    const both = tokenizer.count("Files here.\nPages there.");
    assert.equal(
      await instructionsOf(capture([
        server("fs", ', "instructions" : "Files here."'),
        server("web", ', "instructions":"Pages there."'),
      ])),
      both,
    );
    assert.equal(
      await instructionsOf(capture([
        server("fs", ', "instruction\\u0073": "Files here."'),
        server("web", ', "\\u0069nstructions": "Pages there."'),
      ])),
      both,
    );
    // A schema property named instructions is not a server's.
    assert.equal(
      await instructionsOf(
        capture([server("fs", ""), server("web", ', "x": {"instructions": {}}')]),
      ),
      0,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("measureDeferred: servers with no instructions in a capture that records them are not called uncounted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const capture = (source: string) =>
      `{"format": "mcpmeter-capture", "formatVersion": 1, "id": "c", "version": "1", "source": ${source}, "serverCount": 2, "toolCount": 2, "servers": [` +
      `{"server": "fs", "toolCount": 1, "tools": [{"name": "read", "description": "Read.", "inputSchema": {"type": "object"}}], "instructions": "Files here."}, ` +
      `{"server": "web", "toolCount": 1, "tools": [{"name": "get", "description": "Get.", "inputSchema": {"type": "object"}}]}]}`;
    const notCounted = async (text: string) => {
      const file = `${dir}/capture.json`;
      await Deno.writeTextFile(file, text);
      const corpus = await loadCatalog(file);
      const tokenizer = createDefaultTokenizer("o200k_base");
      const out = await measureDeferred([{ corpus, file }], corpus.tools, [tokenizer], 1, () => {});
      return out.deferredModes.find((r) => r.mode === "client_deferred")!.notCounted
        .filter((n) => n.includes("instructions of"));
    };
    // A file made before instructions were kept: web's may exist and is said to be left out.
    assert.deepEqual(await notCounted(capture("{}")), [
      "the instructions of 1 of 2 servers (not in the corpus file; a capture keeps them)",
    ]);
    // A file that records them: web sent none, so nothing is left out.
    assert.deepEqual(await notCounted(capture('{"instructionsRecorded": true}')), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
