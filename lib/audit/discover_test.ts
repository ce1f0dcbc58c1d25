import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { join } from "node:path";
import { findConfigs } from "./io.ts";
import { expandServerEntry } from "../mcp/config.ts";
import { discoverConfigs } from "./discover.ts";
import type { ClientConfig } from "./discover.ts";
import { resolvePosture } from "./posture.ts";
import { toolKept } from "./entries.ts";

/** Figures for a posture that does not depend on them. */
const figures = { toolTokens: 0, contextWindow: 128_000, toolCount: 0 };

async function write(path: string, value: unknown): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, typeof value === "string" ? value : JSON.stringify(value));
}

/** name → [scope, launch, problem?] of a config's servers. */
function table(c: ClientConfig): Record<string, string[]> {
  return Object.fromEntries(
    c.servers.map((s) => [s.name, [
      s.scope,
      s.launch,
      ...(s.disabled ? ["disabled"] : []),
      ...(s.problem === undefined ? [] : [s.problem]),
    ]]),
  );
}

/** Runs `body` with a fresh temporary home folder, removed afterwards. */
async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "mcpmeter-audit-home-" });
  try {
    await body(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("findConfigs() reads each client's config files in a temporary home", () =>
  withHome(async (home) => {
    const proj = join(home, "work", "app");
    const other = join(home, "work", "lib");
    const npx = (pkg: string, ...rest: string[]) => ({
      command: "npx",
      args: ["-y", pkg, ...rest],
    });
    await write(join(home, ".claude.json"), {
      numStartups: 3,
      mcpServers: { memory: npx("@modelcontextprotocol/server-memory") },
      projects: {
        [proj]: { mcpServers: { notes: npx("notes-mcp") }, disabledMcpServers: ["gone"] },
        [other]: {
          mcpServers: { lint: { command: "/opt/bin/lint-mcp", env: { LINT_KEY: "s3cr3t" } } },
        },
        [join(home, "quiet")]: { mcpServers: {} },
      },
    });
    await write(join(proj, ".mcp.json"), {
      mcpServers: {
        filesystem: npx("@modelcontextprotocol/server-filesystem", "${HOME}/docs"),
        notes: npx("other-notes"),
        gone: npx("gone-mcp"),
      },
    });
    await write(
      join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
      {
        mcpServers: { memory: npx("@modelcontextprotocol/server-memory") },
      },
    );
    await write(join(home, ".cursor", "mcp.json"), {
      mcpServers: {
        docs: {
          url: "https://docs.example.com/mcp?key=abc",
          headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" },
        },
        home: npx("home-mcp", "${userHome}/notes"),
      },
    });
    await write(join(proj, ".cursor", "mcp.json"), {
      mcpServers: { docs: npx("docs-mcp", "${workspaceFolder}") },
    });
    await write(
      join(home, ".config", "Code", "User", "mcp.json"),
      `{
        // VS Code's file: comments, inputs, trailing commas
        "inputs": [{ "type": "promptString", "id": "gh", "description": "GitHub token", "password": true }],
        "servers": {
          "github": { "type": "stdio", "command": "npx", "args": ["-y", "gh-mcp"], "env": { "GH_TOKEN": "\${input:gh}" } },
        },
      }`,
    );
    await write(join(proj, ".vscode", "mcp.json"), {
      servers: { web: { type: "http", url: "https://web.example.org/mcp" } },
    });
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: {
        remote: { serverUrl: "https://api.example.net/sse" },
        off: { command: "node", args: ["x.js"], disabled: true },
      },
    });

    const found = await findConfigs({
      home,
      project: proj,
      platform: "linux",
      system: false,
      env: {},
    });
    assertEquals(found.problems, []);
    assertEquals(found.configs.map((c) => c.id), [
      "claude-code ~/work/app",
      "claude-code ~/work/lib",
      "claude-desktop ~/Library/Application Support/Claude/claude_desktop_config.json",
      "cursor ~/.cursor/mcp.json",
      "vscode ~/.config/Code/User",
      "windsurf ~/.codeium/windsurf/mcp_config.json",
    ]);
    const [app, lib, desktop, cursor, vscode, windsurf] = found.configs;
    // local beats project, project beats user; a disabledMcpServers name is kept but marked
    assertEquals(table(app), {
      filesystem: ["project", "npx @modelcontextprotocol/server-filesystem"],
      gone: ["project", "npx gone-mcp", "disabled"],
      memory: ["user", "npx @modelcontextprotocol/server-memory"],
      notes: ["local", "npx notes-mcp"],
    });
    // a disabled server's cause names the list and the file that holds it
    assertEquals(
      app.servers.find((s) => s.name === "gone")?.disabledBy,
      "listed in disabledMcpServers of ~/.claude.json (this project's entry)",
    );
    assertEquals(app.notes.filter((n) => n.includes("hidden")), [
      `"notes" in ${join(proj, ".mcp.json")} (project) is hidden by the local one`,
    ]);
    // of the project's three, one is hidden by the local one and one is disabled: one would ask
    assertMatch(app.notes.find((n) => n.includes("approved")) ?? "", /^1 project server\(s\)/);
    assertEquals(table(lib), {
      lint: ["local", "lint-mcp"],
      memory: ["user", "npx @modelcontextprotocol/server-memory"],
    });
    assertEquals(lib.servers[0].envNames, ["LINT_KEY"]);
    assertEquals(table(desktop), { memory: ["file", "npx @modelcontextprotocol/server-memory"] });
    // the project's Cursor file wins; ${workspaceFolder} and ${userHome} are the folders
    assertEquals(table(cursor), {
      docs: ["project", "npx docs-mcp"],
      home: ["global", "npx home-mcp"],
    });
    const docs = cursor.servers[0].entry!;
    const homeServer = cursor.servers[1].entry!;
    assertEquals(docs.kind === "stdio" && docs.args, ["-y", "docs-mcp", proj]);
    assertEquals(homeServer.kind === "stdio" && homeServer.args[2], `${home}/notes`);
    // VS Code: the prompted input keeps the server from starting, and says why
    assertEquals(Object.keys(table(vscode)), ["github", "web"]);
    assertMatch(table(vscode).github[2], /needs the VS Code input "gh"/);
    assertEquals(table(vscode).web, ["workspace", "http web.example.org"]);
    assertEquals(table(windsurf), {
      off: ["user", "node", "disabled"],
      remote: ["user", "http api.example.net"],
    });
    assertEquals(
      windsurf.servers.find((s) => s.name === "off")?.disabledBy,
      '"disabled": true in its entry',
    );
    // the env value and the URL's key never reach a label
    const text = JSON.stringify(
      found.configs.map((c) => c.servers.map((s) => [s.launch, s.envNames, s.problem])),
    );
    assertEquals(text.includes("s3cr3t") || text.includes("key=abc"), false);
  }));

Deno.test("findConfigs() names the file, line and column of a config that is not JSON, and reads the rest", () =>
  withHome(async (home) => {
    await write(
      join(home, ".cursor", "mcp.json"),
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n',
    );
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: { w: { command: "w" } },
    });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    assertEquals(found.problems.map((p) => p.message), [
      `${join(home, ".cursor", "mcp.json")}:4:5: not valid JSON: a comma is expected`,
    ]);
    assertEquals(found.configs.map((c) => c.id), ["windsurf ~/.codeium/windsurf/mcp_config.json"]);
  }));

Deno.test("findConfigs() reads files as users save them: a BOM and CRLF, a Claude Desktop file of preferences alone; and names what it cannot read", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    // Windows editors: a byte order mark and CRLF line ends
    await write(
      join(home, ".claude.json"),
      '\uFEFF{\r\n  "mcpServers": {\r\n    "u": { "command": "u-mcp" }\r\n  }\r\n}\r\n',
    );
    await write(join(home, ".claude", "settings.json"), "null\n");
    // Claude Code reads its files with JSON.parse (less a BOM): a trailing comma is an error;
    // a blank .mcp.json it reads as no servers
    await write(join(app, ".claude", "settings.local.json"), '{"env": {"A": "1",}}');
    await write(join(app, ".mcp.json"), "\n");
    await write(join(home, ".config", "Claude", "claude_desktop_config.json"), {
      preferences: { menuBarEnabled: false },
    });
    await write(join(home, ".cursor", "mcp.json"), "  \n");
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), "[]");
    // Gemini CLI reads JSON.parse(stripJsonComments(text)): comments pass, a trailing comma or a
    // BOM makes the file an error, and it reads nothing from it
    await write(
      join(home, ".gemini", "settings.json"),
      '{\n  // mine\n  "mcpServers": {\n    "g": { "command": "g-mcp" },\n  }\n}\n',
    );
    await write(
      join(app, ".gemini", "settings.json"),
      '\uFEFF{ "mcpServers": { "p": { "command": "p-mcp" } } }',
    );
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    assertEquals(found.problems.map((p) => p.message), [
      `${join(home, ".claude", "settings.json")}: the file holds null, not a JSON object: ` +
      `nothing read from it`,
      `${join(app, ".claude", "settings.local.json")}:1:19: not valid JSON: a comma before a ` +
      `closing bracket`,
      `${join(home, ".cursor", "mcp.json")}:1:1: not valid JSON: the file is empty`,
      `${join(home, ".codeium", "windsurf", "mcp_config.json")}: the file holds an array, not a ` +
      `JSON object: nothing read from it`,
      `${join(home, ".gemini", "settings.json")}:5:3: not valid JSON: a comma before a closing ` +
      `bracket`,
      `${join(app, ".gemini", "settings.json")}:1:1: not valid JSON: a byte order mark (BOM) ` +
      `before the JSON`,
    ]);
    assertEquals(found.configs.map((c) => [c.id, c.servers.map((s) => s.name)]), [
      ["claude-code ~/app", ["u"]],
    ]);
  }));

Deno.test("findConfigs() run from the home folder reads Cursor's global file once, as global, and no home file makes a config the project's", () =>
  withHome(async (home) => {
    await write(join(home, ".cursor", "mcp.json"), { mcpServers: { a: { command: "a-mcp" } } });
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: { w: { command: "w-mcp" } },
    });
    await write(join(home, ".claude.json"), { mcpServers: { u: { command: "u-mcp" } } });
    await write(join(home, ".claude", "settings.json"), { env: { ENABLE_TOOL_SEARCH: "true" } });
    const found = await findConfigs({
      home,
      project: home,
      platform: "linux",
      system: false,
      env: {},
    });
    // the project's .claude/settings.json is the user's own: consulted once
    const deferral = found.configs[0].deferral;
    assertEquals(deferral.kind === "claude-code" && deferral.consulted, [
      "~/.claude/settings.json",
    ]);
    assertEquals(
      found.configs.slice(1).map((c) => [c.id, c.folder, c.files.length, c.notes, table(c)]),
      [
        ["cursor ~/.cursor/mcp.json", undefined, 1, [], { a: ["global", "a-mcp"] }],
        ["windsurf ~/.codeium/windsurf/mcp_config.json", undefined, 1, [], {
          w: ["user", "w-mcp"],
        }],
      ],
    );
  }));

