import assert from "node:assert/strict";
import {
  badNumberIn,
  COUNT,
  delaySecondsMs,
  httpDateMs,
  MAX_INPUT_NUMBER,
  numberProblem,
} from "./numbers.ts";

Deno.test("numberProblem: finite and within 2^53 - 1, then the field's own bounds", () => {
  assert.equal(MAX_INPUT_NUMBER, 9007199254740991);
  for (const ok of [0, 1, 2.5, -3, MAX_INPUT_NUMBER, -MAX_INPUT_NUMBER]) {
    assert.equal(numberProblem(ok), undefined, String(ok));
  }
  assert.equal(numberProblem(Infinity), "is not finite");
  assert.equal(numberProblem(-Infinity), "is not finite");
  assert.equal(numberProblem(NaN), "is not finite");
  assert.equal(numberProblem("5"), "is not a number");
  assert.equal(numberProblem(1e308), "is out of range (magnitude above 9007199254740991)");
  assert.equal(numberProblem(MAX_INPUT_NUMBER + 2), numberProblem(1e308));
  assert.equal(numberProblem(-1, COUNT), "is below 0");
  assert.equal(numberProblem(1.5, COUNT), "is not a whole number");
  assert.equal(numberProblem(7, { max: 5 }), "is above 5");
});

Deno.test("badNumberIn: the first unusable number of a parsed document, with its dotted path", () => {
  assert.equal(badNumberIn({ a: [1, { b: 2 }], c: "1e999" }), undefined);
  assert.deepEqual(badNumberIn(JSON.parse('{"m": [{"p": {"x": 1}}, {"p": {"x": -1e999}}]}')), {
    field: "m[1].p.x",
    value: -Infinity,
    problem: "is not finite",
  });
  assert.deepEqual(badNumberIn(1e308), {
    field: "",
    value: 1e308,
    problem: "is out of range (magnitude above 9007199254740991)",
  });
});

Deno.test("delaySecondsMs and httpDateMs read only valid delays and IMF-fixdates", () => {
  assert.equal(delaySecondsMs("2"), 2000);
  assert.equal(delaySecondsMs(" 0.5 "), 500);
  for (const bad of ["-5", "1e3", "Infinity", "", "soon", "1e999", "+3"]) {
    assert.equal(delaySecondsMs(bad), undefined, bad);
  }
  // 1994-11-06T08:49:37Z = 784,111,777 s after the epoch (RFC 9110's example).
  assert.equal(httpDateMs("Sun, 06 Nov 1994 08:49:37 GMT"), 784_111_777_000);
  for (
    const bad of [
      "-5",
      "5",
      "Mon, 31 Feb 2026 00:00:00 GMT",
      "Mon, 30 Nov 2026 24:00:00 GMT",
      "Sunday, 06-Nov-94 08:49:37 GMT",
      "2026-11-30",
    ]
  ) {
    assert.equal(httpDateMs(bad), undefined, bad);
  }
});
