// End-to-end tests of `deno task agents` and `deno task merge`: real MCP servers from npm
// (filesystem, memory, everything @2026.8.31, installed into .scratch/servers when missing) and
// a local HTTP server speaking the Anthropic and OpenAI wire formats with scripted replies.
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../lib/mcp/install.ts";
import {
  errorReply,
  malformedReply,
  type ReceivedRequest,
  type ScriptedReply,
  startScriptedModelServer,
} from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import type { CaseRecord } from "../lib/agent/types.ts";

const SERVERS = ["server-filesystem", "server-memory", "server-everything"].map((p) => ({
  package: `@modelcontextprotocol/${p}`,
  version: "2026.8.31",
}));
const INSTALL_DIR = ".scratch/servers";
const KEY = "sk-e2e-SECRET-abcdef123456";

async function ensureServers() {
  const results = await installPackages(SERVERS, { installDir: INSTALL_DIR });
  for (const r of results) assert.notEqual(r.status, "failed", `${r.package}: ${r.message}`);
}

async function modelsFile(dir: string, url: string, openaiUrl: string): Promise<string> {
  const path = join(dir, "models.json");
  const pricing = {
    inputUsdPerMTok: 3,
    outputUsdPerMTok: 15,
    cacheReadUsdPerMTok: 0.3,
    cacheWriteUsdPerMTok: 3.75,
  };
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      models: [
        {
          id: "claude",
          provider: "anthropic",
          model: "scripted",
          baseUrl: url,
          apiKey: "${E2E_KEY}",
          pricing,
        },
        {
          id: "gpt",
          provider: "openai",
          model: "scripted",
          baseUrl: openaiUrl,
          apiKey: "${E2E_KEY}",
          pricing: { inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6, cacheReadUsdPerMTok: 0.1 },
        },
        {
          id: "judge",
          provider: "anthropic",
          model: "scripted-judge",
          baseUrl: url,
          apiKey: "${E2E_KEY}",
          pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 5 },
        },
      ],
    }),
  );
  return path;
}

interface RunResult {
  code: number;
  stderr: string;
}

function agentsCommand(args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "tasks/agents.ts",
      "--install-dir",
      INSTALL_DIR,
      "--env-file",
      "/nonexistent.env",
      ...args,
    ],
    env: { E2E_KEY: KEY, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
}

async function runAgents(args: string[]): Promise<RunResult> {
  const out = await agentsCommand(args).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

async function readRecords(runDir: string): Promise<CaseRecord[]> {
  const text = await Deno.readTextFile(join(runDir, "cases.jsonl"));
  return text.trimEnd().split("\n").map((l) => JSON.parse(l));
}

/** Pids of live processes whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const d of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(d.name)) continue;
    try {
      if (!Deno.readTextFileSync(`/proc/${d.name}/cmdline`).includes(marker)) continue;
      const stat = Deno.readTextFileSync(`/proc/${d.name}/stat`);
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))) found.push(Number(d.name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

const key = (r: CaseRecord) => `${r.agentId}|${r.caseId}|${r.repetition}`;

/** Summary CSV without the wall-time columns (the only measured, run-dependent ones). */
function stableSummary(csv: string): string {
  const rows = csv.trimEnd().split("\n").map((l) => l.split(","));
  const drop = new Set(["wall_p50_ms", "wall_p95_ms"].map((c) => rows[0].indexOf(c)));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)).join(",")).join("\n");
}