Deno.test("findConfigs() notes a server list in settings that is not a list (Claude Code's disabled and approved lists, Gemini CLI's mcp.allowed and mcp.excluded), and ignores it", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    await write(join(home, ".claude.json"), {
      mcpServers: { u: { command: "u-mcp" } },
      projects: { [app]: { mcpServers: { l: { command: "l-mcp" } }, disabledMcpServers: "l" } },
    });
    await write(join(home, ".claude", "settings.json"), { enabledMcpjsonServers: { p: true } });
    await write(join(app, ".mcp.json"), { mcpServers: { p: { command: "p-mcp" } } });
    await write(join(home, ".gemini", "settings.json"), {
      mcpServers: { g: { command: "g-mcp" } },
      mcp: { allowed: "g", excluded: null },
    });
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    const [code, gemini] = found.configs;
    assertEquals(table(code), {
      l: ["local", "l-mcp"],
      p: ["project", "p-mcp"],
      u: ["user", "u-mcp"],
    });
    const claudeJson = join(home, ".claude.json");
    const settings = join(home, ".claude", "settings.json");
    assertEquals(code.notes, [
      `${claudeJson} projects[${
        JSON.stringify(app)
      }]: disabledMcpServers is a string, not a list of server names: ignored`,
      `${settings}: enabledMcpjsonServers is an object, not a list of server names: ignored`,
      // the approval list was ignored, so the project server is not recorded as approved
      "1 project server(s) of ~/app/.mcp.json are not recorded as approved: Claude Code asks " +
      "before starting them (counted here)",
    ]);
    const geminiSettings = join(home, ".gemini", "settings.json");
    assertEquals(table(gemini), { g: ["user", "g-mcp"] });
    assertEquals(gemini.notes.filter((n) => n.includes(" mcp: ")), [
      `${geminiSettings} mcp: allowed is a string, not a list of server names: ignored`,
      `${geminiSettings} mcp: excluded is null, not a list of server names: ignored`,
    ]);
  }));

Deno.test("findConfigs() reads the servers VS Code installs from its MCP registry (gallery and version keys) as any other, and keeps a plain servers file's pins", () =>
  withHome(async (home) => {
    // as VS Code writes them (entries seen in users' published mcp.json files)
    await write(join(home, ".config", "Code", "User", "mcp.json"), {
      servers: {
        "io.github.github/github-mcp-server": {
          type: "http",
          url: "https://api.githubcopilot.com/mcp/",
          gallery: "https://api.mcp.github.com",
          version: "1.0.3",
        },
        "microsoft/playwright-mcp": {
          type: "stdio",
          command: "npx",
          args: ["@playwright/mcp@latest"],
          gallery: "https://api.mcp.github.com",
          version: "0.0.1-seed",
        },
      },
      inputs: [],
    });
    const plain = join(home, "servers.json");
    await write(plain, {
      mcpServers: { pinned: { command: "pinned-mcp", package: "pinned-mcp", version: "2.0.0" } },
    });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    assertEquals(found.problems, []);
    assertEquals(table(found.configs[0]), {
      "io.github.github/github-mcp-server": ["user", "http api.githubcopilot.com"],
      "microsoft/playwright-mcp": ["user", "npx @playwright/mcp"],
    });
    const file = await findConfigs({ home, platform: "linux", system: false, env: {} }, [plain]);
    const entry = file.configs[0].servers[0].entry!;
    assertEquals([entry.meta.package, entry.meta.version], ["pinned-mcp", "2.0.0"]);
  }));

Deno.test("findConfigs() reads Claude Code's .mcp.json of the working folder and of every parent folder, the closest winning, except inside connector-downloads", () =>
  withHome(async (home) => {
    const work = join(home, "work");
    const app = join(work, "app");
    await write(join(home, ".mcp.json"), { mcpServers: { top: { command: "top-mcp" } } });
    await write(join(work, ".mcp.json"), {
      mcpServers: { dup: { command: "parent-mcp" }, shared: { command: "shared-mcp" } },
    });
    await write(join(app, ".mcp.json"), { mcpServers: { dup: { command: "app-mcp" } } });
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    const [code] = found.configs;
    assertEquals(table(code), {
      dup: ["project", "app-mcp"],
      shared: ["project", "shared-mcp"],
      top: ["project", "top-mcp"],
    });
    assertEquals(code.files, [app, work, home].map((d) => join(d, ".mcp.json")));
    assertEquals(code.notes, [
      `"dup" in ${join(work, ".mcp.json")} (project) is hidden by the project one`,
      "3 project server(s) of ~/work/app/.mcp.json, ~/work/.mcp.json, ~/.mcp.json are not " +
      "recorded as approved: Claude Code asks before starting them (counted here)",
    ]);
    // Claude Code leaves out the files of a folder where it saves claude.ai connectors' downloads
    const saved = join(home, "connector-downloads", "x");
    await write(join(saved, ".mcp.json"), { mcpServers: { saved: { command: "saved-mcp" } } });
    const inSaved = await findConfigs({
      home,
      project: saved,
      platform: "linux",
      system: false,
      env: {},
    });
    assertEquals(table(inSaved.configs[0]), { top: ["project", "top-mcp"] });
  }));

Deno.test("findConfigs() says when a servers table is not an object (a project's, the user's, a file's), and reads the rest", () =>
  withHome(async (home) => {
    const app = join(home, "work", "app");
    const odd = join(home, "work", "odd");
    await write(join(home, ".claude.json"), {
      mcpServers: ["not", "a", "table"],
      projects: {
        [app]: { mcpServers: { notes: { command: "notes-mcp" } } },
        [odd]: { mcpServers: "notanobject" },
      },
    });
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), { mcpServers: 42 });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    const claudeJson = join(home, ".claude.json");
    // Each once, though the user table is read for every project.
    assertEquals(found.problems.map((p) => p.message), [
      `${claudeJson}: projects[${
        JSON.stringify(odd)
      }].mcpServers is a string, not an object of servers: no server read from it`,
      `${claudeJson}: mcpServers is an array, not an object of servers: no server read from it`,
      `${
        join(home, ".codeium", "windsurf", "mcp_config.json")
      }: mcpServers is a number, not an object of servers: no server read from it`,
    ]);
    // The well-formed project is audited as before.
    const code = found.configs.filter((c) => c.client === "claude-code");
    assertEquals(code.map((c) => c.id), ["claude-code ~/work/app"]);
    assertEquals(table(code[0]), { notes: ["local", "notes-mcp"] });
  }));

Deno.test("findConfigs() with --config reads each file as its client's, and a missing file is a problem", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-audit-files-" });
  try {
    await write(join(dir, "repo", ".mcp.json"), { mcpServers: { m: { command: "m" } } });
    await write(join(dir, "servers.json"), { mcpServers: { g: { command: "g" } } });
    await Deno.mkdir(join(dir, "codex.toml"));
    const found = await findConfigs({
      home: join(dir, "h"),
      platform: "linux",
      system: false,
      env: {},
    }, [
      join(dir, "repo", ".mcp.json"),
      join(dir, "servers.json"),
      join(dir, "nope.json"),
      // A folder given as the file (a config folder named for the file it should hold): it
      // exists, so "no such file" sent the user looking for a typo.
      join(dir, "repo"),
      join(dir, "codex.toml"),
    ]);
    assertEquals(found.configs.map((c) => [c.client, c.servers.map((s) => s.name)]), [
      ["claude-code", ["m"]],
      ["generic", ["g"]],
    ]);
    assertEquals(found.problems.map((p) => p.message), [
      `${join(dir, "nope.json")}: no such file`,
      `${join(dir, "repo")}: a folder, not a config file`,
      `${join(dir, "codex.toml")}: a folder, not a config file`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("findConfigs() gives Claude Code entries the values its settings env blocks set, the highest-precedence file winning", () =>
  withHome(async (home) => {
    const app = join(home, "work", "app");
    await write(join(app, ".mcp.json"), {
      mcpServers: {
        api: {
          url: "https://${API_HOST}/mcp",
          headers: { Authorization: "Bearer ${API_KEY:-none}" },
        },
        tool: {
          command: "tool-mcp",
          args: ["--port", "${PORT}", "${HOME}/x", "${UNSET}"],
          env: { SHARED: "${SHARED}" },
        },
      },
    });
    // local over project over user (code.claude.com/docs/en/settings)
    await write(join(app, ".claude", "settings.local.json"), { env: { API_KEY: "k-local-123" } });
    await write(join(app, ".claude", "settings.json"), {
      env: { API_KEY: "k-project-456", API_HOST: "api.example.com", PORT: 8080 },
    });
    await write(join(home, ".claude", "settings.json"), {
      env: { API_HOST: "user.example.com", SHARED: "s-user", HOME: "/elsewhere" },
    });
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    assertEquals(found.problems, []);
    const [code] = found.configs;
    assertEquals(code.servers.map((s) => [s.name, s.variables]), [
      ["api", { API_HOST: "api.example.com", API_KEY: "k-local-123" }],
      // HOME stays the capture's throwaway home; UNSET is left for the shell
      ["tool", { PORT: "8080", SHARED: "s-user" }],
    ]);
    // the entry keeps its references (the report shows no value); a number is read as text
    const api = code.servers[0].entry!;
    assertEquals(api.kind === "remote" && api.url, "https://${API_HOST}/mcp");
    assertEquals(code.notes.filter((n) => n.includes("PORT")), [
      "~/work/app/.claude/settings.json sets env.PORT to a number, not a string: read as its " +
      "text, as a process environment stores it (the settings schema asks for a string)",
    ]);
  }));

Deno.test("findConfigs() reads Windsurf's disabledTools per server, and notes one that is not a list of names", () =>
  withHome(async (home) => {
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: {
        gh: { command: "gh-mcp", disabledTools: ["delete_repo", "delete_repo", "fork"] },
        mixed: { command: "mixed-mcp", disabledTools: ["fork", 3, null] },
        odd: { command: "odd-mcp", disabledTools: "all" },
        plain: { command: "plain-mcp", disabledTools: [] },
      },
    });
    await write(join(home, ".cursor", "mcp.json"), {
      mcpServers: { gh: { command: "gh-mcp", disabledTools: ["fork"] } },
    });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    const [cursor, windsurf] = found.configs;
    assertEquals(windsurf.servers.map((s) => [s.name, s.toolFilter]), [
      ["gh", { key: "disabledTools", exclude: ["delete_repo", "fork"] }],
      ["mixed", { key: "disabledTools", exclude: ["fork"] }],
      ["odd", undefined],
      ["plain", undefined],
    ]);
    // a string is not read as one name (Windsurf's switches are kept as a list)
    assertEquals(windsurf.notes, [
      `"mixed": disabledTools holds items that are not tool names (strings): only its strings ` +
      `are used`,
      `"odd": disabledTools is a string, not a list of tool names: ignored`,
    ]);
    // Cursor documents no such key: it is not read there
    assertEquals(cursor.servers.map((s) => s.toolFilter), [undefined]);
  }));

Deno.test("discoverConfigs() applies Claude Code's managed servers, exclusive managed-mcp.json and its server lists", async () => {
  const home = "/home/u";
  const app = "/home/u/app";
  const files: Record<string, unknown> = {
    [`${home}/.claude.json`]: {
      mcpServers: {
        gh: { command: "npx", args: ["-y", "gh-mcp"] },
        web: { url: "https://web.example.com/mcp" },
        "computer-use": { command: "my-computer-mcp" },
      },
    },
    [`${app}/.mcp.json`]: {
      mcpServers: {
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/"] },
        docs: { url: "https://docs.example.com/mcp" },
      },
    },
    [`${home}/.claude/settings.json`]: {
      deniedMcpServers: [{
        serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/"],
      }],
    },
    "/etc/claude-code/managed-settings.json": {
      allowedMcpServers: [{ serverUrl: "https://*.example.com/*" }, { serverName: "gh" }],
      managedMcpServers: {
        search: { type: "http", url: "https://search.example.com/mcp" },
        plain: { type: "http", url: "http://plain.example.com/mcp" },
        keyed: { type: "http", url: "https://k.example.com/mcp", headers: { K: "${KEY}" } },
      },
    },
  };
  const read = (path: string) =>
    Promise.resolve(path in files ? JSON.stringify(files[path]) : undefined);
  const base = { home, project: app, platform: "linux" as const, system: true, env: {}, read };
  const found = await discoverConfigs(base);
  assertEquals(found.problems, []);
  const code = found.configs[0];
  const state = (c: typeof code) =>
    Object.fromEntries(c.servers.map((s) => [s.name, [s.scope, s.disabledBy ?? s.disabled]]));
  // the allowlist has a URL entry and no command entry: remote servers need a URL match,
  // stdio ones a name match; the denylist blocks the filesystem server whatever the allowlist
  assertEquals(state(code), {
    "computer-use": [
      "user",
      'not loaded: "computer-use" is reserved for a Claude Code built-in server ' +
      "(code.claude.com/docs/en/mcp, Configuration warnings)",
    ],
    docs: ["project", false],
    fs: ["project", "blocked by deniedMcpServers (code.claude.com/docs/en/managed-mcp)"],
    gh: ["user", false],
    search: ["managed settings", false],
    web: ["user", false],
  });
  assertEquals(code.files.includes("/etc/claude-code/managed-settings.json"), true);
  assertEquals(code.notes.filter((n) => n.startsWith("managedMcpServers")), [
    `managedMcpServers "keyed" in /etc/claude-code/managed-settings.json is not loaded: it has a ` +
    "${VAR} reference, which Claude Code does not expand there (code.claude.com/docs/en/managed-mcp)",
    `managedMcpServers "plain" in /etc/claude-code/managed-settings.json is not loaded: its url ` +
    "is not an https:// URL (code.claude.com/docs/en/managed-mcp)",
  ]);

  // With managed-mcp.json deployed, only its servers and the provided ones load.
  files["/etc/claude-code/managed-mcp.json"] = {
    mcpServers: { corp: { command: "/usr/local/bin/corp-mcp" }, gh: { command: "corp-gh" } },
  };
  const exclusive = (await discoverConfigs(base)).configs[0];
  const off = "not loaded: managed-mcp.json has exclusive control " +
    "(code.claude.com/docs/en/managed-mcp)";
  assertEquals(state(exclusive), {
    "computer-use": state(code)["computer-use"],
    corp: ["managed", false],
    docs: ["project", off],
    fs: ["project", off],
    gh: ["managed", false],
    search: ["managed settings", false],
    web: ["user", off],
  });
  assertEquals(
    exclusive.notes.some((n) => n.includes('"gh" in /home/u/.claude.json (user)')),
    true,
  );
  // another account's folder (--home) has no machine-wide files
  const other = (await discoverConfigs({ ...base, system: false })).configs[0];
  assertEquals(Object.keys(state(other)), ["computer-use", "docs", "fs", "gh", "web"]);
});

Deno.test("findConfigs() reads a VS Code or Cursor server's envFile, and notes one it cannot use", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    await write(join(app, ".env"), "# keys\nexport A_KEY=k-123456789\nB='two words'\n");
    await write(join(app, ".vscode", "mcp.json"), {
      servers: {
        ok: { type: "stdio", command: "a-mcp", envFile: "${workspaceFolder}/.env" },
        gone: { type: "stdio", command: "b-mcp", envFile: ".env.missing" },
        remote: { type: "http", url: "https://r.example/mcp", envFile: ".env" },
      },
    });
    await write(join(home, ".cursor", "mcp.json"), {
      mcpServers: { rel: { command: "c-mcp", envFile: ".env" } },
    });
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    const [cursor, vscode] = found.configs;
    // a relative path starts in the project folder
    assertEquals(cursor.servers.map((s) => [s.envFile, s.fileEnv, s.envNames]), [
      [join(app, ".env"), { A_KEY: "k-123456789", B: "two words" }, ["A_KEY", "B"]],
    ]);
    assertEquals(vscode.servers.map((s) => [s.name, s.fileEnv]), [
      ["gone", undefined],
      ["ok", { A_KEY: "k-123456789", B: "two words" }],
      ["remote", undefined],
    ]);
    assertEquals(vscode.notes, [
      `"gone": envFile ~/app/.env.missing does not exist: its variables are not set`,
      `"remote": envFile applies to stdio servers only: ignored`,
    ]);
  }));

