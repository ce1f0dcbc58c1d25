// test:quick skips this file: its tests start processes (deno task test runs them).
// The audit flow over a temporary home holding a Claude Code and a Claude Desktop config that
// launch the real server-memory from npm (pinned npx launches, as users paste them), a server
// that cannot start, and one set off. Expected figures come from an independent source: a bare
// JSON-RPC exchange over the server's stdio written here (no SDK, which rebuilds objects and so
// reorders keys; the MCP Inspector does), with js-tiktoken counting the bodies built here.
import assert from "node:assert/strict";
import { join } from "node:path";
import { installedBin, SERVER_MEMORY } from "../../testing/npm.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";
import { packageDirName } from "../mcp/install.ts";
import { runAuditCommand } from "./audit.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import type { AuditReport } from "../audit/mod.ts";

/** Every file under `dir` with its bytes, to prove the audit changed nothing there. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else out[p] = await Deno.readTextFile(p);
    }
  };
  await walk(dir);
  return out;
}

/** `tools/list` of a stdio server by hand: three JSON-RPC lines, the answer parsed as received. */
async function rawToolsList(
  bin: string,
  home: string,
): Promise<{ name: string; description: string; inputSchema: unknown }[]> {
  const child = new Deno.Command("node", {
    args: [bin],
    env: { HOME: home },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const send = (m: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(m) + "\n"));
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const answer = async (id: number) => {
    while (true) {
      const nl = buffer.indexOf("\n");
      if (nl >= 0) {
        const line = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (line.id === id) return line.result;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error("the server closed stdout");
      buffer += value;
    }
  };
  await send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    },
  });
  await answer(1);
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  const result = await answer(2);
  await writer.close();
  await lines.cancel();
  child.kill();
  await child.status;
  return result.tools;
}

async function write(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(value, null, 2));
}

