/**
 * The demo model: mcpmeter's scripted local server (Anthropic Messages and OpenAI Chat
 * Completions wire formats) answering from the real tool output with the fixture policy, with
 * usage counted from what was really sent. Used by the demo runs and the workbench's
 * `scripted` models; needs no API key.
 *
 * It reads an agent's request the way a model reads its instructions, so agents configured
 * differently behave differently (what the demo shows):
 * - a system prompt that says not to use tools ("do not use tools", "never call any tool") is
 *   obeyed: the first turn of each question answers at once, without looking anything up;
 * - a `temperature` t above 0 makes the first turn of a question answer at once, unchecked,
 *   with probability 0.35·t, seeded by the system prompt, the question and how many times the
 *   question was asked before (so repetitions differ, and a rerun gives the same outcomes);
 * - a judge request is judged by keywords: it passes when the answer holds at least 60% of
 *   the rubric's content words (four letters or more, a few function words left out), so a
 *   negation fools it and a paraphrase may fail;
 * - everything else follows the fixture policy (the tools a sensible agent calls, the answer
 *   computed from their results).
 *
 * An answer given without looking is `I am not sure.`, which no fixture criterion accepts.
 *
 * @module
 */
import {
  messageReply,
  type ReceivedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
  startScriptedModelServer,
} from "./_scripted_model_server.ts";
import { fixturePolicy } from "./_scripted_policy.ts";
import { JUDGE_SYSTEM_PROMPT } from "./criteria.ts";
import type { Tokenizer } from "../tokens/types.ts";
import type { JsonObject } from "../catalog/types.ts";

export type { ReceivedRequest, ScriptedModelServer, ScriptedReply };

/** Registry ids of the scripted models ({@linkcode SCRIPTED_MODELS}). */
export const SCRIPTED_MODEL_IDS = ["scripted", "scripted-openai"] as const;

/**
 * Model registry entries of the scripted models: the Anthropic and the OpenAI wire format of
 * this server, reached through `MCPMETER_SCRIPTED_URL`, `MCPMETER_SCRIPTED_OPENAI_URL` and
 * `MCPMETER_SCRIPTED_KEY` (see {@linkcode scriptedEnv}). Priced as Claude Sonnet 4.5 and
 * GPT-4.1 mini are (USD per million tokens, the providers' list prices) so the USD columns move
 * as a real model's would; `simulated` labels every such figure as not billed.
 */
export const SCRIPTED_MODELS: readonly JsonObject[] = [
  {
    id: "scripted",
    provider: "anthropic",
    simulated: true,
    model: "scripted-demo",
    baseUrl: "${MCPMETER_SCRIPTED_URL}",
    apiKey: "${MCPMETER_SCRIPTED_KEY}",
    pricing: {
      inputUsdPerMTok: 3,
      outputUsdPerMTok: 15,
      cacheReadUsdPerMTok: 0.3,
      cacheWriteUsdPerMTok: 3.75,
    },
  },
  {
    id: "scripted-openai",
    provider: "openai",
    simulated: true,
    model: "scripted-demo",
    baseUrl: "${MCPMETER_SCRIPTED_OPENAI_URL}",
    apiKey: "${MCPMETER_SCRIPTED_KEY}",
    pricing: { inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6, cacheReadUsdPerMTok: 0.1 },
  },
];

/**
 * The variables {@linkcode SCRIPTED_MODELS} are reached through, for a running server.
 *
 * @param server The scripted model server.
 * @returns `MCPMETER_SCRIPTED_URL`, `MCPMETER_SCRIPTED_OPENAI_URL` and a key that is none.
 */
export function scriptedEnv(server: Pick<ScriptedModelServer, "url" | "openaiBaseUrl">) {
  return {
    MCPMETER_SCRIPTED_URL: server.url,
    MCPMETER_SCRIPTED_OPENAI_URL: server.openaiBaseUrl,
    MCPMETER_SCRIPTED_KEY: "scripted-not-a-key",
  };
}

/** What an agent answers when it does not look anything up. */
export const UNCHECKED_ANSWER = "I am not sure.";

/** Share of first turns answered unchecked per unit of temperature. */
const GUESS_PER_TEMPERATURE = 0.35;

/** Content words of a judge rubric the answer must hold, as a share. */
const JUDGE_OVERLAP = 0.6;

