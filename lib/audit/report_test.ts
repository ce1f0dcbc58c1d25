import assert from "node:assert/strict";
import {
  amazonQToolName,
  buildConfigReport,
  clientToolName,
  clineToolName,
  codexToolName,
  geminiCliToolName,
  opencodeToolName,
  rooToolName,
} from "./report.ts";
import type { ClientConfig } from "./discover.ts";
import { readServerEntry } from "./entries.ts";
import type { ServerCaptureRecord } from "../mcp/types.ts";
import type { JsonObject } from "../catalog/types.ts";
import {
  addFeatures,
  calibrationEntry,
  DEFAULT_CALIBRATION,
  estimateTokens,
  providerFeatures,
} from "../billing/mod.ts";

// One token per character: every figure below is the length of a text written out by hand.
const count = (text: string) => text.length;
const folders = { home: "/h" };
const server = (name: string, raw: JsonObject, scope = "user") =>
  readServerEntry(name, raw, { scope, source: "/h/.claude.json", folders });

const TOOLS: JsonObject[] = [
  // keys in an order of the server's own; the wire form keeps it
  { name: "get", inputSchema: { type: "object", properties: {} }, description: "Get" },
  {
    description: "Put it",
    name: "put",
    inputSchema: { properties: { k: { type: "string" } }, type: "object" },
  },
];

function record(name: string, extra: Partial<ServerCaptureRecord> = {}): ServerCaptureRecord {
  return {
    server: name,
    transport: "stdio",
    outcome: "ok",
    warnings: [],
    tools: TOOLS,
    pages: {},
    captureMs: 1,
    runPaths: [],
    ...extra,
  };
}

function config(deferral: ClientConfig["deferral"]): ClientConfig {
  return {
    id: "claude-code ~",
    client: "claude-code",
    label: "Claude Code",
    files: ["/h/.claude.json"],
    servers: [
      server("kv", { command: "kv-mcp" }),
      server("off", { command: "x", disabled: true }),
      server("bad", { url: "ftp://nope" }),
      server("down", { command: "down-mcp", env: { DOWN_TOKEN: "t0k3n-value" } }),
    ],
    notes: [],
    deferral,
  };
}

const records = (s: { name: string }) =>
  s.name === "kv" ? record("kv", { instructions: "Use kv." }) : s.name === "down"
    ? record("down", {
      outcome: "exited",
      message: "the server exited with code 1 during initialize",
      tools: [],
    })
    : undefined;

