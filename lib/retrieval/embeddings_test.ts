import assert from "node:assert/strict";
import { startEmbeddingsServer, topicVector } from "./_embeddings_server.ts";
import { cosine, createEmbedder, embeddingCacheKey, EmbeddingError } from "./embeddings.ts";
import { createFileEmbeddingStore } from "./embedding_cache.ts";
import { hangingServer } from "../../testing/http.ts";

const authFetch: typeof fetch = (input, init) =>
  fetch(input, {
    ...init,
    headers: { ...(init?.headers as Record<string, string>), authorization: "Bearer test-key" },
  });

const model = (baseUrl: string) => ({
  id: "emb",
  model: "topic-embed",
  baseUrl,
  inputUsdPerMTok: 0.02,
});

/** Sleep that records its waits and returns at once. */
function fakeEnv() {
  const waits: number[] = [];
  return {
    waits,
    env: { sleep: (ms: number) => (waits.push(ms), Promise.resolve()), now: () => 0 },
  };
}

Deno.test("createEmbedder() sends the wire format in batches and sums usage.prompt_tokens", async () => {
  const server = startEmbeddingsServer();
  try {
    const e = createEmbedder(model(server.baseUrl), {
      fetch: authFetch,
      batchSize: 2,
      concurrency: 1,
    });
    const texts = ["read a file", "report a bug", "standup tomorrow", "tell the channel", "x"];
    const vectors = await e.embed(texts);
    // The server answers in reverse order with indexes: the client put them back in order.
    assert.deepEqual(vectors, texts.map(topicVector));
    assert.equal(server.requests.length, 3, "5 texts in batches of 2");
    const first = server.requests[0];
    assert.equal(first.path, "/v1/embeddings");
    assert.deepEqual(first.body, {
      model: "topic-embed",
      input: ["read a file", "report a bug"],
      encoding_format: "float",
    });
    assert.equal(first.headers["authorization"], "Bearer test-key");
    assert.equal(first.headers["content-type"], "application/json");
    // Words: 3 + 3 + 2 + 3 + 1 = 12 tokens, at $0.02 per million.
    assert.deepEqual(e.usage(), {
      requests: 3,
      inputTokens: 12,
      cachedTexts: 0,
      embeddedTexts: 5,
      usd: 12 * 0.02 / 1e6,
    });
  } finally {
    await server.close();
  }
});

Deno.test("createEmbedder() retries a 429 after its Retry-After and a 500 after the backoff", async () => {
  const server = startEmbeddingsServer({
    fail: (i) =>
      i === 0
        ? { status: 429, headers: { "retry-after": "2" }, body: '{"error":"slow down"}' }
        : i === 1
        ? { status: 500, body: "upstream broke" }
        : undefined,
  });
  try {
    const { waits, env } = fakeEnv();
    const e = createEmbedder(model(server.baseUrl), { fetch: authFetch, env });
    assert.deepEqual(await e.embed(["read a file"]), [topicVector("read a file")]);
    // Retry-After: 2 s honoured; then the 500 waits the second backoff step (500 ms × 2).
    assert.deepEqual(waits, [2000, 1000]);
    assert.equal(server.requests.length, 3);
    assert.equal(e.usage().requests, 3);
  } finally {
    await server.close();
  }
});

