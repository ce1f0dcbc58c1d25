import assert from "node:assert/strict";
import { diffFixtures, type FixtureEntry, scanFixtures } from "../lib/flows/mod.ts";
import { fromRoot } from "./_cli.ts";

const entry = (path: string, sha256: string): FixtureEntry => ({
  path,
  sha256,
  bytes: 1,
  source: "s",
  regenerate: "r",
});

Deno.test("diffFixtures() lists added, changed and removed files", () => {
  assert.deepEqual(
    diffFixtures(
      [entry("a.json", "aa".repeat(32)), entry("b.json", "bb".repeat(32))],
      [entry("a.json", "cc".repeat(32)), entry("c.json", "dd".repeat(32))],
    ),
    [
      `changed: a.json (sha256 ${"aa".repeat(6)} → ${"cc".repeat(6)})`,
      "added: c.json",
      "removed: b.json",
    ],
  );
});

Deno.test("every fixture file matches fixtures/manifest.json (fixtures are never edited in place)", async () => {
  const recorded = JSON.parse(await Deno.readTextFile(fromRoot("fixtures/manifest.json")))
    .files as FixtureEntry[];
  const current = await scanFixtures(fromRoot("fixtures"));
  assert.deepEqual(diffFixtures(recorded, current), []);
  assert.ok(current.every((e) => e.source !== "unlisted"), "every fixture group has a source");
  // The frozen corpus hash agrees with its own capture manifest.
  const corpus = current.find((e) => e.path === "corpora/reference_v1.tools.json")!;
  const manifest = JSON.parse(
    await Deno.readTextFile(fromRoot("fixtures/corpora/reference_v1.manifest.json")),
  );
  assert.equal(JSON.stringify(manifest).includes(corpus.sha256), true);
});
