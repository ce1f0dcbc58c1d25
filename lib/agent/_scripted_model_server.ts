/**
 * Test double for hosted model endpoints: a local HTTP server (127.0.0.1, random port) that
 * speaks the Anthropic Messages (`POST /v1/messages`), OpenAI Chat Completions
 * (`POST /v1/chat/completions`) and OpenAI Responses (`POST /v1/responses`) wire formats and
 * plays scripted replies: messages with tool calls and usage, provider tool searches (Anthropic
 * `server_tool_use` and `tool_search_tool_result` blocks, OpenAI `tool_search_call` and
 * `tool_search_output` items), error statuses with `Retry-After`, malformed JSON and slow
 * replies.
 *
 * Private to tests and benches.
 *
 * @module
 */

/** Which wire format a request used. */
export type WireProvider = "anthropic" | "openai" | "openai-responses";

/** A request as the server received it. */
export interface ReceivedRequest {
  /** Wire format of the request (from its path). */
  readonly provider: WireProvider;
  /** Parsed JSON body. */
  readonly body: Record<string, unknown>;
  /** The body exactly as received (UTF-8 text). */
  readonly text: string;
  /** Header name (lower case) → value. */
  readonly headers: Record<string, string>;
  /** 0-based arrival order. */
  readonly index: number;
}

/** A scripted reply. */
export interface ScriptedReply {
  /** HTTP status. */
  readonly status: number;
  /** Extra response headers. */
  readonly headers?: Record<string, string>;
  /** Raw body text (may be malformed on purpose). */
  readonly body: string;
  /** Wait before answering, ms (a slow reply). */
  readonly delayMs?: number;
}

/** Decides the reply of each request. */
export type ScriptHandler = (req: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>;

/** A running scripted server. */
export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT` — the Anthropic SDK `baseURL`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1` — the OpenAI SDK `baseURL`. */
  readonly openaiBaseUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Usage numbers for scripted replies (tokens). */
export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
}

/** A scripted tool call. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** OpenAI Responses: the namespace of a namespaced function. */
  readonly namespace?: string;
}

/** A scripted provider tool search, answered before the message's tool calls. */
export interface ScriptedSearch {
  /** Search id (`srvtoolu_…` for Anthropic). */
  readonly id: string;
  /** The search input as the model wrote it (`{query}`, `{pattern}`). */
  readonly input: Record<string, unknown>;
  /** Names of the tools found (Anthropic `tool_reference` blocks). */
  readonly tools: readonly string[];
  /** OpenAI: the loaded tool definitions (`tool_search_output.tools`), as in the request. */
  readonly loaded?: readonly unknown[];
  /** Anthropic: an error code instead of results (`invalid_pattern`, ...). */
  readonly error?: string;
}

/** Content of a scripted assistant message. */
export interface ScriptedMessage {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Provider tool searches made before the tool calls (Anthropic, OpenAI Responses). */
  readonly searches?: readonly ScriptedSearch[];
  /** Omit to send no `usage` at all. */
  readonly usage?: ScriptedUsage;
  /** OpenAI only: send `arguments` as this raw text instead of JSON of `input`. */
  readonly rawArguments?: string;
}

const json = (
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): ScriptedReply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});

/**
 * A 200 reply in the wire format of `provider`.
 *
 * @param provider Wire format.
 * @param m Text, tool calls and usage.
 * @param model Model name echoed back.
 * @returns The reply.
 */
export function messageReply(
  provider: WireProvider,
  m: ScriptedMessage,
  model = "scripted",
): ScriptedReply {
  const calls = m.toolCalls ?? [];
  if (provider === "openai-responses") return responsesReply(m, model);
  if (provider === "anthropic") {
    const content: unknown[] = [];
    if (m.text !== undefined) content.push({ type: "text", text: m.text });
    for (const s of m.searches ?? []) {
      const name = "pattern" in s.input ? "tool_search_tool_regex" : "tool_search_tool_bm25";
      content.push({ type: "server_tool_use", id: s.id, name, input: s.input });
      content.push({
        type: "tool_search_tool_result",
        tool_use_id: s.id,
        content: s.error === undefined
          ? {
            type: "tool_search_tool_search_result",
            tool_references: s.tools.map((t) => ({ type: "tool_reference", tool_name: t })),
          }
          : { type: "tool_search_tool_result_error", error_code: s.error, error_message: null },
      });
    }
    for (const c of calls) {
      content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
    }
    return json(200, {
      id: "msg_scripted",
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      ...(m.usage === undefined ? {} : {
        usage: {
          input_tokens: m.usage.input,
          output_tokens: m.usage.output,
          cache_read_input_tokens: m.usage.cacheRead ?? null,
          cache_creation_input_tokens: m.usage.cacheWrite ?? null,
          ...(m.searches === undefined || m.searches.length === 0
            ? {}
            : { server_tool_use: { tool_search_requests: m.searches.length } }),
        },
      }),
    });
  }
  return json(200, {
    id: "chatcmpl-scripted",
    object: "chat.completion",
    created: 0,
    model,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: m.text ?? null,
        ...(calls.length === 0 ? {} : {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: m.rawArguments ?? JSON.stringify(c.input) },
          })),
        }),
      },
      finish_reason: calls.length > 0 ? "tool_calls" : "stop",
    }],
    ...(m.usage === undefined ? {} : {
      usage: {
        // prompt_tokens includes cached tokens in the OpenAI format.
        prompt_tokens: m.usage.input + (m.usage.cacheRead ?? 0),
        completion_tokens: m.usage.output,
        total_tokens: m.usage.input + (m.usage.cacheRead ?? 0) + m.usage.output,
        ...(m.usage.cacheRead === undefined ? {} : {
          prompt_tokens_details: { cached_tokens: m.usage.cacheRead },
        }),
      },
    }),
  });
}

