import assert from "node:assert/strict";
import { SCHEMA_DIALECTS } from "../../catalog/normalize.ts";
import { messageReply, startScriptedModelServer } from "../_scripted_model_server.ts";
import { exposeTools } from "../tools.ts";
import { PROVIDER_ENTRIES, PROVIDER_NAMES, providerEntry } from "./registry.ts";

/** Base URL of the local double for each wire format (the SDKs append their own path). */
const LOCAL_BASE: Record<string, (s: { url: string; openaiBaseUrl: string }) => string> = {
  "anthropic-messages": (s) => s.url,
  "openai-chat-completions": (s) => s.openaiBaseUrl,
  "openai-responses": (s) => s.openaiBaseUrl,
};

/** The double's name for each wire format (it tells them apart by request path). */
const DOUBLE_WIRE: Record<string, "anthropic" | "openai" | "openai-responses"> = {
  "anthropic-messages": "anthropic",
  "openai-chat-completions": "openai",
  "openai-responses": "openai-responses",
};

Deno.test("every registered provider keeps the entry contract", () => {
  assert.deepEqual(PROVIDER_NAMES, PROVIDER_ENTRIES.map((p) => p.name));
  assert.equal(new Set(PROVIDER_NAMES).size, PROVIDER_NAMES.length, "names are unique");
  for (const p of PROVIDER_ENTRIES) {
    assert.match(p.name, /^[a-z][a-z0-9_-]*$/);
    assert.ok(SCHEMA_DIALECTS.includes(p.schemaDialect), `${p.name}: a known schema dialect`);
    assert.match(p.apiKeyEnv, /^[A-Z][A-Z0-9_]*$/);
    assert.match(p.defaultBaseUrl, /^https:\/\//);
    assert.ok(LOCAL_BASE[p.wire], `${p.name}: wire ${p.wire} has a local double in this test`);
  }
  assert.throws(
    () => providerEntry("gemini"),
    new RangeError(`Unknown provider "gemini": expected one of ${PROVIDER_NAMES.join(", ")}`),
  );
});

Deno.test("each provider's adapter speaks its declared wire format to a local server", async () => {
  for (const p of PROVIDER_ENTRIES) {
    const server = startScriptedModelServer((req) =>
      messageReply(req.provider, {
        text: `hello from ${req.provider}`,
        usage: { input: 7, output: 2 },
      })
    );
    try {
      const adapter = p.createAdapter("m1", { apiKey: "k", baseUrl: LOCAL_BASE[p.wire](server) });
      const turn = adapter.parse(
        await adapter.send({
          system: "s",
          messages: [{ role: "user", text: "hi" }],
          tools: [],
          maxOutputTokens: 16,
        }),
      );
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0].provider, DOUBLE_WIRE[p.wire], `${p.name} speaks ${p.wire}`);
      assert.equal(server.requests[0].body.model, "m1");
      assert.equal(turn.text, `hello from ${DOUBLE_WIRE[p.wire]}`);
      assert.equal(turn.usage.outputTokens, 2);
    } finally {
      await server.close();
    }
  }
});

Deno.test("tool exposure normalizes schemas in the provider's declared dialect", () => {
  // A bare object schema: OpenAI's dialect adds `properties: {}`, Anthropic's keeps it as is.
  const listed = [{
    server: "fs",
    item: { name: "ls", description: "", inputSchema: { type: "object" } },
  }];
  const byProvider = Object.fromEntries(
    PROVIDER_ENTRIES.map((p) => [p.name, exposeTools(listed, p.name)[0].spec.inputSchema]),
  );
  assert.deepEqual(byProvider.openai, { type: "object", properties: {} });
  assert.deepEqual(byProvider["openai-responses"], { type: "object", properties: {} });
  assert.deepEqual(byProvider.anthropic, { type: "object" });
});
