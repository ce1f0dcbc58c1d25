import assert from "node:assert/strict";
import {
  checkRetrieverModels,
  endpointContext,
  resolveRetrieverModels,
} from "./retriever_models.ts";
import { embedderFromContext } from "../retrieval/dense.ts";
import { hangingServer } from "../../testing/http.ts";
import { retrieverModelOptions } from "../../tasks/_retriever_flags.ts";
import { UsageError } from "../core/errors.ts";

Deno.test("--model-timeout: seconds, at least 1, become modelTimeoutMs", () => {
  assert.deepEqual(retrieverModelOptions({ "model-timeout": "300" }, 20), {
    modelTimeoutMs: 300_000,
  });
  assert.deepEqual(retrieverModelOptions({}, 20), {});
  for (const bad of ["0", "1.5", "-2", "ten"]) {
    assert.throws(() => retrieverModelOptions({ "model-timeout": bad }, 20), UsageError);
  }
});

/** `p`, or a rejection after 10 s (its timer cleared either way). */
async function bounded<T>(p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("still waiting after 10 s")), 10_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("resolveRetrieverModels(): timeoutMs is the wait of the chat and the embedding model", async () => {
  const hang = hangingServer();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [
          {
            id: "ranker",
            provider: "openai",
            model: "rank-1",
            baseUrl: `${hang.base}/v1`,
            apiKey: "${TEST_KEY}",
            pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
          },
          {
            id: "emb",
            kind: "embedding",
            provider: "openai",
            model: "emb-1",
            baseUrl: `${hang.base}/v1`,
            apiKey: "${TEST_KEY}",
            pricing: { inputUsdPerMTok: 1 },
          },
        ],
      }),
    );
    const plan = checkRetrieverModels(
      ["rerank", "dense"],
      { rerankModel: "ranker", embeddingModel: "emb" },
      "--retriever",
    );
    const models = await resolveRetrieverModels(plan, {
      modelsPath: `${dir}/models.json`,
      embeddingCache: `${dir}/vectors`,
      chatCache: `${dir}/chat`,
      env: { TEST_KEY: "sk-test-0123456789" },
      timeoutMs: 120,
    });
    // Each gives up after its two attempts of 120 ms; with a default wait (60 s, 120 s) the
    // 10 s bound fails the test first.
    const chat = models.chat.get("rerank")!;
    await assert.rejects(
      () => bounded(chat.chat({ system: "Rank.", user: "x", maxOutputTokens: 5 })),
      /no answer within 120 ms/,
    );
    const embedder = embedderFromContext({ seed: 0, ...endpointContext("dense", models) }, "dense");
    await assert.rejects(() => bounded(embedder.embed(["read a file"])), /no answer within 120 ms/);
    assert.equal(hang.requests.length, 4);
  } finally {
    await hang.close();
    await Deno.remove(dir, { recursive: true });
  }
});
