/**
 * Wire log: a `fetch` wrapper that records every raw model request and response with timings,
 * through a sink the caller passes in, with the run's secrets redacted (a `Redactor`: the API
 * key, every server credential a tool result may echo into a request, a key the model repeats):
 * secret-named headers (`Authorization`, `x-api-key`) whole, bodies string by string.
 *
 * @module
 */

import { isSecretName, REDACTED, type Redactor } from "../../core/secrets.ts";

export { REDACTED, redactHeaders, redactText } from "../../core/secrets.ts";

/** One logged exchange. */
export interface WireEntry {
  /** 1-based order of the request within this log. */
  readonly seq: number;
  /** Model registry id. */
  readonly model: string;
  /** Request start, epoch ms (injected clock). */
  readonly startedAtMs: number;
  /** Time to the full response body, ms. */
  readonly durationMs: number;
  /** The request as sent (headers and body redacted). */
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Record<string, string>;
    readonly body: string;
  };
  /** `null` when the request failed without a response. */
  readonly response: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body: string;
  } | null;
  /** Network error, when there was no response. */
  readonly error?: string;
}

/** Options of {@linkcode createWireLogFetch}. */
export interface WireLogOptions {
  /** Model registry id recorded in each entry. */
  readonly model: string;
  /** The run's secrets, scrubbed from URLs, headers and bodies. */
  readonly redactor: Redactor;
  /** Receives each entry (e.g. writes `DIR/<seq>-<model>.json`). */
  readonly sink: (entry: WireEntry) => void | Promise<void>;
  /** Epoch ms. */
  readonly now: () => number;
  /** Underlying fetch; default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** Shared counter so several models number one log; default a private counter. */
  readonly counter?: { value: number };
}

/**
 * Wraps `fetch` so every exchange is logged, redacted, via `sink`. The response returned to
 * the SDK is rebuilt from the bytes read, so the SDK sees exactly what the server sent.
 *
 * @param options Model id, secrets, sink, clock.
 * @returns A `fetch` to pass to the SDK's `fetch` option.
 */
export function createWireLogFetch(options: WireLogOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const counter = options.counter ?? { value: 0 };
  const r = (s: string) => options.redactor.text(s);
  const json = (s: string) => options.redactor.jsonText(s);
  const headers = (h: Headers) => {
    const out: Record<string, string> = {};
    for (const name of [...h.keys()].sort()) {
      out[name] = isSecretName(name) ? REDACTED : r(h.get(name) ?? "");
    }
    return out;
  };
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const seq = ++counter.value;
    const body = init?.body !== undefined && init.body !== null
      ? typeof init.body === "string" ? init.body : await req.clone().text()
      : "";
    const started = options.now();
    const request = {
      method: req.method,
      url: r(req.url),
      headers: headers(req.headers),
      body: json(body),
    };
    const exchange = () => ({
      seq,
      model: options.model,
      startedAtMs: started,
      durationMs: options.now() - started,
      request,
    });
    let res: Response;
    try {
      res = await base(input, init);
    } catch (e) {
      await options.sink({
        ...exchange(),
        response: null,
        error: r(String((e as Error)?.message ?? e)),
      });
      throw e;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    await options.sink({
      ...exchange(),
      response: {
        status: res.status,
        headers: headers(res.headers),
        body: json(new TextDecoder().decode(bytes)),
      },
    });
    return new Response(bytes, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
