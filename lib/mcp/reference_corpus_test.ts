/**
 * Consistency of the frozen reference corpus with its manifest and its config
 * (fixtures/corpora/reference_v1.*, fixtures/servers/reference.json).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { stableJson } from "../core/json.ts";
import { parseServersConfig } from "./config.ts";

const path = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface CorpusServer {
  server: string;
  package?: string;
  version?: string;
  toolCount: number;
  tools: { name: string }[];
}

Deno.test("reference_v1: counts, sha256, pins and normalization agree", async () => {
  const bytes = await Deno.readFile(path("fixtures/corpora/reference_v1.tools.json"));
  const text = new TextDecoder().decode(bytes);
  const corpus = JSON.parse(text) as {
    format: string;
    serverCount: number;
    toolCount: number;
    servers: CorpusServer[];
  };
  const manifest = JSON.parse(
    await Deno.readTextFile(path("fixtures/corpora/reference_v1.manifest.json")),
  );
  const configBytes = await Deno.readFile(path("fixtures/servers/reference.json"));
  const config = parseServersConfig(new TextDecoder().decode(configBytes));

  assert.equal(corpus.format, "mcpmeter-capture");
  assert.equal(manifest.corpus.sha256, await sha256Hex(bytes));
  assert.equal(manifest.config.sha256, await sha256Hex(configBytes));
  assert.equal(corpus.serverCount, corpus.servers.length);
  assert.equal(corpus.toolCount, corpus.servers.reduce((s, x) => s + x.tools.length, 0));
  assert.ok(corpus.serverCount >= 40, `${corpus.serverCount} servers`);
  assert.ok(corpus.toolCount >= 1000, `${corpus.toolCount} tools`);
  const names = corpus.servers.map((s) => s.server);
  assert.deepEqual(names, [...names].sort());
  const pins = new Map(config.servers.map((s) => [s.name, `${s.meta.package}@${s.meta.version}`]));
  for (const server of corpus.servers) {
    assert.equal(server.toolCount, server.tools.length, server.server);
    assert.equal(`${server.package}@${server.version}`, pins.get(server.server), server.server);
    const toolNames = server.tools.map((t) => t.name);
    assert.equal(new Set(toolNames).size, toolNames.length, `duplicate tool in ${server.server}`);
  }
  // No run-specific path or wall-clock stamp survived normalization.
  assert.equal(/\/tmp\/mcpmeter-/.test(text), false);
  assert.equal(text.includes(manifest.capturedAt.slice(0, 10)), false);
  // The file is in canonical form: sorted keys, 2-space indent, trailing newline.
  assert.equal(stableJson(JSON.parse(text)), text);
});
