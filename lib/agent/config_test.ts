import assert from "node:assert/strict";
import {
  AgentConfigError,
  expandVars,
  parseAgents,
  parseDotEnv,
  parseModels,
  parseSuite,
  parseToolPrices,
  requiredModelIds,
} from "./config.ts";

const agent = {
  id: "a",
  description: "d",
  model: "m",
  mcpServers: ["fs"],
  systemPrompt: "Be brief.",
};

function throwsConfig(fn: () => unknown, file: string, field: string, re: RegExp) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AgentConfigError, String(e));
    assert.equal(e.file, file);
    assert.equal(e.field, field);
    assert.match(e.message, re);
    return true;
  });
}

Deno.test("parseAgents() applies defaults and accepts {agents: [...]}", () => {
  const [a] = parseAgents(agent, "a.json");
  assert.equal(a.exposure, "direct");
  assert.equal(a.loop, "sequential");
  assert.equal(a.maxIterations, 10);
  assert.equal(a.maxOutputTokens, 1024);
  assert.equal(a.temperature, undefined);
  const list = parseAgents({ agents: [agent, { ...agent, id: "b", loop: "parallel" }] }, "x.json");
  assert.deepEqual(list.map((x) => [x.id, x.loop]), [["a", "sequential"], ["b", "parallel"]]);
});

Deno.test("parseAgents() errors name the file and the field", async (t) => {
  await t.step("unknown exposure", () =>
    throwsConfig(
      () => parseAgents({ ...agent, exposure: "hidden" }, "a.json"),
      "a.json",
      "exposure",
      /must be one of \["direct","proxy","code","anthropic_search","openai_search"\]/,
    ));
  await t.step("toolSearch without a search exposure", () =>
    throwsConfig(
      () => parseAgents({ ...agent, toolSearch: { variant: "regex" } }, "a.json"),
      "a.json",
      "toolSearch",
      /applies to exposure anthropic_search or openai_search, not direct/,
    ));
  await t.step("a variant for openai_search", () =>
    throwsConfig(
      () =>
        parseAgents(
          { agents: [{ ...agent, exposure: "openai_search", toolSearch: { variant: "bm25" } }] },
          "a.json",
        ),
      "a.json",
      "agents[0].toolSearch.variant",
      /applies to anthropic_search only/,
    ));
  await t.step("typo in a field name", () =>
    throwsConfig(
      () => parseAgents({ ...agent, maxIteration: 3 }, "a.json"),
      "a.json",
      "maxIteration",
      /not a known field/,
    ));
  await t.step("missing model", () => {
    const { model: _m, ...rest } = agent;
    throwsConfig(() => parseAgents(rest, "a.json"), "a.json", "model", /is required/);
  });
  await t.step("both prompt kinds", () =>
    throwsConfig(
      () => parseAgents({ ...agent, systemPromptFile: "p.md" }, "a.json"),
      "a.json",
      "systemPrompt",
      /exactly one/,
    ));
  await t.step(
    "bad JSON",
    () => throwsConfig(() => parseAgents("{", "a.json"), "a.json", "", /not valid JSON/),
  );
  await t.step("duplicate ids in one file", () =>
    throwsConfig(
      () => parseAgents({ agents: [agent, agent] }, "x.json"),
      "x.json",
      "agents[1]",
      /duplicate id "a"/,
    ));
});

const model = {
  id: "m",
  provider: "anthropic",
  model: "claude",
  apiKey: "${ANTHROPIC_API_KEY}",
  pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15, cacheReadUsdPerMTok: 0.3 },
};

Deno.test("parseModels() validates apiKey as an env reference and defaults cache prices", () => {
  const [m] = parseModels({ models: [model] }, "models.json");
  assert.deepEqual(m.pricing, {
    inputUsdPerMTok: 3,
    outputUsdPerMTok: 15,
    cacheReadUsdPerMTok: 0.3,
    cacheWriteUsdPerMTok: 0,
  });
  throwsConfig(
    () => parseModels({ models: [{ ...model, apiKey: "sk-literal" }] }, "models.json"),
    "models.json",
    "models[0].apiKey",
    /must match pattern/,
  );
  throwsConfig(
    () => parseModels({ models: [{ ...model, provider: "gemini" }] }, "models.json"),
    "models.json",
    "models[0].provider",
    /must be one of/,
  );
  throwsConfig(
    () =>
      parseModels(
        { models: [{ ...model, pricing: { ...model.pricing, outputUsdPerMTok: -1 } }] },
        "models.json",
      ),
    "models.json",
    "models[0].pricing.outputUsdPerMTok",
    /must be >= 0/,
  );
});