const NO_TOOLS = /\b(?:do not|don't|never)\s+(?:use|call)\s+(?:any\s+)?tools?\b/i;

const FUNCTION_WORDS = new Set([
  "answer",
  "that",
  "this",
  "with",
  "from",
  "says",
  "should",
  "must",
  "does",
  "have",
  "about",
  "which",
  "what",
  "their",
  "there",
  "where",
  "when",
]);

/**
 * A uniform number in [0, 1) from a string: FNV-1a (32 bits), then MurmurHash3's finalizer, so
 * strings that differ in their last character (one occurrence count from the next) land far apart.
 */
function unit(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/** The request's system prompt, its last user question, and whether this is its first turn. */
function readRequest(req: ReceivedRequest) {
  const messages = (req.body.messages ?? []) as Record<string, unknown>[];
  const last = messages.at(-1);
  let system = "";
  let question = "";
  if (req.provider === "anthropic") {
    system = String(req.body.system ?? "");
    for (const m of messages) {
      if (m.role === "user" && typeof m.content === "string") question = m.content;
    }
    const first = last?.role === "user" && typeof last.content === "string";
    return { system, question, first };
  }
  for (const m of messages) {
    if (m.role === "system") system = String(m.content);
    if (m.role === "user") question = String(m.content);
  }
  return { system, question, first: last?.role === "user" };
}

/** The content words of a text, lower case. */
const words = (text: string) =>
  (text.toLowerCase().match(/[a-z0-9]{4,}/g) ?? []).filter((w) => !FUNCTION_WORDS.has(w));

/** The keyword judge's verdict: the share of the rubric's content words the answer holds. */
export function keywordVerdict(rubric: string, answer: string): boolean {
  const wanted = [...new Set(words(rubric))];
  if (wanted.length === 0) return false;
  const have = new Set(words(answer));
  return wanted.filter((w) => have.has(w)).length / wanted.length >= JUDGE_OVERLAP;
}

/**
 * The demo model's policy: the fixture policy's replies, read through the agent's instructions
 * (see the module doc), with usage replaced by counts of what was really sent and returned:
 * input tokens = tokens of the request's system prompt, messages and tool definitions (as
 * JSON); output tokens = those of the reply's content. So the demo's token and cost figures
 * move with the exposure mode and the catalog, as a real model's would (within the tokenizer
 * caveat); no cache reads or writes are reported.
 *
 * @param tokenizer Counts the tokens (the demo uses `cl100k_base`).
 * @returns The policy: request in, scripted reply with counted usage out.
 */
export function createDemoPolicy(
  tokenizer: Tokenizer,
): (req: ReceivedRequest) => ScriptedReply {
  const asked = new Map<string, number>();
  const decide = (req: ReceivedRequest): ScriptedReply => {
    const { system, question, first } = readRequest(req);
    if (system === JUDGE_SYSTEM_PROMPT) {
      const rubric = /^Rubric:\n([\s\S]*?)\n\nQuestion:\n/.exec(question)?.[1] ?? "";
      const answer = question.split("\n\nAnswer:\n").at(-1) ?? "";
      const pass = keywordVerdict(rubric, answer);
      return messageReply(req.provider, {
        text: JSON.stringify({
          pass,
          reasoning: pass ? "the answer holds the rubric's facts" : "facts of the rubric missing",
        }),
      });
    }
    if (first) {
      const key = `${system}\u0000${question}`;
      const n = asked.get(key) ?? 0;
      asked.set(key, n + 1);
      const t = typeof req.body.temperature === "number" ? req.body.temperature : 0;
      const guess = NO_TOOLS.test(system) ||
        unit(`${key}\u0000${n}`) < GUESS_PER_TEMPERATURE * t;
      if (guess) return messageReply(req.provider, { text: UNCHECKED_ANSWER });
    }
    return fixturePolicy(req);
  };
  return (req) => {
    const reply = decide(req);
    const body = JSON.parse(reply.body);
    const { system, messages, tools } = req.body;
    const input = tokenizer.count(JSON.stringify({ system, messages, tools }));
    if (req.provider === "anthropic") {
      const output = tokenizer.count(JSON.stringify(body.content));
      body.usage = { input_tokens: input, output_tokens: output };
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