Deno.test("buildConfigReport() counts each server's sent and wire forms, and the config's totals", () => {
  const r = buildConfigReport(
    config({
      kind: "claude-code",
      layers: [{ where: "s", env: { ENABLE_TOOL_SEARCH: "false" } }],
      consulted: ["s"],
    }),
    records,
    {
      count,
      home: "/h",
      contextWindow: 1000,
      heaviest: 1,
    },
  );
  const get =
    '{"name":"mcp__kv__get","description":"Get","input_schema":{"type":"object","properties":{}}}';
  const put =
    '{"name":"mcp__kv__put","description":"Put it","input_schema":{"properties":{"k":{"type":"string"}},"type":"object"}}';
  const sent = `[${get},${put}]`.length;
  const wire = JSON.stringify(TOOLS).length;
  assert.equal(
    wire,
    '[{"name":"get","inputSchema":{"type":"object","properties":{}},"description":"Get"},{"description":"Put it","name":"put","inputSchema":{"properties":{"k":{"type":"string"}},"type":"object"}}]'
      .length,
  );
  assert.deepEqual(r.servers.map((s) => [s.name, s.status, s.tools, s.sentTokens, s.wireTokens]), [
    ["kv", "ok", 2, sent, wire],
    ["off", "disabled", null, null, null],
    ["bad", "not-started", null, null, null],
    ["down", "exited", null, null, null],
  ]);
  assert.match(r.servers[2].cause!, /expected an http:\/\/ or https:\/\/ URL/);
  assert.equal(r.servers[3].cause, "the server exited with code 1 during initialize");
  assert.equal(r.servers[0].instructionsTokens, "Use kv.".length);
  // The bill is lib/billing's estimate of the tools as sent (Claude's current tokenizer entry):
  // the server's share without the request's tool-use overhead, the config's with it.
  const shaped = [
    { name: "mcp__kv__get", description: "Get", inputSchema: TOOLS[0].inputSchema as JsonObject },
    {
      name: "mcp__kv__put",
      description: "Put it",
      inputSchema: TOOLS[1].inputSchema as JsonObject,
    },
  ];
  const entry = calibrationEntry(DEFAULT_CALIBRATION, "anthropic", "claude-sonnet-5-5")!;
  assert.equal(entry.label, "Claude, Opus 4.7 tokenizer and later");
  const f = providerFeatures("anthropic", shaped);
  const server = estimateTokens(entry, addFeatures(...f.perTool), false);
  const total = estimateTokens(entry, addFeatures(...f.perTool, f.wrapper), true);
  assert.deepEqual(r.servers[0].billed, server);
  assert.equal(r.servers[0].share, server.tokens / 1000);
  assert.ok(
    total.tokens > server.tokens && total.low <= total.tokens && total.tokens <= total.high,
  );
  assert.deepEqual(r.totals, {
    servers: 4,
    measured: 1,
    tools: 2,
    billed: total,
    sentTokens: sent,
    wireTokens: wire,
    share: total.tokens / 1000,
  });
  // the heaviest tool is put; without it, the config sends [get]
  assert.deepEqual(r.heaviest, [{ server: "kv", tool: "put", sentTokens: `[${put}]`.length }]);
  assert.equal(r.posture.state, "upfront");
  assert.equal(r.sessionStart, null);
  assert.deepEqual(r.removal, {
    tools: ["kv:put"],
    sentTokens: sent - `[${get}]`.length,
    share: (sent - `[${get}]`.length) / sent,
    sessionStartTokens: null,
  });
  assert.equal(r.contextWindowFrom, "--context-window");
});

