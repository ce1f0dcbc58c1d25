/**
 * Where the bench's jobs run (pure planning; the pool in lib/flows/bench_pool.ts follows it):
 * which jobs must share a lane (chains), what each chain is estimated to cost, the order lanes
 * claim chains in, and how many groups the encoding arms split into. Placement never changes a
 * result (each job's result depends on the job and the context alone), only how long the lanes
 * take; so the estimates below may be rough, and are.
 *
 * The estimates are CPU seconds per 10,000 tools, measured in bench runs on synth_10000_s1
 * (seed 1, the reference_v1.test golden set, both tokenizers; per job, the thread's own CPU
 * time from /proc/thread-self/stat; load 3-8 while measured), and scale with the corpus's tools.
 *
 * @module
 */
import type { BenchJob } from "./bench_jobs.ts";

/**
 * What each arm adds to an arms job beyond {@linkcode ARM_BASE_WEIGHT}, over both tokenizers.
 * Measured in two-lane bench runs on synth_10000_s1 (load 3-8, thread CPU per job): a fresh
 * lane's toon_listing group (with the baseline) 5.6-6.6 s, the group of every other arm after
 * the modes job 2.6-4.0 s, every arm in one job after the modes job 5.7-6.7 s: once the baseline
 * has filled the tokenizers' shared counts, the arms that hold descriptions and schema texts
 * verbatim cost little more; TOON's listing (its own rendering, counted in full) costs about as
 * much as the baseline. An arm not listed weighs 0.5.
 */
const ARM_WEIGHTS: Readonly<Record<string, number>> = {
  baseline_json: 0,
  toon_listing: 3,
  markdown: 0.2,
  tron_dedup: 0.1,
  minified_json: 0.1,
  compact_sig: 0.1,
};

/**
 * What every arms job costs whatever its arms (same measurement as {@linkcode ARM_WEIGHTS}):
 * the baseline rendered and counted for the savings, each tool's fragile literals, and the
 * shared counts of every description and schema text on a lane that has none yet.
 */
const ARM_BASE_WEIGHT = 3;

/**
 * The catalog-cost (modes) job: alone 1.0-1.2 s; before the arms on the same lane 0.4 s more
 * than the arms alone (both count every description and schema text through the tokenizers'
 * shared counts, whose memo the first fills and the second reads: lib/tokens/shared_counts.ts).
 */
const MODES_WEIGHT = 1.1;
const MODES_BEFORE_ARMS_WEIGHT = 0.4;

/**
 * A retrieval job (per index: plain, or an index arm's), and a frontier job, per retriever,
 * measured as above (bm25 1.53 s plain, its frontier 0.21 s; tfidf_classic 1.05 s plain, 0.32 s
 * on compact_sig's index and 1.0 s on markdown's, its frontier 0.17 s; random and oracle under
 * 0.05 s). Any other retriever (dense, hybrid, rerank, expand: their own endpoints) weighs the
 * default.
 */
const RETRIEVAL_WEIGHTS: Readonly<
  Record<string, { readonly plain: number; readonly arm: number; readonly frontier: number }>
> = {
  bm25: { plain: 1.5, arm: 1.5, frontier: 0.2 },
  tfidf_classic: { plain: 1.05, arm: 0.65, frontier: 0.17 },
  random: { plain: 0.03, arm: 0.03, frontier: 0.01 },
  oracle: { plain: 0.02, arm: 0.02, frontier: 0.01 },
};
const DEFAULT_RETRIEVAL_WEIGHT = { plain: 1, arm: 1, frontier: 0.2 };

/** A paired-test job (its size does not grow with the corpus): 0.01-0.08 s. */
const COMPARE_WEIGHT = 0.05;

/**
 * The estimated CPU cost of one job, in seconds at this machine's speed (see the module doc).
 *
 * @param job A bench job.
 * @param tools Tools per corpus, by the jobs' corpus index.
 * @param armNames The arm names the arms jobs' `arms` index (every arm when a job lists none).
 * @returns The estimate, ≥ 0.
 */
export function jobWeight(
  job: BenchJob,
  tools: readonly number[],
  armNames: readonly string[] = [],
): number {
  if (job.kind === "compare") return COMPARE_WEIGHT;
  const scale = (tools[job.corpus] ?? 10_000) / 10_000;
  switch (job.kind) {
    case "modes":
      return MODES_WEIGHT * scale;
    case "arms": {
      const arms = job.arms ?? armNames.map((_, i) => i);
      return (ARM_BASE_WEIGHT + arms.reduce((w, a) => w + armWeight(armNames[a]), 0)) * scale;
    }
    case "retrieval": {
      const w = RETRIEVAL_WEIGHTS[job.retriever] ?? DEFAULT_RETRIEVAL_WEIGHT;
      return (job.arm === null ? w.plain : w.arm) * scale;
    }
    case "frontier":
      return (RETRIEVAL_WEIGHTS[job.retriever] ?? DEFAULT_RETRIEVAL_WEIGHT).frontier * scale;
  }
}