async function withModel<T>(
  handler: (req: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>,
  fn: (s: ReturnType<typeof startScriptedModelServer>, dir: string, models: string) => Promise<T>,
): Promise<T> {
  const s = startScriptedModelServer(handler);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-e2e-" });
  try {
    return await fn(s, dir, await modelsFile(dir, s.url, s.openaiBaseUrl));
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "agents: three suites over real MCP servers pass, costs match hand computation, summaries are deterministic",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    await withModel(fixturePolicy, async (s, dir, models) => {
      const common = [
        "--models",
        models,
        "--out",
        dir,
        "--tool-prices",
        "fixtures/agents/tool_prices.json",
        "--agents",
        "all-terse-parallel,all-terse-sequential-gpt",
        "--repetitions",
        "2",
        "--concurrency",
        "3",
      ];
      for (const suite of ["fs_basics", "memory_graph", "everything_tools"]) {
        for (const runId of [`${suite}-1`, `${suite}-2`]) {
          const r = await runAgents([
            "--suite",
            `fixtures/suites/${suite}.json`,
            "--run-id",
            runId,
            ...common,
          ]);
          assert.equal(r.code, 0, r.stderr);
        }
        const a = await Deno.readTextFile(join(dir, `${suite}-1`, "summary.csv"));
        const b = await Deno.readTextFile(join(dir, `${suite}-2`, "summary.csv"));
        assert.equal(stableSummary(a), stableSummary(b));
        const records = await readRecords(join(dir, `${suite}-1`));
        const cases =
          JSON.parse(await Deno.readTextFile(`fixtures/suites/${suite}.json`)).cases.length;
        assert.equal(records.length, cases * 2 * 2);
        for (const r of records) {
          assert.equal(r.passed, true, `${key(r)}: ${JSON.stringify(r.criterion)}`);
        }
      }
      // everything/sum on the Anthropic agent: turns 0 and 1 → input 100 + 110, output 2 × 20,
      // cache read 2 × 50, cache write 2 × 5 → 210·3 + 40·15 + 100·0.3 + 10·3.75 = 1297.5 µ$,
      // plus the get-sum tool price 0.001 $.
      const ev = await readRecords(join(dir, "everything_tools-1"));
      const sum = ev.find((r) => r.agentId === "all-terse-parallel" && r.caseId === "sum")!;
      assert.deepEqual(
        [
          sum.inputTokens,
          sum.outputTokens,
          sum.cacheReadTokens,
          sum.cacheWriteTokens,
          sum.peakContextTokens,
        ],
        [210, 40, 100, 10, 165],
      );
      assert.ok(Math.abs(sum.costUsd! - (0.0012975 + 0.001)) < 1e-12, String(sum.costUsd));
      assert.deepEqual(sum.toolCalls.map((c) => [c.tool, c.isError]), [[
        "everything:get-sum",
        false,
      ]]);
      // The OpenAI agent: prompt_tokens include cached ones; cache write is not reported (null).
      const gptSum = ev.find((r) =>
        r.agentId === "all-terse-sequential-gpt" && r.caseId === "sum"
      )!;
      assert.equal(gptSum.inputTokens, 210);
      assert.equal(gptSum.cacheWriteTokens, null);
      assert.ok(gptSum.usageNotes.some((n) => /cache-write/.test(n)));
      // 210·0.4 + 40·1.6 + 100·0.1 = 158 µ$ + 0.001 $ tool.
      assert.ok(Math.abs(gptSum.costUsd! - (0.000158 + 0.001)) < 1e-12, String(gptSum.costUsd));

      // Judge cost stays out of agent totals.
      const mem = await readRecords(join(dir, "memory_graph-1"));
      const judged = mem.find((r) =>
        r.caseId === "bob-role-judged" && r.agentId === "all-terse-parallel"
      )!;
      assert.deepEqual(judged.judge, { inputTokens: 300, outputTokens: 15, costUsd: 0.000375 });
      // Agent part only: read_graph turn + answer turn = same tokens as `sum`, no tool price.
      assert.ok(Math.abs(judged.costUsd! - 0.0012975) < 1e-12, String(judged.costUsd));
      const csv = (await Deno.readTextFile(join(dir, "memory_graph-1", "summary.csv"))).trimEnd()
        .split("\n");
      const h = csv[0].split(",");
      const row = csv.find((l) => l.startsWith("all-terse-parallel,"))!.split(",");
      // 3 cases × 2 repetitions × 1297.5 µ$ agent cost; judge: 2 × 375 µ$ apart.
      assert.equal(Number(row[h.indexOf("total_cost_usd")]), 0.007785);
      assert.equal(Number(row[h.indexOf("judge_cost_usd")]), 0.00075);
      assert.equal(Number(row[h.indexOf("pass_rate")]), 1);
      assert.equal(Number(row[h.indexOf("pass_at_k")]), 1);

      // run.json: catalog hashes, config snapshot, no secret anywhere in the run folder.
      const run = JSON.parse(await Deno.readTextFile(join(dir, "memory_graph-1", "run.json")));
      assert.equal(run.status, "complete");
      assert.match(run.catalogs["all-terse-parallel"].hash, /^[0-9a-f]{64}$/);
      assert.equal(run.catalogs["all-terse-parallel"].mapping["read_graph"], "memory:read_graph");
      const run2 = JSON.parse(await Deno.readTextFile(join(dir, "memory_graph-2", "run.json")));
      assert.equal(
        run2.catalogs["all-terse-parallel"].hash,
        run.catalogs["all-terse-parallel"].hash,
      );
      for (const suite of ["fs_basics", "memory_graph"]) {
        for (const f of ["run.json", "cases.jsonl", "summary.csv"]) {
          const text = await Deno.readTextFile(join(dir, `${suite}-1`, f));
          assert.ok(!text.includes(KEY) && !text.includes("SECRET"), `${f} leaks the key`);
        }
      }
      // The scripted server saw the real key on the wire (so redaction above is meaningful).
      assert.ok(
        s.requests.some((r) =>
          (r.headers["authorization"] ?? r.headers["x-api-key"] ?? "").includes(KEY)
        ),
      );
    });
  },
});

