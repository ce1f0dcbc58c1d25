// test:quick skips this file: its tests start processes (deno task test runs them).
// The agents flow in process: runAgents() over real MCP servers from npm (filesystem, memory,
// everything @2026.8.31 and mcp-server-sqlite-npx, installed into .scratch when missing; the
// scripted policy's answers depend on what those servers really return, so they run over stdio,
// not as in-process twins) and a local HTTP server speaking the Anthropic and OpenAI wire
// formats with scripted replies. What is about the process (kill and resume, exit codes, the
// merge task) stays in tasks/agents_test.ts and tasks/merge_test.ts.
import { errorReply, malformedReply } from "../../testing/scripted_replies.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../mcp/install.ts";
import { type ReceivedRequest, type ScriptedReply } from "../agent/_scripted_model_server.ts";
import { fixturePolicy } from "../agent/_scripted_policy.ts";
import { runForecast } from "./forecast.ts";
import {
  E2E_KEY,
  ensureAgentServers,
  readRecords,
  recordKey,
  runAgentsForTest,
  stableSummary,
  summaryValue,
  withScriptedModel,
  writeAgentsRegistry,
} from "../../testing/agents.ts";

Deno.test({
  name:
    "runAgents(): three suites over real MCP servers pass, costs match hand computation, summaries are deterministic",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    await withScriptedModel(fixturePolicy, async (s, dir, models) => {
      const common = {
        models,
        out: dir,
        env: { E2E_KEY },
        toolPrices: "fixtures/agents/tool_prices.json",
        agents: ["all-terse-parallel", "all-terse-sequential-gpt"],
        repetitions: 2,
        concurrency: 3,
      };
      for (const suite of ["fs_basics", "memory_graph", "everything_tools"]) {
        for (const runId of [`${suite}-1`, `${suite}-2`]) {
          const r = await runAgentsForTest({
            ...common,
            suite: `fixtures/suites/${suite}.json`,
            runId,
          });
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
          assert.equal(r.passed, true, `${recordKey(r)}: ${JSON.stringify(r.criterion)}`);
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
      // The first request alone: input 100 + cache read 50 + cache write 5.
      assert.equal(sum.firstTurnInputTokens, 155);
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
      // Its first request: prompt_tokens 150 (100 uncached + 50 cached).
      assert.equal(gptSum.firstTurnInputTokens, 150);
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
      const csv = await Deno.readTextFile(join(dir, "memory_graph-1", "summary.csv"));
      const cell = (column: string) => summaryValue(csv, "all-terse-parallel", column);
      // 3 cases × 2 repetitions × 1297.5 µ$ agent cost; judge: 2 × 375 µ$ apart.
      assert.equal(cell("total_cost_usd"), 0.007785);
      assert.equal(cell("judge_cost_usd"), 0.00075);
      assert.equal(cell("pass_rate"), 1);
      assert.equal(cell("pass_at_k"), 1);

      // run.json: catalog hashes, config snapshot, no secret anywhere in the run folder.
      const run = JSON.parse(await Deno.readTextFile(join(dir, "memory_graph-1", "run.json")));
      assert.equal(run.status, "complete");
      assert.match(run.catalogs["all-terse-parallel"].hash, /^[0-9a-f]{64}$/);
      assert.equal(run.catalogs["all-terse-parallel"].mapping["read_graph"], "memory:read_graph");
      // The static estimate of the first request: Anthropic's documented 346-token overhead (or
      // Opus 4.7's interval around it), every exposed tool, the system prompt; parts add up.
      const est = run.catalogs["all-terse-parallel"].estimate;
      assert.equal(est.provider, "anthropic");
      assert.equal(est.tools.count, Object.keys(run.catalogs["all-terse-parallel"].mapping).length);
      assert.ok(est.overhead >= 346 && est.overhead <= 467, String(est.overhead));
      assert.equal(est.tokens, est.overhead + est.tools.tokens + est.systemPrompt.tokens);
      assert.ok(est.low <= est.tokens && est.tokens <= est.high);
      const run2 = JSON.parse(await Deno.readTextFile(join(dir, "memory_graph-2", "run.json")));
      assert.equal(
        run2.catalogs["all-terse-parallel"].hash,
        run.catalogs["all-terse-parallel"].hash,
      );
      for (const suite of ["fs_basics", "memory_graph"]) {
        for (const f of ["run.json", "cases.jsonl", "summary.csv"]) {
          const text = await Deno.readTextFile(join(dir, `${suite}-1`, f));
          assert.ok(!text.includes(E2E_KEY) && !text.includes("SECRET"), `${f} leaks the key`);
        }
      }
      // The scripted server saw the real key on the wire (so redaction above is meaningful).
      assert.ok(
        s.requests.some((r) =>
          (r.headers["authorization"] ?? r.headers["x-api-key"] ?? "").includes(E2E_KEY)
        ),
      );
    });
  },
});

Deno.test({
  name:
    "runAgents(): the search exposures over real MCP servers: the scripted model searches before its first call of each tool, the cases pass and record their searches",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    await withScriptedModel(fixturePolicy, async (s, dir, models) => {
      for (const suite of ["fs_basics", "everything_tools"]) {
        const r = await runAgentsForTest({
          models,
          out: dir,
          env: { E2E_KEY },
          suite: `fixtures/suites/${suite}.json`,
          agents: ["all-terse-search", "all-terse-search-gpt"],
          runId: suite,
        });
        assert.equal(r.code, 0, r.stderr);
        for (const rec of await readRecords(join(dir, suite))) {
          assert.equal(rec.passed, true, `${recordKey(rec)}: ${JSON.stringify(rec.criterion)}`);
          // Every tool the case called was first returned by a search of the case.
          const found = new Set(rec.toolSearch!.searches.flatMap((x) => x.tools));
          for (const c of rec.toolCalls) {
            assert.ok(found.has(c.tool!), `${recordKey(rec)} ${c.tool}`);
          }
          assert.ok(rec.toolSearch!.searches.length >= 1);
          assert.equal(rec.toolSearch!.tokenizer, "o200k_base");
          assert.ok(rec.toolSearch!.expansionTokens! > 0);
        }
      }
      // everything/echo: one search for "echo", which finds everything:echo first.
      const echo = (await readRecords(join(dir, "everything_tools"))).find((x) =>
        x.agentId === "all-terse-search" && x.caseId === "echo"
      )!;
      assert.deepEqual(echo.toolSearch!.searches.map((x) => [x.turn, x.input]), [
        [1, { query: "echo" }],
      ]);
      assert.equal(echo.toolSearch!.searches[0].tools[0], "everything:echo");
      // The wire: Anthropic requests carry the bm25 search tool, Responses ones tool_search.
      const anthropic = s.requests.find((r) => r.provider === "anthropic")!;
      assert.equal(
        (anthropic.body.tools as { type?: string }[])[0].type,
        "tool_search_tool_bm25_20251119",
      );
      const responses = s.requests.find((r) => r.provider === "openai-responses")!;
      assert.equal((responses.body.tools as { type?: string }[]).at(-1)!.type, "tool_search");
    });
  },
});