Deno.test("parseModels() reads embedding entries: input price only, OpenAI wire format", () => {
  const embedding = {
    id: "emb",
    kind: "embedding",
    provider: "openai",
    model: "text-embedding-3-small",
    baseUrl: "http://127.0.0.1:11434/v1",
    apiKey: "${OPENAI_API_KEY}",
    pricing: { inputUsdPerMTok: 0.02 },
  };
  const [m] = parseModels({ models: [embedding] }, "models.json");
  assert.equal(m.kind, "embedding");
  assert.equal(m.pricing.inputUsdPerMTok, 0.02);
  assert.equal(m.pricing.outputUsdPerMTok, 0);
  // A chat entry still needs its output price; an embedding entry speaks the OpenAI format.
  const { outputUsdPerMTok: _drop, ...inputOnly } = model.pricing;
  assert.throws(() => parseModels({ models: [{ ...model, pricing: inputOnly }] }, "models.json"));
  assert.throws(() =>
    parseModels({ models: [{ ...embedding, provider: "anthropic" }] }, "models.json")
  );
  assert.equal(parseModels({ models: [model] })[0].kind, undefined);
});

Deno.test("parseToolPrices() requires server:tool keys", () => {
  assert.deepEqual(parseToolPrices({ toolPrices: { "fs:read_file": 0.001 } }), {
    "fs:read_file": 0.001,
  });
  assert.throws(
    () => parseToolPrices({ toolPrices: { "read_file": 1 } }, "p.json"),
    AgentConfigError,
  );
});

Deno.test("parseSuite() checks criteria, including nested ones", async (t) => {
  const ok = {
    id: "s",
    description: "",
    cases: [{
      id: "c1",
      question: "q",
      criterion: {
        type: "all",
        criteria: [{ type: "regex", pattern: "^4$" }, {
          type: "tool_called",
          tool: "fs:read_file",
        }],
      },
    }],
  };
  assert.equal(parseSuite(ok).cases.length, 1);
  await t.step("unknown criterion type", () =>
    throwsConfig(
      () =>
        parseSuite(
          { ...ok, cases: [{ id: "c", question: "q", criterion: { type: "fuzzy" } }] },
          "s.json",
        ),
      "s.json",
      "cases[0].criterion.type",
      /not a known criterion type/,
    ));
  await t.step("regex that does not compile", () =>
    throwsConfig(
      () =>
        parseSuite(
          {
            ...ok,
            cases: [{
              id: "c",
              question: "q",
              criterion: { type: "any", criteria: [{ type: "regex", pattern: "(" }] },
            }],
          },
          "s.json",
        ),
      "s.json",
      "cases[0].criterion.criteria[0].pattern",
      /Invalid regular expression/,
    ));
  await t.step("wrong field type deep inside", () =>
    throwsConfig(
      () =>
        parseSuite(
          {
            ...ok,
            cases: [{ id: "c", question: "q", criterion: { type: "contains", values: "x" } }],
          },
          "s.json",
        ),
      "s.json",
      "cases[0].criterion.values",
      /must be array/,
    ));
  await t.step("duplicate case ids", () =>
    throwsConfig(
      () => parseSuite({ ...ok, cases: [ok.cases[0], ok.cases[0]] }, "s.json"),
      "s.json",
      "cases[1].id",
      /duplicate id "c1"/,
    ));
});

Deno.test("requiredModelIds() collects agent and judge models", () => {
  const suite = parseSuite({
    id: "s",
    description: "",
    cases: [{
      id: "c",
      question: "q",
      criterion: { type: "any", criteria: [{ type: "llm_judge", rubric: "r", model: "judge" }] },
    }],
  });
  assert.deepEqual(requiredModelIds([{ model: "m2" }, { model: "m1" }], suite), [
    "judge",
    "m1",
    "m2",
  ]);
});

Deno.test("parseDotEnv() reads quotes, export and comments; expandVars() names missing vars", () => {
  const env = parseDotEnv(
    '# c\nexport A=1\nB = "two words" \nC=\'x#y\'\nD=plain # trailing\nE="a\\nb"\n',
  );
  assert.deepEqual(env, { A: "1", B: "two words", C: "x#y", D: "plain", E: "a\nb" });
  throwsConfig(() => parseDotEnv("A=1\nnot a line\n", ".env"), ".env", "line 2", /KEY=value/);
  assert.equal(expandVars("${K}", { K: "v" }, { file: "m", field: "f" }), "v");
  assert.equal(expandVars("${K:-ollama}", {}, { file: "m", field: "f" }), "ollama");
  throwsConfig(
    () => expandVars("${SECRET_KEY}", {}, { file: "models.json", field: "models[0].apiKey" }),
    "models.json",
    "models[0].apiKey",
    /SECRET_KEY, which is not set/,
  );
});

Deno.test("parseAgents() reads retryOnToolError and names a bad value", async (t) => {
  const [a] = parseAgents({ ...agent, retryOnToolError: 2 }, "a.json");
  assert.equal(a.retryOnToolError, 2);
  assert.equal("retryOnToolError" in parseAgents(agent, "a.json")[0], false);
  await t.step("negative", () =>
    throwsConfig(
      () => parseAgents({ ...agent, retryOnToolError: -1 }, "a.json"),
      "a.json",
      "retryOnToolError",
      /must be >= 0/,
    ));
  await t.step("not an integer", () =>
    throwsConfig(
      () => parseAgents({ ...agent, retryOnToolError: 1.5 }, "a.json"),
      "a.json",
      "retryOnToolError",
      /must be integer/,
    ));
});