Deno.test("buildConfigReport() gives a deferring client's session start: names, instructions, alwaysLoad tools", () => {
  const c = config({ kind: "claude-code", layers: [], consulted: [] });
  const r = buildConfigReport(c, records, { count, home: "/h", contextWindow: 1000, heaviest: 1 });
  assert.equal(r.posture.state, "deferred");
  const names = "mcp__kv__get\nmcp__kv__put";
  assert.equal(r.sessionStart?.tokens, names.length + "Use kv.".length);
  assert.equal(r.removal?.sessionStartTokens, "mcp__kv__put".length + 1); // the name and its line break
  // Billed: the start scaled by the tools' billed/sent ratio, plus the request's overhead.
  const entry = calibrationEntry(DEFAULT_CALIBRATION, "anthropic", "claude-sonnet-5-5")!;
  const f = providerFeatures("anthropic", [
    { name: "mcp__kv__get", description: "Get", inputSchema: TOOLS[0].inputSchema as JsonObject },
    {
      name: "mcp__kv__put",
      description: "Put it",
      inputSchema: TOOLS[1].inputSchema as JsonObject,
    },
  ]);
  const tools = estimateTokens(entry, addFeatures(...f.perTool), false);
  const whole = estimateTokens(entry, addFeatures(...f.perTool, f.wrapper), true);
  const start = names.length + "Use kv.".length;
  const by = (t: number, w: number) => Math.round(start * t / r.totals.sentTokens) + (w - t);
  const billed = {
    tokens: by(tools.tokens, whole.tokens),
    low: by(tools.low, whole.low),
    high: by(tools.high, whole.high),
  };
  assert.deepEqual(r.sessionStart?.billed, billed);
  assert.equal(r.sessionStart?.share, billed.tokens / 1000);
  assert.ok(billed.tokens < r.totals.billed.tokens);

  const always = { ...c, servers: [server("kv", { command: "kv-mcp", alwaysLoad: true })] };
  const a = buildConfigReport(always, records, { count, home: "/h", contextWindow: 1000 });
  // an alwaysLoad server is sent whole; its instructions load as every server's do
  assert.equal(a.sessionStart?.tokens, a.totals.sentTokens + "Use kv.".length);
  // no server measured: nothing to start a session with, so no "0 tokens instead of 0"
  const down = { ...c, servers: [server("down", { command: "down-mcp" })] };
  const d = buildConfigReport(down, records, { count, home: "/h", contextWindow: 1000 });
  assert.deepEqual([d.posture.state, d.totals.measured, d.sessionStart], ["deferred", 0, null]);
  // Deferring already: no "if deferred" figure.
  assert.equal(r.ifDeferred, null);

  // The same config with ENABLE_TOOL_SEARCH=false loads every tool up front; what tool search
  // would start it with is the session start above, figure for figure.
  const off = config({
    kind: "claude-code",
    layers: [{ where: "s", env: { ENABLE_TOOL_SEARCH: "false" } }],
    consulted: ["s"],
  });
  const u = buildConfigReport(off, records, {
    count,
    home: "/h",
    contextWindow: 1000,
    heaviest: 1,
  });
  assert.deepEqual([u.posture.state, u.sessionStart], ["upfront", null]);
  assert.deepEqual(u.ifDeferred, {
    tokens: start,
    billed,
    share: billed.tokens / 1000,
    counted: r.sessionStart!.counted,
  });
  // Another client (Cursor defers by design) gets none.
  const cursor = buildConfigReport(
    { ...c, client: "cursor", deferral: { kind: "cursor" } },
    records,
    {
      count,
      home: "/h",
      contextWindow: 1000,
    },
  );
  assert.equal(cursor.ifDeferred, null);
  // Cursor is counted in OpenAI's format: its names list (the tools' own names, one a line) is
  // billed at its count, not at the ratio of OpenAI's compact rendering of definitions, plus
  // the request's overhead (the whole catalog's estimate less its tools').
  assert.equal(cursor.family, "gpt");
  const gpt = calibrationEntry(DEFAULT_CALIBRATION, "openai", null)!;
  const g = providerFeatures("openai", [
    { name: "get", description: "Get", inputSchema: TOOLS[0].inputSchema as JsonObject },
    { name: "put", description: "Put it", inputSchema: TOOLS[1].inputSchema as JsonObject },
  ]);
  const gTools = estimateTokens(gpt, addFeatures(...g.perTool), false);
  const gWhole = estimateTokens(gpt, addFeatures(...g.perTool, g.wrapper), true);
  const names2 = "get\nput".length;
  assert.equal(cursor.sessionStart?.tokens, names2);
  assert.deepEqual(cursor.sessionStart?.billed, {
    tokens: names2 + gWhole.tokens - gTools.tokens,
    low: names2 + gWhole.low - gTools.low,
    high: names2 + gWhole.high - gTools.high,
  });
});

Deno.test("buildConfigReport() counts another client's form, and --sent-form changes it", () => {
  const c: ClientConfig = {
    ...config({ kind: "none", client: "Windsurf" }),
    client: "windsurf",
    label: "Windsurf",
  };
  const r = buildConfigReport(c, records, { count, home: "/h" });
  const get =
    '{"type":"function","function":{"name":"get","description":"Get","parameters":{"type":"object","properties":{}}}}';
  const put =
    '{"type":"function","function":{"name":"put","description":"Put it","parameters":{"properties":{"k":{"type":"string"}},"type":"object"}}}';
  assert.equal(r.format, "openai-chat-completions");
  assert.equal(r.contextWindow, 128_000);
  assert.equal(r.totals.sentTokens, `[${get},${put}]`.length);
  assert.equal(r.posture.state, "none-documented");
  const g = buildConfigReport(c, records, { count, home: "/h", formats: { windsurf: "gemini" } });
  assert.equal(g.family, "gemini");
  assert.equal(g.contextWindow, 1_048_576);
  assert.equal(g.formatWhy, "chosen with --sent-form");
});

