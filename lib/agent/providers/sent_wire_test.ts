/**
 * What the agent runner sends is what the cost layers count: the `tools` bytes a local server
 * receives from each adapter are exactly `JSON.stringify(sentTools(...))` for the same tools.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { sentTools } from "../../catalog/sent.ts";
import type { JsonObject } from "../../catalog/types.ts";
import { messageReply, startScriptedModelServer } from "../_scripted_model_server.ts";
import { exposeTools, type ListedTool } from "../tools.ts";
import { createModelClient } from "./client.ts";

const corpusPath = fileURLToPath(
  new URL("../../../fixtures/corpora/reference_v1.tools.json", import.meta.url),
);

/** Three servers of the reference corpus, as listed (their schemas' keys as in the file). */
async function listed(): Promise<ListedTool[]> {
  const corpus = JSON.parse(await Deno.readTextFile(corpusPath)) as {
    servers: { server: string; tools: JsonObject[] }[];
  };
  const out: ListedTool[] = [];
  for (const s of corpus.servers.slice(0, 3)) {
    for (const item of s.tools) out.push({ server: s.server, item });
  }
  // A name the providers refuse, a schema with a $ref, non-ASCII text and keys out of order.
  out.push({
    server: "odd",
    item: {
      name: "réserver.table",
      description: "Réserve une table — 予約",
      inputSchema: {
        type: "object",
        required: ["when"],
        properties: { when: { $ref: "#/$defs/t" }, z: { type: "integer" }, a: { type: "string" } },
        $defs: { t: { type: "string", format: "date-time" } },
      },
    },
  });
  return out;
}

for (
  const [provider, format] of [["anthropic", "anthropic-messages"], [
    "openai",
    "openai-chat-completions",
  ]] as const
) {
  Deno.test(`${provider} adapter: the tools bytes on the wire are sentTools(${format})`, async () => {
    const server = startScriptedModelServer((req) =>
      messageReply(req.provider, { text: "ok", usage: { input: 1, output: 1 } })
    );
    try {
      const exposed = exposeTools(await listed(), provider);
      const specs = exposed.map((t) => t.spec);
      const client = createModelClient({
        id: "m",
        provider,
        model: "m1",
        baseUrl: provider === "anthropic" ? server.url : server.openaiBaseUrl,
        apiKey: "${K}",
        pricing: {
          inputUsdPerMTok: 1,
          outputUsdPerMTok: 1,
          cacheReadUsdPerMTok: 1,
          cacheWriteUsdPerMTok: 1,
        },
      }, { env: { K: "sk-test-000000000000" }, now: () => 0, sleep: () => Promise.resolve() });
      await client.complete({
        system: "s",
        messages: [{ role: "user", text: "hi" }],
        tools: specs,
        maxOutputTokens: 16,
      });
      assert.equal(server.requests.length, 1);
      const raw = server.requests[0].text;
      const expected = `"tools":${JSON.stringify(sentTools(specs, format))}`;
      assert.ok(raw.includes(expected), "the tools part of the body differs from sentTools");
      // The sent schemas keep the listed key order where the normalizer left a schema alone.
      assert.ok(raw.includes('"z":{"type":"integer"},"a":{"type":"string"}'));
      assert.equal(specs.length, exposed.length);
      assert.ok(specs.length > 4);
    } finally {
      await server.close();
    }
  });
}
