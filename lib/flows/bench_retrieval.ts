/**
 * The bench's retrieval section: every golden set × retriever × index (plain, then each index
 * arm that changes a field the retriever reads, unless its entry is `plainIndexOnly`), the cost-quality frontier of each retriever
 * but `random`, the audit and the unreachable tools of each scored set, and the paired tests
 * against `bm25`. Rows and warnings come out in golden-set order, retrievers and indexes
 * within it; each local index is built once per corpus and let go before the next is built,
 * whatever the number of golden sets scored on it.
 *
 * @module
 */
import type { Corpus } from "../catalog/types.ts";
import { alignGolden } from "../retrieval/align.ts";
import { docsFromTools } from "../retrieval/docs.ts";
import {
  auditGoldenSet,
  auditWarning,
  type BaselineComparison,
  changedIndexFields,
  compareToBaseline,
  evaluateRetrieval,
  evaluateRetrievalAsync,
  type GoldenSetAudit,
  type IndexArm,
  indexArmsFor,
  type IndexFieldName,
  type RetrievalResult,
  retrieverEntry,
  type RetrieverName,
} from "../retrieval/mod.ts";
import type { GoldenSet, RetrievalDoc, Retriever } from "../retrieval/types.ts";
import {
  type FrontierRow,
  measureFrontier,
  type UnreachableTools,
  unreachableTools,
} from "../live/frontier.ts";
import type { Tokenizer } from "../tokens/types.ts";
import { endpointContext, type RetrieverModels } from "./retriever_models.ts";

/** The retriever every other is compared against (paired tests). */
export const COMPARISON_BASELINE = "bm25";

/** Retrievers whose frontier is drawn: all but the random floor. */
const FRONTIER_SKIP = new Set(["random"]);

/** Baselines left out of the unreachable-tools count (they do not rank by text). */
const NOT_RANKING = new Set(["random", "oracle"]);

/** Where a golden set is scored: a corpus index (-1: skipped), and why when it is not plain. */
export interface GoldenTarget {
  /** Index into the corpora, or -1 when the set is skipped. */
  readonly corpus: number;
  /** The skip, or the scoring against the only corpus of a set naming another, in words. */
  readonly warning?: string;
  /** Of a skipped set: why, and what to change, without the "skipped" (for an error). */
  readonly reason?: string;
}

/** What {@linkcode scoreRetrieval} reads. */
export interface RetrievalInputs {
  /** The measured corpora (overrides applied). */
  readonly corpora: readonly Corpus[];
  /** The golden sets, with the corpus each is scored on. */
  readonly goldenSets: readonly GoldenSet[];
  readonly targets: readonly GoldenTarget[];
  /** Retrievers, in report order. */
  readonly retrievers: readonly RetrieverName[];
  /** Index arms (arms that alter the index, then `package_info`). */
  readonly indexArms: readonly IndexArm[];
  /** Counts the frontier's response tokens (the first tokenizer). */
  readonly tokenizer: Tokenizer;
  /** The endpoint retrievers' models. */
  readonly endpoints: RetrieverModels;
  readonly seed: number;
  /** Bootstrap resamples per metric. */
  readonly resamples: number;
  /** Progress lines. */
  readonly say: (message: string) => void;
  /** Called after a local index is let go (e.g. to collect its garbage). */
  readonly afterIndex?: () => void;
}

/** The retrieval section of a bench report, and the warnings met, in report order. */
export interface RetrievalSection {
  readonly retrieval: RetrievalResult[];
  readonly audits: GoldenSetAudit[];
  readonly frontier: FrontierRow[];
  readonly unreachable: UnreachableTools[];
  readonly comparisons: BaselineComparison[];
  readonly warnings: string[];
}

/**
 * Scores every retriever on every golden set that has a target corpus.
 *
 * @param inputs See {@linkcode RetrievalInputs}.
 * @returns The rows, audits, frontier rows, unreachable tools, paired tests and warnings.
 * @throws {Error} What a retriever's build or search throws (e.g. an endpoint that fails).
 */