Deno.test("findConfigs() leaves out every VS Code server when chat.mcp.access is none, the workspace's setting first", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    const user = join(home, ".config", "Code", "User");
    await write(join(user, "mcp.json"), { servers: { a: { command: "a-mcp" } } });
    await write(join(user, "settings.json"), { "chat.mcp.access": "registry" });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const registry = (await findConfigs(options)).configs[0];
    assertEquals(registry.servers.map((s) => s.disabled), [false]);
    assertEquals(registry.notes, [
      `~/.config/Code/User/settings.json sets chat.mcp.access to "registry": VS Code uses only ` +
      "servers installed from its MCP registry, which no file records; every server is counted",
    ]);
    await write(join(app, ".vscode", "settings.json"), { "chat.mcp.access": "none" });
    const none = (await findConfigs(options)).configs[0];
    assertEquals(none.servers.map((s) => [s.name, s.disabled, s.disabledBy]), [
      [
        "a",
        true,
        'not used: ~/app/.vscode/settings.json sets chat.mcp.access to "none" ' +
        "(code.visualstudio.com/docs, MCP configuration reference, settings)",
      ],
    ]);
  }));

Deno.test("findConfigs() adds the servers VS Code discovers in other apps' configs when its setting turns that on", () =>
  withHome(async (home) => {
    const user = join(home, ".config", "Code", "User");
    await write(join(user, "mcp.json"), { servers: { memory: { command: "own-memory" } } });
    await write(join(user, "settings.json"), {
      "chat.mcp.discovery.enabled": { "claude-desktop": true, windsurf: false },
    });
    await write(join(home, ".config", "Claude", "claude_desktop_config.json"), {
      mcpServers: { memory: { command: "desktop-memory" }, notes: { command: "notes-mcp" } },
    });
    await write(join(home, ".codeium", "windsurf", "mcp_config.json"), {
      mcpServers: { surf: { command: "surf-mcp" } },
    });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    const vscode = found.configs.find((c) => c.client === "vscode")!;
    assertEquals(table(vscode), {
      memory: ["user", "own-memory"],
      notes: ["discovered: Claude Desktop", "notes-mcp"],
    });
    assertEquals(vscode.notes, [
      `"memory" in ${
        join(home, ".config", "Claude", "claude_desktop_config.json")
      } (discovered: Claude Desktop) is hidden by the user one`,
    ]);
    // without the setting, VS Code reads its own files alone
    await write(join(user, "settings.json"), {});
    const plain = (await findConfigs({ home, platform: "linux", system: false, env: {} }))
      .configs.find((c) => c.client === "vscode")!;
    assertEquals(Object.keys(table(plain)), ["memory"]);
  }));

Deno.test("findConfigs() reads Gemini CLI's user and project settings with its server lists, switches and folder trust", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    await write(
      join(home, ".gemini", "settings.json"),
      `{
        // JSON with comments, as Gemini CLI reads it
        "mcp": { "excluded": ["noisy"], "allowed": ["GitHub", "docs", "noisy", "off", "kept"] },
        "mcpServers": {
          "GitHub": { "httpUrl": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer $GH_TOKEN" } },
          "docs": { "url": "https://docs.example.com/sse" },
          "noisy": { "command": "noisy-mcp" },
          "off": { "command": "off-mcp" },
          "stray": { "command": "stray-mcp" },
          "kept": { "command": "user-kept" }
        }
      }`,
    );
    await write(join(app, ".gemini", "settings.json"), {
      mcp: { allowed: ["github", "DOCS", "kept", "noisy", "off"] },
      mcpServers: {
        kept: { command: "npx", args: ["-y", "kept-mcp"], excludeTools: ["drop"] },
      },
    });
    await write(join(home, ".gemini", "mcp-server-enablement.json"), { off: { enabled: false } });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const trustedFolders = join(home, ".gemini", "trustedFolders.json");
    await write(trustedFolders, { [home]: "TRUST_FOLDER" });
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const gemini = found.configs.find((c) => c.client === "gemini-cli")!;
    const why = (c: typeof gemini) =>
      Object.fromEntries(c.servers.map((s) => [s.name, s.disabledBy ?? s.disabled]));
    // the allowlists intersect without case and keep the user's spelling; the project's entry
    // wins a shared name
    assertEquals(why(gemini), {
      GitHub: false,
      docs: false,
      kept: false,
      noisy: "in mcp.excluded (geminicli.com/docs/tools/mcp-server)",
      off: "turned off with gemini mcp disable (~/.gemini/mcp-server-enablement.json) " +
        "(geminicli.com/docs/tools/mcp-server)",
      stray: "not in mcp.allowed (geminicli.com/docs/tools/mcp-server)",
    });
    const [gh, docs, kept] = gemini.servers;
    assertEquals(
      gh.entry?.kind === "remote" && [gh.entry.transport, gh.entry.headers.Authorization],
      ["streamable-http", "Bearer ${GH_TOKEN}"],
    );
    assertEquals(docs.entry?.kind === "remote" && docs.entry.transport, "sse");
    assertEquals([kept.scope, kept.launch, kept.toolFilter], [
      "project",
      "npx kept-mcp",
      { key: "includeTools/excludeTools", exclude: ["drop"] },
    ]);
    assertEquals(gemini.notes, [
      `"kept" in ${join(home, ".gemini", "settings.json")} (user) is hidden by the project one`,
    ]);

    // a folder marked not trusted: the project's file is ignored and no server starts
    await write(trustedFolders, { [home]: "TRUST_FOLDER", [app]: "DO_NOT_TRUST" });
    const untrusted = (await findConfigs(options)).configs.find((c) => c.client === "gemini-cli")!;
    assertEquals(untrusted.files, [join(home, ".gemini", "settings.json")]);
    assertEquals(untrusted.servers.find((s) => s.name === "kept")?.launch, "user-kept");
    assertEquals(untrusted.servers.every((s) => s.disabled), true);
    // no rule for the folder: Gemini CLI asks first; counted, with a note
    await Deno.remove(trustedFolders);
    const asked = (await findConfigs(options)).configs.find((c) => c.client === "gemini-cli")!;
    assertEquals(asked.notes.filter((n) => n.includes("trust")), [
      "Gemini CLI asks whether to trust ~/app before it starts any server (folder trust); " +
      "counted as trusted",
    ]);
  }));

