/**
 * The bench gate: compares two bench reports (`results/report.json`), the candidate's discovery
 * savings and retrieval quality against the baseline's. Pure: parsed reports in, checks out.
 *
 * @module
 */
import { type GateCheck, GateInputError } from "./gate.ts";
import { check, cmp, f3, signed } from "./_gate_check.ts";
import { savingsPhrase } from "./wording.ts";

/** A mode's saving in words, two decimals: `saves 99.95%`, `costs 1,829.41% more`. */
const phrase = (v: number) => savingsPhrase(v, (f) => `${(f * 100).toFixed(2)}%`);

/** Thresholds of {@linkcode gateBenchReports}. */
export interface BenchGateOptions {
  /** Largest allowed drop of recall@5 per retrieval row (absolute). @default {0.01} */
  readonly recallTolerance?: number;
  /** Largest allowed drop of a mode's savings (fraction, absolute). @default {0} */
  readonly savingsTolerance?: number;
}

interface RetrievalLike {
  corpusId: string;
  goldenSetId: string;
  retriever: string;
  arm: string;
  metrics: Record<string, number>;
}
interface ModeLike {
  corpusId: string;
  tokenizer: string;
  mode: string;
  savingsNameDescription: number;
  savingsWithSchemas: number;
  withSchemasAuthoritative: boolean;
}

/**
 * Bench report checks: per retrieval row (corpus, golden set, retriever, arm) recall@5 must not
 * drop by more than `recallTolerance`; per exposure mode (corpus, tokenizer, mode other than
 * `direct`) the authoritative savings (with schemas when the report says so, else name +
 * description) must not drop by more than `savingsTolerance`. A row of the baseline missing from
 * the candidate fails.
 *
 * @param baseline Baseline bench report (`results/report.json` shape).
 * @param candidate Candidate bench report.
 * @param options Tolerances.
 * @returns Checks, retrieval rows then modes, each sorted by key.
 * @throws {GateInputError} when a report has no `modes` array.
 */
export function gateBenchReports(
  baseline: unknown,
  candidate: unknown,
  options: BenchGateOptions = {},
): GateCheck[] {
  const recallTol = options.recallTolerance ?? 0.01;
  const savingsTol = options.savingsTolerance ?? 0;
  const get = (r: unknown, role: string) => {
    const o = r as { modes?: unknown; retrieval?: unknown };
    if (!o || typeof o !== "object" || !Array.isArray(o.modes)) {
      throw new GateInputError(`the ${role} bench report has no "modes" array`);
    }
    return {
      modes: o.modes as ModeLike[],
      retrieval: (Array.isArray(o.retrieval) ? o.retrieval : []) as RetrievalLike[],
    };
  };
  const b = get(baseline, "baseline");
  const c = get(candidate, "candidate");
  const out: GateCheck[] = [];
  const rKey = (r: RetrievalLike) =>
    `${r.corpusId}/${r.goldenSetId}/${r.retriever}${r.arm ? `/${r.arm}` : ""}`;
  const cRet = new Map(c.retrieval.map((r) => [rKey(r), r]));
  const bRet = [...b.retrieval].sort((x, y) => cmp(rKey(x), rKey(y)));
  if (bRet.length === 0) {
    out.push(check("bench", "recall@5", "skip", "the baseline report has no retrieval rows"));
  }
  for (const r of bRet) {
    const key = rKey(r);
    const other = cRet.get(key);
    const bv = r.metrics["recall@5"];
    if (!other || typeof other.metrics["recall@5"] !== "number") {
      out.push(check("bench", `recall@5 ${key}`, "fail", `missing from the candidate report`));
      continue;
    }
    const cv = other.metrics["recall@5"];
    out.push(check(
      "bench",
      `recall@5 ${key}`,
      bv - cv > recallTol + 1e-12 ? "fail" : "pass",
      `${f3(bv)} → ${f3(cv)} (${signed(cv - bv)}); tolerance ${recallTol}`,
    ));
  }
  const mKey = (m: ModeLike) => `${m.corpusId}/${m.tokenizer}/${m.mode}`;
  const saving = (m: ModeLike) =>
    m.withSchemasAuthoritative ? m.savingsWithSchemas : m.savingsNameDescription;
  const cModes = new Map(c.modes.map((m) => [mKey(m), m]));
  for (
    const m of [...b.modes].filter((m) => m.mode !== "direct").sort((x, y) => cmp(mKey(x), mKey(y)))
  ) {
    const key = mKey(m);
    const other = cModes.get(key);
    if (!other) {
      out.push(check("bench", `savings ${key}`, "fail", "missing from the candidate report"));
      continue;
    }
    const bv = saving(m);
    const cv = saving(other);
    out.push(check(
      "bench",
      `savings ${key}`,
      bv - cv > savingsTol + 1e-12 ? "fail" : "pass",
      `${phrase(bv)} → ${phrase(cv)} against direct; the saving must not drop${
        savingsTol > 0 ? ` by more than ${savingsTol}` : ""
      }`,
    ));
  }
  return out;
}
