import assert from "node:assert/strict";
import { errorReply, malformedReply } from "../../../testing/scripted_replies.ts";
import {
  messageReply,
  type ScriptHandler,
  startScriptedModelServer,
  type WireProvider,
} from "../_scripted_model_server.ts";
import type { ModelConfig } from "../types.ts";
import { createModelClient, type ModelClientDeps } from "./client.ts";
import { ModelCallError, type ModelRequest } from "./types.ts";
import type { WireEntry } from "./wire_log.ts";

const KEY = "sk-test-SECRET-0123456789";

function model(provider: WireProvider, baseUrl: string): ModelConfig {
  return {
    id: `${provider}-local`,
    provider,
    model: "m1",
    baseUrl,
    apiKey: "${TEST_KEY}",
    pricing: {
      inputUsdPerMTok: 3,
      outputUsdPerMTok: 15,
      cacheReadUsdPerMTok: 0.3,
      cacheWriteUsdPerMTok: 3.75,
    },
  };
}

const request: ModelRequest = {
  system: "Be brief.",
  messages: [
    { role: "user", text: "How many lines?" },
    {
      role: "assistant",
      text: "Reading.",
      toolCalls: [{ id: "call_1", name: "read_file", args: { path: "a.txt" } }],
    },
    {
      role: "tool",
      results: [{ callId: "call_1", name: "read_file", text: "x\ny", isError: false }],
    },
  ],
  tools: [{
    name: "read_file",
    description: "Read a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  }],
  maxOutputTokens: 256,
  temperature: 0,
};

interface Harness {
  deps: ModelClientDeps;
  sleeps: number[];
  wire: WireEntry[];
}

function harness(): Harness {
  const sleeps: number[] = [];
  const wire: WireEntry[] = [];
  let t = 1_000_000;
  return {
    sleeps,
    wire,
    deps: {
      env: { TEST_KEY: KEY },
      now: () => t,
      sleep: (ms) => {
        sleeps.push(ms);
        t += ms;
        return Promise.resolve();
      },
      retry: { maxRetries: 3, baseDelayMs: 100 },
      wireLog: (e) => {
        wire.push(e);
      },
    },
  };
}

async function withServer(
  handler: ScriptHandler,
  fn: (s: ReturnType<typeof startScriptedModelServer>) => Promise<void>,
) {
  const s = startScriptedModelServer(handler);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

for (const provider of ["anthropic", "openai"] as const) {
  const base = (s: { url: string; openaiBaseUrl: string }) =>
    provider === "anthropic" ? s.url : s.openaiBaseUrl;

  Deno.test(`${provider}: sends the conversation on the real wire format and parses tool calls and usage`, async () => {
    await withServer(
      (req) =>
        messageReply(req.provider, {
          text: "Let me look.",
          toolCalls: [{ id: "call_2", name: "read_file", input: { path: "b.txt" } }],
          usage: { input: 120, output: 30, cacheRead: 1000, cacheWrite: 50 },
        }),
      async (s) => {
        const h = harness();
        const client = createModelClient(model(provider, base(s)), h.deps);
        const turn = await client.complete(request);
        assert.equal(turn.text, "Let me look.");
        assert.deepEqual(turn.toolCalls, [{
          id: "call_2",
          name: "read_file",
          args: { path: "b.txt" },
        }]);
        assert.equal(turn.attempts, 1);
        assert.equal(turn.usage.inputTokens, 120);
        assert.equal(turn.usage.outputTokens, 30);
        assert.equal(turn.usage.cacheReadTokens, 1000);
        // deno-lint-ignore no-explicit-any
        const body = s.requests[0].body as Record<string, any>;
        if (provider === "anthropic") {
          assert.equal(turn.usage.cacheWriteTokens, 50);
          assert.equal(turn.stopReason, "tool_use");
          assert.equal(body.system, "Be brief.");
          assert.equal(body.max_tokens, 256);
          assert.deepEqual(body.messages[1].content[1], {
            type: "tool_use",
            id: "call_1",
            name: "read_file",
            input: { path: "a.txt" },
          });
          assert.deepEqual(body.messages[2], {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "call_1", content: "x\ny" }],
          });
          assert.equal(body.tools[0].input_schema.type, "object");
          // SDK 1.14 sends the key as a bearer token; older releases used x-api-key.
          const h = s.requests[0].headers;
          assert.ok(h["x-api-key"] === KEY || h["authorization"] === `Bearer ${KEY}`);
          assert.ok(h["anthropic-version"] !== undefined);
        } else {
          // 1120 prompt tokens of which 1000 cached → 120 uncached input.
          assert.equal(turn.usage.cacheWriteTokens, null);
          assert.ok(turn.notes.some((n) => /cache-write/.test(n)));
          assert.equal(turn.stopReason, "tool_calls");
          assert.deepEqual(body.messages[0], { role: "system", content: "Be brief." });
          assert.equal(body.messages[2].tool_calls[0].function.arguments, '{"path":"a.txt"}');
          assert.deepEqual(body.messages[3], {
            role: "tool",
            tool_call_id: "call_1",
            content: "x\ny",
          });
          assert.equal(body.tools[0].function.name, "read_file");
          assert.equal(s.requests[0].headers["authorization"], `Bearer ${KEY}`);
        }
      },
    );
  });

  Deno.test(`${provider}: missing usage is null with a note, never 0`, async () => {
    await withServer((req) => messageReply(req.provider, { text: "4" }), async (s) => {
      const h = harness();
      const turn = await createModelClient(model(provider, base(s)), h.deps).complete(request);
      assert.deepEqual(turn.usage, {
        inputTokens: null,
        outputTokens: null,
        cacheReadTokens: null,
        cacheWriteTokens: null,
      });
      assert.ok(turn.notes.length >= 1);
    });
  });

  Deno.test(`${provider}: 429 honours Retry-After, 500 backs off exponentially, then success`, async () => {
    const script = [
      errorReply(provider, 429, "2"),
      errorReply(provider, 500),
      errorReply(provider, 503),
    ];
    await withServer(
      (req) =>
        script.shift() ??
          messageReply(req.provider, { text: "ok", usage: { input: 1, output: 1 } }),
      async (s) => {
        const h = harness();
        const turn = await createModelClient(model(provider, base(s)), h.deps).complete(request);
        assert.equal(turn.text, "ok");
        assert.equal(turn.attempts, 4);
        // Retry-After: 2 s; then 100 × 2^1 and 100 × 2^2 ms.
        assert.deepEqual(h.sleeps, [2000, 200, 400]);
        assert.equal(turn.ms, 2600);
        assert.equal(s.requests.length, 4);
        // Each retried attempt is recorded with its status and the wait after it.
        assert.deepEqual(turn.retries, [
          { status: 429, code: "http", waitMs: 2000 },
          { status: 500, code: "http", waitMs: 200 },
          { status: 503, code: "http", waitMs: 400 },
        ]);
      },
    );
  });

  Deno.test(`${provider}: a Retry-After that is not a valid delay is ignored; an HTTP date is read on the wall clock`, async () => {
    const wall = Date.UTC(2026, 10, 30, 0, 0, 0);
    const script = [
      errorReply(provider, 429, "-5"),
      errorReply(provider, 429, "1e999"),
      errorReply(provider, 429, "Mon, 31 Feb 2026 00:00:00 GMT"),
      errorReply(provider, 429, "Mon, 30 Nov 2026 00:00:07 GMT"),
    ];
    await withServer(
      (req) =>
        script.shift() ??
          messageReply(req.provider, { text: "ok", usage: { input: 1, output: 1 } }),
      async (s) => {
        const h = harness();
        const deps = {
          ...h.deps,
          retry: { maxRetries: 4, baseDelayMs: 100 },
          epochNow: () => wall,
        };
        const turn = await createModelClient(model(provider, base(s)), deps).complete(request);
        assert.equal(turn.text, "ok");
        // -5, 1e999 and a 31 February are no delay: backoff 100 × 2^(r−1); the date is 7 s after
        // the wall clock (the timing clock, at 1,000,000 ms, made it decades: the 60 s cap).
        assert.deepEqual(h.sleeps, [100, 200, 400, 7000]);
      },
    );
  });

  Deno.test(`${provider}: a reply whose token usage cannot be is a bad_usage error naming the values, not retried`, async () => {
    const usage = provider === "anthropic"
      ? '{"input_tokens": -5, "output_tokens": 1e308, "cache_read_input_tokens": 1e999}'
      : '{"prompt_tokens": 2.5, "completion_tokens": -1, "prompt_tokens_details": {"cached_tokens": 1e999}}';
    const ok = messageReply(provider, { text: "4", usage: { input: 1, output: 1 } });
    const body = (ok.body as string).replace(/"usage":\{.*\}\}?$/, `"usage":${usage}}`);
    await withServer(() => ({ ...ok, body }), async (s) => {
      const h = harness();
      const err = await createModelClient(model(provider, base(s)), h.deps).complete(request)
        .then(() => null, (e) => e);
      assert.ok(err instanceof ModelCallError, String(err));
      assert.equal(err.code, "bad_usage");
      assert.equal(s.requests.length, 1);
      const seen = provider === "anthropic"
        ? "usage.input_tokens = -5 (is below 0); usage.output_tokens = 1e+308 (is out of range (magnitude above 9007199254740991)); usage.cache_read_input_tokens = Infinity (is not finite)"
        : "usage.prompt_tokens = 2.5 (is not a whole number); usage.completion_tokens = -1 (is below 0); usage.prompt_tokens_details.cached_tokens = Infinity (is not finite)";
      assert.equal(
        err.message,
        `model "${provider}-local": ${provider}: the reply's token usage is impossible: ${seen}`,
      );
    });
  });

  Deno.test(`${provider}: 5xx until the retries run out is an 'exhausted' infrastructure error`, async () => {
    await withServer(() => errorReply(provider, 500), async (s) => {
      const h = harness();
      const err = await createModelClient(model(provider, base(s)), h.deps).complete(request).then(
        () => null,
        (e) => e,
      );
      assert.ok(err instanceof ModelCallError);
      assert.equal(err.code, "exhausted");
      assert.equal(err.status, 500);
      assert.equal(err.attempts, 4);
      assert.deepEqual(h.sleeps, [100, 200, 400]);
    });
  });

  Deno.test(`${provider}: malformed JSON is retried; 401 is not`, async () => {
    const script = [malformedReply()];
    await withServer(
      (req) =>
        script.shift() ??
          messageReply(req.provider, { text: "fine", usage: { input: 1, output: 1 } }),
      async (s) => {
        const h = harness();
        const turn = await createModelClient(model(provider, base(s)), h.deps).complete(request);
        assert.equal(turn.text, "fine");
        assert.equal(turn.attempts, 2);
      },
    );
    await withServer(() => errorReply(provider, 401), async (s) => {
      const h = harness();
      const err = await createModelClient(model(provider, base(s)), h.deps).complete(request).catch(
        (e) => e,
      );
      assert.ok(err instanceof ModelCallError);
      assert.equal(err.code, "http");
      assert.equal(err.status, 401);
      assert.equal(s.requests.length, 1);
    });
  });

  Deno.test(`${provider}: a 2xx JSON body that is no completion is retried like a malformed one`, async () => {
    // Valid JSON, but no `content` array (Anthropic) / no `choices` (OpenAI).
    const script = [{
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "x", type: "message", model: "m1" }),
    }];
    await withServer(
      (req) =>
        script.shift() ??
          messageReply(req.provider, { text: "fine", usage: { input: 1, output: 1 } }),
      async (s) => {
        const h = harness();
        const turn = await createModelClient(model(provider, base(s)), h.deps).complete(request);
        assert.equal(turn.text, "fine");
        assert.equal(turn.attempts, 2);
        assert.equal(s.requests.length, 2);
        assert.deepEqual(turn.retries?.map((r) => [r.code, r.waitMs]), [["bad_response", 100]]);
      },
    );
  });

  Deno.test(`${provider}: a call that gives up keeps its retries on the error`, async () => {
    await withServer(() => errorReply(provider, 503, "1"), async (s) => {
      const h = harness();
      const err = await createModelClient(model(provider, base(s)), h.deps).complete(request)
        .catch((e) => e);
      assert.ok(err instanceof ModelCallError);
      assert.equal(err.code, "exhausted");
      // maxRetries 3: four attempts, three waits of the server's Retry-After (1 s).
      assert.deepEqual(
        err.retries,
        [1, 2, 3].map(() => ({ status: 503, code: "http", waitMs: 1000 })),
      );
    });
  });

  Deno.test(`${provider}: a slow reply is aborted by the caller's signal`, async () => {
    await withServer(
      (req) => ({ ...messageReply(req.provider, { text: "late" }), delayMs: 5000 }),
      async (s) => {
        const h = harness();
        const client = createModelClient(model(provider, base(s)), h.deps);
        const err = await client.complete(request, { signal: AbortSignal.timeout(100) }).catch((
          e,
        ) => e);
        assert.ok(err instanceof ModelCallError, String(err));
        assert.equal(err.code, "aborted");
      },
    );
  });

  Deno.test(`${provider}: an unreachable endpoint fails at once as 'unreachable'`, async () => {
    const h = harness();
    // Port 9 (discard) on loopback: nothing listens.
    const client = createModelClient(
      model(provider, provider === "anthropic" ? "http://127.0.0.1:9" : "http://127.0.0.1:9/v1"),
      h.deps,
    );
    const err = await client.complete(request).catch((e) => e);
    assert.ok(err instanceof ModelCallError, String(err));
    assert.equal(err.code, "unreachable");
    assert.deepEqual(h.sleeps, []);
  });

  Deno.test(`${provider}: the wire log records request and response with the key redacted`, async () => {
    await withServer(
      (req) => messageReply(req.provider, { text: `echo ${KEY}`, usage: { input: 5, output: 1 } }),
      async (s) => {
        const h = harness();
        await createModelClient(model(provider, base(s)), h.deps).complete(request);
        assert.equal(h.wire.length, 1);
        const e = h.wire[0];
        assert.equal(e.seq, 1);
        assert.equal(e.model, `${provider}-local`);
        assert.equal(e.response?.status, 200);
        const text = JSON.stringify(e);
        assert.ok(!text.includes(KEY), "the key leaked into the wire log");
        assert.ok(!text.includes("SECRET"), "part of the key leaked into the wire log");
        const auth = e.request.headers["x-api-key"] ?? e.request.headers["authorization"];
        assert.equal(auth, "[REDACTED]");
        assert.match(e.request.body, /How many lines\?/);
        assert.match(e.response!.body, /echo \[REDACTED\]/);
      },
    );
  });
}

