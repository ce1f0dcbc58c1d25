import assert from "node:assert/strict";
import { join } from "node:path";
import { type DeferralInputs, resolvePosture, type SettingsLayer } from "./posture.ts";
import { findConfigs } from "./io.ts";
import type { JsonObject } from "../catalog/types.ts";

const FIGURES = { toolTokens: 12_000, contextWindow: 200_000, toolCount: 40 }; // 6% of the window

function claude(
  layers: readonly SettingsLayer[],
  shell?: Record<string, string>,
): DeferralInputs {
  return {
    kind: "claude-code",
    layers,
    consulted: layers.map((l) => l.where),
    ...(shell ? { shell } : {}),
  };
}

const user = (env: JsonObject): SettingsLayer => ({ where: "~/.claude/settings.json", env });

Deno.test("Claude Code's posture for every documented ENABLE_TOOL_SEARCH value", async (t) => {
  const cases: [string, JsonObject, string, string][] = [
    ["unset: deferred by default", {}, "deferred", "the documented default"],
    [
      "true",
      { ENABLE_TOOL_SEARCH: "true" },
      "deferred",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "false",
      { ENABLE_TOOL_SEARCH: "false" },
      "upfront",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    // 6% of the window: under auto's 10%, over auto:5
    [
      "auto",
      { ENABLE_TOOL_SEARCH: "auto" },
      "upfront",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "auto:5",
      { ENABLE_TOOL_SEARCH: "auto:5" },
      "deferred",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "auto:0",
      { ENABLE_TOOL_SEARCH: "auto:0" },
      "deferred",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "auto:100",
      { ENABLE_TOOL_SEARCH: "auto:100" },
      "upfront",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "auto:101 is no documented value",
      { ENABLE_TOOL_SEARCH: "auto:101" },
      "unknown",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "1 is no documented value",
      { ENABLE_TOOL_SEARCH: "1" },
      "unknown",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "unset on Vertex AI",
      { CLAUDE_CODE_USE_VERTEX: "1" },
      "upfront",
      "~/.claude/settings.json (env.CLAUDE_CODE_USE_VERTEX)",
    ],
    [
      "true on Vertex AI",
      { CLAUDE_CODE_USE_VERTEX: "1", ENABLE_TOOL_SEARCH: "true" },
      "deferred",
      "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)",
    ],
    [
      "unset behind a proxy",
      { ANTHROPIC_BASE_URL: "https://llm.corp.example/anthropic" },
      "upfront",
      "~/.claude/settings.json (env.ANTHROPIC_BASE_URL)",
    ],
    [
      "unset with Anthropic's own URL",
      { ANTHROPIC_BASE_URL: "https://api.anthropic.com" },
      "deferred",
      "the documented default",
    ],
  ];
  for (const [name, env, state, readFrom] of cases) {
    await t.step(name, () => {
      const p = resolvePosture(claude([user(env)]), FIGURES);
      assert.equal(p.state, state, p.rule);
      assert.equal(p.readFrom, readFrom);
    });
  }
  await t.step("auto's rule shows the measured share against the threshold", () => {
    const p = resolvePosture(claude([user({ ENABLE_TOOL_SEARCH: "auto" })]), FIGURES);
    assert.match(
      p.rule,
      /more than 10% of the context window; they take 6\.0%, so they are loaded up front/,
    );
  });
});

Deno.test("Claude Code's posture: the highest settings file wins, and settings beat the shell", () => {
  const layers = [
    { where: ".claude/settings.local.json", env: { ENABLE_TOOL_SEARCH: "false" } },
    { where: ".claude/settings.json", env: { ENABLE_TOOL_SEARCH: "true" } },
    user({ ENABLE_TOOL_SEARCH: "auto:1" }),
  ];
  const p = resolvePosture(claude(layers, { ENABLE_TOOL_SEARCH: "true" }), FIGURES);
  assert.equal(p.state, "upfront");
  assert.equal(p.readFrom, ".claude/settings.local.json (env.ENABLE_TOOL_SEARCH)");
  const fromShell = resolvePosture(claude([user({})], { ENABLE_TOOL_SEARCH: "false" }), FIGURES);
  assert.equal(fromShell.state, "upfront");
  assert.equal(fromShell.readFrom, "the shell (ENABLE_TOOL_SEARCH)");
  assert.deepEqual(fromShell.consulted, ["~/.claude/settings.json", "the shell's environment"]);
});

Deno.test("Claude Code's posture when a settings file sets ENABLE_TOOL_SEARCH to a non-string", async (t) => {
  await t.step("a boolean is read as its text, with a note", () => {
    const p = resolvePosture(claude([user({ ENABLE_TOOL_SEARCH: false })]), FIGURES);
    assert.equal(p.state, "upfront");
    assert.match(
      p.notes[0],
      /sets env\.ENABLE_TOOL_SEARCH to a boolean, not a string: read as its text/,
    );
  });
  await t.step("a number reads as text that is no documented value", () => {
    const p = resolvePosture(claude([user({ ENABLE_TOOL_SEARCH: 5 })]), FIGURES);
    assert.equal(p.state, "unknown");
    assert.match(p.notes[0], /to a number, not a string/);
  });
  await t.step("an object has no text: the next source decides", () => {
    const p = resolvePosture(
      claude([
        { where: ".claude/settings.json", env: { ENABLE_TOOL_SEARCH: { on: true } } },
        user({ ENABLE_TOOL_SEARCH: "false" }),
      ]),
      FIGURES,
    );
    assert.equal(p.state, "upfront");
    assert.equal(p.readFrom, "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)");
    assert.match(
      p.notes[0],
      /^\.claude\/settings\.json sets env\.ENABLE_TOOL_SEARCH to object, which has no text: left out$/,
    );
  });
});

Deno.test("the other clients' postures", () => {
  assert.equal(resolvePosture({ kind: "cursor" }, FIGURES).state, "deferred");
  assert.equal(resolvePosture({ kind: "claude-desktop" }, FIGURES).state, "unrecorded");
  const windsurf = resolvePosture({ kind: "none", client: "Windsurf" }, FIGURES);
  assert.equal(windsurf.state, "none-documented");
  assert.match(windsurf.rule, /^Windsurf documents no deferral of MCP tools: no record exists/);
  const many = { ...FIGURES, toolCount: 130 };
  assert.equal(resolvePosture({ kind: "vscode" }, many).state, "grouped");
  assert.equal(resolvePosture({ kind: "vscode" }, FIGURES).state, "upfront");
  const off = resolvePosture({ kind: "vscode", threshold: { value: 0, where: "s.json" } }, many);
  assert.equal(off.state, "upfront");
  const bad = resolvePosture({ kind: "vscode", threshold: { value: "50", where: "s.json" } }, many);
  assert.equal(bad.state, "grouped");
  assert.match(bad.notes[0], /not a whole number: the default 128 is assumed/);
});

Deno.test("the posture is read from the settings files found in a temporary home", async () => {
  const home = await Deno.makeTempDir({ prefix: "mcpmeter-audit-posture-" });
  try {
    const proj = join(home, "app");
    await Deno.mkdir(join(proj, ".claude"), { recursive: true });
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".claude.json"),
      JSON.stringify({ mcpServers: { m: { command: "m" } } }),
    );
    await Deno.writeTextFile(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ env: { ENABLE_TOOL_SEARCH: "auto:5" } }),
    );
    await Deno.writeTextFile(
      join(proj, ".claude", "settings.local.json"),
      JSON.stringify({ env: { ENABLE_TOOL_SEARCH: true } }),
    );
    const found = await findConfigs({
      home,
      project: proj,
      platform: "linux",
      system: false,
      env: { ENABLE_TOOL_SEARCH: "false" }, // the shell is not the audited account's with --home
    });
    const p = resolvePosture(found.configs[0].deferral, FIGURES);
    assert.equal(p.state, "deferred");
    assert.equal(
      p.readFrom,
      `${join("~", "app", ".claude", "settings.local.json")} (env.ENABLE_TOOL_SEARCH)`,
    );
    assert.deepEqual(p.consulted, ["~/app/.claude/settings.local.json", "~/.claude/settings.json"]);
    assert.match(p.notes[0], /to a boolean, not a string/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("Codex's posture: tools sent directly below 100, deferral left to the model's support from 100 on or with the always-defer feature", () => {
  const codex = (alwaysDefer: boolean, toolCount: number) =>
    resolvePosture({ kind: "codex", alwaysDefer }, { ...FIGURES, toolCount });
  assert.deepEqual([codex(false, 99).state, codex(false, 99).rule], [
    "upfront",
    "Codex sends MCP tools directly while there are fewer than 100; these servers give 99",
  ]);
  assert.equal(codex(false, 100).state, "unrecorded");
  assert.match(codex(false, 100).rule, /^100 MCP tools reach Codex's threshold of 100: /);
  assert.equal(codex(true, 3).state, "unrecorded");
  assert.equal(codex(true, 3).readFrom, "[features] in config.toml");
});

Deno.test("Copilot CLI's posture: toolSearch false sends every tool; true, unset or another value leaves it to the model, which no file records", () => {
  const copilot = (value?: unknown) =>
    resolvePosture(
      value === undefined ? { kind: "copilot-cli" } : {
        kind: "copilot-cli",
        toolSearch: { value: value as never, where: "~/.copilot/settings.json" },
      },
      FIGURES,
    );
  assert.deepEqual([copilot(false).state, copilot(false).readFrom], [
    "upfront",
    "~/.copilot/settings.json (toolSearch)",
  ]);
  assert.deepEqual([copilot(true).state, copilot(true).readFrom], [
    "unrecorded",
    "~/.copilot/settings.json (toolSearch)",
  ]);
  assert.deepEqual([copilot().state, copilot().readFrom, copilot().consulted], [
    "unrecorded",
    "no record",
    [],
  ]);
  assert.equal(copilot("off").state, "unrecorded");
  assert.deepEqual(copilot("off").notes, [
    '~/.copilot/settings.json sets toolSearch to "off", not true or false: the default is assumed',
  ]);
});

Deno.test("Kiro's posture: Kiro CLI's tool search off by default; on, tools are deferred past minPct of the window or minTokens, either one", () => {
  const kiro = (toolSearch: Record<string, unknown>, toolTokens: number) =>
    resolvePosture(
      { kind: "kiro", settings: "~/.kiro/settings/cli.json", toolSearch: toolSearch as never },
      { toolTokens, contextWindow: 200_000, toolCount: 10 },
    );
  assert.deepEqual([kiro({}, 90_000).state, kiro({}, 90_000).readFrom], [
    "upfront",
    "the documented default",
  ]);
  assert.equal(
    kiro({ enabled: false }, 90_000).readFrom,
    "~/.kiro/settings/cli.json (toolSearch.enabled)",
  );
  // defaults 5% (10,000 of 200,000) and 50,000 tokens: 10,000 is not more than 5%
  assert.equal(kiro({ enabled: true }, 10_000).state, "upfront");
  assert.equal(kiro({ enabled: true }, 10_001).state, "deferred");
  // minPct raised: the token threshold alone decides
  assert.equal(kiro({ enabled: true, minPct: 50 }, 50_000).state, "upfront");
  assert.equal(kiro({ enabled: true, minPct: 50 }, 50_001).state, "deferred");
  // both 0: any tool is deferred
  assert.equal(kiro({ enabled: true, minPct: 0, minTokens: 0 }, 1).state, "deferred");
  assert.match(
    kiro({ enabled: true, minPct: "x" }, 1).notes.join("\n"),
    /toolSearch\.minPct to "x": the default 5 is used/,
  );
});

Deno.test("opencode's posture: mcp_tool_search off by default, always defers, auto defers from 8 tools", () => {
  const oc = (setting: unknown, toolCount: number) =>
    resolvePosture(
      setting === undefined
        ? { kind: "opencode" }
        : { kind: "opencode", setting: setting as never },
      { ...FIGURES, toolCount },
    );
  assert.deepEqual([oc(undefined, 50).state, oc(undefined, 50).readFrom], [
    "upfront",
    "the default (off)",
  ]);
  assert.equal(oc("always", 1).state, "deferred");
  assert.equal(oc("auto", 7).state, "upfront");
  assert.equal(oc("auto", 8).state, "deferred");
  assert.equal(oc("sometimes", 8).state, "unknown");
});