Deno.test({
  name: "agents: killing the process mid-run and resuming loses and duplicates nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    await withModel((req) => ({ ...fixturePolicy(req), delayMs: 120 }), async (_s, dir, models) => {
      const args = [
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--models",
        models,
        "--out",
        dir,
        "--agents",
        "fs-terse-sequential,fs-careful-sequential",
        "--repetitions",
        "3",
        "--run-id",
        "killed",
      ];
      const child = agentsCommand(args).spawn();
      const casesPath = join(dir, "killed", "cases.jsonl");
      // Wait for at least 3 finished cases, then kill hard.
      for (let i = 0; i < 600; i++) {
        const text = await Deno.readTextFile(casesPath).catch(() => "");
        if (text.split("\n").filter(Boolean).length >= 3) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel().catch(() => {});
      const before = await Deno.readTextFile(casesPath);
      const beforeLines = before.split("\n").filter((l) => l.endsWith("}"));
      assert.ok(
        beforeLines.length >= 3 && beforeLines.length < 18,
        `killed after ${beforeLines.length} cases`,
      );
      // Simulate a torn write as well: a half line at the end must be dropped, not kept.
      await Deno.writeTextFile(casesPath, '{"agentId":"fs-ter', { append: true });

      const killedPrefix = `mcpmeter-session-${child.pid}-`;
      const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
      const leftBy = () =>
        Array.from(Deno.readDirSync(tmp)).filter((e) => e.name.startsWith(killedPrefix));
      // SIGKILL left the data copy and the servers' HOME folders behind...
      assert.ok(leftBy().length > 0);
      // ...and they count as stale once older than the grace period (a live process in another
      // pid namespace may own a young one): age them by seven hours.
      const aged = new Date(Date.now() - 7 * 60 * 60 * 1000);
      for (const e of leftBy()) Deno.utimeSync(join(tmp, e.name), aged, aged);
      const r = await runAgents(["--resume", "killed", "--out", dir]);
      assert.equal(r.code, 0, r.stderr);
      // ...and the next run removed them.
      assert.deepEqual(leftBy(), []);
      assert.match(r.stderr, /removed \d+ folder\(s\) left by killed runs/);
      // The killed run's servers did not outlive it (they exit when their stdin closes).
      assert.deepEqual(processesWith(killedPrefix), []);
      const records = await readRecords(join(dir, "killed"));
      // 2 agents × 3 cases × 3 repetitions.
      assert.equal(records.length, 18);
      assert.equal(new Set(records.map(key)).size, 18);
      // Records finished before the kill are kept verbatim, as the first lines.
      const after = (await Deno.readTextFile(casesPath)).split("\n");
      const complete = before.endsWith("\n") ? beforeLines : beforeLines.slice(0, -1);
      assert.deepEqual(after.slice(0, complete.length), complete);
      assert.ok(records.every((x) => x.passed === true));
      const run = JSON.parse(await Deno.readTextFile(join(dir, "killed", "run.json")));
      assert.equal(run.status, "complete");
      assert.equal(run.sessions.length, 2);
      assert.equal(run.sessions[1].planned, 18 - complete.length);
    });
  },
});