Deno.test({
  name:
    "runAgents(): a search exposure on a model without tool search is refused before anything runs",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withScriptedModel(fixturePolicy, async (s, dir) => {
      const models = join(dir, "old-models.json");
      await Deno.writeTextFile(
        models,
        JSON.stringify({
          models: [{
            id: "claude",
            provider: "anthropic",
            model: "claude-3-5-haiku-20241022",
            baseUrl: s.url,
            apiKey: "${E2E_KEY}",
            pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
          }],
        }),
      );
      await assert.rejects(
        () =>
          runAgentsForTest({
            models,
            out: dir,
            env: { E2E_KEY },
            suite: "fixtures/suites/everything_tools.json",
            agents: ["all-terse-search"],
            runId: "refused",
          }),
        /agent "all-terse-search" \(model "claude"\): model "claude-3-5-haiku-20241022" has no tool search/,
      );
      assert.equal(s.requests.length, 0);
      await assert.rejects(() => Deno.stat(join(dir, "refused")), Deno.errors.NotFound);
    });
  },
});

Deno.test({
  name:
    "runAgents(): 429 with Retry-After, 500 and malformed JSON are retried; slow replies time out as infrastructure errors",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
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
    await withScriptedModel(handler, async (s, dir, models) => {
      const wire = join(dir, "wire");
      const r = await runAgentsForTest({
        suite: "fixtures/suites/fs_basics.json",
        models,
        out: dir,
        env: { E2E_KEY },
        agents: ["fs-terse-sequential"],
        runId: "faults",
        timeoutMs: 1500,
        wireLog: wire,
      });
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
      const csv = await Deno.readTextFile(join(dir, "faults", "summary.csv"));
      const cell = (column: string) => summaryValue(csv, "fs-terse-sequential", column);
      assert.equal(cell("scored"), 2);
      assert.equal(cell("pass_rate"), 1);
      assert.equal(cell("error_rate"), 0.333333);
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
        assert.ok(!text.includes(E2E_KEY) && !text.includes("SECRET"), `${f} leaks the key`);
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
    "runAgents(): an unreachable model gives infrastructure errors, exit code 1 and says how to configure one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-e2e-" });
    try {
      const models = await writeAgentsRegistry(dir, "http://127.0.0.1:9", "http://127.0.0.1:9/v1");
      const r = await runAgentsForTest({
        suite: "fixtures/suites/everything_tools.json",
        models,
        out: dir,
        env: { E2E_KEY },
        agents: ["all-terse-parallel"],
        runId: "offline",
      });
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
  name:
    "runAgents(): proxy and code exposure solve the suites through retrieve_tools then call_tool / run_code against the real servers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    await withScriptedModel(fixturePolicy, async (s, dir, models) => {
      for (const suite of ["fs_basics", "memory_graph", "everything_tools"]) {
        const r = await runAgentsForTest({
          suite: `fixtures/suites/${suite}.json`,
          models,
          out: dir,
          env: { E2E_KEY },
          toolPrices: "fixtures/agents/tool_prices.json",
          agents: ["all-terse-proxy", "all-terse-code"],
          runId: suite,
        });
        assert.equal(r.code, 0, r.stderr);
        for (const rec of await readRecords(join(dir, suite))) {
          assert.equal(rec.passed, true, `${recordKey(rec)}: ${JSON.stringify(rec.criterion)}`);
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
      const csv = await Deno.readTextFile(join(dir, "fs_basics", "summary.csv"));
      assert.equal(summaryValue(csv, "all-terse-proxy", "tool_calls_per_case"), 3.666667);
    });
  },
});