Deno.test("openai-responses: a reply whose token usage cannot be is a bad_usage error naming the values, not retried", async () => {
  const ok = messageReply("openai-responses", { text: "4", usage: { input: 1, output: 1 } });
  const usage =
    '{"input_tokens": 1e308, "input_tokens_details": {"cached_tokens": -2}, "output_tokens": 2.5}';
  const body = (ok.body as string).replace(/"usage":\{.*\}\}?$/, `"usage":${usage}}`);
  assert.notEqual(body, ok.body);
  await withServer(() => ({ ...ok, body }), async (s) => {
    const h = harness();
    const err = await createModelClient(model("openai-responses", s.openaiBaseUrl), h.deps)
      .complete(request).then(() => null, (e) => e);
    assert.ok(err instanceof ModelCallError, String(err));
    assert.equal(err.code, "bad_usage");
    assert.equal(s.requests.length, 1);
    assert.equal(
      err.message,
      'model "openai-responses-local": openai-responses: the reply\'s token usage is impossible: usage.input_tokens = 1e+308 (is out of range (magnitude above 9007199254740991)); usage.output_tokens = 2.5 (is not a whole number); usage.input_tokens_details.cached_tokens = -2 (is below 0)',
    );
  });
});

Deno.test("openai-responses: more cached tokens than input tokens is a bad_usage error", async () => {
  const ok = messageReply("openai-responses", { text: "4", usage: { input: 1, output: 1 } });
  const usage =
    '{"input_tokens": 5, "input_tokens_details": {"cached_tokens": 9}, "output_tokens": 1}';
  const body = (ok.body as string).replace(/"usage":\{.*\}\}?$/, `"usage":${usage}}`);
  await withServer(() => ({ ...ok, body }), async (s) => {
    const err = await createModelClient(model("openai-responses", s.openaiBaseUrl), harness().deps)
      .complete(request).then(() => null, (e) => e);
    assert.ok(err instanceof ModelCallError, String(err));
    assert.equal(err.code, "bad_usage");
    assert.match(err.message, /cached_tokens = 9 exceeds usage\.input_tokens = 5/);
  });
});