/** A 200 reply in the OpenAI Responses format (a `response` object with `output` items). */
function responsesReply(m: ScriptedMessage, model: string): ScriptedReply {
  const output: unknown[] = [];
  for (const s of m.searches ?? []) {
    output.push({
      type: "tool_search_call",
      id: `ts_${s.id}`,
      call_id: null,
      execution: "server",
      status: "completed",
      arguments: s.input,
    });
    output.push({
      type: "tool_search_output",
      id: `tso_${s.id}`,
      call_id: null,
      execution: "server",
      status: "completed",
      tools: s.loaded ?? [],
    });
  }
  if (m.text !== undefined) {
    output.push({
      type: "message",
      id: "msg_scripted",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: m.text, annotations: [] }],
    });
  }
  for (const c of m.toolCalls ?? []) {
    output.push({
      type: "function_call",
      id: `fc_${c.id}`,
      call_id: c.id,
      name: c.name,
      ...(c.namespace === undefined ? {} : { namespace: c.namespace }),
      arguments: m.rawArguments ?? JSON.stringify(c.input),
      status: "completed",
    });
  }
  return json(200, {
    id: "resp_scripted",
    object: "response",
    created_at: 0,
    status: "completed",
    model,
    output,
    ...(m.usage === undefined ? {} : {
      usage: {
        // input_tokens includes cached tokens in the Responses format.
        input_tokens: m.usage.input + (m.usage.cacheRead ?? 0),
        input_tokens_details: { cached_tokens: m.usage.cacheRead ?? 0 },
        output_tokens: m.usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: m.usage.input + (m.usage.cacheRead ?? 0) + m.usage.output,
      },
    }),
  });
}

/**
 * Starts the server on 127.0.0.1 with a random port.
 *
 * @param handler Decides each reply.
 * @returns The running server.
 */
export function startScriptedModelServer(handler: ScriptHandler): ScriptedModelServer {
  const requests: ReceivedRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      const provider: WireProvider | null = path === "/v1/messages"
        ? "anthropic"
        : path === "/v1/chat/completions"
        ? "openai"
        : path === "/v1/responses"
        ? "openai-responses"
        : null;
      if (req.method !== "POST" || provider === null) {
        return new Response("not found", { status: 404 });
      }
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => headers[k] = v);
      const text = await req.text();
      const received: ReceivedRequest = {
        provider,
        body: JSON.parse(text),
        text,
        headers,
        index: requests.length,
      };
      requests.push(received);
      const reply = await handler(received);
      if (reply.delayMs) {
        await new Promise<void>((resolve) => {
          const onAbort = () => {
            clearTimeout(t);
            resolve();
          };
          const t = setTimeout(() => {
            req.signal.removeEventListener("abort", onAbort);
            resolve();
          }, reply.delayMs);
          req.signal.addEventListener("abort", onAbort, { once: true });
        });
      }
      return new Response(reply.body, { status: reply.status, headers: reply.headers ?? {} });
    },
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    openaiBaseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => server.shutdown(),
  };
}

/** One model of a registry written by {@linkcode writeScriptedRegistry}. */
export interface ScriptedRegistryModel {
  /** Registry id. */
  readonly id: string;
  /** Wire format. */
  readonly provider: WireProvider;
  /** Base URL: the server's `url` (Anthropic) or `openaiBaseUrl` (OpenAI). */
  readonly baseUrl: string;
  /** Name of the variable holding the key: the entry's `apiKey` is `${keyVar}`. */
  readonly keyVar: string;
  /** USD per million tokens (`inputUsdPerMTok`, `outputUsdPerMTok`, cache prices). */
  readonly pricing: Readonly<Record<string, number>>;
  /** Model name sent on the wire. @default {"scripted"} */
  readonly model?: string;
}

/**
 * Writes a model registry (`{ models: [...] }`, the shape of fixtures/agents/models.json).
 *
 * @param path File to write.
 * @param models Its models.
 * @returns `path`.
 */
export async function writeScriptedRegistry(
  path: string,
  models: readonly ScriptedRegistryModel[],
): Promise<string> {
  const entries = models.map((m) => ({
    id: m.id,
    provider: m.provider,
    model: m.model ?? "scripted",
    baseUrl: m.baseUrl,
    apiKey: `\${${m.keyVar}}`,
    pricing: m.pricing,
  }));
  await Deno.writeTextFile(path, JSON.stringify({ models: entries }));
  return path;
}
