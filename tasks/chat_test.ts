// test:quick skips this file: its tests start processes (deno task test runs them).
// End-to-end test of `deno task chat`: piped stdin, real MCP servers (installed into
// .scratch/servers when missing), and the scripted local model server (Anthropic wire format).
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../lib/mcp/install.ts";
import {
  type ReceivedRequest,
  startScriptedModelServer,
} from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";

const INSTALL_DIR = ".scratch/servers";

async function chat(stdin: string, extra: string[], url: string, dir: string) {
  const models = join(dir, "models.json");
  await Deno.writeTextFile(
    models,
    JSON.stringify({
      models: [{
        id: "claude",
        provider: "anthropic",
        model: "scripted",
        baseUrl: url,
        apiKey: "${E2E_KEY}",
        pricing: {
          inputUsdPerMTok: 3,
          outputUsdPerMTok: 15,
          cacheReadUsdPerMTok: 0.3,
          cacheWriteUsdPerMTok: 3.75,
        },
      }],
    }),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "tasks/chat.ts",
      "--models",
      models,
      "--agents",
      "fixtures/agents",
      "--servers",
      "fixtures/agents/servers.json",
      "--install-dir",
      INSTALL_DIR,
      "--env-file",
      "/nonexistent.env",
      ...extra,
    ],
    env: { E2E_KEY: "sk-chat-test", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

Deno.test({
  name: "chat: piped questions go through the loop with history; tool calls and usage are printed",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const results = await installPackages(
      ["server-memory", "server-everything"].map((p) => ({
        package: `@modelcontextprotocol/${p}`,
        version: "2026.8.31",
      })),
      { installDir: INSTALL_DIR },
    );
    for (const r of results) assert.notEqual(r.status, "failed", `${r.package}: ${r.message}`);
    const requests: ReceivedRequest[] = [];
    const s = startScriptedModelServer((req) => {
      requests.push(req);
      return fixturePolicy(req);
    });
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-chat-test-" });
    try {
      const r = await chat(
        [
          "Use a tool to add 17 and 25. Answer with the result only.",
          "",
          "How many entities are in the knowledge graph? Answer with the number only.",
          "/exit",
          "Echo the message 'mcpmeter' with the echo tool and tell me what it returned.",
          "",
        ].join("\n"),
        ["--agent", "all-terse-parallel"],
        s.url,
        dir,
      );
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      assert.match(
        lines[0],
        /^agent all-terse-parallel: model claude \(anthropic\), direct exposure, \d+ tools, parallel loop/,
      );
      // Turn 0 of each question: input 100, output 20, cache read 50, cache write 5; turn 1:
      // input 110. 210·3 + 40·15 + 100·0.3 + 10·3.75 = 1297.5 µ$.
      const usageLine =
        /^ {2}\[2 model turn\(s\); tokens in 210, out 40, cache read 100, cache write 10; \$0\.001298; \d+ ms\]$/;
      assert.match(lines[1], /^ {2}tool get-sum \{"a":17,"b":25\} -> everything:get-sum \d+ ms$/);
      assert.equal(lines[2], "42");
      assert.match(lines[3], usageLine);
      assert.match(lines[4], /^ {2}tool read_graph \{\} -> memory:read_graph \d+ ms$/);
      // fixtures/suites/data/memory.jsonl holds 4 entities: Alice, Bob, Acme, Globex.
      assert.equal(lines[5], "4");
      assert.match(lines[6], usageLine);
      // Nothing after /exit was sent.
      assert.equal(lines.length, 7, r.stdout);
      assert.equal(requests.length, 4);
      // The second question carried the first exchange: question, tool call, result, answer.
      const second = requests[2].body.messages as { role: string }[];
      assert.deepEqual(second.map((m) => m.role), [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
      ]);
    } finally {
      await s.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "chat: an unknown agent is a one-line usage error",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-chat-test-" });
    try {
      const r = await chat("", ["--agent", "nope"], "http://127.0.0.1:9", dir);
      assert.equal(r.code, 2);
      assert.match(
        r.stderr,
        /^mcpmeter chat: error: unknown agent "nope"; known: .*all-terse-proxy/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
