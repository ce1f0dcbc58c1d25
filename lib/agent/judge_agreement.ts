/**
 * Agreement of a judge panel over a run's case records: for every `llm_judge` criterion that
 * two or more judges scored (an *item*: one case record × one criterion path), each judge's
 * verdict (the majority of its votes, a tie fails), the share of judge pairs that agree, Cohen's
 * kappa when the run's panel has exactly two judges, and the items on which judges disagree,
 * listed for a human (`disagreements.csv`). Pure.
 *
 * @module
 */
import { columnsCsv, type CsvColumn } from "../core/csv.ts";
import { majority, raterAgreement } from "../stats/agreement.ts";
import type { CaseRecord, JudgeVerdict } from "./types.ts";

/** One judge's verdict on one item, from its votes. */
export interface PanelVerdict {
  /** Judge model registry id. */
  readonly model: string;
  /** Votes the judge gave on this item. */
  readonly votes: number;
  /** Votes that passed the answer. */
  readonly passes: number;
  /** The judge's verdict: the majority of its votes (a tie fails). */
  readonly pass: boolean;
  /** Reasonings of its votes, in vote order. */
  readonly reasoning: readonly string[];
}

/** One item: a case record's `llm_judge` criterion scored by two or more judges. */
export interface PanelItem {
  /** Agent id. */
  readonly agentId: string;
  /** Case id. */
  readonly caseId: string;
  /** 0-based repetition. */
  readonly repetition: number;
  /** Path of the criterion in the case's criterion (see `JudgeVerdict.criterion`). */
  readonly criterion: string;
  /** The criterion's verdict: the majority of the judges' verdicts (a tie fails). */
  readonly pass: boolean;
  /** Each judge's verdict, in the order the judges were called. */
  readonly judges: readonly PanelVerdict[];
  /** The agent's final answer (what the judges read), `null` when there was none. */
  readonly finalAnswer: string | null;
}

/** Judge-panel agreement over records, from {@linkcode judgeAgreement}. */
export interface JudgeAgreement {
  /** Judge models that scored some item, sorted. */
  readonly judges: readonly string[];
  /** Items scored by two or more judges (the denominator). */
  readonly items: number;
  /**
   * Mean over items of the share of judge pairs that agree (with two judges: the share of
   * items on which they agree); `null` when `items` is 0.
   */
  readonly agreementRate: number | null;
  /**
   * Cohen's kappa of the two judges over the items both scored, when `judges` has exactly two;
   * `null` otherwise or when undefined (see `kappaNote`).
   */
  readonly kappa: number | null;
  /** Why `kappa` is `null` when there are items; absent otherwise. */
  readonly kappaNote?: string;
  /** Items on which some judges disagree, sorted by agent, case, repetition and criterion. */
  readonly disagreements: readonly PanelItem[];
}

function cmp(a: PanelItem, b: PanelItem): number {
  const key = (x: PanelItem) => [x.agentId, x.caseId];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  }
  if (a.repetition !== b.repetition) return a.repetition - b.repetition;
  return a.criterion < b.criterion ? -1 : a.criterion > b.criterion ? 1 : 0;
}

/**
 * The panel items of records: one per record × `llm_judge` criterion path with verdicts from
 * two or more judge models. Records without `judgeVerdicts` (no judge, or older records) give
 * none.
 *
 * @param records Case records (any order).
 * @returns Items sorted by agent, case, repetition and criterion path.
 */
export function panelItems(records: readonly CaseRecord[]): PanelItem[] {
  const items: PanelItem[] = [];
  for (const r of records) {
    const byPath = new Map<string, JudgeVerdict[]>();
    for (const v of r.judgeVerdicts ?? []) {
      const list = byPath.get(v.criterion) ?? [];
      list.push(v);
      byPath.set(v.criterion, list);
    }
    for (const [criterion, vs] of byPath) {
      const models = [...new Set(vs.map((v) => v.model))];
      if (models.length < 2) continue;
      const judges = models.map((model): PanelVerdict => {
        const mine = vs.filter((v) => v.model === model).sort((a, b) => a.vote - b.vote);
        const passes = mine.filter((v) => v.pass).length;
        return {
          model,
          votes: mine.length,
          passes,
          pass: majority(mine.map((v) => v.pass)),
          reasoning: mine.map((v) => v.reasoning),
        };
      });
      items.push({
        agentId: r.agentId,
        caseId: r.caseId,
        repetition: r.repetition,
        criterion,
        pass: majority(judges.map((j) => j.pass)),
        judges,
        finalAnswer: r.finalAnswer,
      });
    }
  }
  return items.sort(cmp);
}

