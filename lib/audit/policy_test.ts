// Cases from the examples of code.claude.com/docs/en/managed-mcp ("How a server is evaluated"
// and its accordions), each outcome as the page states it.
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { checkServer, type PolicySource, readServerPolicy, urlMatches } from "./policy.ts";
import type { ServerEntry } from "../mcp/config.ts";
import type { JsonObject, JsonValue } from "../catalog/types.ts";

const stdio = (command: string, ...args: string[]): ServerEntry => ({
  kind: "stdio",
  name: "",
  command,
  args,
  env: {},
  meta: { extra: {} },
});
const http = (url: string): ServerEntry => ({
  kind: "remote",
  name: "",
  url,
  headers: {},
  transport: "auto",
  meta: { extra: {} },
});

function verdicts(
  settings: JsonValue,
  servers: [string, ServerEntry][],
  vars: Record<string, string> = {},
): boolean[] {
  const notes: string[] = [];
  const policy = readServerPolicy([{ where: "s.json", managed: true, value: settings }], notes);
  assertEquals(notes, []);
  return servers.map(([name, entry]) =>
    checkServer(policy, { name, entry, organization: false }, vars).allowed
  );
}

Deno.test("urlMatches() follows the documented serverUrl patterns", () => {
  const cases: [string, string, boolean][] = [
    ["https://mcp.example.com/*", "https://mcp.example.com/api", true],
    ["https://mcp.example.com", "https://mcp.example.com/any/path", true],
    ["https://*.example.com/*", "https://api.example.com/mcp", true],
    ["https://*.example.com/*", "https://example.org/mcp", false],
    ["http://localhost:*/*", "http://localhost:3000/mcp", true],
    ["*://mcp.example.com/*", "http://mcp.example.com/x", true],
    // host without case and without a trailing dot; the path keeps its case
    ["https://Mcp.Example.com/*", "https://mcp.example.com./api", true],
    ["https://mcp.example.com/API", "https://mcp.example.com/api", false],
    ["https://mcp.example.com/*", "https://mcp.example.com", true],
    ["https://mcp.example.com/*", "https://evil.com/?https://mcp.example.com/", false],
  ];
  assertEquals(cases.map(([p, u]) => urlMatches(p, u)), cases.map((c) => c[2]));
});

Deno.test("checkServer() applies the documented allowlist and denylist combinations", () => {
  // URL-only allowlist: stdio servers have no entry to match
  assertEquals(
    verdicts({
      allowedMcpServers: [
        { serverUrl: "https://mcp.example.com/*" },
        { serverUrl: "https://*.internal.example.com/*" },
      ],
    }, [
      ["a", http("https://mcp.example.com/api")],
      ["b", http("https://api.internal.example.com/mcp")],
      ["c", http("https://external.example.com/mcp")],
      ["d", stdio("node", "server.js")],
    ]),
    [true, true, false, false],
  );
  // command-only: exact command and arguments; a remote server has no name entry to match
  assertEquals(
    verdicts({ allowedMcpServers: [{ serverCommand: ["npx", "-y", "approved-package"] }] }, [
      ["a", stdio("npx", "-y", "approved-package")],
      ["b", stdio("node", "server.js")],
      ["c", stdio("npx", "approved-package")],
      ["my-api", http("https://x.example/mcp")],
    ]),
    [true, false, false, false],
  );
  // mixed name and command: stdio must match a command; remote may match by name
  assertEquals(
    verdicts({
      allowedMcpServers: [
        { serverName: "github" },
        { serverCommand: ["npx", "-y", "approved-package"] },
      ],
    }, [
      ["local-tool", stdio("npx", "-y", "approved-package")],
      ["local-tool", stdio("node", "server.js")],
      ["github", stdio("node", "server.js")],
      ["github", http("https://api.github.example/mcp")],
      ["other-api", http("https://api.github.example/mcp")],
    ]),
    [true, false, false, true, false],
  );
  // name-only: names decide for both kinds
  assertEquals(
    verdicts({ allowedMcpServers: [{ serverName: "github" }, { serverName: "internal-tool" }] }, [
      ["github", stdio("anything")],
      ["internal-tool", stdio("anything")],
      ["github", http("https://g.example/mcp")],
      ["other", stdio("anything")],
    ]),
    [true, true, true, false],
  );
  // the denylist wins over an allowlist match
  assertEquals(
    verdicts({
      allowedMcpServers: [{ serverUrl: "https://*.example.com/*" }],
      deniedMcpServers: [{ serverUrl: "https://staging.example.com/*" }],
    }, [
      ["a", http("https://mcp.example.com/api")],
      ["b", http("https://staging.example.com/api")],
      ["c", http("https://other.com/mcp")],
    ]),
    [true, false, false],
  );
  // an empty allowlist lets none through; no allowlist lets all through; ${VAR} expands
  assertEquals(verdicts({ allowedMcpServers: [] }, [["a", stdio("x")]]), [false]);
  assertEquals(
    verdicts({ deniedMcpServers: [{ serverCommand: ["${HOME}/bin/server"] }] }, [
      ["a", stdio("/home/u/bin/server")],
      ["b", stdio("${HOME}/bin/server")],
      ["c", stdio("/opt/bin/server")],
    ], { HOME: "/home/u" }),
    [false, false, true],
  );
});

Deno.test("readServerPolicy() merges every file's lists, or keeps the managed allowlist alone", () => {
  const notes: string[] = [];
  const sources: PolicySource[] = [
    {
      where: "managed",
      managed: true,
      value: { allowedMcpServers: [{ serverName: "a" }], deniedMcpServers: [{ serverName: "x" }] },
    },
    {
      where: "~/.claude/settings.json",
      managed: false,
      value: {
        allowedMcpServers: [{ serverName: "b" }, { serverName: "c", serverUrl: "https://c" }],
        deniedMcpServers: "x",
      },
    },
  ];
  const merged = readServerPolicy(sources, notes);
  assertEquals(merged.allowed, [{ serverName: "a" }, { serverName: "b" }]);
  assertEquals(merged.denied, [{ serverName: "x" }]);
  assertEquals(notes, [
    "~/.claude/settings.json: deniedMcpServers is not a list: ignored",
    "~/.claude/settings.json: an entry of allowedMcpServers is not one of serverName, " +
    "serverCommand, serverUrl: ignored",
  ]);
  const locked = readServerPolicy([
    {
      ...sources[0],
      value: { ...sources[0].value as JsonObject, allowManagedMcpServersOnly: true },
    },
    sources[1],
  ], []);
  assertEquals(locked.allowed, [{ serverName: "a" }]);
  // the organization's own servers skip the allowlist, unless a managed-mcp.json entry uses ${VAR}
  const own = (organization: "managed-file" | "managed-settings", entry: ServerEntry) =>
    checkServer(locked, { name: "z", entry, organization }, {}).allowed;
  assertEquals(
    [
      own("managed-file", stdio("z-mcp")),
      own("managed-settings", http("https://z.example/mcp")),
      own("managed-file", stdio("z-mcp", "${TOKEN}")),
    ],
    [true, true, false],
  );
});