export async function scoreRetrieval(inputs: RetrievalInputs): Promise<RetrievalSection> {
  const { corpora, goldenSets, targets } = inputs;
  const plans = corpora.map((corpus) => armsPlan(corpus, inputs));
  const scored = new Map<string, RetrievalResult>();
  const frontiers = new Map<string, FrontierRow>();
  // Index-major per corpus: an arm's documents are rendered once for every retriever scored on
  // them, and each index serves every golden set (and the frontier) before it is let go; the
  // rows are put back in report order below.
  for (const [c, corpus] of corpora.entries()) {
    const sets = goldenSets.flatMap((golden, g) => targets[g].corpus === c ? [{ golden, g }] : []);
    if (sets.length === 0) continue;
    const caches: CorpusCaches = { analysis: new Map(), items: new Map() };
    for (const arm of [undefined, ...inputs.indexArms]) {
      const retrievers = inputs.retrievers.filter((r) =>
        arm === undefined || plans[c](r).score.includes(arm)
      );
      if (retrievers.length === 0) continue;
      const armDocs = arm && docsFromTools(corpus.tools, arm.indexFields);
      for (const retriever of retrievers) {
        const indexes = new Map<number, Retriever>();
        for (const { golden, g } of sets) {
          const row = await evaluate(inputs, corpus, golden, retriever, arm, armDocs, caches, {
            indexes,
            g,
          });
          scored.set(key(g, retriever, arm), row);
        }
        if (arm === undefined && !FRONTIER_SKIP.has(retriever)) {
          for (const { golden, g } of sets) {
            const index = indexes.get(shareKey(retriever, g));
            const row = await frontier(inputs, corpus, golden, retriever, caches, index);
            frontiers.set(key(g, retriever), row);
          }
        }
        if (indexes.size > 0) {
          indexes.clear();
          inputs.afterIndex?.();
        }
      }
    }
  }
  return inReportOrder(inputs, plans, scored, frontiers);
}

/** Per corpus, memos of pure functions: exact, so they change no figure. */
interface CorpusCaches {
  /** The analysis its tfidf_classic indexes share (`RetrieverContext.analysisCache`). */
  readonly analysis: Map<string, unknown>;
  /** Each tool's response-item tokens, for the frontiers (`FrontierOptions.itemCache`). */
  readonly items: Map<string, number>;
}

/** The index arms chosen per retriever on one corpus (see {@linkcode indexArmsFor}). */
type ArmsPlan = (retriever: RetrieverName) => {
  /** The arms scored. */
  readonly score: readonly IndexArm[];
  /** The arms an endpoint retriever would have been scored on (it is not: see below). */
  readonly chosen: readonly IndexArm[];
  /** The arms skipped, with why. */
  readonly skipped: readonly { readonly arm: string; readonly reason: string }[];
};

/**
 * The arms plan of a corpus. The fields each index arm changes are rendered once per corpus,
 * when a retriever that reads fields first asks. A retriever that calls an endpoint is scored
 * on its plain index only: every arm's index would be embedded (and paid for) again.
 */
function armsPlan(corpus: Corpus, inputs: RetrievalInputs): ArmsPlan {
  let changed: Map<string, IndexFieldName[]> | undefined;
  const plans = new Map<string, ReturnType<ArmsPlan>>();
  return (retriever) => {
    let plan = plans.get(retriever);
    if (plan === undefined) {
      const entry = retrieverEntry(retriever);
      if (entry.reads.length > 0) {
        changed ??= new Map(
          inputs.indexArms.map((a) => [a.name, changedIndexFields(corpus.tools, a.indexFields)]),
        );
      }
      const chosen = indexArmsFor(retriever, corpus.tools, inputs.indexArms, changed);
      plan = {
        score: entry.endpoint === undefined ? chosen.score : [],
        chosen: chosen.score,
        skipped: chosen.skipped,
      };
      plans.set(retriever, plan);
    }
    return plan;
  };
}

/** Map key of a (golden set, retriever, index) result. */
function key(g: number, retriever: string, arm?: IndexArm): string {
  return `${g}/${retriever}/${arm?.name ?? ""}`;
}

/** Which index a golden set shares: one per corpus, or its own when the build reads the set. */
function shareKey(retriever: string, g: number): number {
  return retrieverEntry(retriever).needsGolden ? g : -1;
}

/** One retrieval row; a local retriever's index is built once into `indexes` and taken after. */
async function evaluate(
  inputs: RetrievalInputs,
  corpus: Corpus,
  golden: GoldenSet,
  retriever: RetrieverName,
  arm: IndexArm | undefined,
  armDocs: readonly RetrievalDoc[] | undefined,
  caches: CorpusCaches,
  { indexes, g }: { readonly indexes: Map<number, Retriever>; readonly g: number },
): Promise<RetrievalResult> {
  inputs.say(`${golden.id}: ${retriever}${arm ? ` on ${arm.name} index` : ""}`);
  const entry = retrieverEntry(retriever);
  const local = !entry.asyncBuild && entry.endpoint === undefined;
  const common = {
    corpus,
    golden,
    arm,
    ...(armDocs === undefined ? {} : { armDocs }),
    seed: inputs.seed,
    resamples: inputs.resamples,
  };
  if (!local) {
    return entry.asyncBuild
      ? await evaluateRetrievalAsync({
        ...common,
        retriever,
        ...endpointContext(retriever, inputs.endpoints),
        progress: (m) => inputs.say(`${golden.id}: ${m}`),
      })
      : evaluateRetrieval({ ...common, retriever });
  }
  const share = shareKey(retriever, g);
  return evaluateRetrieval({
    ...common,
    retriever: (docs, context) => {
      let index = indexes.get(share);
      if (index === undefined) indexes.set(share, index = entry.create(docs, context) as Retriever);
      return index;
    },
    analysisCache: caches.analysis,
  });
}

