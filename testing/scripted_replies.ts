/**
 * Failure replies of the scripted model server (lib/agent/_scripted_model_server.ts) for tests
 * of retries and malformed answers.
 *
 * @module
 */
import type { ScriptedReply, WireProvider } from "../lib/agent/_scripted_model_server.ts";

/**
 * An error reply in the wire format of `provider` (`{type:"error",error:{...}}` for Anthropic,
 * `{error:{message,type,code,param}}` for the OpenAI formats).
 *
 * @param provider Wire format.
 * @param status HTTP status.
 * @param retryAfter `Retry-After` header value, when given.
 * @returns The reply.
 */
export function errorReply(
  provider: WireProvider,
  status: number,
  retryAfter?: string,
): ScriptedReply {
  const type = status === 429
    ? "rate_limit_error"
    : status >= 500
    ? "api_error"
    : "invalid_request_error";
  const message = `scripted ${status}`;
  const body = provider === "anthropic"
    ? { type: "error", error: { type, message } }
    : { error: { message, type, code: null, param: null } };
  return {
    status,
    headers: {
      "content-type": "application/json",
      ...(retryAfter === undefined ? {} : { "retry-after": retryAfter }),
    },
    body: JSON.stringify(body),
  };
}

/** A 200 reply whose body is not valid JSON. */
export function malformedReply(): ScriptedReply {
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: '{"id": "x", "content": [',
  };
}