Deno.test({
  name: "runAuditCommand audits a temporary home's Claude Code and Claude Desktop configs",
  sanitizeResources: false,
  async fn(t) {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-flow-" });
    const home = join(dir, "home");
    const app = join(home, "app");
    const secret = "tok-9f8e7d6c5b4a";
    const npxMemory = {
      command: "npx",
      args: ["-y", `${SERVER_MEMORY.package}@${SERVER_MEMORY.version}`],
    };
    await write(join(home, ".claude.json"), {
      mcpServers: {
        memory: npxMemory,
        broken: { command: "/nonexistent/mcp-server", env: { BROKEN_TOKEN: secret } },
      },
      projects: {
        [app]: { mcpServers: { off: { command: "off-mcp" } }, disabledMcpServers: ["off"] },
      },
    });
    await write(join(home, ".claude", "settings.json"), { env: { ENABLE_TOOL_SEARCH: "false" } });
    await write(join(home, ".config", "Claude", "claude_desktop_config.json"), {
      mcpServers: { memory: npxMemory },
    });
    // The project folder exists, as --project requires (it holds no config file of its own).
    await Deno.mkdir(app);
    const before = await snapshot(home);
    const lines: string[] = [];
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      progress: (_task, line) => lines.push(line),
    };
    const run = (extra: Record<string, unknown>) =>
      runAuditCommand({
        home,
        project: app,
        installDir: memory.installDir,
        timeoutMs: 60_000,
        out: join(dir, "out", "audit.json"),
        ...extra,
      }, io);
    try {
      const outcome = await run({ writeBaseline: join(dir, "out", "baseline.json") });
      const report = JSON.parse(
        await Deno.readTextFile(join(dir, "out", "audit.json")),
      ) as AuditReport;

      await t.step("each config lists its servers; the one that cannot start says why", () => {
        assert.equal(outcome.exitCode, 0, [...outcome.stderr, ...lines].join("\n"));
        assert.deepEqual(report.configs.map((c) => c.id), [
          "claude-code ~/app",
          "claude-desktop ~/.config/Claude/claude_desktop_config.json",
        ]);
        const code = report.configs[0];
        assert.deepEqual(code.servers.map((s) => [s.name, s.scope, s.status]), [
          ["broken", "user", "spawn_failed"],
          ["memory", "user", "ok"],
          ["off", "local", "disabled"],
        ]);
        assert.match(code.servers[0].cause!, /\/nonexistent\/mcp-server/);
        assert.deepEqual(code.servers[0].envNames, ["BROKEN_TOKEN"]);
        assert.equal(code.posture.state, "upfront");
        assert.equal(code.posture.readFrom, "~/.claude/settings.json (env.ENABLE_TOOL_SEARCH)");
        // the same launch in both clients is captured once
        assert.ok(lines.includes("capturing 2 server(s), 2 at a time"), lines.join("\n"));
      });

      await t.step(
        "tokens match a bare tools/list over stdio, counted by js-tiktoken",
        async () => {
          const tools = await rawToolsList(memory.bin, dir);
          const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
          const anthropic = (prefix: string) =>
            tiktoken.count(JSON.stringify(tools.map((x) => ({
              name: prefix + x.name,
              description: x.description,
              input_schema: x.inputSchema,
            }))));
          const [code, desktop] = report.configs.map((c) =>
            c.servers.find((s) => s.name === "memory")!
          );
          assert.equal(code.tools, tools.length);
          assert.equal(code.wireTokens, tiktoken.count(JSON.stringify(tools)));
          assert.equal(code.sentTokens, anthropic("mcp__memory__"));
          assert.equal(desktop.sentTokens, anthropic(""));
          assert.equal(report.configs[1].totals.sentTokens, anthropic(""));
          // the window share is the billed estimate's; the written report keeps five decimals
          const billed = report.configs[1].totals.billed;
          assert.ok(billed.low <= billed.tokens && billed.tokens <= billed.high);
          assert.equal(
            report.configs[1].totals.share,
            Number((billed.tokens / 200_000).toFixed(5)),
          );
        },
      );

      await t.step(
        "nothing in the home changed, and no environment value was printed",
        async () => {
          assert.deepEqual(await snapshot(home), before);
          const printed = [...outcome.stdout, ...outcome.stderr, ...lines].join("\n") +
            await Deno.readTextFile(join(dir, "out", "audit.json")) +
            await Deno.readTextFile(join(dir, "out", "baseline.json"));
          assert.equal(printed.includes(secret), false);
          assert.match(
            outcome.stdout.join("\n"),
            /^Claude Code · ~\/app {2}\[claude-code ~\/app\]$/m,
          );
        },
      );

      await t.step(
        "the baseline gate fails when a config grew, naming the server, and passes within the limit",
        async () => {
          await write(join(app, ".mcp.json"), {
            mcpServers: {
              notes: { ...npxMemory, env: { MEMORY_FILE_PATH: "${SCRATCH}/notes.jsonl" } },
            },
          });
          const gate = { baseline: join(dir, "out", "baseline.json") };
          const grew = await run({ ...gate, maxIncrease: "10%" });
          assert.equal(grew.exitCode, 1);
          const fail = grew.stdout.find((l) => l.startsWith("FAIL claude-code ~/app"));
          assert.match(fail ?? grew.stdout.join("\n"), /; grew: notes \+\d[\d,]* \(new\)$/);
          const d = report.configs[1].totals.sentTokens.toLocaleString("en-US");
          assert.ok(
            grew.stdout.includes(
              `PASS claude-desktop ~/.config/Claude/claude_desktop_config.json: ${d} sent tokens, ` +
                `+0 (+0%) against ${d} (limit +10%)`,
            ),
            grew.stdout.join("\n"),
          );
          const within = await run({ ...gate, maxIncrease: "150%" });
          assert.equal(within.exitCode, 0, within.stdout.join("\n"));
        },
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand resolves Claude Code's ${VAR} from its settings env blocks, reads VS Code's envFile, and leaves Windsurf's and Gemini CLI's disabled tools out of what they send",
  sanitizeResources: false,
  async fn(t) {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-vars-" });
    const home = join(dir, "home");
    const app = join(home, "app");
    const localToken = "loc-3c2b1a0f9e8d";
    const userToken = "usr-7a6b5c4d3e2f";
    const toolsDir = "/nonexistent-7d1c9a2b";
    const npxMemory = {
      command: "npx",
      args: ["-y", `${SERVER_MEMORY.package}@${SERVER_MEMORY.version}`],
    };
    await write(join(app, ".mcp.json"), {
      mcpServers: {
        // starts only when MEM_DIR and MEM_TOKEN resolve: the shell below has neither
        mem: {
          ...npxMemory,
          env: { MEMORY_FILE_PATH: "${MEM_DIR}/graph.jsonl", MEM_TOKEN: "${MEM_TOKEN}" },
        },
        lost: { command: "${TOOLS_DIR}/mcp-server" },
        unset: { command: "node", args: ["${NOWHERE_SET}"] },
      },
    });
    await write(join(app, ".claude", "settings.local.json"), {
      env: { MEM_TOKEN: localToken, TOOLS_DIR: toolsDir },
    });
    await write(join(home, ".claude", "settings.json"), {
      env: { MEM_TOKEN: userToken, MEM_DIR: dir, ENABLE_TOOL_SEARCH: "false" },
    });
    const disabled = ["read_graph", "delete_entities", "no_such_tool"];
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: { memory: { ...npxMemory, disabledTools: disabled } },
    });
    // VS Code: the envFile's variables reach the server, under the entry's own env; the exit
    // code a server reports shows which value it got
    const fileToken = "ftk-5e4d3c2b1a09";
    await Deno.writeTextFile(join(app, ".env"), `EXIT_CODE=7\nFILE_TOKEN=${fileToken}\n`);
    const exiting = {
      type: "stdio",
      command: "node",
      args: ["-e", "process.exit(Number(process.env.EXIT_CODE))"],
      envFile: "${workspaceFolder}/.env",
    };
    await write(join(app, ".vscode", "mcp.json"), {
      servers: { seven: exiting, nine: { ...exiting, env: { EXIT_CODE: "9" } } },
    });
    // Gemini CLI: the user's file, excludeTools, the project trusted by its parent's rule
    await write(join(home, ".gemini", "settings.json"), {
      mcpServers: { memory: { ...npxMemory, excludeTools: ["read_graph"] } },
    });
    await write(join(home, ".gemini", "trustedFolders.json"), { [app]: "TRUST_PARENT" });
    const lines: string[] = [];
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      progress: (_task, line) => lines.push(line),
    };
    try {
      const outcome = await runAuditCommand({
        home,
        project: app,
        installDir: memory.installDir,
        timeoutMs: 60_000,
        out: join(dir, "out", "audit.json"),
        // Anthropic's form for both, so one hand-built body serves as the expected figure
        formats: { windsurf: "anthropic-messages" },
      }, io);
      const written = await Deno.readTextFile(join(dir, "out", "audit.json"));
      const report = JSON.parse(written) as AuditReport;
      const [code, vscode, windsurf, gemini] = report.configs;

      await t.step("the settings' values start the server; an unset variable still fails", () => {
        assert.equal(outcome.exitCode, 0, [...outcome.stderr, ...lines].join("\n"));
        assert.deepEqual(code.servers.map((s) => [s.name, s.status]), [
          ["lost", "spawn_failed"],
          ["mem", "ok"],
          ["unset", "spawn_failed"],
        ]);
        // the folder came from settings.local.json, and is not shown
        assert.equal(
          code.servers[0].cause,
          'command "[REDACTED]/mcp-server" not found or not executable',
        );
        assert.match(code.servers[2].cause!, /variable "NOWHERE_SET" is not defined/);
      });

      await t.step("Windsurf sends the listed tools less the disabled ones", async () => {
        const tools = await rawToolsList(memory.bin, dir);
        const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
        const kept = tools.filter((x) => !disabled.includes(x.name));
        assert.equal(kept.length, tools.length - 2);
        const s = windsurf.servers[0];
        assert.deepEqual(
          [s.tools, s.toolsListed, s.disabledTools],
          [
            kept.length,
            tools.length,
            tools.filter((x) => disabled.includes(x.name)).map((x) => x.name),
          ],
        );
        assert.equal(
          s.sentTokens,
          tiktoken.count(JSON.stringify(kept.map((x) => ({
            name: x.name,
            description: x.description,
            input_schema: x.inputSchema,
          })))),
        );
        assert.equal(windsurf.totals.sentTokens, s.sentTokens);
        // what the client receives is the whole list
        assert.equal(s.wireTokens, tiktoken.count(JSON.stringify(tools)));
        assert.match(
          windsurf.notes.join("\n"),
          /"memory": 2 of \d+ listed tools disabled in the config \(disabledTools: .*\), not counted as sent; disabledTools also names no_such_tool, which the server does not list/,
        );
        assert.match(outcome.stdout.join("\n"), /ok, 2 of \d+ listed disabled in the config/);
      });

      await t.step("Gemini CLI sends mcp_SERVER_TOOL declarations less excludeTools", async () => {
        const tools = await rawToolsList(memory.bin, dir);
        const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
        const kept = tools.filter((x) => x.name !== "read_graph");
        assert.equal(gemini.client, "gemini-cli");
        // no folder-trust note: the TRUST_PARENT rule of the project covers it
        assert.deepEqual(gemini.notes, [
          `"memory": 1 of ${tools.length} listed tools disabled in the config ` +
          "(includeTools/excludeTools: read_graph), not counted as sent",
        ]);
        const s = gemini.servers[0];
        assert.deepEqual([s.tools, s.toolsListed, s.disabledTools], [
          tools.length - 1,
          tools.length,
          ["read_graph"],
        ]);
        // Gemini CLI sends each MCP tool's schema as the server listed it, in
        // parametersJsonSchema (DeclarativeTool.schema, packages/core/src/tools/tools.ts)
        const declared = kept.map((x) => ({
          name: `mcp_memory_${x.name}`,
          description: x.description,
          parametersJsonSchema: x.inputSchema,
        }));
        assert.equal(
          s.sentTokens,
          tiktoken.count(JSON.stringify([{ functionDeclarations: declared }])),
        );
      });

      await t.step("VS Code's envFile sets the server's variables, its env winning", () => {
        assert.deepEqual(vscode.servers.map((s) => [s.name, s.status, s.cause]), [
          ["nine", "exited", "the server exited with code 9 during initialize"],
          ["seven", "exited", "the server exited with code 7 during initialize"],
        ]);
        assert.deepEqual(vscode.servers[1].envNames, ["EXIT_CODE", "FILE_TOKEN"]);
      });

      await t.step(
        "no value from a settings env block or an envFile was printed or written",
        () => {
          const printed = [...outcome.stdout, ...outcome.stderr, ...lines].join("\n") + written;
          for (const value of [localToken, userToken, toolsDir, fileToken]) {
            assert.equal(printed.includes(value), false, value);
          }
        },
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand clears an env value a server echoes into its tool names from the report, the notes and stdout",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-echo-" });
    const home = join(dir, "home");
    const prefix = "sec-4d3c2b1a0f_";
    // A minimal stdio MCP server whose tool names start with its TOOL_PREFIX variable
    const echoing = `
      let b = "";
      const p = process.env.TOOL_PREFIX;
      const schema = { type: "object" };
      process.stdin.on("data", (d) => {
        b += d;
        let i;
        while ((i = b.indexOf("\\n")) >= 0) {
          const m = JSON.parse(b.slice(0, i));
          b = b.slice(i + 1);
          if (m.id === undefined) continue;
          const result = m.method === "initialize"
            ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
                serverInfo: { name: "echo", version: "1" } }
            : m.method === "tools/list"
            ? { tools: [{ name: p + "search", inputSchema: schema },
                { name: p + "gone", inputSchema: schema }, { name: "plain", inputSchema: schema }] }
            : {};
          process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }) + "\\n");
        }
      });`;
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: {
        echo: {
          command: "node",
          args: ["-e", echoing],
          env: { TOOL_PREFIX: prefix },
          disabledTools: [`${prefix}gone`],
        },
      },
    });
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      progress: () => {},
    };
    try {
      const outcome = await runAuditCommand({
        home,
        project: home,
        install: false,
        timeoutMs: 30_000,
        out: join(dir, "audit.json"),
      }, io);
      const written = await Deno.readTextFile(join(dir, "audit.json"));
      const [windsurf] = (JSON.parse(written) as AuditReport).configs;
      assert.equal(outcome.exitCode, 0, outcome.stderr.join("\n"));
      const [echo] = windsurf.servers;
      // measured as listed (3 tools, one disabled), the names shown without the value
      assert.deepEqual([echo.status, echo.toolsListed, echo.tools], ["ok", 3, 2]);
      assert.deepEqual(echo.toolCosts.map((c) => c.tool).sort(), ["[REDACTED]search", "plain"]);
      assert.deepEqual(echo.disabledTools, ["[REDACTED]gone"]);
      assert.deepEqual(windsurf.heaviest.map((h) => h.tool).sort(), ["[REDACTED]search", "plain"]);
      assert.ok(windsurf.notes.some((n) => n.includes("[REDACTED]gone")), windsurf.notes.join());
      for (const text of [written, ...outcome.stdout, ...outcome.stderr]) {
        assert.ok(!text.includes(prefix), text);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand with install false runs an unpinned npx launch at the newest version installed, and names a package none of whose versions is",
  sanitizeResources: false,
  async fn() {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-noinstall-" });
    const home = join(dir, "home");
    const installDir = join(dir, "servers");
    const prefix = packageDirName(SERVER_MEMORY.package, SERVER_MEMORY.version);
    await Deno.mkdir(installDir, { recursive: true });
    await Deno.symlink(join(memory.installDir, prefix), join(installDir, prefix));
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: {
        memory: { command: "npx", args: ["-y", SERVER_MEMORY.package] },
        absent: { command: "npx", args: ["-y", "not-installed-mcp"] },
      },
    });
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      progress: () => {},
    };
    try {
      const outcome = await runAuditCommand({
        home,
        project: home,
        install: false,
        installDir,
        timeoutMs: 30_000,
        out: join(dir, "audit.json"),
      }, io);
      assert.equal(outcome.exitCode, 0, outcome.stderr.join("\n"));
      const [windsurf] =
        (JSON.parse(await Deno.readTextFile(join(dir, "audit.json"))) as AuditReport)
          .configs;
      const [absent, mem] = windsurf.servers;
      // 9 tools: the survey of npm MCP servers (../shared/research) lists 9 for this version
      assert.deepEqual([mem.name, mem.status, mem.tools], ["memory", "ok", 9]);
      assert.ok(
        mem.warnings.some((w) => w.includes(`installed ${SERVER_MEMORY.package}@2026.8.31;`)),
        mem.warnings.join("\n"),
      );
      assert.equal(absent.status, "spawn_failed");
      assert.match(absent.cause ?? "", /no version of not-installed-mcp is installed in /);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand audits Codex's config.toml from CODEX_HOME (Responses API tools named mcp__SERVER__TOOL less disabled_tools) and Zed's settings, no header or env value printed",
  sanitizeResources: false,
  async fn() {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-codex-" });
    const home = join(dir, "home");
    const codexHome = join(home, "codex-home");
    const envValue = "cdx-env-4b3a2918";
    const headerValue = "cdx-hdr-7f6e5d4c";
    const bearer = "cdx-bearer-0a1b2c3d";
    await Deno.mkdir(codexHome, { recursive: true });
    // as a Codex user writes it: a pinned npx launch with env, tools switched off, and a remote
    // server with a token from the environment and a fixed header (nothing listens on port 9)
    await Deno.writeTextFile(
      join(codexHome, "config.toml"),
      `model = "gpt-5-codex"

[mcp_servers.memory]
command = "npx"
args = ["-y", "${SERVER_MEMORY.package}@${SERVER_MEMORY.version}"]
env = { MEMORY_NOTE_KEY = "${envValue}" }
disabled_tools = ["read_graph", "delete_entities"]

[mcp_servers.tickets]
url = "http://127.0.0.1:9/mcp"
bearer_token_env_var = "TICKETS_TOKEN"
http_headers = { "X-Api-Key" = "${headerValue}" }
`,
    );
    // Zed: the same server in its settings (JSONC), sent in OpenAI's chat format under its own name
    await Deno.mkdir(join(home, ".config", "zed"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".config", "zed", "settings.json"),
      `{
  // MCP servers for Zed's agent
  "context_servers": {
    "memory": { "command": "npx", "args": ["-y", "${SERVER_MEMORY.package}@${SERVER_MEMORY.version}"] },
  },
}`,
    );
    const lines: string[] = [];
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({
        HOME: home,
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        CODEX_HOME: codexHome,
        TICKETS_TOKEN: bearer,
      }),
      progress: (_task, line) => lines.push(line),
    };
    try {
      const outcome = await runAuditCommand({
        project: home,
        installDir: memory.installDir,
        timeoutMs: 60_000,
        out: join(dir, "out", "audit.json"),
      }, io);
      const written = await Deno.readTextFile(join(dir, "out", "audit.json"));
      const report = JSON.parse(written) as AuditReport;
      assert.equal(outcome.exitCode, 0, [...outcome.stderr, ...lines].join("\n"));
      assert.deepEqual(report.configs.map((c) => [c.id, c.label, c.format]), [
        ["codex ~/codex-home/config.toml", "Codex", "openai-responses"],
        ["zed ~/.config/zed/settings.json", "Zed", "openai-chat-completions"],
      ]);
      const [codex] = report.configs;
      assert.deepEqual(codex.servers.map((s) => [s.name, s.launch, s.status === "ok"]), [
        ["memory", `npx ${SERVER_MEMORY.package}`, true],
        ["tickets", "http 127.0.0.1:9", false],
      ]);
      const tools = await rawToolsList(memory.bin, dir);
      const off = ["read_graph", "delete_entities"];
      const kept = tools.filter((x) => !off.includes(x.name));
      const s = codex.servers[0];
      assert.deepEqual([s.tools, s.toolsListed, s.disabledTools], [
        kept.length,
        tools.length,
        tools.filter((x) => off.includes(x.name)).map((x) => x.name),
      ]);
      // Codex sends each kept tool to the Responses API as a function named mcp__SERVER__TOOL
      const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
      assert.equal(
        s.sentTokens,
        tiktoken.count(JSON.stringify(kept.map((x) => ({
          type: "function",
          name: `mcp__memory__${x.name}`,
          description: x.description,
          parameters: x.inputSchema,
          strict: false,
        })))),
      );
      assert.equal(s.wireTokens, tiktoken.count(JSON.stringify(tools)));
      assert.equal(codex.posture.state, "upfront");
      const zed = report.configs[1].servers[0];
      assert.equal(
        zed.sentTokens,
        tiktoken.count(JSON.stringify(tools.map((x) => ({
          type: "function",
          function: { name: x.name, description: x.description, parameters: x.inputSchema },
        })))),
      );
      assert.deepEqual(codex.servers[1].envNames, []);
      const printed = [...outcome.stdout, ...outcome.stderr, ...lines].join("\n") + written;
      for (const value of [envValue, headerValue, bearer]) {
        assert.equal(printed.includes(value), false, value);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand audits the clients added in pass 6 (Copilot CLI's tools list, $VAR in env and SERVER-TOOL names; Kiro's disabledTools; Amazon Q CLI's default agent and its tools list; opencode's command array, {env:NAME} and tools patterns; LM Studio's mcp.json), no header or env value printed",
  sanitizeResources: false,
  async fn() {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-clients6-" });
    const home = join(dir, "home");
    const envValue = "cpl-env-5c4b3a29";
    const headerValue = "cpl-hdr-8e7d6c5b";
    const pinned = `${SERVER_MEMORY.package}@${SERVER_MEMORY.version}`;
    const kept = ["create_entities", "read_graph", "search_nodes"];
    // as the Copilot CLI documentation writes a server: a typed local launch with its tools list
    // (a variable in env written $NAME), and a remote one on a port where nothing listens
    await write(join(home, ".copilot", "mcp-config.json"), {
      mcpServers: {
        memory: {
          type: "local",
          command: "npx",
          args: ["-y", pinned],
          env: { MEMORY_NOTE_KEY: "$NOTE_KEY" },
          tools: kept,
        },
        tickets: {
          type: "http",
          url: "http://127.0.0.1:9/mcp",
          headers: { "X-Api-Key": headerValue },
          tools: ["*"],
        },
      },
    });
    // Kiro: the same server with two tools switched off (its ${NAME} form in env)
    const kiroOff = ["read_graph", "delete_entities"];
    await write(join(home, ".kiro", "settings", "mcp.json"), {
      mcpServers: {
        memory: {
          command: "npx",
          args: ["-y", pinned],
          env: { MEMORY_NOTE_KEY: "${NOTE_KEY}" },
          disabledTools: kiroOff,
          autoApprove: ["search_nodes"],
        },
      },
    });
    // Amazon Q CLI: a q_cli_default agent whose tools list keeps two of the server's tools
    const qKept = ["read_graph", "search_nodes"];
    await write(join(home, ".aws", "amazonq", "cli-agents", "q_cli_default.json"), {
      name: "q_cli_default",
      mcpServers: { memory: { command: "npx", args: ["-y", pinned] } },
      tools: ["fs_read", ...qKept.map((t) => `@memory/${t}`)],
    });
    // opencode: its command array and {env:NAME}, an Anthropic model, and a tools pattern
    // switching off the server's delete_* tools
    await Deno.mkdir(join(home, ".config", "opencode"), { recursive: true });
    await Deno.writeTextFile(
      join(home, ".config", "opencode", "opencode.jsonc"),
      `{
  "model": "anthropic/claude-sonnet-4-5",
  "mcp": {
    "memory": {
      "type": "local",
      "command": ["npx", "-y", "${pinned}"],
      "environment": { "MEMORY_NOTE_KEY": "{env:NOTE_KEY}" },
    },
  },
  "tools": { "memory_delete_*": false },
}`,
    );
    // LM Studio: Cursor's notation, its variable written ${env:NAME}
    await write(join(home, ".lmstudio", "mcp.json"), {
      mcpServers: {
        memory: {
          command: "npx",
          args: ["-y", pinned],
          env: { MEMORY_NOTE_KEY: "${env:NOTE_KEY}" },
        },
      },
    });
    const lines: string[] = [];
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({
        HOME: home,
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        NOTE_KEY: envValue,
      }),
      progress: (_task, line) => lines.push(line),
    };
    try {
      const outcome = await runAuditCommand({
        project: home,
        installDir: memory.installDir,
        timeoutMs: 60_000,
        out: join(dir, "out", "audit.json"),
      }, io);
      const written = await Deno.readTextFile(join(dir, "out", "audit.json"));
      const report = JSON.parse(written) as AuditReport;
      assert.equal(outcome.exitCode, 0, [...outcome.stderr, ...lines].join("\n"));
      assert.deepEqual(report.configs.map((c) => [c.id, c.label, c.format]), [
        ["copilot-cli ~/.copilot/mcp-config.json", "Copilot CLI", "openai-chat-completions"],
        ["kiro ~/.kiro/settings/mcp.json", "Kiro", "anthropic-messages"],
        ["amazon-q ~/.aws/amazonq", "Amazon Q CLI", "anthropic-messages"],
        ["opencode ~/.config/opencode", "opencode", "anthropic-messages"],
        ["lm-studio ~/.lmstudio/mcp.json", "LM Studio", "openai-chat-completions"],
      ]);
      const tools = await rawToolsList(memory.bin, dir);
      const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
      const chat = (named: (tool: string) => string, list: typeof tools) =>
        tiktoken.count(JSON.stringify(list.map((x) => ({
          type: "function",
          function: { name: named(x.name), description: x.description, parameters: x.inputSchema },
        }))));
      const copilot = report.configs[0];
      assert.deepEqual(copilot.servers.map((s) => [s.name, s.launch, s.status === "ok"]), [
        ["memory", `npx ${SERVER_MEMORY.package}`, true],
        ["tickets", "http 127.0.0.1:9", false],
      ]);
      const s = copilot.servers[0];
      // the tools list keeps three tools; Copilot CLI names each SERVER-TOOL
      const sent = tools.filter((x) => kept.includes(x.name));
      assert.deepEqual([s.tools, s.toolsListed], [kept.length, tools.length]);
      assert.equal(s.sentTokens, chat((t) => `memory-${t}`, sent));
      assert.equal(s.wireTokens, tiktoken.count(JSON.stringify(tools)));
      assert.equal(copilot.posture.state, "unrecorded");
      assert.deepEqual(s.envNames, ["MEMORY_NOTE_KEY"]);
      // Kiro sends the others in Anthropic's format under their own names, every tool up front
      const kiro = report.configs[1];
      const k = kiro.servers[0];
      const kiroSent = tools.filter((x) => !kiroOff.includes(x.name));
      assert.deepEqual([k.status, k.tools, k.toolsListed, k.disabledTools], [
        "ok",
        kiroSent.length,
        tools.length,
        tools.filter((x) => kiroOff.includes(x.name)).map((x) => x.name),
      ]);
      assert.equal(
        k.sentTokens,
        tiktoken.count(JSON.stringify(kiroSent.map((x) => ({
          name: x.name,
          description: x.description,
          input_schema: x.inputSchema,
        })))),
      );
      assert.equal(kiro.posture.state, "upfront");
      // opencode sends memory_TOOL with its schema rewritten (type object, additionalProperties
      // false), less the delete_* tools its pattern switches off
      const oc = report.configs[3].servers[0];
      const ocSent = tools.filter((x) => !x.name.startsWith("delete_"));
      assert.deepEqual([oc.status, oc.tools, oc.toolsListed], ["ok", ocSent.length, tools.length]);
      assert.equal(
        oc.sentTokens,
        tiktoken.count(JSON.stringify(ocSent.map((x) => {
          const schema = x.inputSchema as Record<string, unknown>;
          return {
            name: `memory_${x.name}`,
            description: x.description,
            input_schema: {
              ...schema,
              type: "object",
              properties: schema.properties ?? {},
              additionalProperties: false,
            },
          };
        }))),
      );
      // LM Studio: every tool, in OpenAI's chat format under its own name
      const lm = report.configs[4].servers[0];
      assert.deepEqual([lm.status, lm.tools], ["ok", tools.length]);
      assert.equal(lm.sentTokens, chat((t) => t, tools));
      // Amazon Q CLI sends the two its agent lists, under their own (valid) names
      const q = report.configs[2].servers[0];
      const qSent = tools.filter((x) => qKept.includes(x.name));
      assert.deepEqual([q.status, q.tools, q.toolsListed], ["ok", qKept.length, tools.length]);
      assert.equal(
        q.sentTokens,
        tiktoken.count(JSON.stringify(qSent.map((x) => ({
          name: x.name,
          description: x.description,
          input_schema: x.inputSchema,
        })))),
      );
      const printed = [...outcome.stdout, ...outcome.stderr, ...lines].join("\n") + written;
      for (const value of [envValue, headerValue]) {
        assert.equal(printed.includes(value), false, value);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "runAuditCommand audits a temporary home's Cline and Roo Code configs in the form each sends",
  sanitizeResources: false,
  async fn(t) {
    const memory = await installedBin(SERVER_MEMORY);
    if ("skip" in memory) {
      console.warn(`skipped: ${memory.skip}`);
      return;
    }
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-cline-" });
    const home = join(dir, "home");
    const app = join(home, "app");
    const secret = "hub-5d4c3b2a1f0e";
    const npxMemory = {
      command: "npx",
      args: ["-y", `${SERVER_MEMORY.package}@${SERVER_MEMORY.version}`],
    };
    // Cline 4's file: a server in the flat shape, a disabled one in the CLI's shape
    await write(join(home, ".cline", "data", "settings", "cline_mcp_settings.json"), {
      mcpServers: {
        memory: { ...npxMemory, autoApprove: [], disabled: false, timeout: 60 },
        hub: {
          transport: {
            type: "streamableHttp",
            url: "https://hub.example.invalid/mcp",
            headers: { Authorization: `Bearer ${secret}` },
          },
          disabled: true,
        },
      },
    });
    // Roo Code in VS Code: the global file, and the project's, which wins "shadowed"
    const rooGlobal = join(
      home,
      ".config",
      "Code",
      "User",
      "globalStorage",
      "rooveterinaryinc.roo-cline",
      "settings",
      "mcp_settings.json",
    );
    await write(rooGlobal, {
      mcpServers: {
        memory: { ...npxMemory, alwaysAllow: ["read_graph"], disabledTools: ["read_graph"] },
        nourl: { url: "https://nourl.example.invalid/sse" },
        shadowed: { command: "/nonexistent/shadowed-mcp" },
      },
    });
    await write(join(app, ".roo", "mcp.json"), { mcpServers: { shadowed: npxMemory } });
    const before = await snapshot(home);
    const lines: string[] = [];
    const io: FlowIo = {
      ...denoFlowIo(),
      env: () => ({ PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }),
      progress: (_task, line) => lines.push(line),
    };
    try {
      const outcome = await runAuditCommand({
        home,
        project: app,
        installDir: memory.installDir,
        timeoutMs: 60_000,
        out: join(dir, "out", "audit.json"),
      }, io);
      const written = await Deno.readTextFile(join(dir, "out", "audit.json"));
      const report = JSON.parse(written) as AuditReport;
      const [cline, roo] = report.configs;

      await t.step("each client's servers, as its own file and precedence say", () => {
        assert.equal(outcome.exitCode, 0, [...outcome.stderr, ...lines].join("\n"));
        assert.deepEqual(report.configs.map((c) => [c.id, c.label]), [
          ["cline ~/.cline/data/settings/cline_mcp_settings.json", "Cline"],
          [
            "roo-code ~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/" +
            "mcp_settings.json",
            "Roo Code",
          ],
        ]);
        assert.deepEqual(cline.servers.map((s) => [s.name, s.status]), [
          ["hub", "disabled"],
          ["memory", "ok"],
        ]);
        assert.deepEqual(roo.servers.map((s) => [s.name, s.scope, s.status, s.cause]), [
          ["memory", "global", "ok", undefined],
          [
            "nourl",
            "global",
            "not-started",
            'a "url" without "type" ("sse" or "streamable-http")',
          ],
          ["shadowed", "project", "ok", undefined],
        ]);
        // one launch in both clients and both scopes is captured once
        assert.ok(lines.includes("capturing 1 server(s), 2 at a time"), lines.join("\n"));
      });

      await t.step(
        "sent tokens are the OpenAI chat tools each builds, counted by js-tiktoken",
        async () => {
          const tools = await rawToolsList(memory.bin, dir);
          const tiktoken = createTokenizer("o200k_base", "js-tiktoken");
          type Schema = Record<string, unknown>;
          // Cline drops the top-level $schema (cline/cline v4.1.13, shared/src/tools/create.ts)
          const clineSchema = (s: Schema) => {
            const { $schema: _, ...rest } = s;
            return rest;
          };
          // Roo Code's rewrite (RooCodeInc/Roo-Code v3.52.1, src/utils/json-schema.ts) for the
          // keys server-memory's schemas use, written out here: description and unknown keys
          // first, then type, items, properties, required, and additionalProperties: false on
          // an object
          const used = new Set([
            "$schema",
            "type",
            "properties",
            "items",
            "required",
            "description",
          ]);
          const rooSchema = (s: Schema): Schema => {
            assert.ok(Object.keys(s).every((k) => used.has(k)), JSON.stringify(s));
            const { type, properties, items, required, description, ...unknown } = s;
            return {
              ...(description === undefined ? {} : { description }),
              ...unknown,
              type,
              ...(items === undefined ? {} : { items: rooSchema(items as Schema) }),
              ...(properties === undefined ? {} : {
                properties: Object.fromEntries(
                  Object.entries(properties as Record<string, Schema>).map((
                    [k, v],
                  ) => [k, rooSchema(v)]),
                ),
              }),
              ...(required === undefined ? {} : { required }),
              ...(type === "object" ? { additionalProperties: false } : {}),
            };
          };
          const chat = (prefix: string, list: typeof tools, schema: (s: Schema) => Schema) =>
            list.map((x) => ({
              type: "function",
              function: {
                name: prefix + x.name,
                description: x.description,
                parameters: schema(x.inputSchema as Schema),
              },
            }));
          // server-memory's tools all have descriptions without outer spaces: Cline sends them as is
          assert.ok(
            tools.every((x) => x.description !== "" && x.description.trim() === x.description),
          );
          const c = cline.servers[1];
          assert.equal(
            c.sentTokens,
            tiktoken.count(JSON.stringify(chat("memory__", tools, clineSchema))),
          );
          assert.deepEqual([cline.format, cline.family, cline.contextWindow], [
            "openai-chat-completions",
            "claude",
            200_000,
          ]);
          const kept = tools.filter((x) => x.name !== "read_graph");
          assert.equal(kept.length, tools.length - 1);
          const [mem, , shadowed] = roo.servers;
          assert.deepEqual([mem.tools, mem.disabledTools], [kept.length, ["read_graph"]]);
          assert.equal(
            mem.sentTokens,
            tiktoken.count(JSON.stringify(chat("mcp--memory--", kept, rooSchema))),
          );
          assert.equal(shadowed.tools, tools.length);
          assert.equal(
            roo.totals.sentTokens,
            tiktoken.count(
              JSON.stringify([
                ...chat("mcp--memory--", kept, rooSchema),
                ...chat("mcp--shadowed--", tools, rooSchema),
              ]),
            ),
          );
          assert.deepEqual([roo.family, roo.contextWindow], ["gpt", 128_000]);
        },
      );

      await t.step("nothing in the home changed, and no header value was printed", async () => {
        assert.deepEqual(await snapshot(home), before);
        const printed = [...outcome.stdout, ...outcome.stderr, ...lines].join("\n") + written;
        assert.equal(printed.includes(secret), false);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("runAuditCommand: a --home or --project that names no folder is an input error, before any work", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpmeter-audit-nofolder-" }));
  try {
    const out = join(dir, "audit.json");
    await Deno.writeTextFile(join(dir, "file.json"), "{}");
    const refused = (options: { home?: string; project?: string }) =>
      runAuditCommand({ ...options, out }).then(() => "ran", (e) => `${e.name}: ${e.message}`);
    // The trial's case: a ~ the shell did not expand, taken as a folder under the current one.
    assert.equal(
      await refused({ home: join(dir, "~", "trial6-home") }),
      `InputFileError: --home ${dir}/~/trial6-home: no such folder`,
    );
    assert.equal(
      await refused({ home: dir, project: join(dir, "file.json") }),
      `InputFileError: --project ${dir}/file.json: not a folder`,
    );
    assert.equal(await Deno.stat(out).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runAuditCommand: with no client config found, it lists where it looked and names --config", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpmeter-audit-none-" }));
  try {
    const home = join(dir, "home");
    const project = join(dir, "work", "app");
    await Deno.mkdir(home);
    await Deno.mkdir(project, { recursive: true });
    const out = join(dir, "audit.json");
    const io: FlowIo = { ...denoFlowIo(), progress: () => {} };
    const outcome = await runAuditCommand({ home, project, out }, io);
    assert.equal(outcome.exitCode, 1);
    const report = JSON.parse(await Deno.readTextFile(out)) as AuditReport;
    assert.deepEqual(report.configs, []);
    const n = report.searched;
    assert.equal(outcome.stderr[0], `[audit] wrote ${out}`);
    assert.equal(
      outcome.stderr[1],
      `[audit] no MCP client config found in the ${n} places looked at (~ is ${home}):`,
    );
    const places = outcome.stderr.slice(2, -1);
    assert.equal(places.length, n);
    // Claude Code's user file and the project's .mcp.json, Cursor's and Codex's user files, as
    // `deno task audit --help` lists them; a place under the home is written from ~.
    for (
      const p of [
        "~/.claude.json",
        `${project}/.mcp.json`,
        `${dir}/work/.mcp.json`,
        "~/.cursor/mcp.json",
        "~/.codex/config.toml",
      ]
    ) assert.ok(places.includes(`[audit]   ${p}`), p);
    assert.equal(places.some((p) => p.includes(home)), false);
    assert.equal(
      outcome.stderr.at(-1),
      "[audit] a config kept elsewhere: deno task audit --config FILE (repeatable)",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