Deno.test("buildConfigReport() leaves the tools a config disables out of what the client sends, and says so", () => {
  const windsurf = (raw: JsonObject) =>
    readServerEntry("kv", raw, {
      scope: "user",
      source: "/h/.codeium/windsurf/mcp_config.json",
      folders,
      client: "windsurf",
    });
  const c: ClientConfig = {
    id: "windsurf ~/.codeium/windsurf/mcp_config.json",
    client: "windsurf",
    label: "Windsurf",
    files: ["/h/.codeium/windsurf/mcp_config.json"],
    servers: [windsurf({ command: "kv-mcp", disabledTools: ["put", "gone"] })],
    notes: [],
    deferral: { kind: "none", client: "Windsurf" },
  };
  const r = buildConfigReport(c, records, { count, home: "/h", contextWindow: 1000 });
  // Windsurf sends [get] alone, in OpenAI's chat format; it still receives both tools.
  const get =
    '{"type":"function","function":{"name":"get","description":"Get","parameters":{"type":"object","properties":{}}}}';
  const s = r.servers[0];
  assert.deepEqual([s.tools, s.toolsListed, s.disabledTools], [1, 2, ["put"]]);
  assert.equal(s.sentTokens, `[${get}]`.length);
  assert.equal(r.totals.sentTokens, `[${get}]`.length);
  assert.equal(r.totals.tools, 1);
  assert.equal(s.wireTokens, JSON.stringify(TOOLS).length);
  assert.deepEqual(s.toolCosts.map((t) => t.tool), ["get"]);
  assert.deepEqual(r.notes, [
    `"kv": 1 of 2 listed tools disabled in the config (disabledTools: put), not counted as ` +
    `sent; disabledTools also names gone, which the server does not list`,
  ]);
  // Over Windsurf's documented limit of 100 tools, a note says so (101 listed, none disabled).
  const many = Array.from({ length: 101 }, (_, i) => ({ ...TOOLS[0], name: `t${i}` }));
  const over = buildConfigReport(
    { ...c, servers: [windsurf({ command: "kv-mcp" })] },
    () => record("kv", { tools: many }),
    { count, home: "/h" },
  );
  assert.deepEqual(over.notes, [
    "101 tools are enabled: Windsurf gives Cascade at most 100 at a time (docs.windsurf.com, " +
    "Cascade MCP) and does not document which it leaves out; all are counted",
  ]);
  // Other clients do not read the key: Cursor sends both tools.
  const cursor = readServerEntry("kv", { command: "kv-mcp", disabledTools: ["put"] }, {
    scope: "global",
    source: "/h/.cursor/mcp.json",
    folders,
    client: "cursor",
  });
  const rc = buildConfigReport({ ...c, client: "cursor", servers: [cursor] }, records, {
    count,
    home: "/h",
  });
  assert.deepEqual([rc.servers[0].tools, rc.servers[0].disabledTools, rc.notes], [2, [], []]);
});

Deno.test("buildConfigReport() sends Gemini CLI's tools as mcp_SERVER_TOOL function declarations, under includeTools/excludeTools", () => {
  const gemini = (raw: JsonObject) =>
    readServerEntry("kv", raw, {
      scope: "user",
      source: "/h/.gemini/settings.json",
      folders,
      client: "gemini-cli",
    });
  const c: ClientConfig = {
    id: "gemini-cli ~/.gemini/settings.json",
    client: "gemini-cli",
    label: "Gemini CLI",
    files: ["/h/.gemini/settings.json"],
    // includeTools keeps get and put ("put(...)" names put); excludeTools wins over it for get
    servers: [
      gemini({ command: "kv-mcp", includeTools: ["get", "put(k)"], excludeTools: ["get"] }),
    ],
    notes: [],
    deferral: { kind: "none", client: "Gemini CLI" },
  };
  const r = buildConfigReport(c, records, { count, home: "/h" });
  const put =
    '{"name":"mcp_kv_put","description":"Put it","parametersJsonSchema":{"properties":{"k":{"type":"string"}},"type":"object"}}';
  assert.equal(r.format, "gemini");
  assert.equal(r.contextWindow, 1_048_576);
  assert.deepEqual([r.servers[0].tools, r.servers[0].disabledTools], [1, ["get"]]);
  assert.equal(r.totals.sentTokens, `[{"functionDeclarations":[${put}]}]`.length);
  // with includeTools alone, a tool it does not name is left out too
  const only = buildConfigReport(
    { ...c, servers: [gemini({ command: "kv-mcp", includeTools: ["get"] })] },
    records,
    { count, home: "/h" },
  );
  assert.deepEqual(only.servers[0].disabledTools, ["put"]);
});