/** The frontier row of a retriever on a golden set, on its plain index when one is at hand. */
async function frontier(
  inputs: RetrievalInputs,
  corpus: Corpus,
  golden: GoldenSet,
  retriever: RetrieverName,
  caches: CorpusCaches,
  index: Retriever | undefined,
): Promise<FrontierRow> {
  const aligned = alignGolden(golden, new Set(corpus.tools.map((t) => t.id)));
  const built = index ?? await retrieverEntry(retriever).create(docsFromTools(corpus.tools), {
    seed: inputs.seed,
    golden: aligned,
    ...endpointContext(retriever, inputs.endpoints),
  });
  await built.prepare?.([...aligned.queries.values()]);
  return measureFrontier({
    retriever: built,
    golden: aligned,
    corpus,
    tokenizer: inputs.tokenizer,
    itemCache: caches.items,
  });
}

/** The rows, audits and warnings in golden-set order, retrievers and indexes within it. */
function inReportOrder(
  inputs: RetrievalInputs,
  plans: readonly ArmsPlan[],
  scored: ReadonlyMap<string, RetrievalResult>,
  frontiers: ReadonlyMap<string, FrontierRow>,
): RetrievalSection {
  const out: RetrievalSection = {
    retrieval: [],
    audits: [],
    frontier: [],
    unreachable: [],
    comparisons: [],
    warnings: [],
  };
  const { corpora, goldenSets, targets } = inputs;
  for (const [g, golden] of goldenSets.entries()) {
    const target = targets[g];
    if (target.warning !== undefined) out.warnings.push(target.warning);
    if (target.corpus < 0) continue;
    const corpus = corpora[target.corpus];
    const audit = auditGoldenSet(golden, corpus);
    out.audits.push(audit);
    const easy = auditWarning(audit);
    if (easy !== undefined) out.warnings.push(easy);
    for (const retriever of inputs.retrievers) {
      const entry = retrieverEntry(retriever);
      const arms = plans[target.corpus](retriever);
      if (entry.endpoint !== undefined && arms.chosen.length > 0) {
        out.warnings.push(
          `${golden.id}/${retriever} scored on its plain index only: the ${
            arms.chosen.map((a) => a.name).join(", ")
          } indexes would each call the ${entry.endpoint} endpoint again`,
        );
      }
      for (const skip of arms.skipped) {
        out.warnings.push(
          `${golden.id}/${retriever} on the ${skip.arm} index not scored: ${skip.reason}`,
        );
      }
      for (const arm of [undefined, ...arms.score]) {
        const result = scored.get(key(g, retriever, arm))!;
        out.warnings.push(...resultWarnings(golden, retriever, result));
        out.retrieval.push(result);
      }
      const row = frontiers.get(key(g, retriever));
      if (row !== undefined) out.frontier.push(row);
    }
    out.unreachable.push(unreachableTools(
      golden.id,
      corpus,
      out.retrieval.filter((r) =>
        r.goldenSetId === golden.id && r.arm === null && !NOT_RANKING.has(r.retriever)
      ).flatMap((r) => r.perQuery.map((q) => q.topIds)),
    ));
  }
  out.comparisons.push(
    ...compareToBaseline(out.retrieval, { seed: inputs.seed, baseline: COMPARISON_BASELINE }),
  );
  return out;
}

/** What a row's queries met: drops, repairs, endpoint failures. */
function resultWarnings(golden: GoldenSet, retriever: string, result: RetrievalResult): string[] {
  const warnings: string[] = [];
  if (result.dropped.count > 0) {
    warnings.push(
      `${golden.id}/${retriever}: ${result.dropped.count} queries dropped (${
        Object.entries(result.dropped.reasons).map(([k, v]) => `${k}: ${v}`).join(", ")
      })`,
    );
  }
  const repaired = result.perQuery.filter((q) => q.notes !== undefined).length;
  if (repaired > 0) {
    warnings.push(
      `${golden.id}/${retriever}: ${repaired} of ${result.queryCount} queries needed repairs (see perQuery[].notes)`,
    );
  }
  const failures = result.cost?.failures;
  if (failures !== undefined) {
    warnings.push(
      `${golden.id}/${retriever}: ${failures.count} ${
        retrieverEntry(retriever).endpoint
      } calls failed after retries (first: ${failures.examples[0]})`,
    );
  }
  return warnings;
}