Deno.test("findConfigs() reads Codex's config.toml and a trusted project's, merged key by key as Codex merges them", () =>
  withHome(async (home) => {
    const app = join(home, "src", "shop");
    await Deno.mkdir(join(app, ".git"), { recursive: true });
    const userToml = (trust: string) =>
      `# Codex settings, as written by hand and by \`codex mcp add\`
model = "gpt-5-codex"
${trust}
[mcp_servers.wiki]
command = "npx"
args = ["-y", "@acme/wiki-mcp@3.1.0"]
env = { WIKI_API_KEY = "wk-test-5521" }
env_vars = ["WIKI_REGION", "WIKI_UNSET"]
startup_timeout_sec = 25

[mcp_servers.tickets]
url = "https://tickets.example.com/mcp"
bearer_token_env_var = "TICKETS_TOKEN"
http_headers = { "X-Client" = "shop-team" }
env_http_headers = { "X-Org" = "TICKETS_ORG", "X-Extra" = "TICKETS_EXTRA" }
enabled_tools = ["find_ticket", "read_ticket", "close_ticket"]
disabled_tools = ["close_ticket"]

[mcp_servers.paused]
command = "paused-mcp"
enabled = false

[mcp_servers."ops.bot"]
command = "ops-bot"
`;
    const codexHome = join(home, ".codex");
    const trusted = `\n[projects."${app}"]\ntrust_level = "trusted"\n`;
    await write(join(codexHome, "config.toml"), userToml(trusted));
    await write(
      join(app, ".codex", "config.toml"),
      `# the project turns the user's wiki off and adds its own server
[mcp_servers.wiki]
enabled = false

[mcp_servers.catalog]
command = "node"
args = ["tools/catalog-mcp.js"]
cwd = "tools"
`,
    );
    const options = {
      home,
      project: app,
      platform: "linux" as const,
      system: true,
      env: { WIKI_REGION: "eu-1", TICKETS_ORG: "org-7", TICKETS_EXTRA: "  " },
    };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const codex = found.configs.find((c) => c.client === "codex")!;
    assertEquals(codex.id, "codex ~/.codex/config.toml");
    assertEquals(codex.folder, app);
    assertEquals(codex.files, [join(codexHome, "config.toml"), join(app, ".codex", "config.toml")]);
    assertEquals(table(codex), {
      catalog: ["project", "node"],
      "ops.bot": [
        "user",
        "ops-bot",
        "Codex starts no server under this name: it must be letters, digits, _ and - only",
      ],
      paused: ["user", "paused-mcp", "disabled"],
      tickets: ["user", "http tickets.example.com"],
      wiki: ["project", "npx @acme/wiki-mcp", "disabled"],
    });
    const by = Object.fromEntries(codex.servers.map((s) => [s.name, s]));
    assertEquals(by.paused.disabledBy, "enabled = false in its table");
    // env_vars pass the shell's variables that are set; the entry's own env is as written
    const wiki = by.wiki.entry!;
    assertEquals(wiki.kind === "stdio" && wiki.env, {
      WIKI_REGION: "${WIKI_REGION}",
      WIKI_API_KEY: "wk-test-5521",
    });
    assertEquals(by.wiki.envNames, ["WIKI_API_KEY"]);
    assertEquals(by.catalog.entry?.kind === "stdio" && by.catalog.entry.cwd, "tools");
    // streamable HTTP only; a header whose variable is blank is not sent
    const tickets = by.tickets.entry!;
    assertEquals(tickets.kind === "remote" && [tickets.transport, tickets.headers], [
      "streamable-http",
      {
        "X-Client": "shop-team",
        "X-Org": "${TICKETS_ORG}",
        Authorization: "Bearer ${TICKETS_TOKEN}",
      },
    ]);
    assertEquals(by.tickets.toolFilter, {
      key: "enabled_tools/disabled_tools",
      exclude: ["close_ticket"],
      include: ["find_ticket", "read_ticket", "close_ticket"],
    });
    assertEquals(codex.notes, [
      `"wiki" merges its keys from ~/.codex/config.toml and ~/src/shop/.codex/config.toml ` +
      `(Codex merges tables key by key, the later file winning)`,
      `"tickets": X-Extra reads TICKETS_EXTRA, which is not set: Codex sends no X-Extra`,
    ]);
    assertEquals(codex.deferral, { kind: "codex", alwaysDefer: false });

    // no trust recorded for the project: its file is not loaded, its own servers are listed off
    await write(join(codexHome, "config.toml"), userToml(""));
    const untrusted = (await findConfigs(options)).configs.find((c) => c.client === "codex")!;
    assertEquals(untrusted.files, [join(codexHome, "config.toml")]);
    assertEquals(untrusted.folder, undefined);
    const u = Object.fromEntries(untrusted.servers.map((s) => [s.name, s]));
    assertEquals([u.wiki.disabled, u.wiki.scope], [false, "user"]);
    assertEquals(
      u.catalog.disabledBy,
      "not loaded: ~/src/shop is not a trusted project (developers.openai.com/codex/config-basic)",
    );

    // CODEX_HOME moves ~/.codex (this account only: with --home the shell is not read)
    const moved = join(home, "elsewhere");
    await write(join(moved, "config.toml"), `[mcp_servers.solo]\ncommand = "solo-mcp"\n`);
    const elsewhere = await findConfigs({
      ...options,
      project: undefined,
      env: { CODEX_HOME: moved },
    });
    assertEquals(
      elsewhere.configs.filter((c) => c.client === "codex").map((
        c,
      ) => [c.id, Object.keys(table(c))]),
      [["codex ~/elsewhere/config.toml", ["solo"]]],
    );
    const notThisShell = await findConfigs({
      ...options,
      project: undefined,
      system: false,
      env: { CODEX_HOME: moved },
    });
    assertEquals(
      notThisShell.configs.find((c) => c.client === "codex")?.id,
      "codex ~/.codex/config.toml",
    );
  }));

Deno.test("findConfigs() names the file, line and column of a Codex config.toml that is not TOML, and an invalid server table, and reads the other clients", () =>
  withHome(async (home) => {
    const path = join(home, ".codex", "config.toml");
    // line 3: a bare word where a value belongs (Codex's own parser stops there too)
    await write(path, `[mcp_servers.wiki]\ncommand = "npx"\nargs = [-y]\n`);
    await write(join(home, ".cursor", "mcp.json"), { mcpServers: { a: { command: "a-mcp" } } });
    const options = { home, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.configs.map((c) => c.client), ["cursor"]);
    assertEquals(found.problems.length, 1);
    assertMatch(found.problems[0].message, new RegExp(`^${path}:3:9: not valid TOML: `));

    // a table with both transports: Codex's loader refuses it, the others are still read
    await write(
      path,
      `[mcp_servers.both]\ncommand = "x-mcp"\nurl = "https://x.example.com/mcp"\n\n` +
        `[mcp_servers.none]\nargs = ["--flag"]\n\n[mcp_servers.fine]\ncommand = "fine-mcp"\n` +
        `future_key = 1\n`,
    );
    const codex = (await findConfigs(options)).configs.find((c) => c.client === "codex")!;
    assertEquals(table(codex), {
      both: ["user", "?", "url is not supported for stdio"],
      fine: ["user", "fine-mcp"],
      none: ["user", "?", "invalid transport (no command and no url)"],
    });
    assertEquals(codex.notes, [
      `Codex refuses to start with an invalid server table ("both", "none"): until it is fixed, ` +
      `Codex starts none of these servers; the valid ones are measured here`,
      `"fine": future_key is not a key of Codex's server table ` +
      `(codex-rs/core/src/config/types.rs): ignored here`,
    ]);
  }));

Deno.test("findConfigs(): a Codex server name Codex refuses fails that server alone; a mistyped bearer_token_env_var fails its table; a missing CODEX_HOME stops Codex", () =>
  withHome(async (home) => {
    const path = join(home, ".codex", "config.toml");
    // CRLF line ends, an empty name, a name with ":", an inline table, a dotted key
    await write(
      path,
      `[mcp_servers.""]\r\ncommand = "empty-mcp"\r\n[mcp_servers."a:b"]\r\n` +
        `url = "https://ab.example.com/mcp"\r\n[mcp_servers]\r\n` +
        `inline = { command = "inline-mcp", env = { INLINE_KEY = "v" } }\r\n` +
        `dotted.command = "dotted-mcp"\r\n`,
    );
    const options = { home, platform: "linux" as const, system: true, env: {} };
    const names = await findConfigs(options);
    assertEquals(names.problems, []);
    const codex = names.configs.find((c) => c.client === "codex")!;
    const refused =
      "Codex starts no server under this name: it must be letters, digits, _ and - only";
    assertEquals(table(codex), {
      "": ["user", "empty-mcp", refused],
      "a:b": ["user", "http ab.example.com", refused],
      dotted: ["user", "dotted-mcp"],
      inline: ["user", "inline-mcp"],
    });
    // a name fails that server alone: Codex still starts the others
    assertEquals(codex.notes, []);

    // a value Codex reads but cannot start (a URL without its scheme, an empty command) fails
    // that server alone too; the URL's query, where keys travel, is not repeated
    await write(
      path,
      `[mcp_servers.api]\nurl = "api.example.com/mcp?key=k-55"\n` +
        `[mcp_servers.blank]\ncommand = ""\n[mcp_servers.ok]\ncommand = "ok-mcp"\n`,
    );
    const values = (await findConfigs(options)).configs.find((c) => c.client === "codex")!;
    assertEquals(table(values), {
      api: [
        "user",
        "?",
        'server "api" field "url": expected an http:// or https:// URL, got "api.example.com/mcp?…"',
      ],
      blank: [
        "user",
        "?",
        'server "blank" field "command": expected a non-empty string, got string ""',
      ],
      ok: ["user", "ok-mcp"],
    });
    assertEquals(values.notes, []);

    // bearer_token_env_var = 5 or command = 5 is a type error of the table for Codex, which
    // then starts nothing (the bearer was dropped: the server measured without Authorization)
    await write(
      path,
      `[mcp_servers.api]\nurl = "https://api.example.com/mcp"\nbearer_token_env_var = 5\n` +
        `[mcp_servers.num]\ncommand = 5\n`,
    );
    const typed = (await findConfigs(options)).configs.find((c) => c.client === "codex")!;
    assertEquals(table(typed), {
      api: ["user", "?", "bearer_token_env_var is a number, not a string"],
      num: ["user", "?", "command is a number, not a string"],
    });
    assertEquals(typed.notes, [
      `Codex refuses to start with an invalid server table ("api", "num"): until it is fixed, ` +
      `Codex starts none of these servers; the valid ones are measured here`,
    ]);

    // a relative CODEX_HOME is the working folder's (where Codex runs), not the process's
    const work = join(home, "work");
    await write(join(work, "team-codex", "config.toml"), `[mcp_servers.team]\ncommand = "team"\n`);
    const relative = await findConfigs({
      ...options,
      project: work,
      env: { CODEX_HOME: "team-codex" },
    });
    assertEquals(
      relative.configs.filter((c) => c.client === "codex").map((
        c,
      ) => [c.id, Object.keys(table(c))]),
      [["codex ~/work/team-codex/config.toml", ["team"]]],
    );

    // a CODEX_HOME that is not there: Codex does not start, ~/.codex is not read either
    const gone = join(home, "no-such-codex-home");
    const moved = await findConfigs({ ...options, env: { CODEX_HOME: gone } });
    assertEquals(moved.configs.filter((c) => c.client === "codex"), []);
    assertEquals(moved.problems.map((p) => p.message), [
      `${gone}: CODEX_HOME names a folder that does not exist: Codex refuses to start until ` +
      `it does, so no Codex config is read`,
    ]);
  }));

Deno.test("findConfigs(): a ${NAME} in a Codex config stays text through the capture's expansion, as Codex passes it", () =>
  withHome(async (home) => {
    await write(
      join(home, ".codex", "config.toml"),
      `[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--root", "\${HOME}/docs", "$PWD"]\n` +
        `env = { ROOT = "\${HOME}" }\nenv_vars = ["DOCS_TOKEN"]\n\n` +
        `[mcp_servers.api]\nurl = "https://api.example.com/\${TENANT}/mcp"\n` +
        `http_headers = { "X-Home" = "\${HOME}" }\nbearer_token_env_var = "API_TOKEN"\n`,
    );
    const env = { HOME: home, DOCS_TOKEN: "dt-1", TENANT: "acme", API_TOKEN: "at-1" };
    const found = await findConfigs({ home, platform: "linux", system: true, env });
    const codex = found.configs.find((c) => c.client === "codex")!;
    const by = Object.fromEntries(codex.servers.map((s) => [s.name, s.entry!]));
    // What the capture starts: the literal text, while env_vars and the bearer variable are read
    const docs = expandServerEntry(by.docs, env);
    assertEquals(docs.kind === "stdio" && [docs.args, docs.env], [
      ["--root", "${HOME}/docs", "$PWD"],
      { DOCS_TOKEN: "dt-1", ROOT: "${HOME}" },
    ]);
    const api = expandServerEntry(by.api, env);
    assertEquals(api.kind === "remote" && [api.url, api.headers], [
      "https://api.example.com/${TENANT}/mcp",
      { "X-Home": "${HOME}", Authorization: "Bearer at-1" },
    ]);
    assertEquals(codex.notes, [
      `"api": url, http_headers.X-Home hold "\${", passed as written: Codex expands no ` +
      `variables (env_vars, env_http_headers and bearer_token_env_var read the shell)`,
      `"docs": args, env.ROOT hold "\${", passed as written: Codex expands no variables ` +
      `(env_vars, env_http_headers and bearer_token_env_var read the shell)`,
    ]);
  }));