Deno.test("parseSuite() checks llm_judge judges and votes with one-line errors", async (t) => {
  const suiteWith = (criterion: Record<string, unknown>) => ({
    id: "s",
    description: "",
    cases: [{
      id: "c",
      question: "q",
      criterion: { type: "llm_judge", rubric: "r", ...criterion },
    }],
  });
  await t.step("a panel with votes parses", () => {
    const s = parseSuite(suiteWith({ judges: ["a", "b"], votes: 3 }));
    assert.deepEqual(s.cases[0].criterion, {
      type: "llm_judge",
      rubric: "r",
      judges: ["a", "b"],
      votes: 3,
    });
    assert.deepEqual(requiredModelIds([{ model: "m" }], s), ["a", "b", "m"]);
  });
  await t.step("model and judges together", () =>
    throwsConfig(
      () => parseSuite(suiteWith({ model: "a", judges: ["b"] }), "s.json"),
      "s.json",
      "cases[0].criterion.judges",
      /cannot be given with "model"/,
    ));
  await t.step("neither model nor judges", () =>
    throwsConfig(
      () => parseSuite(suiteWith({}), "s.json"),
      "s.json",
      "cases[0].criterion.model",
      /is required: name the judge/,
    ));
  await t.step("votes below 1", () =>
    throwsConfig(
      () => parseSuite(suiteWith({ model: "a", votes: 0 }), "s.json"),
      "s.json",
      "cases[0].criterion.votes",
      /must be >= 1/,
    ));
  await t.step("votes not an integer", () =>
    throwsConfig(
      () => parseSuite(suiteWith({ model: "a", votes: 1.5 }), "s.json"),
      "s.json",
      "cases[0].criterion.votes",
      /must be integer/,
    ));
  await t.step("an empty or repeated panel", () => {
    throwsConfig(
      () => parseSuite(suiteWith({ judges: [] }), "s.json"),
      "s.json",
      "cases[0].criterion.judges",
      /must NOT have fewer than 1 items/,
    );
    throwsConfig(
      () => parseSuite(suiteWith({ judges: ["a", "a"] }), "s.json"),
      "s.json",
      "cases[0].criterion.judges",
      /duplicate/,
    );
  });
});

Deno.test("parseAgents() reads contextStrategy; errors name the strategy field", async (t) => {
  const parse = (cs: unknown) => parseAgents({ ...agent, contextStrategy: cs }, "a.json")[0];
  assert.deepEqual(parse("none").contextStrategy, { type: "none" });
  assert.deepEqual(parse({ type: "drop-old-tool-results", keepLast: 2 }).contextStrategy, {
    type: "drop-old-tool-results",
    keepLast: 2,
  });
  const cases: [string, unknown, string, RegExp][] = [
    ["a string other than none", "nothing", "contextStrategy", /must be "none"/],
    ["a number", 5, "contextStrategy", /must be string or object/],
    ["an unknown type", { type: "squash" }, "contextStrategy.type", /not a known context/],
    ["no type", {}, "contextStrategy.type", /is required/],
    [
      "summarize without afterTokens",
      { type: "summarize", model: "h" },
      "contextStrategy.afterTokens",
      /is required/,
    ],
    [
      "keepLast 0",
      { type: "drop-old-tool-results", keepLast: 0 },
      "contextStrategy.keepLast",
      /must be >= 1/,
    ],
    [
      "a field of another strategy",
      { type: "truncate-tool-results", maxTokens: 10, keepLast: 1 },
      "contextStrategy.keepLast",
      /not a known field/,
    ],
  ];
  for (const [name, cs, field, re] of cases) {
    await t.step(name, () => throwsConfig(() => parse(cs), "a.json", field, re));
  }
  await t.step("inside {agents: [...]}", () =>
    throwsConfig(
      () => parseAgents({ agents: [{ ...agent, contextStrategy: { type: "x" } }] }, "x.json"),
      "x.json",
      "agents[0].contextStrategy.type",
      /not a known context strategy/,
    ));
});

Deno.test("requiredModelIds() includes a summarize strategy's model", () => {
  const suite = parseSuite({
    id: "s",
    description: "",
    cases: [{ id: "c", question: "q", criterion: { type: "exact", value: "x" } }],
  });
  const summarize = { type: "summarize" as const, model: "haiku", afterTokens: 1000 };
  assert.deepEqual(
    requiredModelIds([{ model: "m1", contextStrategy: summarize }, { model: "m1" }], suite),
    ["haiku", "m1"],
  );
});

Deno.test("parseAgents() keeps a search exposure's toolSearch", () => {
  const [a] = parseAgents({
    ...agent,
    exposure: "anthropic_search",
    toolSearch: { variant: "regex", alwaysLoad: ["fs:read_*"] },
  }, "a.json");
  assert.equal(a.exposure, "anthropic_search");
  assert.deepEqual(a.toolSearch, { variant: "regex", alwaysLoad: ["fs:read_*"] });
  const [b] = parseAgents({ ...agent, exposure: "openai_search" }, "a.json");
  assert.equal(b.toolSearch, undefined);
});
