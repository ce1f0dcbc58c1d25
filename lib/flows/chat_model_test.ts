import assert from "node:assert/strict";
import { resolveChatModel } from "./chat_model.ts";
import { ModelCallError } from "../agent/providers/types.ts";
import { hangingServer } from "../../testing/http.ts";

for (
  const [provider, path] of [
    ["openai", "/v1/chat/completions"],
    ["anthropic", "/v1/messages"],
  ] as const
) {
  Deno.test(`chat model (${provider}): an endpoint that accepts and never answers is asked twice, then the model is down for the run`, async () => {
    const hang = hangingServer();
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        `${dir}/models.json`,
        JSON.stringify({
          models: [{
            id: "ranker",
            provider,
            model: "rank-1",
            baseUrl: provider === "openai" ? `${hang.base}/v1` : hang.base,
            apiKey: "${TEST_CHAT_KEY}",
            pricing: { inputUsdPerMTok: 1, outputUsdPerMTok: 2 },
          }],
        }),
      );
      const waits: number[] = [];
      const { model } = await resolveChatModel({
        id: "ranker",
        flag: "--rerank-model",
        modelsPath: `${dir}/models.json`,
        env: { TEST_CHAT_KEY: "sk-test-chat-0123" },
        timeoutMs: 150,
        sleep: (ms) => (waits.push(ms), Promise.resolve()),
      });
      const request = { system: "Rank.", user: "Request: x", maxOutputTokens: 10 };
      const cause = 'model "ranker": gave up after 2 attempts, 2 timed out; last: no answer ' +
        "within 150 ms";
      await assert.rejects(
        () => model.chat(request),
        (e: unknown) =>
          e instanceof ModelCallError && e.code === "timeout" && e.message === cause &&
          e.attempts === 2,
      );
      assert.deepEqual(hang.requests, [`POST ${path} HTTP/1.1`, `POST ${path} HTTP/1.1`]);
      assert.deepEqual(waits, [500]);
      // The next prompt (the next query of a rerank) is not sent.
      await assert.rejects(
        () => model.chat({ ...request, user: "Request: y" }),
        (e: unknown) =>
          e instanceof ModelCallError && e.code === "timeout" &&
          e.message === `model "ranker": not sent: it is down for this run (${cause})`,
      );
      assert.equal(hang.requests.length, 2);
    } finally {
      await hang.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
