/**
 * Seeded statistics for mcpmeter: a documented PRNG (Mulberry32), seeded subsets, bootstrap
 * confidence intervals, a paired randomization test and nearest-rank percentiles.
 *
 * Nothing here reads the clock or `Math.random`; every random draw comes from a seed the caller
 * passes in and records.
 *
 * @example Usage
 * ```ts
 * import { bootstrapMeanCi, percentileNearestRank } from "./mod.ts";
 * const ci = bootstrapMeanCi([0, 1, 1, 0, 1], { seed: 42, resamples: 1000 });
 * if (!(ci.lo <= ci.mean && ci.mean <= ci.hi)) throw new Error("unexpected");
 * if (percentileNearestRank([3, 1, 2], 50) !== 2) throw new Error("unexpected");
 * ```
 *
 * @module
 */

export { createRng, deriveSeed, hashString, type Rng } from "./prng.ts";
export { sampleSubset } from "./sample.ts";
export { type BootstrapInterval, bootstrapMeanCi, type BootstrapOptions } from "./bootstrap.ts";
export { pairedTest, type PairedTestOptions, type PairedTestResult } from "./paired.ts";
export { percentileNearestRank } from "./percentile.ts";
export { type WilsonInterval, wilsonInterval, Z_95 } from "./wilson.ts";
export { passAtK, passHatK } from "./pass_at_k.ts";
export { type Flakiness, flakiness } from "./flakiness.ts";
export { type DifferenceInterval, newcombeInterval } from "./newcombe.ts";
export {
  type Alternative,
  type ClusterPermutationOptions,
  type ClusterPermutationResult,
  clusterPermutationTest,
} from "./cluster_permutation.ts";
export {
  cohensKappa,
  type Confusion,
  confusion,
  type Kappa,
  majority,
  type RaterAgreement,
  raterAgreement,
} from "./agreement.ts";