function armWeight(name: string | undefined): number {
  return name === undefined ? 0.5 : ARM_WEIGHTS[name] ?? 0.5;
}

/** The chains of a job list (see {@linkcode planChains}), each with its estimated cost. */
export interface ChainPlan {
  /** Chains of jobs only the calling thread runs (endpoint retrievers), in list order. */
  readonly local: readonly (readonly number[])[];
  /** Chains any lane may run, in claim order (the costliest first). */
  readonly shared: readonly (readonly number[])[];
  /** Estimated cost of each shared chain, in the same order. */
  readonly weights: readonly number[];
}

/**
 * The jobs as chains, each chain's jobs in list order: the jobs of one chain run on one lane,
 * one after another, so what one leaves in its lane's exact caches is there for the next. A
 * retriever's retrieval and frontier jobs over one corpus are a chain (its index for its other
 * golden sets, the saved hits its frontier re-reads); a corpus's catalog-cost (modes) job and its
 * first arms job are a chain (they count the same description and schema texts, which the
 * tokenizers' shared counts count once per lane); each other arms job (a group of arms) and each
 * paired-test job is its own. Local chains (endpoint retrievers) are listed apart.
 *
 * The shared chains are in claim order: the costliest first by {@linkcode jobWeight} (the modes
 * job before arms at {@linkcode MODES_BEFORE_ARMS_WEIGHT}), then list order; so the lanes that
 * claim from the front take the long chains while they are many, and the short ones end the run.
 *
 * @param jobs The bench's jobs.
 * @param tools Tools per corpus, by the jobs' corpus index. @default {10,000 each}
 * @param armNames The arms the arms jobs index. @default {none: each arm weighs 0.5}
 * @returns The chains of job indices and their estimated costs.
 */
export function planChains(
  jobs: readonly BenchJob[],
  tools: readonly number[] = [],
  armNames: readonly string[] = [],
): ChainPlan {
  const byKey = new Map<string, number[]>();
  const armsOf = new Set<number>();
  for (const [i, job] of jobs.entries()) {
    const where = job.local ? "local" : "shared";
    let key: string;
    switch (job.kind) {
      case "retrieval":
      case "frontier":
        key = `${where}/retrieval/${job.corpus}/${job.retriever}`;
        break;
      case "modes":
        key = `${where}/counts/${job.corpus}`;
        break;
      case "arms":
        key = armsOf.has(job.corpus) ? `${where}/arms/${i}` : `${where}/counts/${job.corpus}`;
        armsOf.add(job.corpus);
        break;
      case "compare":
        key = `${where}/compare/${i}`;
    }
    const chain = byKey.get(key);
    if (chain === undefined) byKey.set(key, [i]);
    else chain.push(i);
  }
  const weigh = (chain: readonly number[]) =>
    chain.reduce((w, i) => {
      const job = jobs[i];
      const before = job.kind === "modes" && chain.some((j) => jobs[j].kind === "arms");
      const scale = job.kind === "compare" ? 1 : (tools[job.corpus] ?? 10_000) / 10_000;
      return w + (before ? MODES_BEFORE_ARMS_WEIGHT * scale : jobWeight(job, tools, armNames));
    }, 0);
  const chains = [...byKey.values()].map((chain) => ({ chain, weight: weigh(chain) }));
  const shared = chains.filter((c) => !jobs[c.chain[0]].local)
    .sort((a, b) => b.weight - a.weight || a.chain[0] - b.chain[0]);
  return {
    local: chains.filter((c) => jobs[c.chain[0]].local).map((c) => c.chain),
    shared: shared.map((c) => c.chain),
    weights: shared.map((c) => c.weight),
  };
}

/**
 * The estimated time until the last of `lanes` lanes is done with chains of these costs (in
 * claim order), claimed as the pool claims them ({@linkcode claimChain}): each lane, when it is
 * free, takes the next chain; the workers from the front (the costliest first), the calling
 * thread (lane 0) from `mainEnd`. With one lane, the sum.
 *
 * @param weights Chain costs in claim order.
 * @param lanes Lanes, ≥ 1 (the calling thread and `lanes - 1` workers).
 * @param mainEnd The end the calling thread claims from. @default {"front"}
 * @returns The estimated makespan, in the weights' unit.
 */
export function makespan(
  weights: readonly number[],
  lanes: number,
  mainEnd: "front" | "back" = "front",
): number {
  if (lanes <= 1) return weights.reduce((a, b) => a + b, 0);
  const free = new Array<number>(lanes).fill(0);
  let front = 0;
  let back = weights.length - 1;
  while (front <= back) {
    // The lane free first claims (the calling thread, lane 0, on a tie).
    let lane = 0;
    for (let l = 1; l < lanes; l++) if (free[l] < free[lane]) lane = l;
    free[lane] += weights[lane === 0 && mainEnd === "back" ? back-- : front++];
  }
  return Math.max(...free);
}

