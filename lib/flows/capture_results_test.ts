// test:quick skips this file: its tests start processes (deno task test runs them).
// captureToolResults: the frozen fixture matches its manifest, and a run whose
// packages are missing records every call as failed with its cause (no network).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { stableJson } from "../core/json.ts";
import type { JsonValue } from "../catalog/types.ts";
import { captureToolResults } from "./capture_results.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const DIR = `${ROOT}fixtures/tool_results/`;
const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

Deno.test("results_v1 manifest: file, per-call, config, calls, seed and data hashes match", () => {
  const manifest = JSON.parse(Deno.readTextFileSync(`${DIR}results_v1.manifest.json`));
  const resultsText = Deno.readTextFileSync(`${DIR}results_v1.json`);
  assert.equal(manifest.files.results.sha256, sha(resultsText));
  assert.equal(manifest.files.config.sha256, sha(Deno.readFileSync(`${DIR}servers.json`)));
  assert.equal(manifest.files.calls.sha256, sha(Deno.readFileSync(`${DIR}calls.json`)));
  assert.equal(
    manifest.files.seeds["sqlite/seed.sql"],
    sha(Deno.readFileSync(`${DIR}sqlite/seed.sql`)),
  );
  for (const [path, hash] of Object.entries(manifest.files.data)) {
    assert.equal(hash, sha(Deno.readFileSync(`${DIR}data/${path}`)), path);
  }
  const results = JSON.parse(resultsText).results as Record<string, JsonValue>[];
  const plan = JSON.parse(Deno.readTextFileSync(`${DIR}calls.json`)).calls;
  assert.deepEqual(results.map((r) => r.id), plan.map((c: { id: string }) => c.id));
  for (const [i, r] of results.entries()) {
    const entry = manifest.calls[i];
    assert.equal(entry.id, r.id);
    assert.equal(entry.sha256, sha(stableJson(r)));
    assert.deepEqual(entry.arguments, plan[i].arguments);
    assert.equal(entry.package, `${r.package}@${r.version}`);
    assert.equal(r.outcome, "ok");
  }
  // No run-specific path or time survives normalization.
  assert.doesNotMatch(resultsText, /\/tmp\/|mcpmeter-results-|\d{2}:\d{2}:\d{2} GMT/);
});

Deno.test("capture-results with packages missing records every call as server_failed", async () => {
  const out = await Deno.makeTempDir();
  try {
    const lines: string[] = [];
    const r = await captureToolResults({
      config: `${DIR}servers.json`,
      calls: `${DIR}calls.json`,
      data: `${DIR}data`,
      out,
      id: "t",
      installDir: `${out}/none`,
      timeoutMs: 30_000,
      install: false,
      log: (line) => lines.push(line),
    });
    // No call answered: the task exits 1.
    assert.deepEqual(r, { answered: 0, total: 27 }, lines.join("\n"));
    const results = JSON.parse(await Deno.readTextFile(`${out}/t.json`)).results;
    assert.equal(results.length, 27);
    for (const x of results) {
      assert.equal(x.outcome, "server_failed");
      assert.match(x.message, /is not installed in <install>/);
    }
    const manifest = JSON.parse(await Deno.readTextFile(`${out}/t.manifest.json`));
    assert.deepEqual(manifest.servers.map((s: { outcome: string }) => s.outcome), [
      "failed",
      "failed",
      "failed",
      "failed",
    ]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("capture-results records a result that breaks its tool's outputSchema as an error of that kind", async () => {
  const out = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${out}/servers.json`,
      JSON.stringify({
        mcpServers: {
          counts: {
            command: Deno.execPath(),
            args: [
              "run",
              "--quiet",
              "--config",
              `${ROOT}deno.json`,
              `${ROOT}fixtures/mcp/output_schema_server.ts`,
            ],
          },
        },
      }),
    );
    await Deno.writeTextFile(
      `${out}/calls.json`,
      JSON.stringify({
        calls: ["good", "bare", "wrong"].map((tool) => ({
          id: tool,
          server: "counts",
          tool,
          arguments: {},
        })),
      }),
    );
    await Deno.mkdir(`${out}/data`);
    const r = await captureToolResults({
      config: `${out}/servers.json`,
      calls: `${out}/calls.json`,
      data: `${out}/data`,
      out: `${out}/res`,
      id: "t",
      installDir: `${out}/none`,
      timeoutMs: 30_000,
      install: false,
      log: () => {},
    });
    assert.deepEqual(r, { answered: 3, total: 3 });
    const results = JSON.parse(await Deno.readTextFile(`${out}/res/t.json`)).results;
    assert.deepEqual(
      results.map((x: { id: string; resultError?: string }) => [x.id, x.resultError ?? null]),
      [["good", null], ["bare", "missing_structured_content"], [
        "wrong",
        "invalid_structured_content",
      ]],
    );
    assert.match(results[2].message, /at \/count: must be integer/);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
