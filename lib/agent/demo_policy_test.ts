// The demo model reads an agent's instructions: a prompt that forbids tools, a temperature, a
// judge's rubric; otherwise it is the fixture policy. Requests in the Anthropic and OpenAI wire
// formats, as the runner sends them.
import assert from "node:assert/strict";
import { createDemoPolicy, keywordVerdict, UNCHECKED_ANSWER } from "./demo_policy.ts";
import type { ReceivedRequest } from "./demo_policy.ts";
import { JUDGE_SYSTEM_PROMPT } from "./criteria.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";

const QUESTION = "How many lines does notes/todo.txt have? Answer with the number only.";
const TOOLS = [{ name: "list_allowed_directories", input_schema: { type: "object" } }];

const anthropic = (system: string, extra: Record<string, unknown> = {}): ReceivedRequest => ({
  provider: "anthropic",
  body: { system, messages: [{ role: "user", content: QUESTION }], tools: TOOLS, ...extra },
  text: "",
  headers: {},
  index: 0,
});

/** The reply's text, or the names of the tools it calls. */
function reply(policy: ReturnType<typeof createDemoPolicy>, req: ReceivedRequest) {
  const body = JSON.parse(policy(req).body);
  const content = (body.content ?? []) as { type: string; text?: string; name?: string }[];
  const calls = content.filter((c) => c.type === "tool_use").map((c) => c.name);
  return calls.length > 0 ? calls : content.find((c) => c.type === "text")?.text;
}

Deno.test("demo model: a prompt that forbids tools is obeyed; a plain one looks things up", () => {
  const policy = createDemoPolicy(createTokenizer("cl100k_base"));
  assert.deepEqual(reply(policy, anthropic("Answer tersely.")), ["list_allowed_directories"]);
  for (const system of ["Do not use tools.", "Never call any tool; answer from memory."]) {
    assert.equal(reply(policy, anthropic(system)), UNCHECKED_ANSWER, system);
  }
  // The OpenAI wire format too.
  const openai: ReceivedRequest = {
    provider: "openai",
    body: {
      messages: [{ role: "system", content: "Don't use tools." }, {
        role: "user",
        content: QUESTION,
      }],
      tools: [{ type: "function", function: { name: "list_allowed_directories" } }],
    },
    text: "",
    headers: {},
    index: 0,
  };
  const body = JSON.parse(policy(openai).body);
  assert.equal(body.choices[0].message.content, UNCHECKED_ANSWER);
});

Deno.test("demo model: a temperature makes some first turns answer unchecked, the same ones on every run", () => {
  const outcomes = (temperature: number) => {
    const policy = createDemoPolicy(createTokenizer("cl100k_base"));
    return Array.from(
      { length: 40 },
      () => reply(policy, anthropic("Answer tersely.", { temperature })) === UNCHECKED_ANSWER,
    );
  };
  assert.ok(outcomes(0).every((g) => !g), "temperature 0 never guesses");
  const warm = outcomes(1);
  const guesses = warm.filter(Boolean).length;
  // 0.35 a time over 40 draws: between 6 and 22 is beyond a 1-in-1000 binomial tail either way.
  assert.ok(guesses >= 6 && guesses <= 22, `${guesses} of 40`);
  assert.deepEqual(outcomes(1), warm, "seeded: the same sequence again");
  // One repetition does not decide the next: independent draws at 0.35 change about 18 times
  // in 40 (2 × 0.35 × 0.65 × 39); runs of one outcome would change a few times.
  const changes = warm.slice(1).filter((g, i) => g !== warm[i]).length;
  assert.ok(changes >= 8, `${changes} changes: ${warm.map((g) => g ? "x" : ".").join("")}`);
});

Deno.test("demo model: the keyword judge passes an answer holding the rubric's facts", () => {
  const rubric = "The answer says Bob is a product manager and that he works at Globex.";
  assert.equal(keywordVerdict(rubric, "Bob is a product manager at Globex."), true);
  assert.equal(keywordVerdict(rubric, "Bob is an engineer at Initech."), false);
  assert.equal(keywordVerdict(rubric, UNCHECKED_ANSWER), false);
  assert.equal(keywordVerdict("", "anything"), false);
  const policy = createDemoPolicy(createTokenizer("cl100k_base"));
  const judged = (answer: string) =>
    JSON.parse(
      reply(policy, {
        ...anthropic(JUDGE_SYSTEM_PROMPT),
        body: {
          system: JUDGE_SYSTEM_PROMPT,
          messages: [{
            role: "user",
            content: `Rubric:\n${rubric}\n\nQuestion:\nWhat does Bob do?\n\nAnswer:\n${answer}`,
          }],
        },
      }) as string,
    ).pass;
  assert.deepEqual([judged("Bob: product manager, Globex"), judged("No idea.")], [true, false]);
});