Deno.test("buildConfigReport() counts a Gemini CLI server whose listed schema nests 3,000 levels", () => {
  // Gemini CLI sends the schema as listed; V8 writes a captured object it holds in dictionary
  // mode recursively, and the whole audit stopped with "Maximum call stack size exceeded".
  const depth = 3000;
  let schema: JsonObject = { type: "string" };
  for (let i = 0; i < depth; i++) {
    const o: Record<string, unknown> = { type: "object", properties: { x: schema }, tmp: 1 };
    delete o.tmp;
    schema = o as JsonObject;
  }
  const c: ClientConfig = {
    id: "gemini-cli ~/.gemini/settings.json",
    client: "gemini-cli",
    label: "Gemini CLI",
    files: ["/h/.gemini/settings.json"],
    servers: [
      readServerEntry("deep", { command: "deep-mcp" }, {
        scope: "user",
        source: "/h/.gemini/settings.json",
        folders,
        client: "gemini-cli",
      }),
    ],
    notes: [],
    deferral: { kind: "none", client: "Gemini CLI" },
  };
  const deep = record("deep", { tools: [{ name: "d", description: "Deep", inputSchema: schema }] });
  const r = buildConfigReport(c, () => deep, { count, home: "/h" });
  const text = `${'{"type":"object","properties":{"x":'.repeat(depth)}{"type":"string"}${
    "}}".repeat(depth)
  }`;
  assert.equal(r.servers[0].status, "ok");
  assert.equal(
    r.servers[0].sentTokens,
    `[{"functionDeclarations":[{"name":"mcp_deep_d","description":"Deep","parametersJsonSchema":${text}}]}]`
      .length,
  );
  assert.equal(
    r.servers[0].wireTokens,
    `[{"name":"d","description":"Deep","inputSchema":${text}}]`.length,
  );
});

Deno.test("geminiCliToolName() follows Gemini CLI's naming and sanitization", () => {
  assert.equal(geminiCliToolName("github", "create_issue"), "mcp_github_create_issue");
  assert.equal(geminiCliToolName("mcp_srv", "t"), "mcp_srv_t");
  assert.equal(geminiCliToolName("my server", "a/b"), "mcp_my_server_a_b");
  const long = geminiCliToolName("s", "x".repeat(70));
  assert.equal(long, `mcp_s_${"x".repeat(24)}...${"x".repeat(30)}`);
  assert.equal(long.length, 63);
});

Deno.test("codexToolName() writes mcp__SERVER__TOOL with Codex's characters, and hashes a name over 64", () => {
  assert.equal(codexToolName("issue tracker", "find/ticket"), "mcp__issue_tracker__find_ticket");
  assert.equal(codexToolName("a-b", "c-d"), "mcp__a-b__c-d");
  // 64 characters stay as written
  const at64 = codexToolName("issue-tracker-for-the-whole-company", "search.issues.by.label");
  assert.equal(at64, "mcp__issue-tracker-for-the-whole-company__search_issues_by_label");
  // 66 characters: the first 24 of the cleaned name, then the SHA-1 of the name as written
  // (python3 hashlib.sha1(b"mcp__issue-tracker__search.issues.by.label.and.owner.and.milestone"))
  assert.equal(
    codexToolName("issue-tracker", "search.issues.by.label.and.owner.and.milestone"),
    "mcp__issue-tracker__sear52b8b9305b7fdd8862aea52c8470b9a7de25e12c",
  );
});

Deno.test("buildConfigReport() gives a capture's notes as the config's notes, not the server's warnings", () => {
  const late = "server/discover was answered after the probe's wait (at most 5000 ms) ran out; " +
    "the client had gone on with initialize";
  const withNotes = (s: { name: string }) =>
    s.name === "kv" ? record("kv", { notes: [late], warnings: ["transport: junk"] }) : records(s);
  const r = buildConfigReport(config({ kind: "none", client: "Cursor" }), withNotes, {
    count,
    home: "/h",
  });
  const kv = r.servers.find((s) => s.name === "kv")!;
  assert.deepEqual(kv.warnings, ["transport: junk"]);
  assert.deepEqual(r.notes, [`"kv": ${late}`]);
});

