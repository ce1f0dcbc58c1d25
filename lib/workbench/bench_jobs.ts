/**
 * Bench runs started from the Catalog page: one `deno task bench` per request on a chosen
 * corpus, into `<resultsDir>/catalog/<jobId>/` (its `report.json` then opens with the bench
 * dashboard). The process is started by the injected `runBench`.
 *
 * @module
 */

import { join } from "node:path";
import type { BenchJob, BenchService } from "./app.ts";
import { WorkbenchError } from "./_paths.ts";

/** Inputs of {@linkcode createBenchService}. */
export interface BenchServiceOptions {
  /** Corpus name → catalog file. */
  readonly corpora: Readonly<Record<string, string>>;
  /** The name pre-selected on the Catalog page (ignored unless it is in `corpora`). */
  readonly defaultCorpus?: string;
  /** Results folder; jobs write to `catalog/<jobId>/` under it. */
  readonly resultsDir: string;
  /** ISO-8601 UTC now (job ids). */
  readonly isoNow: () => string;
  /**
   * Runs the bench on one corpus into `outDir`.
   *
   * @returns Exit code and the last lines of its stderr.
   */
  readonly runBench: (corpusPath: string, outDir: string) => Promise<{ code: number; log: string }>;
}

/**
 * Builds the bench service.
 *
 * @param options See {@linkcode BenchServiceOptions}.
 * @returns The service.
 */
export function createBenchService(options: BenchServiceOptions): BenchService {
  const jobs: BenchJob[] = [];
  return {
    corpora: () => Promise.resolve(Object.keys(options.corpora).sort()),
    ...(options.defaultCorpus !== undefined && Object.hasOwn(options.corpora, options.defaultCorpus)
      ? { defaultCorpus: options.defaultCorpus }
      : {}),
    start(corpus) {
      const path = options.corpora[corpus];
      if (path === undefined) {
        throw new WorkbenchError(
          400,
          `field "corpus": no corpus ${JSON.stringify(corpus)} (known: ${
            Object.keys(options.corpora).sort().join(", ")
          })`,
          "corpus",
        );
      }
      if (jobs.some((j) => j.state === "running")) {
        throw new WorkbenchError(409, "a bench run is in progress; wait for it to finish");
      }
      let jobId = `bench-${corpus}-${
        options.isoNow().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
      }`;
      while (jobs.some((j) => j.jobId === jobId)) jobId += "x";
      const outDir = join(options.resultsDir, "catalog", jobId);
      const job: { -readonly [K in keyof BenchJob]: BenchJob[K] } = {
        jobId,
        corpus,
        state: "running",
        outDir,
        log: "",
      };
      jobs.unshift(job);
      options.runBench(path, outDir).then(
        ({ code, log }) => {
          job.state = code === 0 ? "completed" : "failed";
          job.log = log;
        },
        (e) => {
          job.state = "failed";
          job.log = String((e as Error).message);
        },
      );
      return Promise.resolve({ jobId, outDir });
    },
    jobs: () => jobs.map((j) => ({ ...j })),
  };
}
