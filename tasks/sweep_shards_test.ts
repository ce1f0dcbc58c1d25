// test:quick skips this file: its tests start processes (deno task test runs them).
// The scale-out example of docs/ci.md ("One sweep over 4 shards"), end to end: a 2 × 2 sweep over
// the filesystem suite with 2 repetitions, run once unsharded and once as shards 1/4 … 4/4
// against the real filesystem MCP server and a scripted wire-format model, the shards merged
// with deno task merge; the merged run must equal the unsharded one outside timing fields (and
// the per-session temporary folder the filesystem server is rooted in).
import assert from "node:assert/strict";
import { join } from "node:path";
import { sweepFixture } from "../testing/sweep.ts";

const INSTALL_DIR = ".scratch/servers";

async function task(script: string, args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(script, import.meta.url).pathname, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, out: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** Sandbox metrics that are measured, not computed (their `value` varies run to run). */
const MEASURED_METRICS = new Set(["wall_ms", "cpu_ms", "heap_mb", "rss_mb"]);

/** A copy without timing fields: keys `ms` or ending in `Ms`, and measured metric values. */
function withoutTiming(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTiming);
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  const measured = typeof obj.name === "string" && MEASURED_METRICS.has(obj.name);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj).sort()) {
    if (k === "ms" || k.endsWith("Ms") || (measured && k === "value")) continue;
    out[k] = withoutTiming(obj[k]);
  }
  return out;
}

/** Each case record without timing fields, its per-session scratch folder masked, sorted. */
async function cases(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(dir, "cases.jsonl"));
  return text.trim().split("\n").map((line) =>
    JSON.stringify(withoutTiming(JSON.parse(line))).replace(
      /[^"]*mcpmeter-session-[^/"]+/g,
      "<session>",
    )
  ).sort();
}

/** summary.csv without the wall-time columns. */
async function summary(dir: string): Promise<string> {
  const rows = (await Deno.readTextFile(join(dir, "summary.csv"))).trimEnd().split("\n")
    .map((l) => l.split(","));
  const drop = new Set(rows[0].flatMap((c, i) => (/wall|_ms$/.test(c) ? [i] : [])));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)).join(",")).join("\n");
}

Deno.test({
  name: "sweep over 4 shards + merge equals the unsharded sweep outside timing fields",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const fx = await sweepFixture("mcpmeter-shards-", "SHARD_KEY");
    const { dir, models } = fx;
    try {
      const common = [
        "--base",
        "fs-terse-sequential",
        "--vary",
        "loop=sequential,parallel",
        "--vary",
        "systemPrompt=terse.md,careful.md",
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--repetitions",
        "2",
        "--concurrency",
        "1",
        "--models",
        models,
        "--agents-dir",
        "fixtures/agents",
        "--servers",
        "fixtures/agents/servers.json",
        "--out",
        dir,
        "--install-dir",
        INSTALL_DIR,
        "--env-file",
        "/nonexistent.env",
      ];
      const env = { SHARD_KEY: "k" };
      const whole = await task("./sweep.ts", [...common, "--run-id", "whole"], env);
      assert.equal(whole.code, 0, whole.out);
      const shardDirs: string[] = [];
      for (let i = 1; i <= 4; i++) {
        const r = await task(
          "./sweep.ts",
          [...common, "--shard", `${i}/4`, "--run-id", `s${i}`],
          env,
        );
        assert.equal(r.code, 0, r.out);
        shardDirs.push(join(dir, `s${i}`));
      }
      // 4 agents × 3 cases × 2 repetitions = 24 cases, each in exactly one shard.
      const perShard = await Promise.all(shardDirs.map(cases));
      assert.equal(perShard.reduce((n, c) => n + c.length, 0), 24);
      assert.ok(perShard.every((c) => c.length > 0), "every shard got work");
      const merged = await task("./merge.ts", ["--out", join(dir, "merged"), ...shardDirs]);
      assert.equal(merged.code, 0, merged.out);
      const mergedCases = await cases(join(dir, "merged"));
      const wholeCases = await cases(join(dir, "whole"));
      assert.equal(wholeCases.length, 24);
      // A server that failed to start is an infrastructure error, not a sharding difference.
      const failed = (c: string[]) => c.filter((r) => JSON.parse(r).error !== null);
      assert.deepEqual(failed(wholeCases), [], "infrastructure errors in the unsharded run");
      assert.deepEqual(failed(mergedCases), [], "infrastructure errors in a shard");
      assert.deepEqual(mergedCases, wholeCases);
      assert.equal(await summary(join(dir, "merged")), await summary(join(dir, "whole")));
    } finally {
      await fx.close();
    }
  },
});
