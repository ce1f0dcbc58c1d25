/**
 * A two-judge panel run for tests: five cases, one agent, judges `j1` and `j2` whose verdicts
 * by case are {@linkcode PANEL_TABLE}; the agent answers "answer for <case id>". Private.
 *
 * @module
 */
import { runSuite, type RunSuiteOptions } from "../lib/agent/run.ts";
import type { ModelClient, ModelRequest, ModelTurn } from "../lib/agent/providers/types.ts";
import type { AgentConfig, ModelConfig, Suite } from "../lib/agent/types.ts";
import { writeScriptedRegistry } from "../lib/agent/_scripted_model_server.ts";

const usage = { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: null };
const turn = (text: string): ModelTurn => ({
  text,
  toolCalls: [],
  stopReason: "stop",
  usage,
  notes: [],
  ms: 1,
  attempts: 1,
  cached: false,
});

/** A client answering `text(request)`; judges read the case id from the answer they judge. */
const client = (id: string, text: (req: ModelRequest) => string): ModelClient => ({
  id,
  complete: (req) => Promise.resolve(turn(text(req))),
});

// Verdicts by case: j1 (rater A), j2 (rater B).
export const PANEL_TABLE: Record<string, [boolean, boolean]> = {
  c1: [true, true],
  c2: [true, false],
  c3: [false, false],
  c4: [true, true],
  c5: [false, true],
};
const judgeClient = (id: "j1" | "j2") =>
  client(id, (req) => {
    const answer = req.messages[0].role === "user" ? req.messages[0].text : "";
    const caseId = /answer for (c\d)/.exec(answer)![1];
    const pass = PANEL_TABLE[caseId][id === "j1" ? 0 : 1];
    return JSON.stringify({ pass, reasoning: `${id} on ${caseId}` });
  });

const pricing = (i: number, o: number) => ({
  inputUsdPerMTok: i,
  outputUsdPerMTok: o,
  cacheReadUsdPerMTok: 0,
  cacheWriteUsdPerMTok: 0,
});
const models: ModelConfig[] = [
  { id: "m", provider: "openai", model: "m", apiKey: "${K}", pricing: pricing(1, 1) },
  { id: "j1", provider: "openai", model: "j1", apiKey: "${K}", pricing: pricing(1, 5) },
  { id: "j2", provider: "openai", model: "j2", apiKey: "${K}", pricing: pricing(2, 10) },
];
const agent: AgentConfig = {
  id: "a",
  description: "",
  model: "m",
  systemPrompt: "",
  mcpServers: [],
  exposure: "direct",
  loop: "sequential",
  maxIterations: 2,
  maxOutputTokens: 10,
};
const suite: Suite = {
  id: "s",
  description: "",
  cases: Object.keys(PANEL_TABLE).map((id) => ({
    id,
    question: id,
    criterion: { type: "llm_judge", rubric: "r", judges: ["j1", "j2"] },
  })),
};

/**
 * Runs the panel suite into `folder` (or `runDir` on disk).
 *
 * @param where `runDir` and optionally `folder`.
 * @returns What runSuite returns.
 */
export function runPanelSuite(where: Pick<RunSuiteOptions, "runDir" | "folder">) {
  return runSuite({
    ...where,
    runId: "panel",
    suite,
    agents: [agent],
    models,
    toolPrices: {},
    clients: new Map([
      ["m", client("m", (req) => `answer for ${(req.messages[0] as { text: string }).text}`)],
      ["j1", judgeClient("j1")],
      ["j2", judgeClient("j2")],
    ]),
    openTools: () =>
      Promise.resolve({ tools: [], call: () => Promise.reject(), close: () => Promise.resolve() }),
    repetitions: 1,
    now: () => 0,
    epochNow: () => 0,
  });
}

/**
 * Writes `dir/models.json` with two judges at $1 / $5 per million input / output tokens, key
 * `${K}`: `judge` (Anthropic wire format at `url`) and `judge-oai` (OpenAI at `openaiUrl`).
 *
 * @param dir Folder to write into.
 * @param url Anthropic base URL (e.g. a scripted model server's `url`).
 * @param openaiUrl OpenAI base URL (e.g. its `openaiBaseUrl`).
 * @returns The registry's path.
 */
export async function writeJudgeRegistry(
  dir: string,
  url: string,
  openaiUrl: string,
): Promise<string> {
  const pricing = { inputUsdPerMTok: 1, outputUsdPerMTok: 5 };
  return await writeScriptedRegistry(`${dir}/models.json`, [
    { id: "judge", provider: "anthropic", model: "j", baseUrl: url, keyVar: "K", pricing },
    { id: "judge-oai", provider: "openai", model: "j", baseUrl: openaiUrl, keyVar: "K", pricing },
  ]);
}

/**
 * Writes a labels file for the memory-graph suite holding one label, as given (valid or not).
 *
 * @param path File to write.
 * @param label The label (`id`, `case`, `answer`, `expected`).
 * @returns `path`.
 */
export async function writeOneLabel(path: string, label: Record<string, string>): Promise<string> {
  await Deno.writeTextFile(
    path,
    JSON.stringify({ suite: "memory-graph", description: "", labels: [label] }),
  );
  return path;
}
