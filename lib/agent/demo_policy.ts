/**
 * The demo model: mcpmeter's scripted local server (Anthropic Messages, OpenAI Chat
 * Completions and Responses wire formats) answering from the real tool output with the fixture policy, with
 * usage counted from what was really sent. Used by the demo runs and the workbench's
 * `scripted` model; needs no API key.
 *
 * @module
 */
import {
  type ReceivedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { fixturePolicy } from "./_scripted_policy.ts";
import type { Tokenizer } from "../tokens/types.ts";

export type { ReceivedRequest, ScriptedModelServer, ScriptedReply };

/**
 * The fixture policy's replies with usage replaced by counts of what was really sent and
 * returned: input tokens = tokens of the request's system prompt, messages and tool definitions
 * (as JSON); output tokens = those of the reply's content. So the demo's token and cost figures
 * move with the exposure mode and the catalog, as a real model's would (within the tokenizer
 * caveat); no cache reads or writes are reported.
 *
 * @param tokenizer Counts the tokens (the demo uses `cl100k_base`).
 * @returns The policy: request in, scripted reply with counted usage out.
 */
export function createDemoPolicy(
  tokenizer: Tokenizer,
): (req: ReceivedRequest) => ScriptedReply {
  return (req) => {
    const reply = fixturePolicy(req);
    const body = JSON.parse(reply.body);
    const { system, messages, tools, instructions, input: items } = req.body;
    const input = tokenizer.count(
      JSON.stringify(
        req.provider === "openai-responses"
          ? { instructions, input: items, tools }
          : { system, messages, tools },
      ),
    );
    if (req.provider === "anthropic") {
      const output = tokenizer.count(JSON.stringify(body.content));
      body.usage = { input_tokens: input, output_tokens: output };
    } else if (req.provider === "openai-responses") {
      const output = tokenizer.count(JSON.stringify(body.output));
      body.usage = {
        input_tokens: input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input + output,
      };
    } else {
      const output = tokenizer.count(JSON.stringify(body.choices?.[0]?.message ?? ""));
      body.usage = {
        prompt_tokens: input,
        completion_tokens: output,
        total_tokens: input + output,
      };
    }
    return { ...reply, body: JSON.stringify(body) };
  };
}

/**
 * Starts the demo model on 127.0.0.1 (random port).
 *
 * @param tokenizer Counts usage (see {@linkcode createDemoPolicy}).
 * @returns The server: `url` (Anthropic base URL), `openaiBaseUrl`, `close()`.
 */
export function startDemoModelServer(tokenizer: Tokenizer): ScriptedModelServer {
  return startScriptedModelServer(createDemoPolicy(tokenizer));
}
