// Servers pasted from client configs: each client's shape and dialect (the formats documented
// by Claude Desktop, Cursor and VS Code), fragments, and the refusals that say why.
import assert from "node:assert/strict";
import { join } from "node:path";
import { serversFromPaste } from "./server_import.ts";
import { WorkbenchError } from "./_paths.ts";
import { api, startBareWorkbench } from "../../testing/workbench.ts";

const refused = (text: string, message: RegExp) =>
  assert.throws(
    () => serversFromPaste(text),
    (e: unknown) =>
      e instanceof WorkbenchError && e.status === 400 && e.field === "text" &&
      message.test(e.message),
  );

Deno.test("serversFromPaste() reads a Claude Desktop config file", () => {
  const p = serversFromPaste(`{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
    },
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${GITHUB_TOKEN}" }
    }
  }
}`);
  assert.equal(p.format, "Claude Desktop / Cursor (mcpServers)");
  assert.deepEqual(p.servers, {
    filesystem: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
    },
    github: {
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" },
    },
  });
  assert.deepEqual([p.skipped, p.dropped], [[], []]);
});

Deno.test("serversFromPaste() reads Cursor's remote entries and ${env:NAME}", () => {
  const p = serversFromPaste(`{
  // Cursor's mcp.json
  "mcpServers": {
    "docs": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${env:DOCS_TOKEN}" } },
    "local": { "command": "node", "args": ["\${userHome}/mcp/server.js"], "env": { "KEY": "\${env:KEY}" } },
  }
}`);
  assert.deepEqual(p.servers, {
    docs: {
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: "Bearer ${DOCS_TOKEN}" },
    },
    local: { command: "node", args: ["${HOME}/mcp/server.js"], env: { KEY: "${KEY}" } },
  });
});

Deno.test("serversFromPaste() reads VS Code's mcp.json and settings.json, dropping what has no meaning here", () => {
  const mcp = serversFromPaste(`{
  "inputs": [],
  "servers": {
    "memory": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "envFile": "\${workspaceFolder}/.env" },
    "api": { "type": "http", "url": "https://api.example.com/mcp" },
    "old": { "type": "sse", "url": "https://old.example.com/sse" }
  }
}`);
  assert.equal(mcp.format, "VS Code mcp.json (servers)");
  assert.deepEqual(mcp.servers, {
    memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
    api: { type: "http", url: "https://api.example.com/mcp" },
    old: { type: "sse", url: "https://old.example.com/sse" },
  });
  assert.deepEqual(mcp.dropped, ["envFile"]);
  const settings = serversFromPaste(
    `{"editor.fontSize": 13, "mcp": {"servers": {"t": {"command": "t"}}}}`,
  );
  assert.equal(settings.format, "VS Code settings.json (mcp.servers)");
  assert.deepEqual(settings.servers, { t: { command: "t", args: [] } });
});

Deno.test("serversFromPaste() takes a fragment or a bare table; skips disabled entries", () => {
  const fragment = serversFromPaste(`"memory": { "command": "npx", "args": ["m"] },`);
  assert.deepEqual(fragment.servers, { memory: { command: "npx", args: ["m"] } });
  const table = serversFromPaste(
    `{"a": {"command": "a"}, "b": {"serverUrl": "https://b.example/mcp", "disabled": true}}`,
  );
  assert.equal(table.format, "a table of servers");
  assert.deepEqual(table.servers, { a: { command: "a", args: [] } });
  assert.deepEqual(table.skipped, ["b: disabled in the client's config"]);
});

Deno.test("serversFromPaste() refuses what it cannot add, saying why", () => {
  refused("", /paste a client's server entry/);
  refused(`{"command": "npx", "args": []}`, /one server's entry without its name/);
  refused(`{"mcpServers": {}}`, /holds no server/);
  refused(`{"mcpServers": {"a": {"command": "a"}, "b": 3}}`, /"b" is not a server entry/);
  refused(`{\n  "mcpServers": {\n    "a": {} "b": {}\n  }\n}`, /^line 3:13: not valid JSON/);
  refused(
    `{"servers": {"gh": {"command": "gh-mcp", "env": {"TOKEN": "\${input:token}"}}}}`,
    /server "gh" cannot be added: needs the VS Code input "token"/,
  );
  refused(
    `{"servers": {"w": {"command": "node", "args": ["\${workspaceFolder}/s.js"]}}}`,
    /server "w" cannot be added: uses \$\{workspaceFolder\}/,
  );
});

Deno.test("workbench: POST /api/config/servers/import adds pasted servers to servers.json, refuses names taken, and an agent can use them", async () => {
  const wb = await startBareWorkbench();
  const call = (method: string, path: string, body?: unknown) => api(wb, method, path, body);
  try {
    const file = join(wb.tmp, "config", "servers.json");
    const before = JSON.parse(await Deno.readTextFile(file));
    const text = `"docs": { "url": "https://mcp.example.com/mcp",
      "headers": { "Authorization": "Bearer sk-literal-secret" } }`;
    const added = await call("POST", "/api/config/servers/import", { text });
    assert.equal(added.status, 201, JSON.stringify(added.data));
    assert.deepEqual(added.data.added, ["docs"]);
    const after = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(after.mcpServers, {
      ...before.mcpServers,
      docs: {
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer sk-literal-secret" },
      },
    });
    // Shown redacted, as every server's secrets are.
    const shown = await call("GET", "/api/config/servers");
    assert.equal(shown.data.mcpServers.docs.headers.Authorization, "[REDACTED]");
    // A name already configured: 409 naming it, nothing written.
    const again = await call("POST", "/api/config/servers/import", {
      text: `{"mcpServers": {"fs": {"command": "x"}, "new": {"command": "y"}}}`,
    });
    assert.deepEqual([again.status, again.data.field], [409, "text"]);
    assert.match(again.data.error, /server "fs" already configured/);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(file)), after);
    const bad = await call("POST", "/api/config/servers/import", { text: "{" });
    assert.deepEqual([bad.status, bad.data.field], [400, "text"]);
    // An agent may now name it.
    const agents = (await call("GET", "/api/config/agents")).data.agents as { id: string }[];
    const agent = agents.find((a) => a.id === "fs-terse-sequential")!;
    const put = await call("PUT", "/api/config/agents/fs-terse-sequential", {
      ...agent,
      mcpServers: ["fs", "docs"],
    });
    assert.equal(put.status, 200, JSON.stringify(put.data));
  } finally {
    await wb.stop();
  }
});
