// The chat retrievers (rerank, expand) end to end through the bench: the chat model is a
// registry entry of each provider, served by a local server speaking the real Anthropic
// Messages or OpenAI Chat Completions wire format.
import assert from "node:assert/strict";
import {
  messageReply,
  type ReceivedRequest,
  type ScriptedReply,
  startScriptedModelServer,
  type WireProvider,
} from "../agent/_scripted_model_server.ts";
import { errorReply } from "../../testing/scripted_replies.ts";
import { runBench } from "./bench.ts";
import type { RunBenchOptions } from "./bench_options.ts";
import { denoFlowIo } from "./io.ts";
import { rerankPrompt } from "../retrieval/rerank.ts";
import { expansionPrompt } from "../retrieval/expand.ts";
import { z } from "zod";
import { clientFor, fakeUpstream, FS_TOOLS, GH_TOOLS } from "../../testing/proxy.ts";
import { createProxyCore, createProxyServer } from "../proxy/server.ts";
import { createUpstreamPool } from "../proxy/upstream.ts";
import { proxyRetriever } from "../proxy/tool_index.ts";
import {
  checkRetrieverModels,
  endpointContext,
  resolveRetrieverModels,
} from "./retriever_models.ts";

const TOOLS = [
  ["create_issue", "Open a ticket for a bug in a repository"],
  ["read_text_file", "Read the contents of a file"],
  ["list_events", "List calendar events"],
  ["post_message", "Post a message to a chat channel"],
] as const;

const doc = (name: string) => {
  const [, description] = TOOLS.find(([n]) => n === name)!;
  return { id: `tiny:${name}`, server: "tiny", name, description, params: "" };
};

async function setup(dir: string, provider: WireProvider, baseUrl: string) {
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({
      models: [{
        id: "ranker",
        provider,
        model: "rank-1",
        baseUrl,
        apiKey: "${TEST_CHAT_KEY}",
        // USD per million: input 1, output 2.
        pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
      }],
    }),
  );
  await Deno.writeTextFile(
    `${dir}/tiny.json`,
    JSON.stringify({
      tools: TOOLS.map(([name, description]) => ({
        name,
        description,
        inputSchema: { type: "object" },
      })),
    }),
  );
  const q = (id: string, query: string, tool: string) => ({
    id,
    query,
    labels: [{ tool_id: `tiny:${tool}`, relevance: 2 }],
  });
  await Deno.writeTextFile(
    `${dir}/tiny.test.json`,
    JSON.stringify({
      queries: [
        // bm25: post_message (name and description say "message") before create_issue ("bug").
        q("q1", "message about the bug", "create_issue"),
        // bm25: read_text_file (name and description) before list_events ("calendar").
        q("q2", "read the calendar file", "list_events"),
        // One bm25 candidate: nothing to rerank, no call.
        q("q3", "post", "post_message"),
        // No tool says "schedule" or "tomorrow": bm25 finds nothing, expand does.
        q("q4", "what is on my schedule tomorrow", "list_events"),
      ],
    }),
  );
}

/** The user message of a request, in either wire format. */
function userText(req: ReceivedRequest): string {
  const messages = req.body.messages as { role: string; content: unknown }[];
  const user = messages.find((m) => m.role === "user")!;
  return typeof user.content === "string"
    ? user.content
    : (user.content as { text: string }[]).map((c) => c.text).join("");
}

/** The model: rankings per request, expansions per tool; the first rerank prompt gets a 429. */
function handler(provider: WireProvider) {
  let limited = false;
  return (req: ReceivedRequest): ScriptedReply => {
    const text = userText(req);
    const usage = { input: 100, output: 8 };
    if (text.startsWith("Request: message about the bug")) {
      if (!limited) {
        limited = true;
        return errorReply(provider, 429, "0");
      }
      return messageReply(provider, { text: "[2] > [1]", usage });
    }
    // A malformed ranking: an unknown number, a repeat, a candidate left out.
    if (text.startsWith("Request: read the calendar file")) {
      return messageReply(provider, { text: "Ranking: [7] > [2] > [2]", usage });
    }
    if (text.startsWith("Tool: tiny/list_events")) {
      return messageReply(provider, {
        text: "1. what's on my schedule tomorrow\n2. am I free on friday",
        usage: { input: 50, output: 20 },
      });
    }
    if (text.startsWith("Tool: ")) {
      return messageReply(provider, { text: "", usage: { input: 50, output: 0 } });
    }
    return errorReply(provider, 400);
  };
}

