import assert from "node:assert/strict";
import { loadCatalog } from "./load.ts";
import { parseCatalog } from "./parse.ts";
import { planSynthCatalog, synthCatalogDocument, synthServers } from "./synth.ts";

const REFERENCE = new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url);

const small = parseCatalog(
  JSON.stringify({
    format: "mcpmeter-capture",
    formatVersion: 1,
    id: "tiny",
    version: "1",
    serverCount: 2,
    toolCount: 3,
    servers: [
      {
        server: "fs",
        toolCount: 2,
        tools: [
          {
            name: "read_file",
            description: "Read the complete contents of a file from disk.",
            inputSchema: {
              type: "object",
              properties: { path: { type: "string", description: "Path of the file" } },
              required: ["path"],
            },
          },
          { name: "listDirectory", description: "List every entry of a directory." },
        ],
      },
      {
        server: "web",
        toolCount: 1,
        tools: [{
          name: "fetch_url",
          description: "Fetch a web page and return its text content.",
        }],
      },
    ],
  }),
);

Deno.test("synthServers() yields exactly the tools asked for, reference first", () => {
  for (const tools of [1, 2, 3, 4, 7, 20]) {
    const servers = [...synthServers(small, { tools, seed: 5 })];
    assert.equal(servers.reduce((n, s) => n + s.toolCount, 0), tools);
    for (const s of servers) assert.equal(s.tools.length, s.toolCount);
  }
  // 3 tools = both reference servers verbatim (2 + 1), nothing synthetic.
  const three = [...synthServers(small, { tools: 3, seed: 5 })];
  assert.deepEqual(three.map((s) => s.server), ["fs", "web"]);
  assert.equal(
    three[0].tools.find((t) => t.name === "read_file")?.description,
    "Read the complete contents of a file from disk.",
  );
  // 5 tools: the 3 reference tools, then 2 synthetic ones in synth-* servers.
  const five = [...synthServers(small, { tools: 5, seed: 5 })];
  assert.deepEqual(five.slice(0, 2).map((s) => s.server), ["fs", "web"]);
  assert.ok(five.slice(2).every((s) => s.server.startsWith("synth-")));
  // Without the reference, every server is synthetic.
  const none = [...synthServers(small, { tools: 4, seed: 5, includeReference: false })];
  assert.ok(none.every((s) => s.server.startsWith("synth-")));
});

Deno.test("synthServers() keeps each template's shape and lengths, not its words", () => {
  const servers = [...synthServers(small, { tools: 60, seed: 11, includeReference: false })];
  let changed = 0;
  for (const s of servers) {
    const origin = s.server.replace(/^synth-\d+-/, "");
    const source = small.tools.filter((t) => t.server === origin);
    assert.ok(source.length > 0, `${s.server} names a reference server`);
    s.tools.forEach((tool, i) => {
      const t = source[i];
      // Same-length word replacement: descriptions keep their exact length.
      assert.equal(tool.description.length, t.description.length);
      assert.equal(tool.inputSchema === undefined, t.inputSchema === undefined);
      if (t.inputSchema && tool.inputSchema) {
        const props = Object.keys((tool.inputSchema.properties ?? {}) as object);
        assert.equal(props.length, 1);
        assert.deepEqual(tool.inputSchema.required, props); // renamed consistently
        assert.equal(tool.inputSchema.type, "object");
      }
      if (tool.description !== t.description) changed++;
    });
  }
  assert.ok(changed > 40, `expected rewritten descriptions, got ${changed} of 60`);
});

Deno.test("synthCatalogDocument() is deterministic per seed and parses back", () => {
  const a = JSON.stringify(synthCatalogDocument(small, { tools: 12, seed: 3 }));
  const b = JSON.stringify(synthCatalogDocument(small, { tools: 12, seed: 3 }));
  const c = JSON.stringify(synthCatalogDocument(small, { tools: 12, seed: 4 }));
  assert.equal(a, b);
  assert.notEqual(a, c);
  const corpus = parseCatalog(a);
  assert.equal(corpus.id, "synth_12_s3");
  assert.equal(corpus.tools.length, 12);
  assert.equal(new Set(corpus.tools.map((t) => t.id)).size, 12);
});

Deno.test("planSynthCatalog() rejects a bad size or seed", () => {
  assert.throws(() => planSynthCatalog(small, { tools: 0, seed: 1 }), RangeError);
  assert.throws(() => planSynthCatalog(small, { tools: 2.5, seed: 1 }), RangeError);
  assert.throws(() => planSynthCatalog(small, { tools: 3, seed: 0.5 }), RangeError);
});

Deno.test("a 5,000-tool catalog from reference_v1 keeps the reference ids and its size distribution", async () => {
  const reference = await loadCatalog(REFERENCE.pathname);
  const doc = synthCatalogDocument(reference, { tools: 5000, seed: 2 });
  const corpus = parseCatalog(JSON.stringify(doc));
  assert.equal(corpus.tools.length, 5000);
  const ids = new Set(corpus.tools.map((t) => t.id));
  assert.equal(ids.size, 5000);
  for (const t of reference.tools) assert.ok(ids.has(t.id), `reference tool ${t.id} kept`);
  // Mean description length of the synthetic part within 15% of the reference's.
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const refMean = mean(reference.tools.map((t) => t.description.length));
  const synth = corpus.tools.filter((t) => t.server.startsWith("synth-"));
  assert.equal(synth.length, 5000 - reference.tools.length);
  const synthMean = mean(synth.map((t) => t.description.length));
  assert.ok(Math.abs(synthMean - refMean) / refMean < 0.15, `${synthMean} vs ${refMean}`);
});
