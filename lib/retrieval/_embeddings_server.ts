/**
 * Test double for a hosted embeddings endpoint: a local HTTP server (127.0.0.1, random port)
 * speaking the OpenAI `POST /v1/embeddings` wire format (`{model, input}` in;
 * `{data: [{index, embedding}], usage: {prompt_tokens}}` out), with scripted failures.
 *
 * Its vectors are topic counts: each dimension counts the words of one topic (files, tickets,
 * meetings, messages), so texts that share no word but share a topic are similar, which is what
 * dense retrieval adds over BM25. `prompt_tokens` is the number of white-space words.
 *
 * Private to tests.
 *
 * @module
 */

/** The topic words behind each dimension. */
export const TOPICS: readonly (readonly string[])[] = [
  ["file", "files", "read", "contents", "notes", "text", "document"],
  ["issue", "bug", "ticket", "crash", "report", "broken"],
  ["calendar", "meeting", "event", "standup", "schedule", "tomorrow"],
  ["message", "chat", "post", "channel", "tell", "say"],
];

/**
 * The server's vector for a text: per topic, how many of its words belong to the topic, plus a
 * constant last component so no vector is all zeros.
 *
 * @param text Any text.
 * @returns A vector of `TOPICS.length + 1` numbers.
 */
export function topicVector(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  return [...TOPICS.map((t) => words.filter((w) => t.includes(w)).length), 0.1];
}

/** A request as received. */
export interface EmbeddingsRequest {
  /** Parsed body. */
  readonly body: { model?: string; input?: string[]; encoding_format?: string };
  /** Header name (lower case) → value. */
  readonly headers: Record<string, string>;
  /** Path, e.g. `/v1/embeddings`. */
  readonly path: string;
}

/** A reply that replaces the normal one. */
export interface FailureReply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: string;
}

/** Options of {@linkcode startEmbeddingsServer}. */
export interface EmbeddingsServerOptions {
  /** Called per request (0-based index); a reply here replaces the normal answer. */
  readonly fail?: (index: number, request: EmbeddingsRequest) => FailureReply | undefined;
  /** Texts whose vector gets one extra component (a wrong dimension). */
  readonly wrongDimension?: ReadonlySet<string>;
}

/** A running server. */
export interface EmbeddingsServer {
  /** `http://127.0.0.1:PORT/v1`: the `baseUrl` of a registry entry. */
  readonly baseUrl: string;
  /** Every request received. */
  readonly requests: EmbeddingsRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the server.
 *
 * @param options Scripted failures.
 * @returns The running server.
 */
export function startEmbeddingsServer(options: EmbeddingsServerOptions = {}): EmbeddingsServer {
  const requests: EmbeddingsRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => headers[k] = v);
      const received: EmbeddingsRequest = { body: await req.json(), headers, path };
      const index = requests.length;
      requests.push(received);
      if (req.method !== "POST" || path !== "/v1/embeddings") {
        return new Response("not found", { status: 404 });
      }
      const failure = options.fail?.(index, received);
      if (failure) {
        return new Response(failure.body, {
          status: failure.status,
          headers: failure.headers ?? {},
        });
      }
      const input = received.body.input ?? [];
      // Answer in reverse order with explicit indexes: the client must reorder by index.
      const data = input.map((text, i) => ({
        object: "embedding",
        index: i,
        embedding: options.wrongDimension?.has(text)
          ? [...topicVector(text), 1]
          : topicVector(text),
      })).reverse();
      const tokens = input.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
      return Response.json({
        object: "list",
        data,
        model: received.body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    },
  );
  const port = (server.addr as Deno.NetAddr).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => server.shutdown(),
  };
}