Deno.test("findConfigs() with --config reads a Codex config.toml alone", () =>
  withHome(async (home) => {
    const path = join(home, "team", "codex.toml");
    await write(
      path,
      `[mcp_servers.search]\nurl = "https://search.example.com/mcp"\n` +
        `[features]\ntool_search_always_defer_mcp_tools = true\n`,
    );
    const options = { home, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options, [path, join(home, "absent.toml")]);
    assertEquals(found.configs.map((c) => [c.id, c.label, Object.keys(table(c))]), [
      ["codex ~/team/codex.toml", "Codex", ["search"]],
    ]);
    assertEquals(found.configs[0].deferral, { kind: "codex", alwaysDefer: true });
    assertEquals(found.problems.map((p) => p.message), [
      `${join(home, "absent.toml")}: no such file`,
    ]);
  }));

Deno.test("findConfigs() reads Zed's context_servers from its settings and the project's, the project winning a name", () =>
  withHome(async (home) => {
    const app = join(home, "code", "site");
    const userPath = join(home, ".config", "zed", "settings.json");
    await write(
      userPath,
      `// Zed settings: JSON with comments and trailing commas
{
  "theme": "One Dark",
  "context_servers": {
    "notes": { "source": "custom", "command": "npx", "args": ["-y", "@acme/notes-mcp"], "env": { "NOTES_KEY": "nk-1" } },
    "legacy": { "command": { "path": "/opt/legacy-mcp", "args": ["--stdio"], "env": {} }, "settings": {} },
    "remote": { "url": "https://mcp.example.org/mcp", "headers": { "Authorization": "Bearer \${ORG_TOKEN}" } },
    "resting": { "command": "resting-mcp", "enabled": false },
    "from-extension": { "source": "extension", "settings": { "token": "t" } },
  },
}`,
    );
    await write(join(app, ".zed", "settings.json"), {
      context_servers: { notes: { command: "node", args: ["notes.js"] } },
    });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const zed = found.configs.find((c) => c.client === "zed")!;
    assertEquals([zed.id, zed.label, zed.folder], ["zed ~/.config/zed/settings.json", "Zed", app]);
    assertEquals(zed.files, [join(app, ".zed", "settings.json"), userPath]);
    assertEquals(table(zed), {
      "from-extension": [
        "user",
        "?",
        "provided by a Zed extension, which supplies its command: not started here",
      ],
      legacy: ["user", "legacy-mcp"],
      notes: ["project", "node"],
      remote: ["user", "http mcp.example.org"],
      resting: ["user", "resting-mcp", "disabled"],
    });
    const by = Object.fromEntries(zed.servers.map((s) => [s.name, s]));
    assertEquals(by.resting.disabledBy, '"enabled": false in its entry');
    assertEquals(by.legacy.entry?.kind === "stdio" && by.legacy.entry.args, ["--stdio"]);
    assertEquals(
      by.remote.entry?.kind === "remote" && by.remote.entry.headers.Authorization,
      "Bearer ${ORG_TOKEN}",
    );
    assertEquals(zed.notes, [
      `"notes" in ${userPath} (user) is hidden by the project one`,
      "Zed starts MCP servers in a project automatically only once its worktree is trusted, a " +
      "state Zed keeps in its database, not a file: every server is counted (zed.dev/docs/ai/mcp)",
    ]);

    // $XDG_CONFIG_HOME moves Zed's folder on Linux (this account's audit only)
    const xdg = join(home, "xdg");
    await write(join(xdg, "zed", "settings.json"), {
      context_servers: { x: { command: "x-mcp" } },
    });
    const moved = await findConfigs({
      ...options,
      project: undefined,
      system: true,
      env: { XDG_CONFIG_HOME: xdg },
    });
    assertEquals(moved.configs.find((c) => c.client === "zed")?.id, "zed ~/xdg/zed/settings.json");
    // --config reads a Zed settings file alone
    const one = await findConfigs(options, [userPath]);
    assertEquals(one.configs.map((c) => [c.id, c.servers.length]), [[
      "zed ~/.config/zed/settings.json",
      5,
    ]]);
    // a copy under another name and folder (JSONC, only an extension's server) is still Zed's
    const copy = join(home, "backup", "zed-settings.json");
    await write(
      copy,
      `// from my laptop\n{"context_servers": {"postgres": {"source": "extension", ` +
        `"settings": {"database_url": "postgresql://localhost/db"},},},}\n`,
    );
    const copied = await findConfigs(options, [copy]);
    assertEquals(copied.problems, []);
    assertEquals(copied.configs.map((c) => [c.id, c.client, table(c)]), [[
      "zed ~/backup/zed-settings.json",
      "zed",
      {
        postgres: [
          "file",
          "?",
          "provided by a Zed extension, which supplies its command: not started here",
        ],
      },
    ]]);
  }));

Deno.test("findConfigs() reads Copilot CLI's user file and the project's .mcp.json files up to the git root, the closest winning, with its tools lists, disabled servers and folder trust", () =>
  withHome(async (home) => {
    const repo = join(home, "work");
    const app = join(repo, "app");
    await Deno.mkdir(join(repo, ".git"), { recursive: true });
    const userPath = join(home, ".copilot", "mcp-config.json");
    // the user's file, as the documentation's example writes it
    await write(userPath, {
      mcpServers: {
        playwright: {
          type: "local",
          command: "npx",
          args: ["@playwright/mcp@latest"],
          env: {},
          tools: ["*"],
        },
        context7: {
          type: "http",
          url: "https://mcp.context7.com/mcp",
          headers: { CONTEXT7_API_KEY: "$CTX_KEY", "X-Team": "${TEAM:-core}" },
          tools: ["resolve-library-id"],
        },
        events: { type: "sse", url: "https://sse.example.com/sse", tools: [] },
        notes: { command: "user-notes", args: [], tools: ["*"] },
        quiet: { command: "quiet-mcp", args: [], tools: ["*"] },
        untyped: { command: "plain-mcp", args: [] },
      },
    });
    await write(join(app, ".mcp.json"), {
      mcpServers: { notes: { command: "node", args: ["notes.js"], tools: ["*"] } },
    });
    await write(join(repo, ".mcp.json"), {
      mcpServers: {
        notes: { command: "far-notes", args: [], tools: ["*"] },
        far: { command: "far-mcp", args: [], tools: ["*"] },
      },
    });
    await write(join(repo, ".github", "mcp.json"), {
      mcpServers: { shared: { type: "stdio", command: "shared-mcp", args: [], tools: ["a"] } },
    });
    // beyond the git root: not read
    await write(join(home, ".mcp.json"), { mcpServers: { outside: { command: "o", args: [] } } });
    await write(
      join(home, ".copilot", "settings.json"),
      `{\n  // JSONC, as the CLI writes it\n  "toolSearch": false,\n  "disabledMcpServers": [],\n}\n`,
    );
    await write(join(repo, ".github", "copilot", "settings.local.json"), {
      disabledMcpServers: ["quiet"],
    });
    await write(join(home, ".copilot", "config.json"), { trusted_folders: [repo] });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const copilot = found.configs.find((c) => c.client === "copilot-cli")!;
    assertEquals(
      [copilot.id, copilot.label, copilot.folder],
      ["copilot-cli ~/.copilot/mcp-config.json", "Copilot CLI", app],
    );
    assertEquals(copilot.files, [
      join(app, ".mcp.json"),
      join(repo, ".mcp.json"),
      join(repo, ".github", "mcp.json"),
      userPath,
    ]);
    assertEquals(table(copilot), {
      context7: ["user", "http mcp.context7.com"],
      events: ["user", "sse sse.example.com"],
      far: ["workspace", "far-mcp"],
      notes: ["workspace", "node"],
      playwright: ["user", "npx @playwright/mcp"],
      quiet: ["user", "quiet-mcp", "disabled"],
      shared: ["repository", "shared-mcp"],
      untyped: ["user", "plain-mcp"],
    });
    const by = Object.fromEntries(copilot.servers.map((s) => [s.name, s]));
    assertEquals(by.notes.source, join(app, ".mcp.json"));
    assertEquals(
      by.quiet.disabledBy,
      "listed in disabledMcpServers of ~/work/.github/copilot/settings.local.json",
    );
    // `$NAME` is a variable in headers, as `${NAME}` is
    assertEquals(by.context7.entry?.kind === "remote" && by.context7.entry.headers, {
      CONTEXT7_API_KEY: "${CTX_KEY}",
      "X-Team": "${TEAM:-core}",
    });
    assertEquals(
      by.context7.entry?.kind === "remote" && by.context7.entry.transport,
      "streamable-http",
    );
    assertEquals(by.events.entry?.kind === "remote" && by.events.entry.transport, "sse");
    // tools: ["*"] keeps every tool, a list only those, an empty list none
    assertEquals(by.playwright.toolFilter, undefined);
    assertEquals(by.context7.toolFilter, {
      key: "tools",
      exclude: [],
      include: ["resolve-library-id"],
    });
    assertEquals(by.events.toolFilter, { key: "tools", exclude: [], include: [] });
    assertEquals(copilot.notes, [
      `"notes" in ${join(repo, ".mcp.json")} (workspace) is hidden by the workspace one`,
      `"notes" in ${userPath} (user) is hidden by the workspace one`,
      `"untyped": no tools list (Copilot CLI's documentation requires one; ["*"] enables every ` +
      `tool): every tool is counted`,
    ]);
    assertEquals(copilot.deferral, {
      kind: "copilot-cli",
      toolSearch: { value: false, where: "~/.copilot/settings.json" },
    });
    assertEquals(resolvePosture(copilot.deferral, figures).state, "upfront");

    // a folder not yet trusted: its servers are counted, with a note
    await Deno.remove(join(home, ".copilot", "config.json"));
    await Deno.remove(join(home, ".copilot", "settings.json"));
    const untrusted = (await findConfigs(options)).configs.find((c) => c.client === "copilot-cli")!;
    assertMatch(
      untrusted.notes[0],
      /^~\/work\/app is not in the trusted folders of ~\/\.copilot\/config\.json/,
    );
    assertEquals(resolvePosture(untrusted.deferral, figures).state, "unrecorded");

    // COPILOT_HOME replaces ~/.copilot (this account's audit only)
    await write(join(home, "alt", "mcp-config.json"), {
      mcpServers: { x: { command: "x-mcp", args: [], tools: ["*"] } },
    });
    const moved = await findConfigs({
      ...options,
      project: undefined,
      system: true,
      env: { COPILOT_HOME: join(home, "alt") },
    });
    assertEquals(
      moved.configs.filter((c) => c.client === "copilot-cli").map((c) => [c.id, table(c)]),
      [["copilot-cli ~/alt/mcp-config.json", { x: ["user", "x-mcp"] }]],
    );
    // --config reads a Copilot CLI file alone, in its dialect
    const one = await findConfigs(options, [userPath]);
    assertEquals(one.configs.map((c) => [c.id, c.client, c.servers.length]), [[
      "copilot-cli ~/.copilot/mcp-config.json",
      "copilot-cli",
      6,
    ]]);
    assertEquals(one.configs[0].servers.find((s) => s.name === "events")?.toolFilter?.include, []);
    // without Copilot CLI's folder, a project's .mcp.json (Claude Code's file too) is no sign of it
    await Deno.remove(join(home, ".copilot"), { recursive: true });
    const none = await findConfigs(options);
    assertEquals(none.configs.some((c) => c.client === "copilot-cli"), false);
    await Deno.mkdir(join(home, ".copilot"));
    const bare = (await findConfigs(options)).configs.find((c) => c.client === "copilot-cli");
    assertEquals(bare?.files, [
      join(app, ".mcp.json"),
      join(repo, ".mcp.json"),
      join(repo, ".github", "mcp.json"),
    ]);
  }));

Deno.test("findConfigs() names the file, line and column of a Copilot CLI mcp-config.json that is not JSON, and reads the other clients", () =>
  withHome(async (home) => {
    const path = join(home, ".copilot", "mcp-config.json");
    await write(
      path,
      '{\n  "mcpServers": {\n    "a": { "command": "a-mcp", "tools": ["*"] }\n    "b": {}\n  }\n}\n',
    );
    await write(join(home, ".cursor", "mcp.json"), { mcpServers: { c: { command: "c-mcp" } } });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    assertEquals(found.problems.map((p) => p.message), [
      `${path}:4:5: not valid JSON: a comma is expected`,
    ]);
    assertEquals(found.configs.map((c) => c.id), ["cursor ~/.cursor/mcp.json"]);
  }));

