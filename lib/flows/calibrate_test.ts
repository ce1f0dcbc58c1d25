// runCalibration() against the local scripted judge (the Anthropic and OpenAI wire formats):
// figures computed by hand from the labels, thresholds, judge errors, refused labels files.
import assert from "node:assert/strict";
import { join } from "node:path";
import { messageReply, startScriptedModelServer } from "../agent/_scripted_model_server.ts";
import { fixturePolicy } from "../agent/_scripted_policy.ts";
import { writeJudgeRegistry, writeOneLabel } from "../../testing/judge.ts";
import { JUDGE_SYSTEM_PROMPT } from "../agent/mod.ts";
import { InputFileError } from "../core/errors.ts";
import { denoFlowIo } from "./io.ts";
import { runCalibration, type RunCalibrationOptions } from "./calibrate.ts";

const SUITE = new URL("../../fixtures/suites/memory_graph.json", import.meta.url).pathname;
const LABELS = new URL("../../fixtures/labels/memory_graph.labels.json", import.meta.url)
  .pathname;
const io = { ...denoFlowIo(), progress: () => {} };
const env = { K: "sk-calibrate-test-0000" };

Deno.test("runCalibration(): the keyword judge against the memory_graph labels, figures by hand", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-calibrate-" });
  const server = startScriptedModelServer(fixturePolicy);
  try {
    const models = await writeJudgeRegistry(dir, server.url, server.openaiBaseUrl);
    const base = { suite: SUITE, labels: LABELS, models, env, out: dir };
    const r = await runCalibration({ ...base, judge: "judge" }, io);
    const stdout = r.stdout.join("\n");
    assert.equal(r.exitCode, 0, stdout);
    // The scripted judge passes an answer naming "product manager" and "Globex". Against the
    // 8 labels: right (2) pass; wrong role, wrong employer, no answer (3) fail; the negation
    // passes (label fail); both paraphrases fail (label pass). Judge × label: pass/pass 2,
    // pass/fail 1, fail/pass 2, fail/fail 3. Accuracy 5/8; judge pass share 3/8, label 4/8;
    // chance agreement 3/8·4/8 + 5/8·4/8 = 1/2; kappa (5/8 − 1/2) / (1 − 1/2) = 1/4.
    assert.match(
      stdout,
      /accuracy 0\.625 \[[\d.]+, [\d.]+\] {2}kappa 0\.250 \(chance agreement 0\.500\)/,
    );
    assert.match(stdout, /pass\/pass 2 {2}pass\/fail 1 {2}fail\/pass 2 {2}fail\/fail 3/);
    assert.match(stdout, /wrong: negation \(case bob-role-judged\): judge pass, label fail/);
    const doc = JSON.parse(await Deno.readTextFile(join(dir, "memory-graph--judge.json")));
    assert.equal(doc.scored, 8);
    assert.equal(doc.accuracy, 0.625);
    assert.equal(doc.kappa, 0.25);
    assert.deepEqual(doc.confusion, { truePass: 2, falsePass: 1, falseFail: 2, trueFail: 3 });
    assert.deepEqual(
      doc.items.filter((i: { predicted: boolean; expected: boolean }) => i.predicted !== i.expected)
        .map((i: { id: string }) => i.id),
      ["negation", "paraphrase-pm", "paraphrase-role"],
    );
    // The scripted judge reports 300 input and 15 output tokens a call: 8 calls at $1/$5 per M.
    assert.deepEqual([doc.inputTokens, doc.outputTokens], [2400, 120]);
    assert.ok(Math.abs(doc.costUsd - 8 * (300e-6 + 75e-6)) < 1e-12);
    assert.equal(doc.provenance, "measured");
    // What was sent: the judge prompt of a run, at temperature 0, with the label's answer.
    assert.equal(server.requests.length, 8);
    const first = server.requests[0].body;
    assert.equal(first.system, JUDGE_SYSTEM_PROMPT);
    assert.equal(first.temperature, 0);
    assert.match(JSON.stringify(first.messages), /Bob is a product manager at Globex\./);
    assert.match(
      JSON.stringify(first.messages),
      /Rubric:\\nThe answer says Bob is a product manager/,
    );
    const csv = (await Deno.readTextFile(join(dir, "memory-graph--judge.csv"))).trim().split("\n");
    assert.equal(csv.length, 9);
    assert.match(csv[6], /^negation,bob-role-judged,fail,pass,false,1,1,300,15,0\.000375,/);

    // OpenAI wire format, 3 votes each: same verdicts (a deterministic judge), 24 calls.
    const o = await runCalibration({ ...base, judge: "judge-oai", votes: 3 }, io);
    assert.equal(o.exitCode, 0, o.stdout.join("\n"));
    const oai = JSON.parse(await Deno.readTextFile(join(dir, "memory-graph--judge-oai.json")));
    assert.deepEqual([oai.votes, oai.kappa, oai.inputTokens], [3, 0.25, 7200]);
    assert.equal(server.requests.filter((q) => q.provider === "openai").length, 24);

    // A threshold the judge misses gives exit code 1 and says so.
    const strict = await runCalibration({ ...base, judge: "judge", minKappa: 0.5 }, io);
    assert.equal(strict.exitCode, 1);
    assert.match(strict.stdout.join("\n"), /FAIL: kappa 0\.250 < --min-kappa 0\.5/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCalibration(): unusable judge replies are judge errors, and nothing scored is exit code 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-calibrate-" });
  const server = startScriptedModelServer((req) =>
    messageReply(req.provider, { text: "Looks fine to me.", usage: { input: 10, output: 4 } })
  );
  try {
    const models = await writeJudgeRegistry(dir, server.url, server.openaiBaseUrl);
    const r = await runCalibration(
      { suite: SUITE, labels: LABELS, models, judge: "judge", env, out: dir },
      io,
    );
    const stdout = r.stdout.join("\n");
    assert.equal(r.exitCode, 1);
    assert.match(stdout, /8 labels, 0 scored, 8 judge error\(s\)/);
    assert.match(
      stdout,
      /judge error: plain-right: judge "judge": judge reply contains no JSON object/,
    );
    assert.match(stdout, /FAIL: the judge gave no verdict on any label/);
    const doc = JSON.parse(await Deno.readTextFile(join(dir, "memory-graph--judge.json")));
    assert.deepEqual([doc.accuracy, doc.kappa, doc.inputTokens], [null, null, 80]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runCalibration(): a label verdict that is not pass/fail and an unknown judge are input errors naming the field", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-calibrate-" });
  try {
    const models = await writeJudgeRegistry(dir, "http://127.0.0.1:9", "http://127.0.0.1:9/v1");
    const common: Omit<RunCalibrationOptions, "labels"> = {
      suite: SUITE,
      models,
      judge: "judge",
      env,
      out: dir,
    };
    const bad = await writeOneLabel(join(dir, "bad.labels.json"), {
      id: "x",
      case: "c",
      answer: "",
      expected: "yes",
    });
    await assert.rejects(
      runCalibration({ ...common, labels: bad }, io),
      (e: Error) =>
        e instanceof InputFileError &&
        /field "labels\[0\]\.expected" must be one of \["pass","fail"\]/.test(e.message),
    );
    await assert.rejects(
      runCalibration({ ...common, labels: LABELS, judge: "nobody" }, io),
      /has no model "nobody" \(--judge\); it has judge, judge-oai/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
