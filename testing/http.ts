// Test helper (not part of the public surface): one HTTP/1.1 request over a raw TCP socket, so
// a test can send the Host header a DNS-rebinding page would send (fetch() always writes the
// Host of the URL it connects to).

/** A parsed HTTP response. */
export interface RawResponse {
  /** Status code. */
  readonly status: number;
  /** Header names lowercase. */
  readonly headers: Readonly<Record<string, string>>;
  /** Body text (chunked transfer decoded). */
  readonly body: string;
}

/**
 * Sends one request to 127.0.0.1:port with exactly the given headers (`Host` included, or
 * none when `host` is `null`) and `Connection: close`, and reads the whole response.
 */
export async function rawRequest(
  port: number,
  request: {
    readonly method?: string;
    readonly path?: string;
    readonly host: string | null;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string;
  },
): Promise<RawResponse> {
  const body = new TextEncoder().encode(request.body ?? "");
  const lines = [`${request.method ?? "POST"} ${request.path ?? "/mcp"} HTTP/1.1`];
  if (request.host !== null) lines.push(`Host: ${request.host}`);
  for (const [k, v] of Object.entries(request.headers ?? {})) lines.push(`${k}: ${v}`);
  lines.push(`Content-Length: ${body.length}`, "Connection: close", "", "");
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const head = new TextEncoder().encode(lines.join("\r\n"));
    const all = new Uint8Array(head.length + body.length);
    all.set(head);
    all.set(body, head.length);
    let written = 0;
    while (written < all.length) written += await conn.write(all.subarray(written));
    const text = await new Response(conn.readable).text();
    const split = text.indexOf("\r\n\r\n");
    const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
    const headers: Record<string, string> = {};
    for (const l of headerLines) {
      const i = l.indexOf(":");
      headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
    }
    let rest = text.slice(split + 4);
    if (headers["transfer-encoding"] === "chunked") {
      let out = "";
      while (true) {
        const nl = rest.indexOf("\r\n");
        const size = parseInt(rest.slice(0, nl), 16);
        if (!(size > 0)) break;
        out += rest.slice(nl + 2, nl + 2 + size);
        rest = rest.slice(nl + 2 + size + 2);
      }
      rest = out;
    }
    return { status: Number(statusLine.split(" ")[1]), headers, body: rest };
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the reader
    }
  }
}

/** A TCP server that accepts HTTP requests and never answers; see {@linkcode hangingServer}. */
export interface HangingServer {
  /** `http://127.0.0.1:PORT`. */
  readonly base: string;
  /** Request lines received so far (`POST /v1/messages/count_tokens HTTP/1.1`), in order. */
  readonly requests: string[];
  /** Closes the listener and every connection; resolves when their readers have stopped. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (a free port), reads each connection's bytes and records every request line
 * it sees, and never writes a byte back: the endpoint that accepts and then hangs.
 */
export function hangingServer(): HangingServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const readers: Promise<void>[] = [];
  const requests: string[] = [];
  const METHOD = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) \S+ HTTP\/1\.[01]$/;
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      readers.push((async () => {
        const decoder = new TextDecoder();
        let text = "";
        try {
          for await (const chunk of conn.readable) {
            text += decoder.decode(chunk, { stream: true });
            const lines = text.split("\r\n");
            text = lines.pop()!;
            for (const line of lines) if (METHOD.test(line)) requests.push(line);
          }
        } catch {
          // Closed by the client (its timeout) or by close().
        }
        conns.delete(conn);
      })());
    }
  })().catch(() => {});
  return {
    base: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    requests,
    async close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // Already closed.
        }
      }
      await accepting;
      await Promise.all(readers);
    },
  };
}