// sqlite3's native addon is built from source at install (install scripts; installPackages
// gives node-gyp the Node headers of /usr when present). Kept apart from .scratch/servers, where other tests install without
// scripts. Installed before the test is registered, so a failed build marks the test `ignore`
// (reason on stderr) instead of letting it pass without checking anything.
const SQLITE_INSTALL_DIR = ".scratch/servers-scripts";
async function installSqliteServer(): Promise<string | undefined> {
  const [installed] = await installPackages(
    [{ package: "mcp-server-sqlite-npx", version: "0.8.0", scripts: true }],
    { installDir: SQLITE_INSTALL_DIR },
  );
  return installed.status === "failed" ? installed.message : undefined;
}
const sqliteProblem = await installSqliteServer();
if (sqliteProblem !== undefined) {
  console.warn(
    `ignored SQLite agents test: mcp-server-sqlite-npx could not be built: ${sqliteProblem}`,
  );
}

Deno.test({
  name: "runAgents(): the SQLite suite passes over mcp-server-sqlite-npx and the fixture database",
  ignore: sqliteProblem !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const installDir = SQLITE_INSTALL_DIR;
    const before = await Deno.readFile("fixtures/suites/data/shop.sqlite");
    await withScriptedModel(fixturePolicy, async (_s, dir, models) => {
      const r = await runAgentsForTest({
        suite: "fixtures/suites/sqlite_shop.json",
        models,
        out: dir,
        env: { E2E_KEY },
        agents: ["sqlite-terse-sequential"],
        installDir,
        runId: "sqlite",
      });
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

Deno.test({
  name:
    "runAgents(): a reply with impossible token usage is that case's infrastructure error with the values; the run completes, resumes and forecasts without NaN or Infinity",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    // The todo case's replies report 1e308 input and -3 output tokens; the rest are honest.
    const handler = (req: ReceivedRequest): ScriptedReply => {
      const reply = fixturePolicy(req);
      const first = (req.body.messages as { content: unknown }[])[0].content;
      if (!/todo\.txt/.test(JSON.stringify(first))) return reply;
      const body = JSON.parse(reply.body as string);
      body.usage = { input_tokens: 1e308, output_tokens: -3 };
      return { ...reply, body: JSON.stringify(body) };
    };
    await withScriptedModel(handler, async (_s, dir, models) => {
      const options = {
        suite: "fixtures/suites/fs_basics.json",
        models,
        out: dir,
        env: { E2E_KEY },
        agents: ["fs-terse-sequential"],
        runId: "lies",
      };
      const r = await runAgentsForTest(options);
      assert.equal(r.code, 0, r.stderr);
      const runDir = join(dir, "lies");
      const runJson = JSON.parse(await Deno.readTextFile(join(runDir, "run.json")));
      assert.equal(runJson.status, "complete");
      const todo = (await readRecords(runDir)).find((x) => x.caseId === "todo-lines")!;
      assert.equal(todo.passed, null);
      assert.deepEqual([todo.error?.kind, todo.error?.code], ["model", "bad_usage"]);
      assert.equal(
        todo.error?.message,
        'model "claude": anthropic: the reply\'s token usage is impossible: usage.input_tokens = 1e+308 (is out of range (magnitude above 9007199254740991)); usage.output_tokens = -3 (is below 0)',
      );
      // Resuming finds nothing to do and completes again.
      const again = await runAgentsForTest({ ...options, resume: true });
      assert.equal(again.code, 0, again.stderr);
      // Nothing downstream prints NaN or Infinity.
      const forecast = await runForecast({ run: runDir, questions: 1000 });
      assert.doesNotMatch(forecast.stdout, /NaN|Infinity/, forecast.stdout);
      // (The error message in cases.csv quotes 1e+308; no figure holds it.)
      for (const name of ["summary.csv", "cases.csv", "summary.json", "run.json"]) {
        const text = await Deno.readTextFile(join(runDir, name));
        assert.doesNotMatch(text, /NaN|Infinity/, name);
      }
      assert.doesNotMatch(await Deno.readTextFile(join(runDir, "summary.csv")), /e\+/);
    });
  },
});

Deno.test({
  name:
    "runAgents(): an entry written as users write it (npx -y, unpinned) is pinned and installed before the cases, as capture does; an uninstallable one (uvx) is its agent's cause and the run goes on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // What npm itself calls the newest version, asked independently of the resolver.
    const view = await new Deno.Command("npm", {
      args: ["view", "@modelcontextprotocol/server-memory", "version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const latest = new TextDecoder().decode(view.stdout).trim();
    if (!view.success || latest === "") {
      if (Deno.env.get("CI")) throw new Error("npm view failed");
      console.warn("skipped: the npm registry cannot be reached");
      return;
    }
    await withScriptedModel(fixturePolicy, async (_s, dir, models) => {
      const agentsDir = join(dir, "agents");
      await Deno.mkdir(join(agentsDir, "prompts"), { recursive: true });
      await Deno.copyFile("fixtures/agents/prompts/terse.md", join(agentsDir, "prompts/terse.md"));
      const agent = (id: string, server: string) =>
        Deno.writeTextFile(
          join(agentsDir, `${id}.json`),
          JSON.stringify({
            id,
            description: `The ${server} server as pasted from a client config.`,
            model: "gpt",
            systemPromptFile: "prompts/terse.md",
            mcpServers: [server],
            exposure: "direct",
            loop: "sequential",
            maxIterations: 8,
            temperature: 0,
            maxOutputTokens: 512,
          }),
        );
      await agent("mem-npx", "memory");
      await agent("fetch-uvx", "fetch");
      // A Claude Desktop entry as pasted: no package, no version, no ${BIN}.
      const servers = join(dir, "servers.json");
      await Deno.writeTextFile(
        servers,
        JSON.stringify({
          mcpServers: {
            memory: {
              command: "npx",
              args: ["-y", "@modelcontextprotocol/server-memory"],
              env: { MEMORY_FILE_PATH: "${DATA}/memory.jsonl" },
            },
            fetch: { command: "uvx", args: ["mcp-server-fetch"] },
          },
        }),
      );
      const r = await runAgentsForTest({
        suite: "fixtures/suites/memory_graph.json",
        models,
        out: dir,
        env: { E2E_KEY },
        agentsDir,
        servers,
        agents: ["mem-npx", "fetch-uvx"],
        runId: "npx",
      });
      // The memory agent's cases were scored, so the run measured something: exit 0.
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `memory: npx @modelcontextprotocol/server-memory runs @modelcontextprotocol/server-memory@${
            latest.replaceAll(".", "\\.")
          } \\(unpinned: resolved now\\)`,
        ),
      );
      const records = await readRecords(join(dir, "npx"));
      const key = (x: { agentId: string; caseId: string }) => `${x.agentId} ${x.caseId}`;
      const sorted = [...records].sort((a, b) => key(a) < key(b) ? -1 : 1);
      // fixtures/suites/data/memory.jsonl: Alice works at Acme, headquartered in Berlin; four
      // entities; Bob is a product manager at Globex. Every memory case passes once the server
      // starts; every fetch case is an mcp error naming why uvx cannot be installed.
      assert.deepEqual(
        sorted.map((x) => [key(x), x.passed, x.error?.kind ?? null]),
        [
          ["fetch-uvx alice-company-city", null, "mcp"],
          ["fetch-uvx bob-role-judged", null, "mcp"],
          ["fetch-uvx entity-count", null, "mcp"],
          ["mem-npx alice-company-city", true, null],
          ["mem-npx bob-role-judged", true, null],
          ["mem-npx entity-count", true, null],
        ],
      );
      for (const x of sorted.slice(0, 3)) {
        assert.match(
          x.error!.message,
          /^MCP server "fetch": cannot start: uvx mcp-server-fetch downloads a Python package from PyPI/,
        );
      }
    });
  },
});
