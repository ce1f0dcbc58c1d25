import assert from "node:assert/strict";
import { join } from "node:path";
import { importMaverik, type MaverikIssue } from "./maverik.ts";
import { readMaverikFolder, writeMaverikImport } from "./maverik_io.ts";
import { loadAgents, loadModels, loadSuite, loadToolPrices } from "./load_config.ts";
import { parseServersConfig } from "../mcp/config.ts";
import { loadToolOverrides } from "../catalog/load_overrides.ts";
import { listVersions, resolveAgentSelections } from "./load_versions.ts";
import { snapshotSha256 } from "./versions.ts";

const FIXTURES = new URL("../../fixtures/maverik/", import.meta.url).pathname;
const has = (issues: readonly MaverikIssue[], file: string, field: string, level: string) =>
  issues.some((i) => i.file === file && i.field === field && i.level === level);

Deno.test("importMaverik() maps the basic folder field by field", async () => {
  const { folder } = await readMaverikFolder(join(FIXTURES, "basic"));
  const r = await importMaverik(folder);
  assert.deepEqual(r.counts, {
    agents: 2,
    versions: 2,
    models: 2,
    servers: 3,
    toolPrices: 2,
    overrides: 1,
    suites: 1,
    cases: 4,
  });
  const doc = (p: string) => JSON.parse(r.files[p]);
  // agents.json: name folded into description, prompt file copied, 1h caching, overrides.
  assert.deepEqual(doc("agents/docs-helper.json"), {
    id: "docs-helper",
    description: "Docs Helper: Answers .NET questions from the Microsoft Learn server.",
    model: "claude-small",
    systemPromptFile: "prompts/docs-helper.md",
    mcpServers: ["microsoft-learn"],
    exposure: "direct",
    loop: "sequential",
    maxIterations: 6,
    promptCaching: { enabled: true, ttl: "1h" },
    overrides: "overrides/docs-helper.json",
  });
  assert.equal(r.files["agents/prompts/docs-helper.md"], folder.prompts["docs-helper"]);
  // Case-insensitive keys, parallel-tools → parallel, MAVERIK's default of 8 iterations.
  const wide = doc("agents/docs-helper-wide.json");
  assert.equal(wide.loop, "parallel");
  assert.equal(wide.maxIterations, 8);
  assert.equal(wide.systemPrompt, "Answer in one short sentence. Use the tools when unsure.");
  // llm-models.json: multipliers × input price (1.0 × 0.1, 1.25, 2.0), null key of a local model.
  const [claude, qwen] = doc("agents/models.json").models;
  assert.deepEqual(claude.pricing, {
    inputUsdPerMTok: 1,
    outputUsdPerMTok: 5,
    cacheReadUsdPerMTok: 0.1,
    cacheWriteUsdPerMTok: 1.25,
    cacheWrite1hUsdPerMTok: 2,
  });
  assert.deepEqual(
    [qwen.provider, qwen.baseUrl, qwen.apiKey],
    ["openai", "http://127.0.0.1:52625/v1", "${LOCAL_QWEN_API_KEY:-none}"],
  );
  // mcp-servers.json: streamable HTTP, ${VAR} header kept.
  const servers = doc("agents/servers.json").mcpServers;
  assert.deepEqual(Object.keys(servers), ["deepwiki", "github", "microsoft-learn"]);
  assert.equal(servers.github.headers.Authorization, "Bearer ${GITHUB_MCP_PAT}");
  assert.equal(servers.deepwiki.type, "http");
  assert.deepEqual(doc("agents/tool_prices.json").toolPrices, {
    "github:search_code": 0.5,
    "microsoft-learn:microsoft_docs_search": 0.002,
  });
  assert.deepEqual(Object.keys(doc("agents/overrides/docs-helper.json").overrides), [
    "microsoft-learn:microsoft_docs_search",
  ]);
  // Suite: the four criterion types, the suite's judge on the llm-judge question.
  const suite = doc("suites/dotnet-basics.json");
  assert.deepEqual(suite.cases.map((c: { criterion: unknown }) => c.criterion), [
    { type: "contains", values: ["BackgroundService"], caseSensitive: false },
    { type: "regex", pattern: "\\bIHostedService\\b" },
    { type: "exact", value: "5000", caseSensitive: true },
    {
      type: "llm_judge",
      rubric:
        "PASS if the answer says endpoints are declared with little code and no controller classes.",
      model: "claude-small",
    },
  ]);
  // What could not be mapped, field by field.
  for (
    const [file, field, level] of [
      ["llm-models.json", "defaultModelId", "unmapped"],
      ["llm-models.json", "models[0].supportsTools", "unmapped"],
      ["llm-models.json", "models[1].apiKey", "changed"],
      ["agents.json", "defaultAgent", "unmapped"],
      ["maverik-suites/dotnet-basics.json", "agents", "unmapped"],
      ["capability-overrides.json", "overrides[1].description", "info"],
    ]
  ) assert.ok(has(r.issues, file, field, level), `${file} ${field} ${level}`);
  assert.equal(r.issues.filter((i) => i.level === "error").length, 0);
});