Deno.test("findConfigs() reads Cline 4's cline_mcp_settings.json in both its shapes, and an older Cline's file only without it", () =>
  withHome(async (home) => {
    const shared = join(home, ".cline", "data", "settings", "cline_mcp_settings.json");
    const older = join(
      home,
      ".config",
      "Code",
      "User",
      "globalStorage",
      "saoudrizwan.claude-dev",
      "settings",
      "cline_mcp_settings.json",
    );
    await write(shared, {
      mcpServers: {
        docs: {
          command: "npx",
          args: ["-y", "@acme/docs-mcp"],
          env: { DOCS_KEY: "dk-1" },
          autoApprove: ["search"],
          timeout: 120,
          disabled: false,
        },
        // the CLI's shape, with the sign-in it keeps beside the server
        hub: {
          transport: {
            type: "streamableHttp",
            url: "https://mcp.example.org/mcp",
            headers: { Authorization: "Bearer hb-1" },
          },
          oauth: { tokens: { access_token: "oauth-secret-1" } },
        },
        events: { url: "https://events.example.org/sse" },
        "legacy-http": { url: "https://legacy.example.org/mcp", transportType: "http" },
        resting: { command: "resting-mcp", disabled: true },
        odd: { command: "odd-mcp", type: "sse" },
      },
    });
    await write(older, { mcpServers: { old: { command: "old-mcp" } } });
    const options = { home, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const cline = found.configs.filter((c) => c.client === "cline");
    assertEquals(cline.map((c) => [c.id, c.label, c.files]), [[
      "cline ~/.cline/data/settings/cline_mcp_settings.json",
      "Cline",
      [shared],
    ]]);
    assertEquals(table(cline[0]), {
      docs: ["user", "npx @acme/docs-mcp"],
      events: ["user", "sse events.example.org"],
      hub: ["user", "http mcp.example.org"],
      "legacy-http": ["user", "http legacy.example.org"],
      odd: ["user", "?", 'type "sse" with a command: Cline expects type "stdio" for a command'],
      resting: ["user", "resting-mcp", "disabled"],
    });
    const by = Object.fromEntries(cline[0].servers.map((s) => [s.name, s]));
    const transport = (name: string) =>
      by[name].entry?.kind === "remote" ? by[name].entry.transport : by[name].entry?.kind;
    assertEquals(
      ["hub", "events", "legacy-http"].map(transport),
      ["streamable-http", "sse", "streamable-http"],
    );
    assertEquals(by.docs.envNames, ["DOCS_KEY"]);
    // the sign-in's tokens are not carried into the entry the capture gets
    assertEquals(JSON.stringify(by.hub.entry).includes("oauth-secret-1"), false);
    assertEquals(cline[0].notes, [
      // Cline 4's McpHub loads nothing from a file one entry of which fails its schema
      "Cline loads no server of ~/.cline/data/settings/cline_mcp_settings.json while an entry " +
      'there fails its schema ("odd"): until it is fixed, Cline starts none of them; the valid ' +
      "ones are measured here",
      "~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json: " +
      "the file of Cline before 4.0, whose servers Cline 4 copied into " +
      "~/.cline/data/settings/cline_mcp_settings.json at its first start: not read " +
      "(docs.cline.bot, Config)",
    ]);

    // CLINE_DIR moves ~/.cline (this account's audit only)
    const alt = join(home, "alt-cline");
    await write(join(alt, "data", "settings", "cline_mcp_settings.json"), {
      mcpServers: { moved: { command: "moved-mcp" } },
    });
    const moved = await findConfigs({ ...options, system: true, env: { CLINE_DIR: alt } });
    assertEquals(
      moved.configs.filter((c) => c.client === "cline").map((c) => [c.id, c.servers.length]),
      [["cline ~/alt-cline/data/settings/cline_mcp_settings.json", 1]],
    );

    // Without Cline 4's file, the older file is the config, with a note
    await Deno.remove(shared);
    const before4 = (await findConfigs(options)).configs.filter((c) => c.client === "cline");
    assertEquals(before4.map((c) => [c.files, table(c)]), [[[older], {
      old: ["user", "old-mcp"],
    }]]);
    assertMatch(before4[0].notes[0], /^no ~\/\.cline\/data\/settings\/cline_mcp_settings\.json: /);

    // a blank file is Cline's "no servers", not an error; a comment makes it unreadable
    await Deno.writeTextFile(older, "\n");
    const blank = await findConfigs(options);
    assertEquals(blank.problems, []);
    assertEquals(blank.configs.filter((c) => c.client === "cline").map((c) => c.servers), [[]]);
    await Deno.writeTextFile(older, '{ "mcpServers": {} // none\n}');
    assertEquals((await findConfigs(options)).problems.map((p) => p.path), [older]);
    await write(older, { mcpServers: { old: { command: "old-mcp" } } });

    // --config reads a cline_mcp_settings.json as Cline's
    const one = await findConfigs(options, [older]);
    assertEquals(one.configs.map((c) => [c.client, c.label]), [["cline", "Cline"]]);
  }));

Deno.test("findConfigs() reads Roo Code's global mcp_settings.json per editor and the project's .roo/mcp.json, the project winning", () =>
  withHome(async (home) => {
    const app = join(home, "code", "app");
    const codeGlobal = join(
      home,
      ".config",
      "Code",
      "User",
      "globalStorage",
      "rooveterinaryinc.roo-cline",
      "settings",
      "mcp_settings.json",
    );
    await write(codeGlobal, {
      mcpServers: {
        files: {
          command: "npx",
          args: ["-y", "@acme/files-mcp", "${workspaceFolder}"],
          alwaysAllow: ["read_file"],
          disabledTools: ["delete_file"],
          timeout: 60,
          watchPaths: ["/tmp/x"],
        },
        search: {
          type: "streamable-http",
          url: "https://search.example.org/mcp",
          headers: { "X-Key": "${env:SEARCH_KEY}" },
        },
        nourl: { url: "https://x.example.org/sse" },
        both: { command: "a-mcp", url: "https://b.example.org/mcp" },
        shared: { command: "global-shared" },
      },
    });
    const projectFile = join(app, ".roo", "mcp.json");
    await write(projectFile, { mcpServers: { shared: { command: "node", args: ["shared.js"] } } });
    // Cursor's Roo Code keeps its storage where its roo-cline.customStoragePath says
    const store = join(home, "roo-store");
    await write(
      join(home, ".config", "Cursor", "User", "settings.json"),
      `// Cursor settings (JSONC)\n{ "roo-cline.customStoragePath": ${JSON.stringify(store)}, }\n`,
    );
    await write(join(store, "settings", "mcp_settings.json"), {
      mcpServers: { events: { type: "sse", url: "https://events.example.org/sse" } },
    });
    // Roo Code reads its files with JSON.parse: a comment makes this one unreadable
    const windsurfGlobal = join(
      home,
      ".config",
      "Windsurf",
      "User",
      "globalStorage",
      "rooveterinaryinc.roo-cline",
      "settings",
      "mcp_settings.json",
    );
    await write(windsurfGlobal, `{\n  // mine\n  "mcpServers": {}\n}\n`);
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems.map((p) => p.path), [windsurfGlobal]);
    const roo = found.configs.filter((c) => c.client === "roo-code");
    assertEquals(roo.map((c) => [c.id, c.label, c.folder, c.files]), [
      [
        "roo-code ~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json",
        "Roo Code",
        app,
        [projectFile, codeGlobal],
      ],
      [
        "roo-code ~/roo-store/settings/mcp_settings.json",
        "Roo Code (Cursor)",
        app,
        [projectFile, join(store, "settings", "mcp_settings.json")],
      ],
    ]);
    assertEquals(table(roo[0]), {
      both: ["global", "?", 'both "command" and "url"'],
      files: ["global", "npx @acme/files-mcp"],
      nourl: ["global", "?", 'a "url" without "type" ("sse" or "streamable-http")'],
      search: ["global", "http search.example.org"],
      shared: ["project", "node"],
    });
    assertEquals(table(roo[1]), {
      events: ["global", "sse events.example.org"],
      shared: ["project", "node"],
    });
    const by = Object.fromEntries(roo[0].servers.map((s) => [s.name, s]));
    assertEquals(by.files.entry?.kind === "stdio" && by.files.entry.args[2], app);
    assertEquals(by.files.toolFilter, { key: "disabledTools", exclude: ["delete_file"] });
    assertEquals(
      by.search.entry?.kind === "remote" && [by.search.entry.transport, by.search.entry.headers],
      ["streamable-http", { "X-Key": "${SEARCH_KEY}" }],
    );
    assertEquals(roo[0].notes, [`"shared" in ${codeGlobal} (global) is hidden by the project one`]);

    // A project file alone (no editor's global file) is still Roo Code's
    const bare = await findConfigs({ ...options, home: join(home, "code") });
    assertEquals(
      bare.configs.filter((c) => c.client === "roo-code").map((c) => [c.label, c.files]),
      [["Roo Code", [projectFile]]],
    );
    // A project file with an entry Roo Code's schema refuses (a timeout out of range) loads no
    // server; a url without a type (checked server by server) fails alone, in either file
    await write(projectFile, {
      mcpServers: {
        shared: { command: "node", args: ["shared.js"] },
        slow: { command: "slow-mcp", timeout: 0 },
        bare: { url: "https://bare.example.org/mcp" },
      },
    });
    const refused = (await findConfigs(options)).configs.find((c) => c.client === "roo-code")!;
    assertEquals(table(refused).slow, [
      "project",
      "?",
      "timeout 0 is not a number of seconds from 1 to 3600",
    ]);
    assertEquals(
      refused.notes.at(-1),
      [
        'Roo Code loads no server of ~/code/app/.roo/mcp.json while an entry there fails its schema ("slow"): ',
        "until it is fixed, Roo Code starts none of them; the valid ones are measured here",
      ].join(""),
    );
    await write(projectFile, { mcpServers: { shared: { command: "node", args: ["shared.js"] } } });

    // --config reads .roo/mcp.json and mcp_settings.json as Roo Code's
    const given = await findConfigs(options, [projectFile, codeGlobal]);
    assertEquals(given.configs.map((c) => [c.client, c.folder]), [
      ["roo-code", app],
      ["roo-code", undefined],
    ]);
  }));

