import assert from "node:assert/strict";
import { expandServerEntry, parseServersConfig, referencedVariables } from "./config.ts";
import { ConfigError } from "./errors.ts";

Deno.test("parseServersConfig reads stdio and remote entries, sorted by name", () => {
  const config = parseServersConfig(
    JSON.stringify({
      mcpServers: {
        zeta: { url: "https://example.com/mcp", headers: { "X-Key": "k" } },
        alpha: { command: "node", args: ["server.js", "--flag"], env: { A: "1" }, cwd: "/srv" },
        legacy: { url: "http://127.0.0.1:9/sse", type: "sse" },
        vscode: { url: "http://127.0.0.1:9/mcp", type: "http" },
      },
    }),
    { source: "servers.json" },
  );
  assert.equal(config.source, "servers.json");
  assert.deepEqual(config.servers.map((s) => s.name), ["alpha", "legacy", "vscode", "zeta"]);
  const [alpha, legacy, vscode, zeta] = config.servers;
  assert.equal(alpha.kind, "stdio");
  if (alpha.kind !== "stdio") return;
  assert.equal(alpha.command, "node");
  assert.deepEqual(alpha.args, ["server.js", "--flag"]);
  assert.deepEqual(alpha.env, { A: "1" });
  assert.equal(alpha.cwd, "/srv");
  assert.equal(legacy.kind === "remote" && legacy.transport, "sse");
  assert.equal(vscode.kind === "remote" && vscode.transport, "streamable-http");
  assert.equal(zeta.kind === "remote" && zeta.transport, "auto");
  assert.deepEqual(zeta.kind === "remote" && zeta.headers, { "X-Key": "k" });
});

Deno.test("parseServersConfig accepts VS Code's top-level servers key", () => {
  const config = parseServersConfig({ servers: { s: { command: "x" } } });
  assert.deepEqual(config.servers.map((s) => s.name), ["s"]);
});

Deno.test("mcpmeter keys are validated into meta; unknown keys are kept in extra", () => {
  const [entry] = parseServersConfig({
    mcpServers: {
      memory: {
        command: "node",
        args: ["${BIN}"],
        package: "@modelcontextprotocol/server-memory",
        version: "2026.8.31",
        bin: "mcp-server-memory",
        license: "MIT",
        timeoutMs: 5000,
        installScripts: true,
        files: { "data/": null, "~/.config/x.json": { a: 1 } },
        notes: "n",
        disabled: false,
        alwaysAllow: ["read_graph"],
      },
    },
  }).servers;
  assert.deepEqual(entry.meta, {
    package: "@modelcontextprotocol/server-memory",
    version: "2026.8.31",
    bin: "mcp-server-memory",
    license: "MIT",
    timeoutMs: 5000,
    installScripts: true,
    files: { "data/": null, "~/.config/x.json": { a: 1 } },
    notes: "n",
    extra: { alwaysAllow: ["read_graph"], disabled: false },
  });
});

Deno.test("expandServerEntry expands ${VAR} and ${VAR:-default} in every expandable field", () => {
  const [stdio, remote] = parseServersConfig({
    mcpServers: {
      a: {
        command: "${NODE:-node}",
        args: ["${BIN}", "--root=${SCRATCH}/fs", "$PLAIN", "${}"],
        env: { TOKEN: "${TOKEN}", "KEY_NAME_${X}": "v" },
        cwd: "${SCRATCH}",
        files: { "creds.json": { token: "${TOKEN}" }, "note.txt": "home=${HOME}" },
      },
      b: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
    },
  }).servers;
  const env = { BIN: "/p/bin.js", SCRATCH: "/s", TOKEN: "t0k", HOME: "/h", HOST: "h.example" };
  const a = expandServerEntry(stdio, env);
  assert.equal(a.kind, "stdio");
  if (a.kind !== "stdio") return;
  assert.equal(a.command, "node");
  // "$PLAIN" and "${}" are not variable references and stay as written.
  assert.deepEqual(a.args, ["/p/bin.js", "--root=/s/fs", "$PLAIN", "${}"]);
  assert.deepEqual(a.env, { TOKEN: "t0k", "KEY_NAME_${X}": "v" });
  assert.equal(a.cwd, "/s");
  assert.deepEqual(a.meta.files, { "creds.json": { token: "t0k" }, "note.txt": "home=/h" });
  const b = expandServerEntry(remote, env);
  assert.equal(b.kind === "remote" && b.url, "https://h.example/mcp");
  assert.deepEqual(b.kind === "remote" && b.headers, { Authorization: "Bearer t0k" });
});

Deno.test("a missing variable is a ConfigError naming the variable, the server and the field", () => {
  const text = '{"mcpServers":{"github":{"command":"node","env":{"GITHUB_TOKEN":"${GH_TOKEN}"}}}}';
  const error = _throws(() =>
    parseServersConfig(text, { source: "claude_desktop_config.json", env: {} })
  );
  assert.ok(error instanceof ConfigError);
  assert.equal(
    error.message,
    'Cannot use servers config "claude_desktop_config.json": server "github" field "env.GITHUB_TOKEN": variable "GH_TOKEN" is not defined',
  );
  assert.equal(error.server, "github");
  assert.equal(error.field, "env.GITHUB_TOKEN");
  // An env value of undefined counts as missing; a default rescues it.
  assert.throws(
    () =>
      expandServerEntry(
        parseServersConfig({ mcpServers: { s: { command: "x", args: ["${A}"] } } }).servers[0],
        { A: undefined },
      ),
    /server "s" field "args\[0\]": variable "A" is not defined/,
  );
});