for (const provider of ["openai", "anthropic"] as const) {
  Deno.test(`bench: rerank and expand over a ${provider} chat model (wire format, repairs, 429, cache)`, async () => {
    const dir = await Deno.makeTempDir();
    const server = startScriptedModelServer(handler(provider));
    const baseUrl = provider === "anthropic" ? server.url : server.openaiBaseUrl;
    try {
      await setup(dir, provider, baseUrl);
      const options: RunBenchOptions = {
        corpora: [`${dir}/tiny.json`],
        golden: [`${dir}/tiny.test.json`],
        arms: "none",
        toolResults: "none",
        tokenizers: ["cl100k_base"],
        retrievers: ["bm25", "rerank", "expand"],
        rerankModel: "ranker",
        expandModel: "ranker",
        models: `${dir}/models.json`,
        chatCache: `${dir}/cache`,
        resamples: 20,
      };
      const lines: string[] = [];
      const io = {
        ...denoFlowIo(),
        env: () => ({ TEST_CHAT_KEY: "sk-test-chat-0123" }),
        progress: (_task: string, line: string) => {
          lines.push(line);
        },
      };
      const report = await runBench(options, io);
      // Long steps say how far they are (at the end, and every 50).
      assert.ok(lines.includes("tiny.test: rerank: 4/4 queries"), lines.join("\n"));
      assert.ok(lines.includes("tiny.test: expand: 4/4 tools"), lines.join("\n"));
      const row = (name: string) => report.retrieval!.find((r) => r.retriever === name)!;

      // Request bytes: the first rerank prompt as hand-written, on the provider's wire format.
      const first = server.requests.find((r) => userText(r).startsWith("Request: message"))!;
      const user = "Request: message about the bug\n\nCandidates:\n" +
        "[1] tiny/post_message: Post a message to a chat channel\n" +
        "[2] tiny/create_issue: Open a ticket for a bug in a repository\n\n" +
        "Order all 2 candidates, best first.";
      assert.equal(userText(first), user);
      assert.equal(
        rerankPrompt("message about the bug", [doc("post_message"), doc("create_issue")]).user,
        user,
      );
      // 6 tokens per candidate + 16.
      assert.equal(first.body.max_tokens, 28);
      assert.equal(first.body.temperature, 0);
      assert.equal(first.body.model, "rank-1");
      if (provider === "anthropic") {
        // The Anthropic SDK sends the key as a bearer token (older releases: x-api-key).
        const h = first.headers;
        assert.ok(
          h["x-api-key"] === "sk-test-chat-0123" ||
            h["authorization"] === "Bearer sk-test-chat-0123",
        );
        assert.match(String(first.body.system), /^You choose tools for an AI assistant\./);
      } else {
        assert.equal(first.headers["authorization"], "Bearer sk-test-chat-0123");
        const system = (first.body.messages as { role: string; content: string }[])[0];
        assert.equal(system.role, "system");
      }
      assert.equal(first.body.tools, undefined);

      // Rankings: q1 reordered by the model; q2 repaired to list_events, read_text_file; q3 and
      // q4 keep the base order (q4: no candidate at all).
      const top = (name: string, q: string) =>
        row(name).perQuery.find((r) => r.queryId === q)!.topIds;
      assert.deepEqual(top("bm25", "q1"), ["tiny:post_message", "tiny:create_issue"]);
      assert.deepEqual(top("rerank", "q1"), ["tiny:create_issue", "tiny:post_message"]);
      assert.deepEqual(top("bm25", "q2"), ["tiny:read_text_file", "tiny:list_events"]);
      assert.deepEqual(top("rerank", "q2"), ["tiny:list_events", "tiny:read_text_file"]);
      assert.deepEqual(top("rerank", "q3"), ["tiny:post_message"]);
      // bm25 recall@1: q3 only (1/4); rerank: q1, q2, q3 (3/4).
      assert.equal(row("bm25").metrics["recall@1"], 1 / 4);
      assert.equal(row("rerank").metrics["recall@1"], 3 / 4);
      const q2 = row("rerank").perQuery.find((r) => r.queryId === "q2")!;
      assert.deepEqual(q2.notes, [
        "dropped 1 unknown candidate number(s): 7",
        "dropped 1 repeated candidate(s)",
        "1 of 2 candidates not ranked by the model, appended in base order",
      ]);
      assert.ok(
        report.warnings.some((w) => w.includes("tiny.test/rerank: 1 of 4 queries needed repairs")),
      );

      // Costs per query: 100 input, 8 output tokens at $1 / $2 per million = $0.000116; q1
      // took two requests (the 429 and its retry), q3 none.
      const q1 = row("rerank").perQuery.find((r) => r.queryId === "q1")!;
      assert.deepEqual(q1.cost, {
        requests: 2,
        inputTokens: 100,
        outputTokens: 8,
        usd: 0.000116,
        cached: false,
      });
      assert.equal(row("rerank").perQuery.find((r) => r.queryId === "q3")!.cost, undefined);
      const rc = row("rerank").cost!;
      assert.equal(rc.requests, 3);
      assert.equal(rc.inputTokens, 200);
      assert.equal(rc.outputTokens, 16);
      assert.ok(Math.abs(rc.usd! - 0.000232) < 1e-12);

      // Expand: four tools, one prompt each; list_events gained "schedule tomorrow", so q4 finds it.
      const listEvents = server.requests.find((r) =>
        userText(r).startsWith("Tool: tiny/list_events")
      )!;
      assert.equal(userText(listEvents), expansionPrompt(doc("list_events"), 5).user);
      assert.equal(
        userText(listEvents),
        "Tool: tiny/list_events\nDescription: List calendar events\n\nWrite 5 requests, one per line.",
      );
      assert.deepEqual(top("bm25", "q4"), []);
      assert.equal(top("expand", "q4")[0], "tiny:list_events");
      const ec = row("expand").cost!;
      // 4 × 50 input tokens; 20 output tokens; USD 200/1e6 + 40/1e6.
      assert.deepEqual([ec.requests, ec.inputTokens, ec.outputTokens], [4, 200, 20]);
      assert.ok(Math.abs(ec.usd! - 0.00024) < 1e-12);
      assert.equal(row("expand").retrieverConfig.expandedTools, 1);

      // The frontier rebuilt both from the cache; a second run sends nothing at all.
      const sent = server.requests.length;
      // 3 rerank requests (one retried) + 4 expansions.
      assert.equal(sent, 7);
      const again = await runBench(options, io);
      assert.equal(server.requests.length, sent, "a rerun answers every prompt from the cache");
      const row2 = (name: string) => again.retrieval!.find((r) => r.retriever === name)!;
      assert.deepEqual(
        row2("rerank").perQuery.map((r) => r.topIds),
        row("rerank").perQuery.map((r) => r.topIds),
      );
      assert.equal(row2("rerank").cost!.requests, 0);
      assert.equal(row2("rerank").cost!.cachedTexts, 2);
      assert.equal(row2("expand").cost!.cachedTexts, 4);
      assert.equal(row2("rerank").perQuery[0].cost!.cached, true);
      assert.doesNotMatch(JSON.stringify(again), /sk-test-chat/);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("bench: the chat retrievers need their model flags, and rerank's base must be usable", async () => {
  const base: RunBenchOptions = { arms: "none", toolResults: "none" };
  const io = { ...denoFlowIo(), progress: () => {} };
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["rerank"] }, io),
    /--retrievers rerank needs --rerank-model ID/,
  );
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["expand"] }, io),
    /--retrievers expand needs --expand-model ID/,
  );
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["bm25"], rerankModel: "x" }, io),
    /--rerank-model is used by --retrievers rerank only/,
  );
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["rerank"], rerankModel: "x", rerankBase: "oracle" }, io),
    /--rerank-base oracle: the base must be a retriever without golden labels/,
  );
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["rerank"], rerankModel: "x", rerankK: 1 }, io),
    /--rerank-k must be an integer >= 2/,
  );
  await assert.rejects(
    () => runBench({ ...base, retrievers: ["rerank"], rerankModel: "x", rerankBase: "dense" }, io),
    /--retrievers rerank needs --embedding-model ID/,
  );
});