/**
 * The end the calling thread claims from, of the two, whose {@linkcode makespan} is shorter:
 * the front (every lane takes the costliest chain left: longest-first list scheduling) or the
 * back (it takes the cheapest, leaving the costly chains to the workers). The back on a tie:
 * the calling thread also assembles the report once the jobs are done.
 *
 * @param weights Chain costs in claim order.
 * @param lanes Lanes, ≥ 1.
 * @returns The end and its makespan.
 */
export function mainClaimEnd(
  weights: readonly number[],
  lanes: number,
): { readonly end: "front" | "back"; readonly span: number } {
  const front = makespan(weights, lanes, "front");
  const back = makespan(weights, lanes, "back");
  return front < back - 1e-9 ? { end: "front", span: front } : { end: "back", span: back };
}

/**
 * Splits the arms into at most `lanes` groups, one arms job each per corpus, so lanes may render
 * and count them side by side; each group measures `baseline_json` (and the shared counts of
 * every description and schema text) again, so a split pays only when a lane would otherwise
 * wait. For each group count the arms go heaviest first into the lightest group; the count whose
 * jobs, beside `others` (the bench's other jobs), give the shortest makespan
 * ({@linkcode mainClaimEnd}) wins,
 * the fewer groups on a tie. Each group in arm order, the groups by their first arm. The rows
 * are the same whatever the groups (`mergeArmRows`).
 *
 * @param armNames The arms, in report order.
 * @param lanes Parallel lanes, ≥ 1.
 * @param others The bench's other jobs (modes, retrieval, frontier). @default {none}
 * @param tools Tools per corpus (the arms are measured on each). @default {one corpus of 10,000}
 * @returns Groups of indices into `armNames`; one group of every arm for one lane.
 */
export function armGroups(
  armNames: readonly string[],
  lanes: number,
  others: readonly BenchJob[] = [],
  tools: readonly number[] = [10_000],
): number[][] {
  const heaviest = armNames.map((_, i) => i).sort((a, b) =>
    armWeight(armNames[b]) - armWeight(armNames[a]) || a - b
  );
  let best: { readonly groups: number[][]; readonly span: number } | undefined;
  for (let count = 1; count <= Math.max(1, Math.min(lanes, armNames.length)); count++) {
    const split = Array.from({ length: count }, () => ({ arms: [] as number[], weight: 0 }));
    for (const arm of heaviest) {
      const lightest = split.reduce((l, g) => g.weight < l.weight ? g : l);
      lightest.arms.push(arm);
      lightest.weight += armWeight(armNames[arm]);
    }
    const groups = split.map((g) => g.arms.sort((a, b) => a - b)).sort((a, b) => a[0] - b[0]);
    const arms: BenchJob[] = tools.flatMap((_, corpus) =>
      groups.map((g) => ({
        kind: "arms" as const,
        corpus,
        tokenizers: [],
        arms: g,
        local: false,
        label: "",
      }))
    );
    const { span } = mainClaimEnd(planChains([...others, ...arms], tools, armNames).weights, lanes);
    if (best === undefined || span < best.span - 1e-9) best = { groups, span };
  }
  return best!.groups;
}

/**
 * Chains shared by the lanes of one batch: `chains[k]` is a chain of jobs (each with its index
 * in the bench's list) that one lane runs in order; `claim` is `[claimed, stop flag, taken from
 * the front, taken from the back]` over a SharedArrayBuffer (see {@linkcode claimChain}).
 */
export interface ClaimableBatch<T> {
  /** The chains, in claim order. */
  readonly chains: readonly T[];
  /** `[claimed, stop flag, front, back]`, Int32 over a SharedArrayBuffer of 16 bytes. */
  readonly claim: Int32Array;
}

/**
 * The claim counters of a batch: four Int32 over a new SharedArrayBuffer.
 *
 * @returns `[claimed, stop flag, front, back]`, all 0.
 */
export function newClaim(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(16));
}

/**
 * Claims the next chain of a batch from one end, or none when every chain is claimed or a lane
 * set the stop flag. Every chain is claimed once whatever the lanes and ends: a claim first
 * takes one of `chains.length` tickets (`claim[0]`), then the next index from its end
 * (`claim[2]` from the front, `claim[3]` from the back); the tickets taken bound the two ends
 * together, so they never meet on one chain.
 *
 * @param batch The shared batch.
 * @param end `front` (the costliest first: workers) or `back` (the calling thread).
 * @returns The chain, or undefined.
 */
export function claimChain<T>(batch: ClaimableBatch<T>, end: "front" | "back"): T | undefined {
  const { chains, claim } = batch;
  if (Atomics.load(claim, 1) !== 0) return undefined;
  if (Atomics.add(claim, 0, 1) >= chains.length) return undefined;
  return end === "front"
    ? chains[Atomics.add(claim, 2, 1)]
    : chains[chains.length - 1 - Atomics.add(claim, 3, 1)];
}
