import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "./canonical.ts";
import { CatalogError } from "./errors.ts";
import { loadCatalog, sha256Hex } from "./load.ts";

const LIVEMCPTOOL = fileURLToPath(
  new URL("../../../shared/corpora/livemcptool/tools.json", import.meta.url),
);
const hasLiveMcpTool = (() => {
  try {
    return Deno.statSync(LIVEMCPTOOL).isFile;
  } catch {
    return false;
  }
})();
if (!hasLiveMcpTool) {
  console.warn(
    `skipping the LiveMCPBench loader test: ${LIVEMCPTOOL} is absent (../shared beside the clone)`,
  );
}

async function catalogErrorOf(p: Promise<unknown>): Promise<CatalogError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof CatalogError, `expected a CatalogError, got ${e}`);
    return e;
  }
  throw new Error("expected a CatalogError, nothing was thrown");
}

Deno.test("sha256Hex matches known vectors (FIPS 180-2 'abc', empty input)", async () => {
  assert.equal(
    await sha256Hex(new TextEncoder().encode("abc")),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    await sha256Hex(new Uint8Array()),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});

Deno.test("loadCatalog: a missing file is a one-line CatalogError", async () => {
  const err = await catalogErrorOf(loadCatalog("no/such/catalog.json"));
  assert.equal(err.message, 'Cannot load catalog "no/such/catalog.json": file not found');
  assert.equal(err.path, "no/such/catalog.json");
  assert.ok(err.cause instanceof Deno.errors.NotFound);
});

Deno.test("loadCatalog: a directory and non-UTF-8 bytes are CatalogErrors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const e1 = await catalogErrorOf(loadCatalog(dir));
    assert.match(e1.message, /is a directory|cannot read the file/);
    const bad = `${dir}/latin1.json`;
    await Deno.writeFile(bad, new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d])); // {"é"} in Latin-1
    const e2 = await catalogErrorOf(loadCatalog(bad));
    assert.equal(e2.message, `Cannot load catalog ${JSON.stringify(bad)}: is not valid UTF-8 text`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadCatalog: sha256 of the exact bytes, path as given, options passed through", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/everything.json`;
    // A byte order mark and CRLF line ends are part of the hashed bytes.
    const text =
      '\uFEFF{"tools": [{"name": "echo", "inputSchema": {"type": "object", "maxLength": 1e3}}]}\r\n';
    const bytes = new TextEncoder().encode(text);
    await Deno.writeFile(path, bytes);
    const corpus = await loadCatalog(path, { id: "demo" });
    assert.equal(corpus.provenance.sha256, createHash("sha256").update(bytes).digest("hex"));
    assert.equal(corpus.provenance.path, path);
    assert.equal(corpus.provenance.format, "mcp-tools-list");
    assert.equal(corpus.id, "demo");
    assert.deepEqual(corpus.tools.map((t) => t.id), ["everything:echo"]);
    assert.equal(corpus.tools[0].inputSchemaCanonical, '{"maxLength":1e3,"type":"object"}');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "loadCatalog: the LiveMCPBench snapshot has 527 tools from 70 servers",
  ignore: !hasLiveMcpTool,
  async fn() {
    const corpus = await loadCatalog(LIVEMCPTOOL);
    assert.equal(corpus.provenance.format, "livemcpbench");
    assert.equal(corpus.id, "livemcptool");
    assert.equal(corpus.version, "livemcptool@ddea2d24");
    assert.equal(corpus.tools.length, 527);
    assert.equal(new Set(corpus.tools.map((t) => t.server)).size, 70);
    // Independent view of the same file through JSON.parse.
    const raw = JSON.parse(await Deno.readTextFile(LIVEMCPTOOL));
    assert.equal(raw.tools.length, 527);
    const bytes = await Deno.readFile(LIVEMCPTOOL);
    assert.equal(corpus.provenance.sha256, createHash("sha256").update(bytes).digest("hex"));
    // Ids unique and sorted; every row carries a schema (ATTRIBUTION.md: "All 527 tools carry an inputSchema").
    const ids = corpus.tools.map((t) => t.id);
    assert.equal(new Set(ids).size, 527);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(corpus.tools.every((t) => t.inputSchemaCanonical !== undefined));
    // ATTRIBUTION.md: 19 tools have an empty description.
    assert.equal(corpus.tools.filter((t) => t.description === "").length, 19);
    // The literal-preserving text is the same JSON as the parsed value, and differs from the
    // canonical text of the parsed value exactly where the file writes floats like `5.0`, `0.0`:
    // 8 tools, listed with Python's json module (parse_float hook, integral floats).
    const rewritten: string[] = [];
    for (const t of corpus.tools) {
      assert.deepEqual(JSON.parse(t.inputSchemaCanonical!), t.inputSchema);
      if (t.inputSchemaCanonical !== canonicalJson(t.inputSchema!)) rewritten.push(t.id);
    }
    assert.deepEqual(rewritten, [
      "biomcp:alphagenome_predictor",
      "music-analysis:load",
      "music-analysis:tempo",
      "ppt:add_connector",
      "ppt:manage_image",
      "ppt:manage_slide_transitions",
      "ppt:manage_text",
      "random-number:random_float",
    ]);
    const alpha = corpus.tools.find((t) => t.id === "biomcp:alphagenome_predictor")!;
    assert.ok(alpha.inputSchemaCanonical!.includes('"maximum":5.0,"minimum":0.0'));
  },
});