Deno.test("clientToolName() gives Copilot CLI's SERVER-TOOL, the server's name kept as written", () => {
  // the CLI command reference's examples: my-server -> my-server-fetch, My Server -> My Server-fetch
  assert.equal(clientToolName("copilot-cli", "my-server", "fetch"), "my-server-fetch");
  assert.equal(clientToolName("copilot-cli", "My Server", "fetch"), "My Server-fetch");
});

Deno.test("clineToolName() writes SERVER__TOOL, and a name with other characters or over 64 cleaned, cut and hashed", () => {
  assert.equal(clineToolName("docs", "search-pages"), "docs__search-pages");
  // runs of other characters become one "_"; then "_" and 8 hex digits of the SHA-1 of the name
  // as written (python3 hashlib.sha1(b"my docs__search.pages").hexdigest()[:8])
  assert.equal(clineToolName("my docs", "search.pages"), "my_docs__search_pages_3e1ec9e2");
  // 73 characters: the first 55, "_", the hash (hashlib.sha1(b"s__" + b"t" * 70))
  const long = clineToolName("s", "t".repeat(70));
  assert.equal(long, `s__${"t".repeat(52)}_d45f0064`);
  assert.equal(long.length, 64);
});

Deno.test("rooToolName() writes mcp--SERVER--TOOL with Roo Code's characters, cut to 64", () => {
  assert.equal(rooToolName("my docs", "search.pages"), "mcp--my_docs--searchpages");
  // a part not starting with a letter or "_" gets one; "--" runs become "-"
  assert.equal(rooToolName("9lives", "a--b---c"), "mcp--_9lives--a-b-c");
  assert.equal(rooToolName("", "!!!"), "mcp--_--_unnamed");
  assert.equal(rooToolName("s", "t".repeat(70)), `mcp--s--${"t".repeat(56)}`);
});

Deno.test("buildConfigReport() sends Cline's and Roo Code's tools as OpenAI chat tools under their names", () => {
  const entry = (client: "cline" | "roo-code", raw: JsonObject) =>
    readServerEntry("kv", raw, { scope: "user", source: "/h/x.json", folders, client });
  const cline: ClientConfig = {
    id: "cline ~/.cline/data/settings/cline_mcp_settings.json",
    client: "cline",
    label: "Cline",
    files: ["/h/.cline/data/settings/cline_mcp_settings.json"],
    servers: [entry("cline", { command: "kv-mcp", autoApprove: ["get"], timeout: 30 })],
    notes: [],
    deferral: { kind: "none", client: "Cline" },
  };
  // A tool without a description gets the line Cline writes in its place (cline/cline v4.1.13,
  // sdk/packages/core/src/extensions/mcp/tools.ts); a description is sent trimmed.
  const tools: JsonObject[] = [
    { name: "get", inputSchema: { type: "object", properties: {} }, description: "  Get \n" },
    { name: "put", inputSchema: { properties: { k: { type: "string" } }, type: "object" } },
  ];
  const r = buildConfigReport(cline, () => record("kv", { tools }), { count, home: "/h" });
  const expected = "[" +
    '{"type":"function","function":{"name":"kv__get","description":"Get",' +
    '"parameters":{"type":"object","properties":{}}}},' +
    '{"type":"function","function":{"name":"kv__put",' +
    '"description":"Execute MCP tool \\"put\\" from server \\"kv\\".",' +
    '"parameters":{"properties":{"k":{"type":"string"}},"type":"object"}}}]';
  assert.equal(r.format, "openai-chat-completions");
  // Cline's default model is a Claude one: Claude's window and bill
  assert.deepEqual([r.family, r.contextWindow, r.billing.provider], [
    "claude",
    200_000,
    "anthropic",
  ]);
  assert.equal(r.totals.sentTokens, expected.length);
  assert.equal(r.posture.state, "none-documented");

  // Roo Code: mcp--SERVER--TOOL, and its disabledTools leave tools out
  const roo: ClientConfig = {
    ...cline,
    id: "roo-code x",
    client: "roo-code",
    label: "Roo Code",
    servers: [
      entry("roo-code", { command: "kv-mcp", alwaysAllow: ["get"], disabledTools: ["get"] }),
    ],
  };
  const rr = buildConfigReport(roo, records, { count, home: "/h" });
  // its schema as Roo Code rewrites it: type first, additionalProperties: false last
  const put = '{"type":"function","function":{"name":"mcp--kv--put","description":"Put it",' +
    '"parameters":{"type":"object","properties":{"k":{"type":"string"}},' +
    '"additionalProperties":false}}}';
  assert.deepEqual([rr.family, rr.contextWindow], ["gpt", 128_000]);
  assert.deepEqual([rr.servers[0].tools, rr.servers[0].disabledTools], [1, ["get"]]);
  assert.equal(rr.totals.sentTokens, `[${put}]`.length);
});