Deno.test({
  name:
    "agents: 429 with Retry-After, 500 and malformed JSON are retried; slow replies time out as infrastructure errors",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    // Per question, the first request fails in a scripted way, then the policy answers.
    const seen = new Map<string, number>();
    const handler = (req: ReceivedRequest): ScriptedReply => {
      const first = (req.body.messages as { content: unknown }[])[0].content;
      const q = typeof first === "string" ? first : JSON.stringify(first);
      const n = seen.get(q) ?? 0;
      seen.set(q, n + 1);
      if (/todo\.txt/.test(q) && n === 0) return errorReply(req.provider, 429, "1");
      if (/expenses/.test(q) && n === 0) return errorReply(req.provider, 500, "0");
      if (/expenses/.test(q) && n === 1) return malformedReply();
      if (/notes folder/.test(q)) return { ...fixturePolicy(req), delayMs: 3000 };
      return fixturePolicy(req);
    };
    await withModel(handler, async (s, dir, models) => {
      const wire = join(dir, "wire");
      const r = await runAgents([
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--models",
        models,
        "--out",
        dir,
        "--agents",
        "fs-terse-sequential",
        "--run-id",
        "faults",
        "--timeout-ms",
        "1500",
        "--wire-log",
        wire,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const records = await readRecords(join(dir, "faults"));
      const by = new Map(records.map((x) => [x.caseId, x]));
      assert.equal(by.get("todo-lines")!.passed, true);
      // 429 said "Retry-After: 1": the case records that wait apart from its model time.
      const retried = by.get("todo-lines")!;
      assert.ok(retried.retryWaitMs! >= 1000, String(retried.retryWaitMs));
      assert.ok(
        retried.retries!.some((x) => x.status === 429 && x.waitMs === 1000),
        JSON.stringify(retried.retries),
      );
      assert.ok(retried.llmMs < retried.wallMs, `${retried.llmMs} < ${retried.wallMs}`);
      assert.equal(by.get("expenses-total")!.passed, true);
      const slow = by.get("notes-listing")!;
      assert.equal(slow.passed, null);
      assert.equal(slow.error?.kind, "timeout");
      const csv = (await Deno.readTextFile(join(dir, "faults", "summary.csv"))).trimEnd().split(
        "\n",
      );
      const h = csv[0].split(",");
      const row = csv[1].split(",");
      assert.equal(Number(row[h.indexOf("scored")]), 2);
      assert.equal(Number(row[h.indexOf("pass_rate")]), 1);
      assert.equal(Number(row[h.indexOf("error_rate")]), 0.333333);
      // Wire log: one file per HTTP exchange, statuses as sent, key redacted.
      const files = (await Array.fromAsync(Deno.readDir(wire))).map((e) => e.name).sort();
      assert.equal(files.length, s.requests.length);
      const entries = await Promise.all(
        files.map(async (f) => JSON.parse(await Deno.readTextFile(join(wire, f)))),
      );
      const statuses = entries.map((e) => e.response?.status ?? null);
      assert.ok(statuses.includes(429) && statuses.includes(500));
      for (const f of files) {
        const text = await Deno.readTextFile(join(wire, f));
        assert.ok(!text.includes(KEY) && !text.includes("SECRET"), `${f} leaks the key`);
      }
      // The per-case timeout aborted the slow request and did not retry it: exactly one request
      // for that case. (This replaces a wall-clock bound: speed belongs in benchmarks.)
      const notes = [...seen].filter(([q]) => /notes folder/.test(q));
      assert.deepEqual(notes.map(([, n]) => n), [1]);
    });
  },
});

Deno.test({
  name:
    "agents: an unreachable model gives infrastructure errors, exits 1 and says how to configure one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-e2e-" });
    try {
      const models = await modelsFile(dir, "http://127.0.0.1:9", "http://127.0.0.1:9/v1");
      const r = await runAgents([
        "--suite",
        "fixtures/suites/everything_tools.json",
        "--models",
        models,
        "--out",
        dir,
        "--agents",
        "all-terse-parallel",
        "--run-id",
        "offline",
      ]);
      // Every case an infrastructure error: the run measured nothing, so it exits 1.
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /no case was scored: \d+ infrastructure error\(s\) \(model \d+\): the run measured nothing/,
      );
      assert.match(r.stderr, /No model endpoint is reachable/);
      assert.match(r.stderr, /127\.0\.0\.1:11434/);
      const records = await readRecords(join(dir, "offline"));
      assert.ok(records.every((x) => x.passed === null && x.error?.code === "unreachable"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "merge: shards 1/2 and 2/2 join into the same cases and summary as one unsharded run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    await withModel(fixturePolicy, async (_s, dir, models) => {
      const common = [
        "--suite",
        "fixtures/suites/everything_tools.json",
        "--models",
        models,
        "--out",
        dir,
        "--agents",
        "all-terse-parallel,all-terse-sequential-gpt",
        "--repetitions",
        "2",
      ];
      for (
        const [id, extra] of [["whole", []], ["s1", ["--shard", "1/2"]], ["s2", [
          "--shard",
          "2/2",
        ]]] as const
      ) {
        const r = await runAgents([...common, "--run-id", id, ...extra]);
        assert.equal(r.code, 0, r.stderr);
      }
      const s1 = await readRecords(join(dir, "s1"));
      const s2 = await readRecords(join(dir, "s2"));
      assert.equal(s1.length + s2.length, 8);
      assert.equal(new Set([...s1, ...s2].map(key)).size, 8);
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
      const merged = await readRecords(join(dir, "merged"));
      const whole = await readRecords(join(dir, "whole"));
      assert.deepEqual(merged.map(key).sort(), whole.map(key).sort());
      assert.equal(
        stableSummary(await Deno.readTextFile(join(dir, "merged", "summary.csv"))),
        stableSummary(await Deno.readTextFile(join(dir, "whole", "summary.csv"))),
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

Deno.test({
  name:
    "agents: proxy and code exposure solve the suites through retrieve_tools then call_tool / run_code against the real servers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureServers();
    await withModel(fixturePolicy, async (s, dir, models) => {
      for (const suite of ["fs_basics", "memory_graph", "everything_tools"]) {
        const r = await runAgents([
          "--suite",
          `fixtures/suites/${suite}.json`,
          "--models",
          models,
          "--out",
          dir,
          "--tool-prices",
          "fixtures/agents/tool_prices.json",
          "--agents",
          "all-terse-proxy,all-terse-code",
          "--run-id",
          suite,
        ]);
        assert.equal(r.code, 0, r.stderr);
        for (const rec of await readRecords(join(dir, suite))) {
          assert.equal(rec.passed, true, `${key(rec)}: ${JSON.stringify(rec.criterion)}`);
        }
      }
      // The model saw exactly the proxy's tools (and the code exposure's), never a server's.
      const offered = new Set(
        s.requests.filter((q) => q.body.model === "scripted").map((q) =>
          (q.body.tools as { name: string }[]).map((t) => t.name).join(",")
        ),
      );
      assert.deepEqual(
        [...offered].sort(),
        ["retrieve_tools,describe_tool,call_tool", "retrieve_tools,run_code"],
      );
      const fs = await readRecords(join(dir, "fs_basics"));
      const todo = (agentId: string) =>
        fs.find((r) => r.agentId === agentId && r.caseId === "todo-lines")!;
      // Proxy: look up, call through call_tool; each upstream call recorded right after, `via`.
      assert.deepEqual(
        todo("all-terse-proxy").toolCalls.map((c) => [c.name, c.tool, c.via ?? null, c.isError]),
        [
          ["retrieve_tools", "mcpmeter-proxy:retrieve_tools", null, false],
          ["call_tool", "mcpmeter-proxy:call_tool", null, false],
          ["fs:list_allowed_directories", "fs:list_allowed_directories", "call_tool", false],
          ["retrieve_tools", "mcpmeter-proxy:retrieve_tools", null, false],
          ["call_tool", "mcpmeter-proxy:call_tool", null, false],
          ["fs:read_text_file", "fs:read_text_file", "call_tool", false],
        ],
      );
      assert.deepEqual(
        todo("all-terse-code").toolCalls.map((c) => [c.name, c.via ?? null]),
        [
          ["retrieve_tools", null],
          ["run_code", null],
          ["fs:list_allowed_directories", "run_code"],
          ["retrieve_tools", null],
          ["run_code", null],
          ["fs:read_text_file", "run_code"],
        ],
      );
      // Tool prices apply to the upstream call: everything:get-sum costs 0.001 $ per call.
      // Turns 0..2 (retrieve, call, answer): input 100+110+120, output 3 × 20, cache read
      // 3 × 50, cache write 3 × 5 → 330·3 + 60·15 + 150·0.3 + 15·3.75 = 1991.25 µ$.
      const ev = await readRecords(join(dir, "everything_tools"));
      const sum = ev.find((r) => r.agentId === "all-terse-proxy" && r.caseId === "sum")!;
      assert.equal(sum.iterations, 3);
      assert.ok(Math.abs(sum.costUsd! - (0.00199125 + 0.001)) < 1e-12, String(sum.costUsd));
      const run = JSON.parse(await Deno.readTextFile(join(dir, "fs_basics", "run.json")));
      assert.deepEqual(run.catalogs["all-terse-proxy"].mapping, {
        call_tool: "mcpmeter-proxy:call_tool",
        describe_tool: "mcpmeter-proxy:describe_tool",
        retrieve_tools: "mcpmeter-proxy:retrieve_tools",
      });
      assert.equal(run.catalogs["all-terse-code"].exposure, "code");
      // tool_calls_per_case counts the model's calls only: todo-lines and expenses-total take 4
      // (2 lookups, 2 calls); notes-listing takes 3, as the first lookup ("list allowed
      // directories") already returned list_directory. 11 / 3 cases.
      assert.deepEqual(
        fs.filter((r) => r.agentId === "all-terse-proxy").map((r) => [
          r.caseId,
          r.toolCalls.filter((c) => c.via === undefined).length,
        ]),
        [["todo-lines", 4], ["expenses-total", 4], ["notes-listing", 3]],
      );
      const csv = (await Deno.readTextFile(join(dir, "fs_basics", "summary.csv"))).trimEnd()
        .split("\n");
      const h = csv[0].split(",");
      const row = csv.find((l) => l.startsWith("all-terse-proxy,"))!.split(",");
      assert.equal(Number(row[h.indexOf("tool_calls_per_case")]), 3.666667);
    });
  },
});

// sqlite3's native addon is built from source at install (install scripts; Node headers from
// /usr when present). Kept apart from .scratch/servers, where other tests install without
// scripts. Installed before the test is registered, so a failed build marks the test `ignore`
// (reason on stderr) instead of letting it pass without checking anything.
const SQLITE_INSTALL_DIR = ".scratch/servers-scripts";
async function installSqliteServer(): Promise<string | undefined> {
  const setNodedir = Deno.env.get("npm_config_nodedir") === undefined &&
    await Deno.stat("/usr/include/node/node_api.h").then(() => true, () => false);
  if (setNodedir) Deno.env.set("npm_config_nodedir", "/usr");
  try {
    const [installed] = await installPackages(
      [{ package: "mcp-server-sqlite-npx", version: "0.8.0", scripts: true }],
      { installDir: SQLITE_INSTALL_DIR },
    );
    return installed.status === "failed" ? installed.message : undefined;
  } finally {
    if (setNodedir) Deno.env.delete("npm_config_nodedir");
  }
}
const sqliteProblem = await installSqliteServer();
if (sqliteProblem !== undefined) {
  console.warn(
    `ignored SQLite agents test: mcp-server-sqlite-npx could not be built: ${sqliteProblem}`,
  );
}

Deno.test({
  name: "agents: the SQLite suite passes over mcp-server-sqlite-npx and the fixture database",
  ignore: sqliteProblem !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const installDir = SQLITE_INSTALL_DIR;
    const before = await Deno.readFile("fixtures/suites/data/shop.sqlite");
    await withModel(fixturePolicy, async (_s, dir, models) => {
      const r = await runAgents([
        "--suite",
        "fixtures/suites/sqlite_shop.json",
        "--models",
        models,
        "--out",
        dir,
        "--agents",
        "sqlite-terse-sequential",
        "--install-dir",
        installDir,
        "--run-id",
        "sqlite",
      ]);
      assert.equal(r.code, 0, r.stderr);
      const records = await readRecords(join(dir, "sqlite"));
      assert.deepEqual(records.map((x) => [x.caseId, x.passed, x.finalAnswer]), [
        // Hand-checked against fixtures/suites/sqlite/shop.sql: 12 orders; Delta Labs
        // 449.97 + 89 + 399 = 937.97; two tables.
        ["order-count", true, "12"],
        ["top-customer", true, "Delta Labs (937.97 USD)"],
        ["table-list", true, "customers, orders"],
      ]);
    });
    // The servers worked on a copy: the fixture database is unchanged.
    assert.deepEqual(await Deno.readFile("fixtures/suites/data/shop.sqlite"), before);
  },
});
