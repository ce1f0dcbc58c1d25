// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task sweep --vary overrides: the same agent with and without tool-description overrides,
// against the real filesystem MCP server and a scripted wire-format model.
import assert from "node:assert/strict";
import { join } from "node:path";
import { sweepFixture } from "../testing/sweep.ts";
import { parseToolOverrides, toolOverridesSha256 } from "../lib/catalog/overrides.ts";

const FILE = "fixtures/overrides/fs_agents.overrides.json";

Deno.test({
  name:
    "sweep --vary overrides=none,FILE: two agents, the overridden one's tools and catalog hash differ",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-sweep-overrides-", "SWEEP_KEY");
    const { dir, models } = fx;
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          new URL("./sweep.ts", import.meta.url).pathname,
          "--base",
          "fs-terse-sequential",
          "--vary",
          `overrides=none,${FILE}`,
          "--suite",
          "fixtures/suites/fs_basics.json",
          "--models",
          models,
          "--agents-dir",
          "fixtures/agents",
          "--servers",
          "fixtures/agents/servers.json",
          "--out",
          dir,
          "--run-id",
          "r",
          "--env-file",
          "/nonexistent.env",
        ],
        env: { NO_COLOR: "1", SWEEP_KEY: "k" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, text);
      const run = JSON.parse(await Deno.readTextFile(join(dir, "r", "run.json")));
      const plain = run.catalogs["fs-terse-sequential__overrides-none"];
      const over = run.catalogs["fs-terse-sequential__overrides-fs_agents"];
      assert.equal(plain.overrides, undefined);
      const doc = parseToolOverrides(await Deno.readTextFile(FILE));
      assert.equal(over.overrides.sha256, await toolOverridesSha256(doc));
      assert.deepEqual(over.overrides.applied.map((a: { toolId: string }) => a.toolId), [
        "fs:list_directory",
        "fs:read_text_file",
        "fs:search_files",
      ]);
      assert.deepEqual(over.overrides.problems, []);
      assert.notEqual(over.hash, plain.hash);
      // Exactly the three rewritten tools changed; every other tool hashes the same.
      const changed = Object.keys(plain.toolHashes).filter((name) =>
        plain.toolHashes[name] !== over.toolHashes[name]
      ).sort();
      assert.deepEqual(changed, ["list_directory", "read_text_file", "search_files"]);
      // Both agents ran every case.
      const records = (await Deno.readTextFile(join(dir, "r", "cases.jsonl"))).trim().split("\n")
        .map((l) => JSON.parse(l));
      assert.equal(records.length, 6);
    } finally {
      await fx.close();
    }
  },
});