Deno.test("findConfigs() reads Kiro's user and workspace mcp.json, the workspace winning a name, with disabled servers, disabledTools and Kiro CLI's tool search settings", () =>
  withHome(async (home) => {
    const app = join(home, "src", "shop");
    const userPath = join(home, ".kiro", "settings", "mcp.json");
    const workspacePath = join(app, ".kiro", "settings", "mcp.json");
    // as the Kiro documentation writes them
    await write(userPath, {
      mcpServers: {
        "web-search": {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-brave-search"],
          env: { BRAVE_API_KEY: "${BRAVE_API_KEY}" },
          autoApprove: ["brave_web_search"],
        },
        "api-server": {
          url: "https://api.example.com/mcp",
          headers: { Authorization: "Bearer ${API_TOKEN}", "X-Custom-Header": "value" },
          disabledTools: ["delete_all"],
        },
        github: {
          command: "docker",
          args: ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
        },
        paused: { command: "paused-mcp", disabled: true },
      },
    });
    await write(
      workspacePath,
      `{\n  // the project's servers\n  "mcpServers": {\n    "github": { "command": "gh-mcp", "disabledTools": ["merge_pull_request", "force_push"] },\n  },\n}\n`,
    );
    await write(join(home, ".kiro", "settings", "cli.json"), {
      "toolSearch.enabled": true,
      "toolSearch.minTokens": 20000,
    });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const kiro = found.configs.find((c) => c.client === "kiro")!;
    assertEquals([kiro.id, kiro.label, kiro.folder, kiro.files], [
      "kiro ~/.kiro/settings/mcp.json",
      "Kiro",
      app,
      [workspacePath, userPath],
    ]);
    assertEquals(table(kiro), {
      "api-server": ["user", "http api.example.com"],
      github: ["workspace", "gh-mcp"],
      paused: ["user", "paused-mcp", "disabled"],
      "web-search": ["user", "npx @modelcontextprotocol/server-brave-search"],
    });
    const by = Object.fromEntries(kiro.servers.map((s) => [s.name, s]));
    assertEquals(by.github.toolFilter, {
      key: "disabledTools",
      exclude: ["merge_pull_request", "force_push"],
    });
    assertEquals(by["api-server"].toolFilter?.exclude, ["delete_all"]);
    assertEquals(by["web-search"].toolFilter, undefined);
    assertEquals(
      by["api-server"].entry?.kind === "remote" && by["api-server"].entry.headers.Authorization,
      "Bearer ${API_TOKEN}",
    );
    assertEquals(kiro.notes, [`"github" in ${userPath} (user) is hidden by the workspace one`]);
    assertEquals(kiro.deferral, {
      kind: "kiro",
      settings: "~/.kiro/settings/cli.json",
      toolSearch: { enabled: true, minTokens: 20000 },
    });
    // Kiro CLI with a default agent of its own: a second config, the agent's servers first, its
    // tools list filtering every server, the files included with includeMcpJson
    const agentPath = join(home, ".kiro", "agents", "dev.json");
    await write(agentPath, {
      name: "dev",
      mcpServers: { git: { command: "git-mcp" } },
      tools: ["read", "@git", "@github/get_issue"],
      includeMcpJson: true,
    });
    await write(join(home, ".kiro", "settings", "cli.json"), { "chat.defaultAgent": "dev" });
    const withAgent = (await findConfigs(options)).configs.filter((c) => c.client === "kiro");
    assertEquals(withAgent.map((c) => [c.id, c.label]), [
      ["kiro ~/.kiro/settings/mcp.json", "Kiro"],
      ["kiro ~/.kiro/agents/dev.json", "Kiro CLI"],
    ]);
    const cli = withAgent[1];
    assertEquals(cli.files, [agentPath, workspacePath, userPath]);
    assertEquals(
      Object.fromEntries(cli.servers.map((s) => [s.name, [s.scope, s.toolFilter]])),
      {
        "api-server": ["user", { key: "tools (agent)", exclude: ["delete_all"], include: [] }],
        git: ["agent", undefined],
        github: ["workspace", {
          key: "tools (agent)",
          exclude: ["merge_pull_request", "force_push"],
          include: ["get_issue"],
        }],
        paused: ["user", { key: "tools (agent)", exclude: [], include: [] }],
        "web-search": ["user", { key: "tools (agent)", exclude: [], include: [] }],
      },
    );
    assertMatch(cli.notes[0], /^Kiro CLI's default agent is ~\/\.kiro\/agents\/dev\.json/);
    // --config reads a Kiro file alone
    const one = await findConfigs(options, [workspacePath]);
    assertEquals(one.configs.map((c) => [c.client, Object.keys(table(c))]), [["kiro", ["github"]]]);
  }));

Deno.test("findConfigs() names the file, line and column of a malformed file of each client added in pass 6, and reads the others", () =>
  withHome(async (home) => {
    const app = join(home, "app");
    const kiroPath = join(app, ".kiro", "settings", "mcp.json");
    // a value with no comma after it: line 3, column 33 (counted by hand: the quote opening "b")
    await write(
      kiroPath,
      '{\n  "mcpServers": {\n    "a": { "command": "a-mcp" } "b": {}\n  }\n}\n',
    );
    await write(join(home, ".kiro", "settings", "mcp.json"), {
      mcpServers: { u: { command: "u-mcp" } },
    });
    // Amazon Q CLI reads with serde_json: a trailing comma is an error (line 2, column 44: the
    // closing brace after it, counted by hand)
    const qPath = join(home, ".aws", "amazonq", "mcp.json");
    await write(qPath, '{\n  "mcpServers": { "q": { "command": "q" }, }\n}\n');
    // opencode: no comma before "command", line 1, column 35 (counted by hand)
    // LM Studio: a value missing after a colon, line 1, column 30 (counted by hand: the brace
    // found where the value should be)
    const lmPath = join(home, ".lmstudio", "mcp.json");
    await write(lmPath, '{"mcpServers": {"a": {"url": }}}\n');
    const ocPath = join(app, "opencode.jsonc");
    await write(ocPath, '{ "mcp": { "a": { "type": "local" "command": ["a"] } } }\n');
    const found = await findConfigs({
      home,
      project: app,
      platform: "linux",
      system: false,
      env: {},
    });
    assertEquals(found.problems.map((p) => p.message), [
      `${kiroPath}:3:33: not valid JSON: a comma is expected`,
      `${qPath}:2:44: not valid JSON: a comma before a closing bracket`,
      `${ocPath}:1:35: not valid JSON: a comma is expected`,
      `${lmPath}:1:30: not valid JSON: a value is expected`,
    ]);
    // the user's Kiro file is still read
    assertEquals(
      found.configs.map((c) => [c.id, Object.keys(table(c))]),
      [["kiro ~/.kiro/settings/mcp.json", ["u"]]],
    );
  }));

Deno.test("findConfigs() reads Amazon Q CLI's default agent: the legacy mcp.json files (the workspace's first), or a q_cli_default agent's servers and tools list", () =>
  withHome(async (home) => {
    const app = join(home, "svc");
    const globalPath = join(home, ".aws", "amazonq", "mcp.json");
    const workspacePath = join(app, ".amazonq", "mcp.json");
    await write(globalPath, {
      mcpServers: {
        docs: {
          command: "npx",
          args: ["-y", "@acme/docs-mcp"],
          env: { FASTMCP_LOG_LEVEL: "ERROR" },
          disabled: false,
          autoApprove: [],
        },
        shared: { command: "global-shared" },
        off: { command: "off-mcp", disabled: true },
      },
    });
    await write(workspacePath, { mcpServers: { shared: { command: "ws-shared" } } });
    const options = { home, project: app, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const q = found.configs.find((c) => c.client === "amazon-q")!;
    assertEquals([q.id, q.label, q.folder, q.files], [
      "amazon-q ~/.aws/amazonq",
      "Amazon Q CLI",
      app,
      [workspacePath, globalPath],
    ]);
    assertEquals(table(q), {
      docs: ["global", "npx @acme/docs-mcp"],
      off: ["global", "off-mcp", "disabled"],
      shared: ["workspace", "ws-shared"],
    });
    assertEquals(q.notes, [`"shared" in ${globalPath} (global) is hidden by the workspace one`]);
    assertEquals(q.servers.map((s) => s.toolFilter), [undefined, undefined, undefined]);

    // a q_cli_default agent replaces the built-in one: its servers first, its tools list filters
    const agentPath = join(home, ".aws", "amazonq", "cli-agents", "q_cli_default.json");
    await write(agentPath, {
      name: "q_cli_default",
      mcpServers: { git: { command: "git-mcp", args: [] } },
      tools: ["fs_read", "@git/git_status", "@git/git_log", "@docs"],
      useLegacyMcpJson: true,
    });
    const withAgent = (await findConfigs(options)).configs.find((c) => c.client === "amazon-q")!;
    assertEquals(withAgent.files, [agentPath, workspacePath, globalPath]);
    assertEquals(table(withAgent), {
      docs: ["global", "npx @acme/docs-mcp"],
      git: ["agent", "git-mcp"],
      off: ["global", "off-mcp", "disabled"],
      shared: ["workspace", "ws-shared"],
    });
    const by = Object.fromEntries(withAgent.servers.map((s) => [s.name, s.toolFilter]));
    assertEquals(by, {
      docs: undefined,
      git: { key: "tools (agent)", exclude: [], include: ["git_status", "git_log"] },
      off: { key: "tools (agent)", exclude: [], include: [] },
      shared: { key: "tools (agent)", exclude: [], include: [] },
    });
    assertEquals(
      withAgent.notes.at(-1),
      "the default agent is ~/.aws/amazonq/cli-agents/q_cli_default.json",
    );

    // without useLegacyMcpJson an agent reads its own servers alone; chat.defaultAgent naming an
    // agent that does not exist falls back to it, with a note
    await write(agentPath, { name: "q_cli_default", mcpServers: { git: { command: "git-mcp" } } });
    await write(join(home, ".local", "share", "amazon-q", "settings.json"), {
      "chat.defaultAgent": "ops",
    });
    const own = (await findConfigs(options)).configs.find((c) => c.client === "amazon-q")!;
    assertEquals([own.files, Object.keys(table(own))], [[agentPath], ["git"]]);
    assertMatch(own.notes[0], /^chat\.defaultAgent names "ops", which no agent file holds/);

    // --config reads a legacy file alone
    const one = await findConfigs(options, [workspacePath]);
    assertEquals(one.configs.map((c) => [c.client, Object.keys(table(c))]), [["amazon-q", [
      "shared",
    ]]]);
  }));

Deno.test("findConfigs() reads opencode's global and project configs merged key by key, its local and remote entries, {env:NAME}, tools patterns and model", () =>
  withHome(async (home) => {
    const repo = join(home, "work");
    const site = join(repo, "site");
    await Deno.mkdir(join(repo, ".git"), { recursive: true });
    const globalPath = join(home, ".config", "opencode", "opencode.json");
    // as the opencode documentation writes them (JSONC, trailing commas)
    await write(
      globalPath,
      `{
  "$schema": "https://opencode.ai/config.json",
  // the default model
  "model": "anthropic/claude-sonnet-4-5",
  "mcp": {
    "memory": {
      "type": "local",
      "command": ["npx", "-y", "@modelcontextprotocol/server-memory"],
      "environment": { "MEMORY_KEY": "{env:MEM_KEY}" },
      "enabled": true,
    },
    "jira": { "type": "remote", "url": "https://jira.example.com/mcp", "enabled": false },
    "docs": {
      "type": "remote",
      "url": "https://docs.example.com/mcp",
      "headers": { "Authorization": "Bearer {env:DOCS_TOKEN}" },
    },
  },
  "tools": { "docs_*": false, "docs_search": true, "write": false },
}`,
    );
    const jsoncPath = join(site, "opencode.jsonc");
    const jsonPath = join(repo, "opencode.json");
    await write(jsoncPath, { mcp: { bad: { command: ["x"] } } });
    await write(jsonPath, { mcp: { jira: { enabled: true } } });
    // beyond the git root: not read
    await write(join(home, "opencode.json"), {
      mcp: { outside: { type: "local", command: ["o"] } },
    });
    const options = { home, project: site, platform: "linux" as const, system: false, env: {} };
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const oc = found.configs.find((c) => c.client === "opencode")!;
    assertEquals([oc.id, oc.label, oc.folder], ["opencode ~/.config/opencode", "opencode", site]);
    // every .jsonc from the root down, then every .json: the repository's opencode.json is last
    assertEquals(oc.files, [globalPath, jsoncPath, jsonPath]);
    assertEquals(table(oc), {
      bad: ["project", "?", 'type is missing: opencode expects "local" or "remote"'],
      docs: ["global", "http docs.example.com"],
      jira: ["project", "http jira.example.com"],
      memory: ["global", "npx @modelcontextprotocol/server-memory"],
    });
    const by = Object.fromEntries(oc.servers.map((s) => [s.name, s]));
    assertEquals(by.memory.entry?.kind === "stdio" && by.memory.entry.env, {
      MEMORY_KEY: "${MEM_KEY:-}",
    });
    assertEquals(
      by.docs.entry?.kind === "remote" && by.docs.entry.headers.Authorization,
      "Bearer ${DOCS_TOKEN:-}",
    );
    // tools: the longest matching pattern decides: docs_search stays, docs_delete goes
    assertEquals(
      ["search", "delete"].map((t) => toolKept(by.docs.toolFilter, t)),
      [true, false],
    );
    assertEquals(toolKept(by.memory.toolFilter, "read_graph"), true);
    assertEquals(
      oc.notes[0],
      `"jira" merges its keys from ~/.config/opencode/opencode.json and ~/work/opencode.json (opencode merges its config files key by key, the later winning; opencode.ai/docs/config)`,
    );
    assertEquals(oc.model, {
      format: "anthropic-messages",
      family: "claude",
      formatWhy:
        'the model "anthropic/claude-sonnet-4-5" set in ~/.config/opencode/opencode.json (Anthropic\'s API)',
    });
    assertEquals(oc.deferral, { kind: "opencode" });
    assertEquals(resolvePosture(oc.deferral, figures).state, "upfront");

    // OPENCODE_CONFIG comes after the global files, before the project's (this account only)
    const custom = join(home, "custom.json");
    await write(custom, {
      mcp: { docs: { url: "https://docs2.example.com/mcp" } },
      model: "openai/gpt-5",
    });
    const withCustom =
      (await findConfigs({ ...options, system: true, env: { OPENCODE_CONFIG: custom } }))
        .configs.find((c) => c.client === "opencode")!;
    assertEquals(withCustom.files, [globalPath, custom, jsoncPath, jsonPath]);
    assertEquals(table(withCustom).docs, ["custom", "http docs2.example.com"]);
    assertEquals(withCustom.model?.format, "openai-responses");

    // --config reads one opencode file alone
    const one = await findConfigs(options, [jsonPath]);
    assertEquals(one.configs.map((c) => [c.id, c.client]), [[
      "opencode ~/work/opencode.json",
      "opencode",
    ]]);
  }));

Deno.test("findConfigs() reads LM Studio's mcp.json in Cursor's notation, and its older home folder only when the newer has none", () =>
  withHome(async (home) => {
    const older = join(home, ".cache", "lm-studio", "mcp.json");
    await write(older, { mcpServers: { old: { command: "old-mcp" } } });
    const options = { home, platform: "linux" as const, system: false, env: {} };
    const first = (await findConfigs(options)).configs.filter((c) => c.client === "lm-studio");
    assertEquals(first.map((c) => [c.id, c.label, table(c)]), [[
      "lm-studio ~/.cache/lm-studio/mcp.json",
      "LM Studio",
      { old: ["user", "old-mcp"] },
    ]]);
    const current = join(home, ".lmstudio", "mcp.json");
    // the documentation's example, with a header from the environment in Cursor's notation
    await write(current, {
      mcpServers: {
        "hf-mcp-server": {
          url: "https://huggingface.co/mcp",
          headers: { Authorization: "Bearer ${env:HF_TOKEN}" },
        },
        files: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "${userHome}/docs"],
        },
      },
    });
    const found = await findConfigs(options);
    assertEquals(found.problems, []);
    const lm = found.configs.filter((c) => c.client === "lm-studio");
    assertEquals(lm.map((c) => [c.id, c.files, table(c)]), [[
      "lm-studio ~/.lmstudio/mcp.json",
      [current],
      {
        files: ["user", "npx @modelcontextprotocol/server-filesystem"],
        "hf-mcp-server": ["user", "http huggingface.co"],
      },
    ]]);
    const by = Object.fromEntries(lm[0].servers.map((s) => [s.name, s.entry]));
    assertEquals(
      by["hf-mcp-server"]?.kind === "remote" && by["hf-mcp-server"].headers.Authorization,
      "Bearer ${HF_TOKEN}",
    );
    assertEquals(by.files?.kind === "stdio" && by.files.args[2], `${home}/docs`);
    assertEquals(resolvePosture(lm[0].deferral, figures).state, "none-documented");
    const one = await findConfigs(options, [current]);
    assertEquals(one.configs.map((c) => c.client), ["lm-studio"]);
  }));

