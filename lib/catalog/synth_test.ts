import assert from "node:assert/strict";
import { loadSynthReference } from "./load_synth.ts";
import { synthCatalogText } from "../../testing/synth.ts";
import { parseCatalog } from "./parse.ts";
import { planSynthCatalog, type SynthReference, synthReference, synthServers } from "./synth.ts";
import { FULL_TIER_ONLY } from "../../testing/quick.ts";

const REFERENCE = new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url);

const small = synthReference(
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

const parsed = (ref: SynthReference, tools: number, seed: number, includeReference = true) =>
  [...synthServers(ref, { tools, seed, includeReference })].map((s) => ({
    ...s,
    tools: s.tools.map((t) => JSON.parse(t)),
  }));

Deno.test("synthServers() yields exactly the tools asked for, reference first", () => {
  for (const tools of [1, 2, 3, 4, 7, 20]) {
    const servers = [...synthServers(small, { tools, seed: 5 })];
    assert.equal(servers.reduce((n, s) => n + s.toolCount, 0), tools);
    for (const s of servers) assert.equal(s.tools.length, s.toolCount);
  }
  // 3 tools = both reference servers verbatim (2 + 1), nothing synthetic, in listing order.
  const three = parsed(small, 3, 5);
  assert.deepEqual(three.map((s) => s.server), ["fs", "web"]);
  assert.deepEqual(three[0].tools.map((t) => t.name), ["read_file", "listDirectory"]);
  assert.equal(three[0].tools[0].description, "Read the complete contents of a file from disk.");
  // 5 tools: the 3 reference tools, then 2 synthetic ones in synth-* servers.
  const five = [...synthServers(small, { tools: 5, seed: 5 })];
  assert.deepEqual(five.slice(0, 2).map((s) => s.server), ["fs", "web"]);
  assert.ok(five.slice(2).every((s) => s.server.startsWith("synth-")));
  // Without the reference, every server is synthetic.
  const none = [...synthServers(small, { tools: 4, seed: 5, includeReference: false })];
  assert.ok(none.every((s) => s.server.startsWith("synth-")));
});

Deno.test("synthServers() keeps each template's shape and lengths, not its words", () => {
  const servers = parsed(small, 60, 11, false);
  let changed = 0;
  for (const s of servers) {
    const origin = s.server.replace(/^synth-\d+-/, "");
    const source = small.corpus.tools.filter((t) => t.server === origin)
      .sort((a, b) => (a.name === "read_file" ? -1 : b.name === "read_file" ? 1 : 0));
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

// A reference whose one tool has every kind of field: a title, annotations, an outputSchema with
// a local $ref, _meta naming an argument, an unknown field, integer-like keys and a number
// literal JSON.stringify would write otherwise (1.0).
const RICH_TOOL = '{"name":"read_file","title":"Read File",' +
  '"description":"Read the file at a path.",' +
  '"inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"Path of the file"},' +
  '"10":{"type":"number","maximum":1.0},"2":{"type":"string","enum":["path","title"]}},' +
  '"required":["path","10"]},' +
  '"outputSchema":{"type":"object","properties":{"content":{"type":"string","title":"File content"},' +
  '"copy":{"$ref":"#/properties/content"}},"required":["content"]},' +
  '"annotations":{"title":"Read File","readOnlyHint":true},' +
  '"_meta":{"vendor/argument":"path","vendor/transport":"stdio"},' +
  '"x-extra":[1.0,"keep"]}';
const richText = `{"format":"mcpmeter-capture","formatVersion":1,"id":"rich","version":"1",
  "serverCount":1,"toolCount":2,"servers":[{"server":"fs","toolCount":2,"tools":[
  ${RICH_TOOL}, {"name":"stat","inputSchema":{"type":"object"}}]}]}`;
const rich = synthReference(richText, { path: "rich.tools.json" });

Deno.test("a verbatim server is the reference's tool values byte for byte, every field kept", () => {
  const [server] = [...synthServers(rich, { tools: 2, seed: 1 })];
  assert.equal(server.server, "fs");
  // Written by hand: the file's member order ("10" before "2", not JS's 2, 10), 1.0 as
  // written, no description where the file has none.
  assert.deepEqual(server.tools, [
    RICH_TOOL,
    '{"name":"stat","inputSchema":{"type":"object"}}',
  ]);
  // The catalog parses back to the reference's tools.
  const corpus = parseCatalog(synthCatalogText(rich, { tools: 2, seed: 1 }));
  assert.deepEqual(corpus.tools, rich.corpus.tools);
});

Deno.test("a rewritten tool keeps every field, renamed consistently", () => {
  const servers = parsed(rich, 40, 3, false);
  let seen = 0;
  for (const s of servers) {
    for (const tool of s.tools) {
      if (!("title" in tool)) continue;
      seen++;
      // Same fields, in the template's order (JSON.parse keeps string keys in order).
      assert.deepEqual(Object.keys(tool), [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "_meta",
        "x-extra",
      ]);
      // The title follows the renamed tool: "Read File" for read_file, so "Xxxx Yyyy" for xxxx_yyyy.
      const [a, b] = tool.name.split("_");
      const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
      assert.equal(tool.title, `${cap(a)} ${cap(b)}`);
      assert.equal(tool.annotations.title, tool.title);
      assert.equal(tool.annotations.readOnlyHint, true);
      // Property names renamed in properties, required and the $ref; integer-like ones stay.
      const props = Object.keys(tool.inputSchema.properties);
      const path = props.find((p) => p !== "10" && p !== "2")!;
      assert.equal(path.length, 4);
      assert.deepEqual(tool.inputSchema.required, [path, "10"]);
      assert.equal(tool.inputSchema.properties[path].description.length, 16);
      // enum values are data: kept.
      assert.deepEqual(tool.inputSchema.properties["2"].enum, ["path", "title"]);
      const out = tool.outputSchema;
      const content = Object.keys(out.properties)[0];
      assert.deepEqual(out.required, [content]);
      assert.equal(out.properties[Object.keys(out.properties)[1]].$ref, `#/properties/${content}`);
      assert.equal(out.properties[content].title.length, "File content".length);
      // _meta naming the argument names the renamed one; other values kept.
      assert.deepEqual(tool._meta, { "vendor/argument": path, "vendor/transport": "stdio" });
      assert.deepEqual(tool["x-extra"], [1, "keep"]);
    }
  }
  assert.ok(seen >= 10, `expected rewritten copies of read_file, got ${seen}`);
  // Literals survive the rewrite, and member order: the template's, but for the renamed
  // properties, written in the byte order of their new names (a capture file's sorted keys), here
  // "10" < "2" < the four letters that replace "file" (which the template lists first).
  const text = [...synthServers(rich, { tools: 1, seed: 3, includeReference: false })][0].tools[0];
  assert.match(
    text,
    /"properties":\{"10":\{"type":"number","maximum":1\.0\},"2":\{[^}]*\},"[a-z]{4}":\{/,
  );
  assert.match(text, /"x-extra":\[1\.0,"keep"\]\}$/);
});

Deno.test("synthCatalogText() is deterministic per seed and parses back", () => {
  const a = synthCatalogText(small, { tools: 12, seed: 3 });
  const b = synthCatalogText(small, { tools: 12, seed: 3 });
  const c = synthCatalogText(small, { tools: 12, seed: 4 });
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

/** The JSON Pointer fragment `ref` resolves in `root`. */
function resolves(root: unknown, ref: string): boolean {
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

function localRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) { for (const v of node) localRefs(v, out); }
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/")) out.push(v);
      else localRefs(v, out);
    }
  }
  return out;
}

Deno.test(
  "a 5,000-tool catalog from reference_v1: reference verbatim, every field, the reference's sizes",
  FULL_TIER_ONLY,
  async () => {
    const reference = await loadSynthReference(REFERENCE.pathname);
    const text = synthCatalogText(reference, { tools: 5000, seed: 2 });
    const doc = JSON.parse(text);
    // Verbatim servers: each tool's bytes are the file's tool value (independently: JSON.parse
    // and JSON.stringify of the file, exact here since reference_v1 has no integer-like keys and
    // every literal is as JSON.stringify writes it).
    const file = JSON.parse(await Deno.readTextFile(REFERENCE));
    const byName = new Map<string, { tools: unknown[] }>(
      file.servers.map((s: { server: string; tools: unknown[] }) => [s.server, s]),
    );
    const servers = [...synthServers(reference, { tools: 5000, seed: 2 })];
    let verbatim = 0;
    for (const s of servers) {
      if (s.server.startsWith("synth-")) continue;
      verbatim++;
      assert.deepEqual(
        s.tools,
        byName.get(s.server)!.tools.map((t) => JSON.stringify(t)),
        s.server,
      );
    }
    assert.equal(verbatim, file.servers.length);

    const corpus = parseCatalog(text);
    assert.equal(corpus.tools.length, 5000);
    const ids = new Set(corpus.tools.map((t) => t.id));
    assert.equal(ids.size, 5000);
    for (const t of reference.corpus.tools) assert.ok(ids.has(t.id), `reference tool ${t.id} kept`);

    // The synthetic part against the reference: sizes within 15% (mean description length;
    // median schema and tool sizes, since a few huge schemas make their means swing with which
    // servers were drawn), .
    type Raw = Record<string, unknown>;
    const refTools: Raw[] = file.servers.flatMap((s: { tools: Raw[] }) => s.tools);
    const synthTools: Raw[] = doc.servers.filter((s: { server: string }) =>
      s.server.startsWith("synth-")
    ).flatMap((s: { tools: Raw[] }) => s.tools);
    assert.equal(synthTools.length, 5000 - refTools.length);
    // Keys in byte order at every depth, as in the reference (the order check here: code units,
    // the same for these keys, all below U+D800), in the rewrites too (renamed properties included).
    const sortedDeep = (v: unknown): boolean => {
      if (Array.isArray(v)) return v.every(sortedDeep);
      if (v === null || typeof v !== "object") return true;
      const keys = Object.keys(v);
      return keys.every((k, i) => i === 0 || keys[i - 1] < k) &&
        keys.every((k) => sortedDeep((v as Raw)[k]));
    };
    assert.ok(refTools.every(sortedDeep));
    const unsorted = synthTools.filter((t) => !sortedDeep(t));
    assert.deepEqual(unsorted.length, 0, JSON.stringify(unsorted[0])?.slice(0, 300));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const sizes: [string, (xs: number[]) => number, (t: Raw) => number][] = [
      ["description", mean, (t) => String(t.description ?? "").length],
      ["inputSchema", median, (t) => JSON.stringify(t.inputSchema ?? null).length],
      ["whole tool", median, (t) => JSON.stringify(t).length],
    ];
    for (const [what, stat, size] of sizes) {
      const r = stat(refTools.map(size));
      const s = stat(synthTools.map(size));
      assert.ok(Math.abs(s - r) / r < 0.15, `${what}: ${s} vs ${r}`);
    }
    // Each rewritten tool has its template's fields, in its order (the templates are the file's
    // servers, tools in listing order); so every field of the reference appears.
    for (const s of doc.servers as { server: string; tools: Raw[] }[]) {
      if (!s.server.startsWith("synth-")) continue;
      const template = byName.get(s.server.replace(/^synth-\d+-/, ""))!.tools as Raw[];
      s.tools.forEach((t, i) =>
        assert.deepEqual(Object.keys(t), Object.keys(template[i]), s.server)
      );
    }
    const keys = (tools: Raw[]) => [...new Set(tools.flatMap((t) => Object.keys(t)))].sort();
    assert.deepEqual(keys(synthTools), keys(refTools));
    // Every local $ref of a rewritten schema still resolves.
    let refs = 0;
    for (const t of synthTools) {
      for (const field of ["inputSchema", "outputSchema"]) {
        for (const ref of localRefs(t[field])) {
          refs++;
          assert.ok(resolves(t[field], ref), `${t.name}: ${ref}`);
        }
      }
    }
    assert.ok(refs > 100, `expected $refs in the rewritten schemas, got ${refs}`);
  },
);

Deno.test("a reference in a corpus format becomes MCP items: tool → name, schema → inputSchema", () => {
  // LiveMCPBench rows name their server and tool; mcpproxy rows add tool_id and may carry the
  // schema as JSON text. Either way the catalog's items are MCP tools/list items, other fields kept.
  const live = synthReference(
    '{"server_count":1,"tool_count":1,"tools":[{"server":"web","tool":"fetch",' +
      '"description":"Fetch a page.","inputSchema":{"type":"object"},"x-tag":"net"}]}',
  );
  assert.deepEqual([...synthServers(live, { tools: 1, seed: 1 })][0], {
    server: "web",
    toolCount: 1,
    tools: [
      '{"name":"fetch","description":"Fetch a page.","inputSchema":{"type":"object"},"x-tag":"net"}',
    ],
  });
  const proxy = synthReference(
    '{"generated_from":"x","tools":[{"tool_id":"fs:read","server":"fs","tool":"read",' +
      '"description":"Read.","schema":"{\\"type\\": \\"object\\", \\"maximum\\": 1.0}"}]}',
  );
  assert.deepEqual([...synthServers(proxy, { tools: 1, seed: 1 })][0].tools, [
    '{"name":"read","description":"Read.","inputSchema":{"type":"object","maximum":1.0}}',
  ]);
  // And the catalog reads back as the reference's tools.
  const back = parseCatalog(synthCatalogText(proxy, { tools: 1, seed: 1 }));
  assert.equal(back.tools[0].inputSchemaCanonical, proxy.corpus.tools[0].inputSchemaCanonical);
});

Deno.test("a property named like a keyword is renamed like any property, nested ones and data naming them too", () => {
  const ref = synthReference(
    '{"tools":[{"name":"set_value","description":"Keep each numbers against context records.",' +
      '"inputSchema":{"type":"object","properties":{' +
      '"default":{"type":"object","properties":{"enum":{"type":"string"}},"required":["enum"]}},' +
      '"required":["default"]},"_meta":{"vendor/argument":"enum"}}]}',
    { path: "kw.json" },
  );
  const [tool] = JSON.parse(
    `[${[...synthServers(ref, { tools: 1, seed: 9, includeReference: false })][0].tools}]`,
  );
  const [outer] = Object.keys(tool.inputSchema.properties);
  // The only words of those lengths are the description's: each name is replaced.
  assert.ok(["numbers", "against", "context", "records"].includes(outer), outer);
  assert.deepEqual(tool.inputSchema.required, [outer]);
  const inner = tool.inputSchema.properties[outer];
  const [innerName] = Object.keys(inner.properties);
  assert.ok(["keep", "each"].includes(innerName), innerName);
  assert.deepEqual(inner.required, [innerName]);
  // Data naming the nested property names its new name.
  assert.deepEqual(tool._meta, { "vendor/argument": innerName });
});