// Node's assert.throws returns undefined; this wrapper returns the error for inspection.
function _throws(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

Deno.test("validation errors name the file and the field", () => {
  const cases: [unknown, RegExp][] = [
    ["{not json", /^Cannot use servers config "f.json": not valid JSON/],
    [[], /"f.json": expected a JSON object, got an array/],
    [{}, /"f.json": field "mcpServers": missing the "mcpServers" object/],
    [{ mcpServers: [] }, /field "mcpServers": expected an object, got an array/],
    [{ mcpServers: { s: 1 } }, /server "s": expected an object, got number 1/],
    [{ mcpServers: { s: {} } }, /server "s": needs "command" \(stdio\) or "url" \(HTTP\)/],
    [{ mcpServers: { s: { command: "x", url: "http://h" } } }, /server "s": has both/],
    [
      { mcpServers: { s: { command: "" } } },
      /server "s" field "command": expected a non-empty string/,
    ],
    [{ mcpServers: { s: { command: "x", args: "a b" } } }, /field "args": expected an array/],
    [
      { mcpServers: { s: { command: "x", args: ["a", 2] } } },
      /field "args\[1\]": expected a string, got number 2/,
    ],
    // env and headers values are secrets: the message says what they are, not what they hold
    [
      { mcpServers: { s: { command: "x", env: { PORT: 3000 } } } },
      /field "env.PORT": expected a string, got a number$/,
    ],
    [
      { mcpServers: { s: { url: "https://h", headers: { Authorization: ["Bearer", "t"] } } } },
      /field "headers.Authorization": expected a string, got an array$/,
    ],
    [
      { mcpServers: { s: { command: "x", env: "API_KEY=sk-1234" } } },
      /field "env": expected an object of strings, got a string$/,
    ],
    [{ mcpServers: { s: { url: "ftp://h" } } }, /field "url": expected an http/],
    // a URL without its scheme (a common slip): its credentials and query are not repeated
    [
      { mcpServers: { s: { url: "mcp.example.com/v1?api_key=sk-1234#x" } } },
      /field "url": expected an http:\/\/ or https:\/\/ URL, got "mcp\.example\.com\/v1\?…"$/,
    ],
    [
      { mcpServers: { s: { url: "ws://user:pw-1234@h.example.com/mcp" } } },
      /got "ws:\/\/…@h\.example\.com\/mcp"$/,
    ],
    [{ mcpServers: { s: { url: "http://h", type: "ws" } } }, /field "type": expected "http"/],
    [
      { mcpServers: { s: { command: "x", timeoutMs: -5 } } },
      /field "timeoutMs": expected a positive integer/,
    ],
    [
      { mcpServers: { s: { command: "x", version: "1.0.0" } } },
      /field "version": "version" needs "package"/,
    ],
    [
      { mcpServers: { s: { command: "x", files: { "/etc/passwd": "x" } } } },
      /field "files.\/etc\/passwd": paths must be relative/,
    ],
    [{ mcpServers: { s: { command: "x", files: { "a/../../b": "x" } } } }, /may not contain ".."/],
    [
      { mcpServers: { "a:b": { command: "x" } } },
      /server "a:b": server names must be non-empty and contain no ":"/,
    ],
  ];
  for (const [input, pattern] of cases) {
    const text = typeof input === "string" ? input : JSON.stringify(input);
    const error = _throws(() => parseServersConfig(text, { source: "f.json" }));
    assert.ok(error instanceof ConfigError, `${text}: ${error}`);
    assert.match(error.message, pattern, text);
  }
});

Deno.test("referencedVariables lists names in order", () => {
  assert.deepEqual(referencedVariables("${HOME}/${X:-a}/$Y/${HOME}"), ["HOME", "X", "HOME"]);
});

Deno.test("MAVERIK's mcp-servers.json (a servers list) is refused with the way to convert it", async () => {
  // A user pasting the MAVERIK file read 'field "servers": expected an object, got an array'.
  const path = new URL("../../fixtures/maverik/basic/mcp-servers.json", import.meta.url);
  const text = await Deno.readTextFile(path);
  assert.ok(Array.isArray(JSON.parse(text).servers));
  assert.throws(
    () => parseServersConfig(text, { source: "my/maverik/mcp-servers.json" }),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message.includes(
        `field "servers": is a list of servers (MAVERIK's mcp-servers.json shape)`,
      ) &&
      e.message.includes("deno task import-maverik --from my/maverik --out DIR") &&
      e.message.includes("DIR/agents/servers.json"),
  );
  assert.throws(() => parseServersConfig(text), /--from ITS_FOLDER --out DIR/);
  // VS Code's "servers" table still reads.
  const vscode = parseServersConfig({ servers: { a: { url: "http://127.0.0.1:1/mcp" } } });
  assert.deepEqual(vscode.servers.map((s) => s.name), ["a"]);
});

Deno.test("a VS Code mcp.json with comments and trailing commas reads as it is", () => {
  // VS Code's mcp.json is JSON with comments; JSON.parse refused this one at its first line.
  const text = `{
  // workspace servers
  "servers": {
    /* the memory server */
    "memory": { "command": "node", "args": ["m.js",], },
  },
}`;
  const config = parseServersConfig(text, { source: ".vscode/mcp.json" });
  assert.deepEqual(
    config,
    parseServersConfig('{"servers":{"memory":{"command":"node","args":["m.js"]}}}', {
      source: ".vscode/mcp.json",
    }),
  );
  assert.equal(config.servers[0].name, "memory");
  // Still invalid with comments allowed: the JSON error, and that comments would be fine.
  const bad = _throws(() => parseServersConfig('{"servers": {"a": }', { source: "f.json" }));
  assert.match(bad.message, /^Cannot use servers config "f.json": not valid JSON \(/);
  assert.match(bad.message, /comments and trailing commas are allowed/);
});