Deno.test("importMaverik() records what the broken folder cannot map, and maps the rest", async () => {
  const { folder } = await readMaverikFolder(join(FIXTURES, "broken"));
  const r = await importMaverik(folder);
  assert.deepEqual(r.inputs, [
    { file: "llm-models.json", status: "malformed" },
    { file: "mcp-servers.json", status: "read" },
    { file: "agents.json", status: "example" },
    { file: "tool-costs.json", status: "missing" },
    { file: "capability-overrides.json", status: "read" },
    { file: "maverik-suites/inventory-smoke.json", status: "read" },
    { file: "maverik-suites/torn.json", status: "malformed" },
  ]);
  assert.deepEqual(
    { agents: r.counts.agents, servers: r.counts.servers, cases: r.counts.cases },
    { agents: 2, servers: 1, cases: 2 },
  );
  const expected: [string, string, string, RegExp][] = [
    ["llm-models.json", "", "error", /not valid JSON/],
    ["mcp-servers.json", "restartPolicy", "unmapped", /not a MAVERIK field/],
    ["mcp-servers.json", "servers[0].timeout", "unmapped", /not a MAVERIK field/],
    ["mcp-servers.json", "servers[0].headers.Authorization", "changed", /literal credential/],
    ["mcp-servers.json", "servers[1].transport", "error", /"stdio" is unsupported/],
    ["mcp-servers.json", "servers[2].name", "error", /missing/],
    ["agents.example.json", "agents[0].temperature", "unmapped", /not a MAVERIK field/],
    ["agents.example.json", "agents[0].loopType", "changed", /"reflection" is unknown/],
    ["agents.example.json", "agents[0].mcpServers[1]", "unmapped", /"nope"/],
    ["agents.example.json", "agents[0].maxIterations", "changed", /0 is not an integer >= 1/],
    ["agents.example.json", "agents[0].promptCachingTtl", "changed", /"2h"/],
    ["agents.example.json", "agents[1].systemPrompt", "error", /no-prompt\.md does not exist/],
    ["agents.example.json", "agents[2].id", "changed", /"inventory-assistant"/],
    ["tool-costs.json", "", "info", /missing/],
    ["capability-overrides.json", "overrides[0].agentId", "error", /"ghost"/],
    ["capability-overrides.json", "overrides[1].description", "error", /not a string/],
    ["maverik-suites/inventory-smoke.json", "owner", "unmapped", /not a MAVERIK field/],
    ["maverik-suites/inventory-smoke.json", "questions[1].criterion.pattern", "changed", /\(\?i\)/],
    ["maverik-suites/inventory-smoke.json", "questions[2].criterion.pattern", "error", /compile/],
    ["maverik-suites/inventory-smoke.json", "questions[3].criterion.type", "error", /semantic/],
    ["maverik-suites/inventory-smoke.json", "questions[4].criterion.judgeModel", "error", /judge/],
    ["maverik-suites/inventory-smoke.json", "questions[5].id", "error", /missing/],
    ["maverik-suites/torn.json", "", "error", /not valid JSON/],
  ];
  for (const [file, field, level, message] of expected) {
    const hit = r.issues.find((i) => i.file === file && i.field === field && i.level === level);
    assert.ok(hit, `no ${level} issue for ${file} ${field}`);
    assert.match(hit.message, message);
  }
  // The literal credential never reaches any output or the report.
  const everything = JSON.stringify(r);
  assert.ok(!everything.includes("not-a-real-token"), "a literal credential leaked");
  const inv = JSON.parse(r.files["agents/servers.json"]).mcpServers.inventory;
  assert.deepEqual(inv.headers, { Authorization: "${INVENTORY_AUTHORIZATION}", "X-Team": "stock" });
  const reflector = JSON.parse(r.files["agents/reflector.json"]);
  assert.deepEqual(
    [reflector.loop, reflector.maxIterations, reflector.mcpServers, reflector.promptCaching],
    ["sequential", 1, ["inventory"], { enabled: true, ttl: "5m" }],
  );
  const suite = JSON.parse(r.files["suites/inventory-smoke.json"]);
  assert.deepEqual(suite.cases[1].criterion, {
    type: "regex",
    pattern: "get_low_stock_items",
    flags: "i",
  });
});