Deno.test("createEmbedder() gives up with a clear error when the 5xx never ends", async () => {
  const server = startEmbeddingsServer({ fail: () => ({ status: 503, body: "down" }) });
  try {
    const { env } = fakeEnv();
    const e = createEmbedder(model(server.baseUrl), {
      fetch: authFetch,
      env,
      retry: { maxRetries: 2 },
    });
    await assert.rejects(() => e.embed(["a"]), (err: unknown) => {
      assert.ok(err instanceof EmbeddingError);
      assert.match(
        err.message,
        /"emb" at http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings: gave up after 3 attempts; last: HTTP 503: down/,
      );
      assert.equal(err.details.status, 503);
      return true;
    });
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("createEmbedder() fails at once on a 401 and on a vector of the wrong dimension", async () => {
  const server = startEmbeddingsServer({
    fail: (_i, req) =>
      req.headers["authorization"] === "Bearer test-key"
        ? undefined
        : { status: 401, body: '{"error":"bad key"}' },
    wrongDimension: new Set(["odd one"]),
  });
  try {
    const { env } = fakeEnv();
    const noKey = createEmbedder(model(server.baseUrl), { fetch, env });
    await assert.rejects(() => noKey.embed(["a"]), /HTTP 401/);
    assert.equal(server.requests.length, 1, "a 401 is not retried");
    const e = createEmbedder(model(server.baseUrl), { fetch: authFetch, env });
    await assert.rejects(
      () => e.embed(["read a file", "odd one"]),
      new EmbeddingError(
        'Embedding model "emb" returned a 6-dimensional vector for input 1, expected 5 like the others',
      ),
    );
  } finally {
    await server.close();
  }
});

Deno.test("createEmbedder() refuses a reply whose usage.prompt_tokens cannot be, naming the value, without retrying", async () => {
  for (const [tokens, why] of [["1e308", "1e+308 (is out of range"], ["-4", "-4 (is below 0)"]]) {
    const body = (text: string) =>
      `{"data":[{"index":0,"embedding":${
        JSON.stringify(topicVector(text))
      }}],"usage":{"prompt_tokens":${tokens}}}`;
    const server = startEmbeddingsServer({
      fail: (_i, req) => ({ status: 200, body: body((req.body as { input: string[] }).input[0]) }),
    });
    try {
      const e = createEmbedder(model(server.baseUrl), { fetch: authFetch, env: fakeEnv().env });
      const err = await e.embed(["read a file"]).then(() => null, (x) => x);
      assert.ok(err instanceof EmbeddingError, String(err));
      assert.ok(err.message.includes(`usage.prompt_tokens = ${why}`), err.message);
      assert.equal(server.requests.length, 1);
      assert.equal(e.usage().inputTokens, 0);
    } finally {
      await server.close();
    }
  }
});

Deno.test("createEmbedder() answers repeated texts from the file cache without a request", async () => {
  const dir = await Deno.makeTempDir();
  const server = startEmbeddingsServer();
  try {
    const store = createFileEmbeddingStore(dir);
    const texts = ["read a file", "report a bug", "read a file"];
    const first = createEmbedder(model(server.baseUrl), { fetch: authFetch, store });
    await first.embed(texts);
    // The duplicate is sent once: one request with two inputs.
    assert.equal(server.requests.length, 1);
    assert.deepEqual(server.requests[0].body.input, ["read a file", "report a bug"]);
    const second = createEmbedder(model(server.baseUrl), { fetch: authFetch, store });
    assert.deepEqual(await second.embed(texts), texts.map(topicVector));
    assert.equal(server.requests.length, 1, "a second run sends nothing");
    assert.equal(second.usage().cachedTexts, 3);
    assert.equal(second.usage().requests, 0);
    // The key is model + SHA-256 of the text; the file sits under the model's folder.
    const key = await embeddingCacheKey("topic-embed", "read a file");
    assert.match(key, /^topic-embed\/[0-9a-f]{64}$/);
    const hash = key.split("/")[1];
    const onDisk = JSON.parse(
      await Deno.readTextFile(`${dir}/topic-embed/${hash.slice(0, 2)}/${hash}.json`),
    );
    assert.deepEqual(onDisk, topicVector("read a file"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cosine() by hand", () => {
  assert.equal(cosine([1, 2], [2, 4]), 1);
  assert.equal(cosine([1, 0], [0, 1]), 0);
  assert.equal(cosine([0, 0], [1, 1]), 0);
  assert.throws(() => cosine([1], [1, 2]), RangeError);
});

Deno.test("createEmbedder(): an endpoint that accepts and never answers is asked twice, then down: later batches send nothing", async () => {
  const hang = hangingServer();
  try {
    const { waits, env } = fakeEnv();
    const e = createEmbedder(model(`${hang.base}/v1`), {
      fetch: authFetch,
      env,
      batchSize: 1,
      concurrency: 1,
      timeoutMs: 150,
    });
    const cause = `Embedding model "emb" at ${hang.base}/v1/embeddings: ` +
      "gave up after 2 attempts, 2 timed out; last: no answer within 150 ms";
    await assert.rejects(
      () => e.embed(["read a file", "report a bug", "standup tomorrow"]),
      (error: unknown) => error instanceof EmbeddingError && error.message === cause,
    );
    // The first batch: two attempts, the 500 ms backoff between; the other two never sent.
    assert.deepEqual(hang.requests, [
      "POST /v1/embeddings HTTP/1.1",
      "POST /v1/embeddings HTTP/1.1",
    ]);
    assert.deepEqual(waits, [500]);
    await assert.rejects(
      () => e.embed(["tell the channel"]),
      (error: unknown) =>
        error instanceof EmbeddingError &&
        error.message ===
          `Embedding model "emb" at ${hang.base}/v1/embeddings: not sent: the endpoint is down ` +
            `for this run (gave up after 2 attempts, 2 timed out; last: no answer within 150 ms)`,
    );
    assert.equal(hang.requests.length, 2);
    assert.equal(e.usage().requests, 2);
  } finally {
    await hang.close();
  }
});
