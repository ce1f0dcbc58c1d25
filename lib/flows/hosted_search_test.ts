// --hosted-search against a local server speaking the Anthropic Messages wire format with
// tool-search blocks: each request is checked (the search tool first, every corpus tool
// deferred, one golden query), answered with tool_reference blocks, scored and priced; a second
// run answers from the cache and sends nothing.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  messageReply,
  type ReceivedRequest,
  startScriptedModelServer,
} from "../agent/_scripted_model_server.ts";
import { runBench } from "./bench.ts";
import { HOSTED_SEARCH_SYSTEM, parseHostedSearch } from "./hosted_search.ts";
import { denoFlowIo } from "./io.ts";
import { UsageError } from "../core/errors.ts";

const TOOLS = {
  tools: [
    {
      name: "read_file",
      description: "Read a file from disk.",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      name: "write_file",
      description: "Write a file to disk.",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      name: "send_email",
      description: "Send an email.",
      inputSchema: { type: "object", properties: { to: { type: "string" } } },
    },
    {
      name: "list_events",
      description: "List calendar events.",
      inputSchema: { type: "object", properties: {} },
    },
  ],
};

/** What the double's search returns per query, and the usage it reports. */
const ANSWERS: Record<string, string[]> = {
  "open my notes file": ["write_file", "read_file"],
  "email the team": ["send_email"],
  "what is on my calendar": [],
};

function handler(req: ReceivedRequest) {
  const body = req.body as {
    system: string;
    temperature: number;
    tools: Record<string, unknown>[];
    messages: { role: string; content: string }[];
  };
  // The request as the provider documents it; a wrong one gets a 400, which fails the bench.
  const ok = body.system === HOSTED_SEARCH_SYSTEM && body.temperature === 0 &&
    body.tools[0].type === "tool_search_tool_bm25_20251119" &&
    body.tools.slice(1).every((t) => t.defer_loading === true) && body.tools.length === 5 &&
    body.messages.length === 1;
  if (!ok) return { status: 400, body: JSON.stringify({ type: "error", error: { type: "x" } }) };
  const query = body.messages[0].content;
  return messageReply("anthropic", {
    searches: [{ id: `srvtoolu_${req.index}`, input: { query }, tools: ANSWERS[query] }],
    text: "done",
    usage: { input: 1000, output: 50 },
  });
}

Deno.test({
  name:
    "--hosted-search anthropic:ID: one request per golden query, scored on the references, priced; a second run sends nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = startScriptedModelServer(handler);
    const dir = await Deno.makeTempDir({ prefix: "mcpmeter-hosted-" });
    try {
      // A bare tools/list file takes its server name from its folder.
      await Deno.mkdir(join(dir, "tools"));
      const corpus = join(dir, "tools", "tools.json");
      await Deno.writeTextFile(corpus, JSON.stringify(TOOLS));
      const golden = join(dir, "golden.json");
      await Deno.writeTextFile(
        golden,
        JSON.stringify({
          queries: [
            {
              id: "q1",
              query: "open my notes file",
              labels: [{ tool_id: "tools:read_file", relevance: 2 }],
            },
            {
              id: "q2",
              query: "email the team",
              labels: [{ tool_id: "tools:send_email", relevance: 2 }],
            },
            {
              id: "q3",
              query: "what is on my calendar",
              labels: [{ tool_id: "tools:list_events", relevance: 2 }],
            },
          ],
        }),
      );
      const models = join(dir, "models.json");
      await Deno.writeTextFile(
        models,
        JSON.stringify({
          models: [{
            id: "claude",
            provider: "anthropic",
            model: "claude-sonnet-4-6",
            baseUrl: server.url,
            apiKey: "${HOSTED_KEY}",
            pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
          }],
        }),
      );
      const io = {
        ...denoFlowIo(),
        progress: () => {},
        env: () => ({ HOSTED_KEY: "sk-hosted-test" }),
      };
      const run = () =>
        runBench({
          corpora: [corpus],
          golden: [golden],
          retrievers: ["bm25"],
          arms: "none",
          toolResults: "none",
          costLayers: false,
          models,
          hostedSearch: "anthropic:claude",
          chatCache: join(dir, "chat"),
          resamples: 10,
        }, io);
      const report = await run();
      assert.equal(server.requests.length, 3, "one request per golden query");
      const row = report.retrieval!.find((r) => r.retriever === "anthropic_hosted")!;
      assert.equal(row.hosted?.kind, "hosted");
      assert.equal(row.hosted?.tool, "tool_search_tool_bm25_20251119");
      // q1: read_file at rank 2; q2: rank 1; q3: no reference → recall@1 = 1/3, recall@5 = 2/3,
      // MRR@10 = (1/2 + 1 + 0) / 3 = 0.5.
      assert.equal(row.metrics["recall@1"], 1 / 3);
      assert.equal(row.metrics["recall@5"], 2 / 3);
      assert.equal(row.metrics["mrr@10"], 0.5);
      assert.deepEqual(row.perQuery.map((q) => q.topIds), [
        ["tools:write_file", "tools:read_file"],
        ["tools:send_email"],
        [],
      ]);
      // Each request: 1,000 input tokens at $3 and 50 output at $15 per million = $0.00375.
      assert.deepEqual(
        [row.cost?.requests, row.cost?.inputTokens, row.cost?.outputTokens],
        [3, 3000, 150],
      );
      assert.ok(Math.abs(row.cost!.usd! - 3 * 0.00375) < 1e-12, String(row.cost!.usd));
      // The key never reaches the report.
      assert.ok(!JSON.stringify(report).includes("sk-hosted-test"));

      const again = await run();
      assert.equal(server.requests.length, 3, "the second run is answered from the cache");
      const cached = again.retrieval!.find((r) => r.retriever === "anthropic_hosted")!;
      assert.deepEqual(cached.metrics, row.metrics);
      assert.deepEqual([cached.cost?.requests, cached.cost?.cachedTexts], [0, 3]);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("parseHostedSearch: anthropic:ID with a bm25 or regex variant; anything else is a usage error", () => {
  assert.deepEqual(parseHostedSearch("anthropic:claude"), {
    provider: "anthropic",
    model: "claude",
    variant: "bm25",
  });
  assert.equal(parseHostedSearch("anthropic:claude", "regex").variant, "regex");
  assert.throws(() => parseHostedSearch("openai:gpt-5.4"), UsageError);
  assert.throws(() => parseHostedSearch("anthropic:"), UsageError);
  assert.throws(() => parseHostedSearch("anthropic:claude", "semantic"), UsageError);
});