Deno.test("openai: unparseable tool-call arguments become argsError, not a crash", async () => {
  await withServer(
    (req) =>
      messageReply(req.provider, {
        toolCalls: [{ id: "c1", name: "read_file", input: {} }],
        rawArguments: "{path: oops",
        usage: { input: 1, output: 1 },
      }),
    async (s) => {
      const turn = await createModelClient(model("openai", s.openaiBaseUrl), harness().deps)
        .complete(request);
      assert.equal(turn.toolCalls.length, 1);
      assert.deepEqual(turn.toolCalls[0].args, {});
      assert.match(turn.toolCalls[0].argsError ?? "", /not valid JSON/);
    },
  );
});

Deno.test("a missing apiKey variable is a config error naming it", () => {
  assert.throws(
    () => createModelClient(model("openai", "http://x/v1"), { ...harness().deps, env: {} }),
    /TEST_KEY, which is not set/,
  );
});

Deno.test("anthropic: prompt caching puts cache_control on the system prompt and the last tool result, nowhere else", async () => {
  await withServer(
    (req) => messageReply(req.provider, { text: "ok", usage: { input: 1, output: 1 } }),
    async (s) => {
      const client = createModelClient(model("anthropic", s.url), harness().deps);
      // Two tool-result messages: only the last result of the last one gets a breakpoint.
      const twoResults: ModelRequest = {
        ...request,
        messages: [
          ...request.messages,
          {
            role: "assistant",
            text: "",
            toolCalls: [{ id: "call_2", name: "read_file", args: { path: "b.txt" } }],
          },
          {
            role: "tool",
            results: [{ callId: "call_2", name: "read_file", text: "z", isError: false }],
          },
        ],
      };
      await client.complete({ ...twoResults, cache: { ttl: "1h", toolResults: true } });
      await client.complete({ ...twoResults, cache: { ttl: "5m", toolResults: false } });
      await client.complete(twoResults);
      const [hour, five, none] = s.requests.map((r) => r.body);
      assert.deepEqual(hour.system, [{
        type: "text",
        text: "Be brief.",
        cache_control: { type: "ephemeral", ttl: "1h" },
      }]);
      const text = (b: unknown) => JSON.stringify(b);
      // Exactly two breakpoints in the 1h request: the system block and call_2's result.
      assert.equal(text(hour).split('"cache_control"').length - 1, 2);
      const messages = hour.messages as {
        content: { tool_use_id?: string; cache_control?: unknown }[];
      }[];
      assert.deepEqual(messages.at(-1)!.content[0].cache_control, { type: "ephemeral", ttl: "1h" });
      assert.equal(messages[2].content[0].cache_control, undefined);
      // 5m without tool results: the system block only, no ttl field.
      assert.deepEqual(five.system, [{
        type: "text",
        text: "Be brief.",
        cache_control: { type: "ephemeral" },
      }]);
      assert.equal(text(five).split('"cache_control"').length - 1, 1);
      // Caching off: the system prompt is a plain string and no breakpoint is sent.
      assert.equal(none.system, "Be brief.");
      assert.ok(!text(none).includes("cache_control"));
    },
  );
});
