import assert from "node:assert/strict";
import { memoryRunFolder } from "./run_folder.ts";
import { disagreementsToCsv, judgeAgreement } from "./judge_agreement.ts";
import { PANEL_TABLE as TABLE, runPanelSuite } from "../../testing/judge.ts";

Deno.test("a two-judge panel: verdicts in each record, agreement and kappa in summary.json and summary.csv, disagreements.csv", async () => {
  const folder = memoryRunFolder();
  const out = await runPanelSuite({ runDir: "<memory>", folder });
  const byCase = new Map(out.records.map((r) => [r.caseId, r]));
  // Two judges: a split is a tie, and a tie fails. c1 and c4 pass; c2, c3, c5 fail.
  assert.deepEqual(
    Object.keys(TABLE).map((c) => byCase.get(c)!.passed),
    [true, false, false, true, false],
  );
  const c2 = byCase.get("c2")!;
  // j1: 100 in × $1/M + 10 out × $5/M = $0.00015; j2: 100 × $2/M + 10 × $10/M = $0.0003.
  assert.deepEqual(c2.judgeVerdicts, [
    {
      criterion: "criterion",
      model: "j1",
      vote: 0,
      pass: true,
      reasoning: "j1 on c2",
      inputTokens: 100,
      outputTokens: 10,
      costUsd: 0.00015,
    },
    {
      criterion: "criterion",
      model: "j2",
      vote: 0,
      pass: false,
      reasoning: "j2 on c2",
      inputTokens: 100,
      outputTokens: 10,
      costUsd: 0.0003,
    },
  ]);
  assert.ok(Math.abs(c2.judge!.costUsd! - 0.00045) < 1e-15);
  // By hand: 2 both pass (c1, c4), 1 j1 only (c2), 1 j2 only (c5), 1 both fail (c3); n = 5.
  // p_o = 3/5; p_j1 = p_j2 = 3/5; p_e = 0.36 + 0.16 = 0.52; kappa = 0.08 / 0.48 = 1/6.
  const [row] = out.summary;
  assert.equal(row.judgePanelItems, 5);
  assert.ok(Math.abs(row.judgeAgreement! - 0.6) < 1e-12);
  assert.ok(Math.abs(row.judgeKappa! - 1 / 6) < 1e-12);
  assert.equal(row.judgeDisagreements, 2);
  const summary = JSON.parse(folder.file("summary.json")!);
  assert.deepEqual(summary.judgePanel.judges, ["j1", "j2"]);
  assert.equal(summary.judgePanel.items, 5);
  assert.equal(summary.judgePanel.disagreements, 2);
  assert.ok(Math.abs(summary.judgePanel.kappa - 1 / 6) < 1e-12);
  const [header, line] = folder.file("summary.csv")!.trim().split("\n");
  const cells = Object.fromEntries(header.split(",").map((h, i) => [h, line.split(",")[i]]));
  assert.equal(cells.judge_panel_items, "5");
  assert.equal(cells.judge_agreement, "0.6");
  assert.equal(cells.judge_kappa, "0.166667");
  assert.equal(cells.judge_disagreements, "2");
  // cases.csv: every verdict counted (2 judges × 1 vote), c1 passed by both.
  const [caseHead, c1] = folder.file("cases.csv")!.trim().split("\n");
  const col = (name: string) => c1.split(",")[caseHead.split(",").indexOf(name)];
  assert.deepEqual([col("case_id"), col("judge_votes"), col("judge_passing_votes")], [
    "c1",
    "2",
    "2",
  ]);
  assert.equal(
    folder.file("disagreements.csv"),
    "agent_id,case_id,repetition,criterion,case_verdict,judge,judge_verdict,passing_votes,votes,reasoning,final_answer\n" +
      "a,c2,0,criterion,fail,j1,pass,1,1,j1 on c2,answer for c2\n" +
      "a,c2,0,criterion,fail,j2,fail,0,1,j2 on c2,answer for c2\n" +
      "a,c5,0,criterion,fail,j1,fail,0,1,j1 on c5,answer for c5\n" +
      "a,c5,0,criterion,fail,j2,pass,1,1,j2 on c5,answer for c5\n",
  );
});

Deno.test("judgeAgreement(): one judge is no panel; three judges have no kappa, and say why", () => {
  const v = (model: string, pass: boolean, vote = 0) => ({
    criterion: "criterion",
    model,
    vote,
    pass,
    reasoning: "",
    inputTokens: 1,
    outputTokens: 1,
    costUsd: 0,
  });
  const base = {
    agentId: "a",
    repetition: 0,
    passed: true,
    criterion: null,
    finalAnswer: "x",
    wallMs: 1,
    llmMs: 1,
    toolMs: 0,
    iterations: 1,
    inputTokens: 1,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    peakContextTokens: 1,
    toolCalls: [],
    costUsd: 0,
    judge: null,
    error: null,
    cachedModelCalls: 0,
    usageNotes: [],
  };
  const solo = judgeAgreement([{
    ...base,
    caseId: "c",
    judgeVerdicts: [v("j1", true), v("j1", false, 1)],
  }]);
  assert.equal(solo.items, 0);
  assert.equal(solo.agreementRate, null);
  assert.equal(solo.kappaNote, undefined);
  // Votes first: j1 votes pass, pass, fail -> pass; j2 fail; j3 pass. Pairs: (j1,j3) agree of 3.
  const three = judgeAgreement([{
    ...base,
    caseId: "c",
    judgeVerdicts: [
      v("j1", true),
      v("j1", true, 1),
      v("j1", false, 2),
      v("j2", false),
      v("j3", true),
    ],
  }]);
  assert.equal(three.items, 1);
  assert.ok(Math.abs(three.agreementRate! - 1 / 3) < 1e-12);
  assert.equal(three.kappa, null);
  assert.match(three.kappaNote!, /exactly two judges; this panel has 3/);
  assert.equal(three.disagreements[0].pass, true);
  assert.deepEqual(three.disagreements[0].judges.map((j) => [j.model, j.passes, j.votes, j.pass]), [
    ["j1", 2, 3, true],
    ["j2", 0, 1, false],
    ["j3", 1, 1, true],
  ]);
  assert.equal(
    disagreementsToCsv([]),
    "agent_id,case_id,repetition,criterion,case_verdict,judge,judge_verdict,passing_votes,votes,reasoning,final_answer\n",
  );
});