/**
 * Agreement of the judges over the records' panel items (see {@linkcode panelItems}).
 *
 * @param records Case records (any order; e.g. one agent's, or a whole run's).
 * @returns Judges, items, agreement rate, Cohen's kappa (exactly two judges) and the items
 *   judges disagree on.
 *
 * @example Usage
 * ```ts
 * import { judgeAgreement } from "./judge_agreement.ts";
 * const v = (model: string, pass: boolean) => ({ criterion: "criterion", model, vote: 0, pass,
 *   reasoning: "", inputTokens: 1, outputTokens: 1, costUsd: 0 });
 * const base = { agentId: "a", criterion: null, finalAnswer: "x", wallMs: 1, llmMs: 1, toolMs: 0,
 *   iterations: 1, inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0,
 *   peakContextTokens: 1, toolCalls: [], costUsd: 0, judge: null, error: null,
 *   cachedModelCalls: 0, usageNotes: [], repetition: 0, passed: true };
 * const g = judgeAgreement([
 *   { ...base, caseId: "c1", judgeVerdicts: [v("j1", true), v("j2", true)] },
 *   { ...base, caseId: "c2", judgeVerdicts: [v("j1", true), v("j2", false)] },
 * ]);
 * if (g.items !== 2 || g.agreementRate !== 0.5 || g.disagreements[0].caseId !== "c2") {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function judgeAgreement(records: readonly CaseRecord[]): JudgeAgreement {
  const items = panelItems(records);
  const judges = [...new Set(items.flatMap((i) => i.judges.map((j) => j.model)))].sort();
  const rows = items.map((i) =>
    judges.map((m) => i.judges.find((j) => j.model === m)?.pass ?? null)
  );
  const a = raterAgreement(rows);
  const kappa = a.kappa?.kappa ?? null;
  const kappaNote = items.length === 0
    ? undefined
    : judges.length !== 2
    ? `kappa is reported for exactly two judges; this panel has ${judges.length}`
    : a.kappa?.reason;
  return {
    judges,
    items: a.items,
    agreementRate: a.agreementRate,
    kappa,
    ...(kappaNote === undefined ? {} : { kappaNote }),
    disagreements: a.disagreements.map((i) => items[i]),
  };
}

const word = (p: boolean) => p ? "pass" : "fail";

/**
 * `disagreements.csv` columns, in order, with how each is read from an item and one of its
 * judges: verdicts as `pass`/`fail`, the judge's reasonings joined with ` | `, the final answer
 * in full.
 */
export const DISAGREEMENT_COLUMNS: readonly CsvColumn<readonly [PanelItem, PanelVerdict]>[] = [
  ["agent_id", ([i]) => i.agentId],
  ["case_id", ([i]) => i.caseId],
  ["repetition", ([i]) => i.repetition],
  ["criterion", ([i]) => i.criterion],
  ["case_verdict", ([i]) => word(i.pass)],
  ["judge", ([, j]) => j.model],
  ["judge_verdict", ([, j]) => word(j.pass)],
  ["passing_votes", ([, j]) => j.passes],
  ["votes", ([, j]) => j.votes],
  ["reasoning", ([, j]) => j.reasoning.join(" | ")],
  ["final_answer", ([i]) => i.finalAnswer],
];

/**
 * Renders the items judges disagree on as CSV for a human reviewer: one row per item × judge
 * ({@linkcode DISAGREEMENT_COLUMNS}); verdicts as `pass`/`fail`, the judge's reasonings joined
 * with ` | `, the final answer in full.
 *
 * @param items Disagreements (e.g. {@linkcode JudgeAgreement.disagreements}).
 * @returns CSV text ending in a newline (a header alone when there are none).
 */
export function disagreementsToCsv(items: readonly PanelItem[]): string {
  const rows = items.flatMap((i) => i.judges.map((j) => [i, j] as const));
  return columnsCsv(DISAGREEMENT_COLUMNS, rows);
}
