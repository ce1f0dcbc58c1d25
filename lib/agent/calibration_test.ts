import assert from "node:assert/strict";
import { parseLabels, resolveLabels } from "./calibration.ts";
import { AgentConfigError } from "./config.ts";
import type { Suite } from "./types.ts";

const suite: Suite = {
  id: "s",
  description: "",
  cases: [
    { id: "one", question: "q1", criterion: { type: "llm_judge", rubric: "r1", model: "j" } },
    {
      id: "two",
      question: "q2",
      criterion: {
        type: "all",
        criteria: [
          { type: "llm_judge", rubric: "r2a", model: "j" },
          { type: "llm_judge", rubric: "r2b", model: "j" },
        ],
      },
    },
    { id: "none", question: "q3", criterion: { type: "exact", value: "x" } },
  ],
};

const set = (labels: Record<string, unknown>[], suiteId = "s") =>
  parseLabels({ suite: suiteId, description: "", labels }, "l.json");

function refuses(fn: () => unknown, field: string, problem: RegExp) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AgentConfigError);
    assert.equal(e.field, field);
    assert.match(e.message, problem);
    return true;
  });
}

Deno.test("resolveLabels() takes the case's one llm_judge, or the one a path names", () => {
  const t = resolveLabels(
    suite,
    set([
      { id: "a", case: "one", answer: "x", expected: "pass" },
      { id: "b", case: "two", criterion: "criterion.criteria[1]", answer: "y", expected: "fail" },
    ]),
  );
  assert.deepEqual(t.map((x) => [x.question, x.rubric, x.criterion]), [
    ["q1", "r1", "criterion"],
    ["q2", "r2b", "criterion.criteria[1]"],
  ]);
});

Deno.test("resolveLabels() and parseLabels() name the file and field of each mistake", () => {
  const one = (l: Record<string, unknown>) =>
    set([{ id: "a", case: "one", answer: "x", expected: "pass", ...l }]);
  refuses(
    () => resolveLabels({ ...suite, id: "other" }, one({}), "l.json"),
    "suite",
    /is "s" but the suite given is "other"/,
  );

  refuses(
    () => resolveLabels(suite, one({ case: "nope" }), "l.json"),
    "labels[0].case",
    /"nope" is not a case of suite "s"/,
  );
  refuses(
    () => resolveLabels(suite, one({ case: "none" }), "l.json"),
    "labels[0].case",
    /has no llm_judge criterion/,
  );
  refuses(
    () => resolveLabels(suite, one({ case: "two" }), "l.json"),
    "labels[0].case",
    /has 2 llm_judge criteria: give "criterion" \(criterion\.criteria\[0\], criterion\.criteria\[1\]\)/,
  );
  refuses(
    () => resolveLabels(suite, one({ case: "two", criterion: "criterion.criteria[5]" }), "l.json"),
    "labels[0].criterion",
    /is not an llm_judge criterion of case "two"/,
  );
  refuses(
    () => one({ expected: "maybe" }),
    "labels[0].expected",
    /must be one of \["pass","fail"\]/,
  );
  refuses(() => one({ answer: undefined }), "labels[0].answer", /is required/);
  refuses(() => one({ extra: 1 }), "labels[0].extra", /is not a known field/);
  refuses(
    () =>
      set([{ id: "a", case: "one", answer: "", expected: "pass" }, {
        id: "a",
        case: "one",
        answer: "",
        expected: "fail",
      }]),
    "labels[1].id",
    /duplicate id "a"/,
  );
  refuses(() => parseLabels("{", "l.json"), "", /is not valid JSON/);
});