Deno.test("discoverConfigs() applies Copilot CLI's managed allowedMcpServers and deniedMcpServers (this account's audit only)", async () => {
  const home = "/home/u";
  const files: Record<string, unknown> = {
    [`${home}/.copilot/mcp-config.json`]: {
      mcpServers: {
        gh: { type: "http", url: "https://api.example.com/mcp", tools: ["*"] },
        other: { type: "http", url: "https://other.org/mcp", tools: ["*"] },
        pw: { type: "local", command: "npx", args: ["-y", "@playwright/mcp"], tools: ["*"] },
        local: { type: "local", command: "node", args: ["x.js"], tools: ["*"] },
        bad: { type: "local", command: "evil-mcp", args: [], tools: ["*"] },
      },
    },
    // the documentation's example, plus a denied server
    "/etc/github-copilot/managed-settings.json": {
      allowedMcpServers: [
        { serverUrl: "https://*.example.com/*" },
        { serverCommand: ["npx", "-y", "@playwright/mcp"] },
        { serverCommand: ["evil-mcp"] },
      ],
      deniedMcpServers: [{ serverName: "bad" }],
    },
  };
  const read = (path: string) =>
    Promise.resolve(path in files ? JSON.stringify(files[path]) : undefined);
  const base = { home, platform: "linux" as const, system: true, env: {}, read };
  const copilot = (await discoverConfigs(base)).configs.find((c) => c.client === "copilot-cli")!;
  const why = Object.fromEntries(copilot.servers.map((s) => [s.name, s.disabledBy ?? "loads"]));
  const docs =
    "docs.github.com/en/copilot, Copilot CLI configuration directory, managed MCP server allow/deny list";
  const file = "/etc/github-copilot/managed-settings.json";
  assertEquals(why, {
    // deny wins over the allowlist
    bad: `blocked by deniedMcpServers of ${file} (${docs})`,
    gh: "loads",
    // a stdio server must match a serverCommand entry
    local: `not in allowedMcpServers in ${file} (${docs})`,
    other: `not in allowedMcpServers in ${file} (${docs})`,
    pw: "loads",
  });
  // another account's folder: no machine-wide file is read
  const other = (await discoverConfigs({ ...base, system: false })).configs
    .find((c) => c.client === "copilot-cli")!;
  assertEquals(other.servers.filter((s) => s.disabled).map((s) => s.name), []);
});

Deno.test("findConfigs(): opencode's {env:NAME} of an unset variable is empty text, and a ${NAME} stays text, as opencode substitutes its config", () =>
  withHome(async (home) => {
    // opencode (packages/opencode/src/config/variable.ts, `substitute`) replaces {env:NAME} with
    // the variable's value or "" and expands nothing else.
    await write(join(home, ".config", "opencode", "opencode.json"), {
      mcp: {
        docs: {
          type: "local",
          command: ["docs-mcp", "--root", "${HOME}/docs", "{env:DOCS_ROOT}", "${env:DOCS_ROOT}"],
          environment: { TOKEN: "{env:DOCS_TOKEN}", EMPTY: "{env:UNSET_ONE}" },
        },
        api: {
          type: "remote",
          url: "https://api.example.com/{env:UNSET_TWO}mcp",
          headers: { Authorization: "Bearer {env:API_TOKEN}", "X-Home": "${HOME}" },
        },
      },
    });
    const env = { HOME: home, DOCS_ROOT: "/d", DOCS_TOKEN: "dt-1", API_TOKEN: "" };
    const found = await findConfigs({ home, platform: "linux", system: true, env });
    const oc = found.configs.find((c) => c.client === "opencode")!;
    const by = Object.fromEntries(oc.servers.map((s) => [s.name, s.entry!]));
    const docs = expandServerEntry(by.docs, env);
    assertEquals(docs.kind === "stdio" && [docs.args, docs.env], [
      ["--root", "${HOME}/docs", "/d", "$/d"],
      { TOKEN: "dt-1", EMPTY: "" },
    ]);
    const api = expandServerEntry(by.api, env);
    assertEquals(api.kind === "remote" && [api.url, api.headers], [
      "https://api.example.com/mcp",
      { Authorization: "Bearer ", "X-Home": "${HOME}" },
    ]);
  }));

Deno.test("findConfigs() with --config reads Amazon Q CLI's, Cline's and Roo Code's files in their client's dialect, as discovery does", () =>
  withHome(async (home) => {
    const options = { home, platform: "linux" as const, system: false, env: {} };
    // serde_json (Amazon Q CLI): the trailing comma is an error at the brace after it, line 1,
    // column 39 (counted by hand)
    const q = join(home, ".aws", "amazonq", "mcp.json");
    await write(q, '{"mcpServers": {"a": {"command": "x"},}}');
    // Cline reads a blank file as no servers
    const cline = join(home, "cline_mcp_settings.json");
    await write(cline, "\n");
    // Roo Code's JSON.parse: a comment is an error at its first character, line 1, column 17
    const roo = join(home, "app", ".roo", "mcp.json");
    await write(roo, '{"mcpServers": {/* none */}}');
    const found = await findConfigs(options, [q, cline, roo]);
    assertEquals(found.problems.map((p) => p.message), [
      `${q}:1:39: not valid JSON: a comma before a closing bracket`,
      `${roo}:1:17: not valid JSON: a comment, which this file may not hold`,
    ]);
    assertEquals(found.configs.map((c) => [c.client, c.servers.length]), [["cline", 0]]);
    // discovery says the same of the Amazon Q file
    assertEquals((await findConfigs(options)).problems.map((p) => p.message), [
      `${q}:1:39: not valid JSON: a comma before a closing bracket`,
    ]);
  }));

Deno.test("findConfigs(): an Amazon Q CLI agent file whose tools serde refuses is not loaded, and the built-in default agent is used", () =>
  withHome(async (home) => {
    const agent = join(home, ".aws", "amazonq", "cli-agents", "q_cli_default.json");
    // tools as a string: Amazon Q CLI's Agent has tools: Vec<String>, so the file is refused
    await write(agent, { mcpServers: { e: { command: "e-mcp" } }, tools: "*" });
    await write(join(home, ".aws", "amazonq", "mcp.json"), {
      mcpServers: { g: { command: "g-mcp" } },
    });
    const found = await findConfigs({ home, platform: "linux", system: false, env: {} });
    assertEquals(found.problems.map((p) => p.message), [
      `${agent}: tools is a string, not a list of strings: Amazon Q CLI does not load this agent ` +
      `(aws/amazon-q-developer-cli docs/default-agent-behavior.md, agent-format.md)`,
    ]);
    // the built-in default: the legacy mcp.json, every tool kept
    const q = found.configs.filter((c) => c.client === "amazon-q");
    assertEquals(q.map((c) => [c.files, table(c), c.servers.map((s) => s.toolFilter)]), [
      [[join(home, ".aws", "amazonq", "mcp.json")], { g: ["global", "g-mcp"] }, [undefined]],
    ]);
  }));

Deno.test("findConfigs(): a Kiro CLI agent file whose tools or includeMcpJson has the wrong type is not loaded: no Kiro CLI config, the mcp.json config stays", () =>
  withHome(async (home) => {
    await write(join(home, ".kiro", "settings", "cli.json"), { "chat.defaultAgent": "ag" });
    const agent = join(home, ".kiro", "agents", "ag.json");
    await write(join(home, ".kiro", "settings", "mcp.json"), {
      mcpServers: { u: { command: "u-mcp" } },
    });
    const options = { home, platform: "linux" as const, system: false, env: {} };
    for (
      const [bad, why] of [
        [{ tools: "@e" }, "tools is a string, not a list of strings"],
        [{ includeMcpJson: "true" }, "includeMcpJson is a string, not true or false"],
      ] as const
    ) {
      await write(agent, { mcpServers: { e: { command: "e-mcp" } }, ...bad });
      const found = await findConfigs(options);
      assertEquals(found.problems.map((p) => p.message), [
        `${agent}: ${why}: Kiro CLI does not load this agent`,
      ]);
      assertEquals(found.configs.map((c) => [c.label, Object.keys(table(c))]), [["Kiro", ["u"]]]);
    }
  }));