Deno.test("retrieve_tools over MCP serves rerank with a chat model of the registry", async () => {
  const dir = await Deno.makeTempDir();
  // The model always puts gh/create_pull_request first, wherever bm25 ranked it.
  const server = startScriptedModelServer((req) => {
    const line = userText(req).split("\n").find((l) => l.includes("] gh/create_pull_request"));
    const n = line?.match(/^\[(\d+)\]/)?.[1] ?? "1";
    return messageReply("openai", { text: `[${n}]`, usage: { input: 80, output: 3 } });
  });
  const fs = await fakeUpstream({ name: "fs", tools: FS_TOOLS });
  const gh = await fakeUpstream({ name: "gh", tools: GH_TOOLS });
  const pool = await createUpstreamPool([fs, gh]);
  try {
    await setup(dir, "openai", server.openaiBaseUrl);
    const models = await resolveRetrieverModels(
      checkRetrieverModels(["rerank"], { rerankModel: "ranker", rerankK: 5 }, "--retriever"),
      {
        modelsPath: `${dir}/models.json`,
        embeddingCache: `${dir}/vectors`,
        chatCache: `${dir}/cache`,
        env: { TEST_CHAT_KEY: "sk-test-chat-0123" },
      },
    );
    const call = async (name: string, query: string) => {
      const retriever = proxyRetriever(name, { seed: 0, ...endpointContext(name, models) });
      const client = await clientFor(createProxyServer(createProxyCore(pool, { retriever })));
      try {
        const r = await client.request(
          {
            method: "tools/call",
            params: { name: "retrieve_tools", arguments: { query, limit: 3 } },
          },
          z.looseObject({}),
        ) as { content: { text: string }[] };
        return (JSON.parse(r.content[0].text).tools as { name: string }[]).map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    const plain = await call("bm25", "open a new file");
    assert.notEqual(plain[0], "gh:create_pull_request");
    const reranked = await call("rerank", "open a new file");
    assert.equal(reranked[0], "gh:create_pull_request");
    assert.equal(server.requests.length, 1);
    // The prompt listed bm25's top 5 (every tool the query's words reach).
    assert.match(userText(server.requests[0]), /^Request: open a new file\n\nCandidates:\n\[1\] /);
    // Served again from the answer cache.
    assert.deepEqual(await call("rerank", "open a new file"), reranked);
    assert.equal(server.requests.length, 1);
  } finally {
    await pool.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