Deno.test("importMaverik() records a version file it cannot use", async () => {
  const r = await importMaverik({
    files: {},
    prompts: {},
    suites: {},
    versions: {
      "a/1.json": "{",
      "a/2.json": JSON.stringify({ agentId: "a", version: 2, config: { id: "a" } }),
      "a/x.json": "{}",
      "a/3.json": JSON.stringify({
        agentId: "a",
        version: 3,
        cutAt: "yesterday",
        config: { id: "a", model: "m", systemPrompt: "p", mcpServers: [] },
      }),
    },
  });
  assert.ok(has(r.issues, "agent-versions/a/1.json", "", "error"));
  assert.ok(has(r.issues, "agent-versions/a/2.json", "config.model", "error"));
  assert.ok(has(r.issues, "agent-versions/a/x.json", "", "unmapped"));
  assert.ok(has(r.issues, "agent-versions/a/3.json", "cutAt", "changed"));
  assert.deepEqual(Object.keys(r.files), ["agents/versions/a/3.json"]);
  assert.equal(r.counts.versions, 1);
});

Deno.test("importMaverik() is deterministic and survives any JSON in any file", async () => {
  const texts = ["", "null", "[]", "42", '{"agents": 3}', '{"models": [1, null]}', "{"];
  for (const text of texts) {
    const folder = {
      files: Object.fromEntries(
        ["agents.json", "llm-models.json", "mcp-servers.json", "tool-costs.json"].map((
          f,
        ) => [f, text]),
      ),
      prompts: {},
      suites: { "s.json": text },
    };
    const a = await importMaverik(folder);
    assert.deepEqual(a, await importMaverik(folder));
    assert.ok(a.issues.some((i) => i.level === "error"), `no error recorded for ${text}`);
    assert.deepEqual(a.files, {});
  }
});

Deno.test("the written import loads with mcpmeter's own loaders; a non-empty --out needs force", async () => {
  const out = await Deno.makeTempDir({ prefix: "mcpmeter-maverik-" });
  try {
    const { folder, dir } = await readMaverikFolder(join(FIXTURES, "basic"));
    const r = await importMaverik(folder);
    const written = await writeMaverikImport(out, r, { from: dir });
    assert.equal(written.at(-1), "import-report.json");
    const agents = await loadAgents(join(out, "agents"));
    assert.deepEqual(agents.map((a) => a.id), ["docs-helper", "docs-helper-wide"]);
    assert.match(agents[0].systemPrompt, /documentation tools first/);
    const models = await loadModels(join(out, "agents/models.json"));
    for (const a of agents) assert.ok(models.some((m) => m.id === a.model), a.model);
    const servers = parseServersConfig(
      await Deno.readTextFile(join(out, "agents/servers.json")),
      { source: "servers.json" },
    );
    for (const a of agents) {
      for (const s of a.mcpServers) assert.ok(servers.servers.some((x) => x.name === s), s);
    }
    const suite = await loadSuite(join(out, "suites/dotnet-basics.json"));
    assert.equal(suite.cases.length, 4);
    assert.equal(
      (await loadToolPrices(join(out, "agents/tool_prices.json")))["github:search_code"],
      0.5,
    );
    // MAVERIK's cut versions load as mcpmeter versions (docs-helper@1, @2), hashes verified.
    const versions = await listVersions(join(out, "agents/versions"), "docs-helper");
    assert.deepEqual(versions.map((v) => v.version), [1, 2]);
    for (const v of versions) assert.equal(v.sha256, await snapshotSha256(v.config, v.agentId));
    assert.deepEqual(versions[0].config.mcpServers, ["microsoft-learn", "deepwiki"]);
    assert.equal(versions[0].createdAt, "2026-07-02T09:30:00.000Z");
    assert.equal(versions[0].config.maxOutputTokens, 1024);
    const { agents: picked } = await resolveAgentSelections(
      ["docs-helper@1", "docs-helper"],
      agents,
      join(out, "agents/versions"),
    );
    assert.deepEqual(picked.map((a) => a.id), ["docs-helper@1", "docs-helper"]);
    const o = await loadToolOverrides(join(out, "agents/overrides/docs-helper.json"));
    assert.equal(Object.keys(o.overrides).length, 1);
    const report = JSON.parse(await Deno.readTextFile(join(out, "import-report.json")));
    assert.equal(report.schemaVersion, 1);
    assert.deepEqual(report.counts, r.counts);
    assert.equal(report.issues.length, r.issues.length);
    await assert.rejects(
      () => writeMaverikImport(out, r, { from: dir }),
      /not empty \(use --force/,
    );
    await writeMaverikImport(out, r, { from: dir, force: true });
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