Deno.test("buildConfigReport() counts Kiro CLI's deferred session start as a server::tool: description line per tool, each description cut to 1 KB", () => {
  const long = "é".repeat(600); // 1,200 bytes in UTF-8: 512 of them fit in 1,024
  const kiroConfig: ClientConfig = {
    id: "kiro ~/.kiro/settings/mcp.json",
    client: "kiro",
    label: "Kiro",
    files: ["/h/.kiro/settings/mcp.json"],
    servers: [
      readServerEntry("kv", { command: "kv-mcp" }, {
        scope: "user",
        source: "/h/.kiro/settings/mcp.json",
        folders,
        client: "kiro",
      }),
    ],
    notes: [],
    deferral: { kind: "kiro", toolSearch: { enabled: true, minPct: 0, minTokens: 0 } },
  };
  const r = buildConfigReport(
    kiroConfig,
    () => record("kv", { tools: [TOOLS[0], { ...TOOLS[1], description: long }] }),
    { count, home: "/h", contextWindow: 1000 },
  );
  assert.equal(r.posture.state, "deferred");
  assert.equal(r.sessionStart?.tokens, `kv::get: Get\nkv::put: ${"é".repeat(512)}`.length);
  assert.match(r.sessionStart!.counted, /^a line per tool, server::tool: description/);
});

Deno.test("amazonQToolName() makes a name valid as Amazon Q CLI does (its own test's cases)", () => {
  // aws/amazon-q-developer-cli tool_manager.rs, test_sanitize_server_name
  assert.equal(amazonQToolName("@awslabs.cdk-mcp-server"), "awslabscdkmcpserver");
  assert.equal(amazonQToolName("good_name"), "good_name");
  assert.equal(amazonQToolName("a___b___c"), "abc");
  assert.match(amazonQToolName("@@@@@"), /^[a-zA-Z][a-zA-Z0-9_]*$/);
  assert.equal(clientToolName("amazon-q", "docs", "search-docs"), "searchdocs");
});

Deno.test("buildConfigReport() sends opencode's tools as it rewrites them: SERVER_TOOL, type object, additionalProperties false", () => {
  assert.equal(opencodeToolName("my docs", "search.pages"), "my_docs_search_pages");
  const oc: ClientConfig = {
    id: "opencode ~/.config/opencode",
    client: "opencode",
    label: "opencode",
    files: ["/h/.config/opencode/opencode.json"],
    servers: [
      readServerEntry("kv", { type: "local", command: ["kv-mcp"] }, {
        scope: "global",
        source: "/h/.config/opencode/opencode.json",
        folders,
        client: "opencode",
      }),
    ],
    notes: [],
    deferral: { kind: "opencode" },
    model: { format: "openai-chat-completions", family: "gpt", formatWhy: "test" },
  };
  // a tool without properties gets an empty object; keys it has keep their place
  const tools: JsonObject[] = [
    { name: "get", inputSchema: { type: "object" }, description: "Get" },
    {
      name: "put",
      inputSchema: { properties: { k: { type: "string" } }, type: "object" },
      description: "Put",
    },
  ];
  const r = buildConfigReport(oc, () => record("kv", { tools }), { count, home: "/h" });
  const expected = "[" +
    '{"type":"function","function":{"name":"kv_get","description":"Get",' +
    '"parameters":{"type":"object","properties":{},"additionalProperties":false}}},' +
    '{"type":"function","function":{"name":"kv_put","description":"Put",' +
    '"parameters":{"properties":{"k":{"type":"string"}},"type":"object","additionalProperties":false}}}]';
  assert.deepEqual([r.format, r.formatWhy], ["openai-chat-completions", "test"]);
  assert.equal(r.totals.sentTokens, expected.length);
});
