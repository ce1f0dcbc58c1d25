import assert from "node:assert/strict";
import { CountError, createCountClient } from "./count_client.ts";
import type { BillingProvider } from "./estimate.ts";
import { hangingServer } from "../../testing/http.ts";

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A local server speaking the three count endpoints; `script` decides each reply. */
function countServer(script: (seen: Seen, n: number) => Response) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => headers[k] = v);
    const s = { path: new URL(req.url).pathname, headers, body: await req.json() };
    seen.push(s);
    return script(s, seen.length);
  });
  const port = (server.addr as Deno.NetAddr).port;
  return { seen, base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

const answer = (provider: BillingProvider, n: number) =>
  Response.json(provider === "gemini" ? { totalTokens: n } : { input_tokens: n });

const env = (base: string) => ({
  ANTHROPIC_API_KEY: "sk-ant-SECRET-1",
  ANTHROPIC_BASE_URL: base,
  OPENAI_API_KEY: "sk-oa-SECRET-2",
  OPENAI_BASE_URL: `${base}/v1`,
  GEMINI_API_KEY: "g-SECRET-3",
  GEMINI_BASE_URL: base,
});

const tools = [{ name: "read", description: "Read", input_schema: { type: "object" } }];

Deno.test("count client: each provider's request shape, key header and answer", async () => {
  const s = countServer((seen) =>
    answer(seen.path.includes("countTokens") ? "gemini" : "anthropic", 42)
  );
  const cacheDir = await Deno.makeTempDir();
  try {
    const c = createCountClient({ env: env(s.base), cacheDir });
    assert.deepEqual(await c.count("anthropic", "claude-x", tools), { tokens: 42, cached: false });
    assert.equal(s.seen[0].path, "/v1/messages/count_tokens");
    assert.equal(s.seen[0].headers["x-api-key"], "sk-ant-SECRET-1");
    assert.equal(s.seen[0].headers["anthropic-version"], "2023-06-01");
    assert.deepEqual(s.seen[0].body, {
      model: "claude-x",
      messages: [{ role: "user", content: "Hi" }],
      tools,
    });
    assert.equal((await c.count("openai", "gpt-x", undefined)).tokens, 42);
    assert.equal(s.seen[1].path, "/v1/responses/input_tokens");
    assert.equal(s.seen[1].headers.authorization, "Bearer sk-oa-SECRET-2");
    assert.deepEqual(s.seen[1].body, { model: "gpt-x", input: "Hi" });
    const gtools = [{ functionDeclarations: [{ name: "read", description: "Read" }] }];
    assert.equal((await c.count("gemini", "gemini-x", gtools)).tokens, 42);
    assert.equal(s.seen[2].path, "/v1beta/models/gemini-x:countTokens");
    assert.equal(s.seen[2].headers["x-goog-api-key"], "g-SECRET-3");
    assert.deepEqual(s.seen[2].body, {
      generateContentRequest: {
        model: "models/gemini-x",
        contents: [{ role: "user", parts: [{ text: "Hi" }] }],
        tools: gtools,
      },
    });
    assert.equal(c.sent(), 3);
    // Cached: a second client over the same folder sends nothing.
    const again = createCountClient({ env: env(s.base), cacheDir });
    assert.deepEqual(await again.count("anthropic", "claude-x", tools), {
      tokens: 42,
      cached: true,
    });
    assert.equal(again.sent(), 0);
    assert.equal(again.hits(), 1);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: 429 with Retry-After, then a 500, then success; waits recorded", async () => {
  const s = countServer((_, n) =>
    n === 1
      ? new Response("slow down", { status: 429, headers: { "retry-after": "3" } })
      : n === 2
      ? new Response("oops", { status: 500 })
      : answer("anthropic", 7)
  );
  const cacheDir = await Deno.makeTempDir();
  const waits: number[] = [];
  try {
    const c = createCountClient({
      env: env(s.base),
      cacheDir,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      retry: { baseDelayMs: 100 },
    });
    assert.equal((await c.count("anthropic", "m", tools)).tokens, 7);
    assert.deepEqual(waits, [3000, 200]);
    assert.equal(c.sent(), 3);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: a malformed body is retried; a body that stays malformed gives up", async () => {
  const s = countServer((_, n) =>
    n === 1 ? new Response("{not json", { status: 200 }) : Response.json({ input_tokens: -1 })
  );
  const cacheDir = await Deno.makeTempDir();
  try {
    const c = createCountClient({
      env: env(s.base),
      cacheDir,
      sleep: () => Promise.resolve(),
      retry: { maxRetries: 2 },
    });
    await assert.rejects(
      () => c.count("openai", "m", undefined),
      (e: unknown) =>
        e instanceof CountError && e.code === "exhausted" &&
        /gave up after 3 attempts; last: malformed answer: openai count answer has no usable input_tokens \(got -1: is below 0\)/
          .test(e.message),
    );
    assert.equal(c.sent(), 3);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: a count of 1e308 tokens is no count: refused like a malformed answer, never cached", async () => {
  const s = countServer(() => new Response('{"totalTokens": 1e308}', { status: 200 }));
  const cacheDir = await Deno.makeTempDir();
  try {
    const c = createCountClient({
      env: env(s.base),
      cacheDir,
      sleep: () => Promise.resolve(),
      retry: { maxRetries: 1 },
    });
    await assert.rejects(
      () => c.count("gemini", "m", undefined),
      (e: unknown) =>
        e instanceof CountError && e.code === "exhausted" &&
        /gemini count answer has no usable totalTokens \(got 1e\+308: is out of range/.test(
          e.message,
        ),
    );
    assert.equal(c.sent(), 2);
    assert.deepEqual([...Deno.readDirSync(cacheDir)], []);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: 500 until the retries run out is 'exhausted'; 401 is refused at once, key redacted", async () => {
  const s = countServer((seen) =>
    seen.body.model === "bad-key"
      ? new Response(`invalid x-api-key ${seen.headers["x-api-key"]}`, { status: 401 })
      : new Response("down", { status: 503 })
  );
  const cacheDir = await Deno.makeTempDir();
  try {
    const c = createCountClient({
      env: env(s.base),
      cacheDir,
      sleep: () => Promise.resolve(),
      retry: { maxRetries: 1 },
    });
    await assert.rejects(
      () => c.count("anthropic", "m", tools),
      (e: unknown) =>
        e instanceof CountError && e.code === "exhausted" && /HTTP 503/.test(e.message),
    );
    assert.equal(c.sent(), 2);
    await assert.rejects(
      () => c.count("anthropic", "bad-key", tools),
      (e: unknown) =>
        e instanceof CountError && e.code === "refused" && /HTTP 401/.test(e.message) &&
        !e.message.includes("SECRET"),
    );
    assert.equal(c.sent(), 3);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: no key is 'no-key' naming the variable, and nothing is sent", async () => {
  const cacheDir = await Deno.makeTempDir();
  try {
    const c = createCountClient({ env: {}, cacheDir });
    await assert.rejects(
      () => c.count("gemini", "m", undefined),
      (e: unknown) =>
        e instanceof CountError && e.code === "no-key" && e.message === "GEMINI_API_KEY is not set",
    );
    assert.equal(c.sent(), 0);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: an endpoint that accepts and never answers is asked twice, then down for the run; other providers go on", async () => {
  const hang = hangingServer();
  const ok = countServer(() => answer("gemini", 11));
  const cacheDir = await Deno.makeTempDir();
  const waits: number[] = [];
  try {
    const c = createCountClient({
      env: { ...env(hang.base), GEMINI_BASE_URL: ok.base },
      cacheDir,
      timeoutMs: 150,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    // Default policy (4 retries): the timeout is retried once, after the 500 ms backoff.
    await assert.rejects(
      () => c.count("anthropic", "claude-x", tools),
      (e: unknown) =>
        e instanceof CountError && e.code === "timeout" &&
        e.message ===
          "anthropic claude-x: gave up after 2 attempts, 2 timed out; last: no answer within 150 ms",
    );
    assert.deepEqual(hang.requests, [
      "POST /v1/messages/count_tokens HTTP/1.1",
      "POST /v1/messages/count_tokens HTTP/1.1",
    ]);
    assert.deepEqual(waits, [500]);
    // The next anthropic request (another model too) is not sent; the cause is named.
    await assert.rejects(
      () => c.count("anthropic", "claude-y", undefined),
      (e: unknown) =>
        e instanceof CountError && e.code === "down" &&
        e.message ===
          "anthropic claude-y: not sent: the anthropic count endpoint is down for this run " +
            "(anthropic claude-x: gave up after 2 attempts, 2 timed out; last: no answer within 150 ms)",
    );
    assert.equal(hang.requests.length, 2);
    assert.equal(c.sent(), 2);
    // Another provider's endpoint is not affected.
    assert.deepEqual(await c.count("gemini", "gemini-x", undefined), { tokens: 11, cached: false });
    assert.equal(c.sent(), 3);
  } finally {
    await hang.close();
    await ok.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("count client: a 503 then a timeout then a 503 is retried by the 5xx rule, a second timeout ends it", async () => {
  // Replies by request number: 503, hang, 503, hang. The hangs wait for the client to give up.
  const s = countServer((_, n) =>
    n % 2 === 1 ? new Response("down", { status: 503 }) : new Response(new ReadableStream())
  );
  const cacheDir = await Deno.makeTempDir();
  const waits: number[] = [];
  try {
    const c = createCountClient({
      env: env(s.base),
      cacheDir,
      timeoutMs: 150,
      retry: { baseDelayMs: 10 },
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await assert.rejects(
      () => c.count("openai", "gpt-x", undefined),
      (e: unknown) =>
        e instanceof CountError && e.code === "timeout" &&
        /gave up after 4 attempts, 2 timed out; last: no answer within 150 ms$/.test(e.message),
    );
    assert.equal(s.seen.length, 4);
    assert.deepEqual(waits, [10, 20, 40]);
  } finally {
    await s.close();
    await Deno.remove(cacheDir, { recursive: true });
  }
});
