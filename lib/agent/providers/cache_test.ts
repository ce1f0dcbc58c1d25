import assert from "node:assert/strict";
import { messageReply, startScriptedModelServer } from "../_scripted_model_server.ts";
import type { ModelConfig } from "../types.ts";
import {
  type CachedTurn,
  responseCacheKey,
  type ResponseStore,
  withResponseCache,
} from "./cache.ts";
import { createModelClient } from "./client.ts";
import type { ModelRequest } from "./types.ts";

const config: ModelConfig = {
  id: "m",
  provider: "openai",
  model: "x",
  apiKey: "${K}",
  pricing: {
    inputUsdPerMTok: 1,
    outputUsdPerMTok: 1,
    cacheReadUsdPerMTok: 0,
    cacheWriteUsdPerMTok: 0,
  },
};
const request: ModelRequest = {
  system: "s",
  messages: [{ role: "user", text: "hi" }],
  tools: [],
  maxOutputTokens: 10,
};

function memoryStore(): ResponseStore & { map: Map<string, CachedTurn> } {
  const map = new Map<string, CachedTurn>();
  return {
    map,
    get: (k) => Promise.resolve(map.get(k)),
    set: (k, v) => (map.set(k, v), Promise.resolve()),
  };
}

Deno.test("withResponseCache(): read mode serves repeats from the cache, flagged cached", async () => {
  const s = startScriptedModelServer((req) =>
    messageReply(req.provider, { text: `n${req.index}`, usage: { input: 3, output: 1 } })
  );
  try {
    const real = createModelClient({ ...config, baseUrl: s.openaiBaseUrl }, {
      env: { K: "key-1234" },
      now: () => performance.now(),
      sleep: () => Promise.resolve(),
    });
    const store = memoryStore();
    const client = withResponseCache(real, config, { mode: "read", store, now: () => 0 });
    const a = await client.complete(request);
    const b = await client.complete(request);
    const c = await client.complete({ ...request, temperature: 0.5 });
    assert.equal(s.requests.length, 2, "the repeat must not reach the server");
    assert.deepEqual([a.text, a.cached], ["n0", false]);
    assert.deepEqual([b.text, b.cached, b.attempts, b.ms], ["n0", true, 0, 0]);
    assert.deepEqual([c.text, c.cached], ["n1", false]);
    assert.deepEqual(b.usage, a.usage);
    // write mode always calls and refreshes.
    const w = withResponseCache(real, config, { mode: "write", store, now: () => 0 });
    const d = await w.complete(request);
    assert.deepEqual([d.text, d.cached], ["n2", false]);
    assert.equal(store.map.get(await responseCacheKey(config, request))?.text, "n2");
  } finally {
    await s.close();
  }
});

Deno.test("responseCacheKey() changes with model, messages, tools and parameters, not with the key", async () => {
  const k = await responseCacheKey(config, request);
  assert.notEqual(await responseCacheKey({ ...config, model: "y" }, request), k);
  assert.notEqual(await responseCacheKey(config, { ...request, maxOutputTokens: 11 }), k);
  assert.notEqual(
    await responseCacheKey(config, {
      ...request,
      tools: [{ name: "t", description: "", inputSchema: { type: "object" } }],
    }),
    k,
  );
  assert.equal(await responseCacheKey({ ...config, apiKey: "${OTHER}" }, request), k);
});
