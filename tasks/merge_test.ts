// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task merge: shard runs (made in process with runAgents()) joined by the merge task into
// the same cases and summary as one unsharded run; merging a shard twice is refused.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import * as agents from "../testing/agents.ts";

Deno.test({
  name: "merge: shards 1/2 and 2/2 join into the same cases and summary as one unsharded run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await agents.ensureAgentServers();
    await agents.withScriptedModel(fixturePolicy, async (_s, dir, models) => {
      const common = {
        suite: "fixtures/suites/everything_tools.json",
        models,
        out: dir,
        env: { E2E_KEY: agents.E2E_KEY },
        agents: ["all-terse-parallel", "all-terse-sequential-gpt"],
        repetitions: 2,
      };
      for (const [runId, shard] of [["whole"], ["s1", "1/2"], ["s2", "2/2"]]) {
        const r = await agents.runAgentsForTest({ ...common, runId, ...(shard ? { shard } : {}) });
        assert.equal(r.code, 0, r.stderr);
      }
      const s1 = await agents.readRecords(join(dir, "s1"));
      const s2 = await agents.readRecords(join(dir, "s2"));
      assert.equal(s1.length + s2.length, 8);
      assert.equal(new Set([...s1, ...s2].map(agents.recordKey)).size, 8);
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "tasks/merge.ts",
          "--out",
          join(dir, "merged"),
          join(dir, "s1"),
          join(dir, "s2"),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const merged = await agents.readRecords(join(dir, "merged"));
      const whole = await agents.readRecords(join(dir, "whole"));
      assert.deepEqual(merged.map(agents.recordKey).sort(), whole.map(agents.recordKey).sort());
      assert.equal(
        agents.stableSummary(await Deno.readTextFile(join(dir, "merged", "summary.csv"))),
        agents.stableSummary(await Deno.readTextFile(join(dir, "whole", "summary.csv"))),
      );
      // Merging the same shard twice is refused, not double-counted.
      const dup = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "tasks/merge.ts",
          "--out",
          join(dir, "dup"),
          join(dir, "s1"),
          join(dir, "s1"),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(dup.code, 2);
      assert.match(new TextDecoder().decode(dup.stderr), /twice/);
    });
  },
});
