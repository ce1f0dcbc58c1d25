/**
 * Bench runs started from the Catalog page: the catalogs it lists (the reference corpus,
 * catalogs captured with `deno task capture` into `results/captures/`, LiveMCPBench when it is
 * beside the checkout, any other folder given), any catalog file the user names, and the golden
 * sets scored with each: every known set whose `corpus_version` is the catalog's id, plus one the
 * user names. One `deno task bench` per request into `<resultsDir>/catalog/<jobId>/` (its
 * `report.json` then opens with the bench dashboard); the process is started by the injected
 * `runBench`.
 *
 * @module
 */

import { basename, join } from "node:path";
import type { BenchJob, BenchRequest, BenchService, CatalogEntry } from "./app.ts";
import { typedPath, WorkbenchError } from "./_paths.ts";
import { loadCatalog } from "../catalog/load.ts";

/** A folder of catalogs (every `*.tools.json` in it) or one catalog file, and its source label. */
export interface CatalogSource {
  /** A folder: each `*.tools.json` in it is listed (a missing folder lists nothing). */
  readonly dir?: string;
  /** One file (listed when it exists). */
  readonly file?: string;
  /** Name of the file when listed (default: its stem). */
  readonly name?: string;
  /** Label shown, e.g. `captured`. */
  readonly source: string;
  /** Prefix of the names of a folder's catalogs, e.g. `captures/`. */
  readonly prefix?: string;
}

/** Inputs of {@linkcode createBenchService}. */
export interface BenchServiceOptions {
  /** Where catalogs are listed from, in display order. */
  readonly catalogs: readonly CatalogSource[];
  /** Golden set files matched to catalogs by their `corpus_version`. */
  readonly goldenSets: readonly string[];
  /** The name pre-selected on the Catalog page (ignored unless it is listed). */
  readonly defaultCorpus?: string;
  /** Results folder; jobs write to `catalog/<jobId>/` under it. */
  readonly resultsDir: string;
  /** The home folder, for a named path starting with `~`. */
  readonly home?: string;
  /** ISO-8601 UTC now (job ids). */
  readonly isoNow: () => string;
  /**
   * Runs the bench on one catalog with these golden sets (none: `--golden none`) into `outDir`.
   *
   * @returns Exit code and the last lines of its stderr.
   */
  readonly runBench: (
    input: { readonly corpus: string; readonly golden: readonly string[] },
    outDir: string,
  ) => Promise<{ code: number; log: string }>;
}

const stemOf = (file: string) => basename(file).replace(/\.json$/i, "").replace(/\.tools$/i, "");

async function isFile(path: string): Promise<boolean> {
  return await Deno.stat(path).then((s) => s.isFile, () => false);
}

/** A golden set's `corpus_version` (`null` when the file is not one). */
async function corpusVersion(path: string): Promise<string | null> {
  try {
    const doc = JSON.parse(await Deno.readTextFile(path));
    return typeof doc?.corpus_version === "string" ? doc.corpus_version : null;
  } catch {
    return null;
  }
}

/**
 * Builds the bench service.
 *
 * @param options See {@linkcode BenchServiceOptions}.
 * @returns The service.
 */
export function createBenchService(options: BenchServiceOptions): BenchService {
  const jobs: { -readonly [K in keyof BenchJob]: BenchJob[K] }[] = [];
  // A catalog is read once per content change (path + modification time).
  const described = new Map<
    string,
    Promise<Pick<CatalogEntry, "corpusId" | "tools" | "problem">>
  >();
  const describe = async (path: string) => {
    const mtime = (await Deno.stat(path).catch(() => null))?.mtime?.getTime() ?? 0;
    const key = `${path}\u0000${mtime}`;
    if (!described.has(key)) {
      described.set(
        key,
        loadCatalog(path).then(
          (c) => ({ corpusId: c.id, tools: c.tools.length }),
          (e) => ({ corpusId: null, tools: null, problem: (e as Error).message.split("\n")[0] }),
        ),
      );
    }
    return await described.get(key)!;
  };
  const goldenFor = async (corpusId: string | null) => {
    if (corpusId === null) return [];
    const out: string[] = [];
    for (const g of options.goldenSets) if (await corpusVersion(g) === corpusId) out.push(g);
    return out;
  };
  const entry = async (path: string, name: string, source: string): Promise<CatalogEntry> => {
    const d = await describe(path);
    return { name, path, source, ...d, golden: await goldenFor(d.corpusId) };
  };
  const catalogs = async (): Promise<CatalogEntry[]> => {
    const out: CatalogEntry[] = [];
    for (const s of options.catalogs) {
      if (s.file !== undefined) {
        if (await isFile(s.file)) out.push(await entry(s.file, s.name ?? stemOf(s.file), s.source));
        continue;
      }
      const files: string[] = [];
      try {
        for await (const e of Deno.readDir(s.dir!)) {
          if (e.isFile && e.name.endsWith(".tools.json")) files.push(e.name);
        }
      } catch { /* a folder not made yet lists nothing */ }
      for (const f of files.sort()) {
        out.push(await entry(join(s.dir!, f), `${s.prefix ?? ""}${stemOf(f)}`, s.source));
      }
    }
    return out;
  };
  const named = (path: string) => typedPath(path, options.home);
  return {
    catalogs,
    ...(options.defaultCorpus !== undefined ? { defaultCorpus: options.defaultCorpus } : {}),
    async start(request: BenchRequest) {
      let corpus: string;
      let label: string;
      let golden: string[];
      if (typeof request.path === "string" && request.path.trim() !== "") {
        corpus = named(request.path.trim());
        if (!(await isFile(corpus))) {
          throw new WorkbenchError(400, `field "path": no file ${JSON.stringify(corpus)}`, "path");
        }
        const d = await describe(corpus);
        if (d.problem !== undefined) {
          throw new WorkbenchError(400, `field "path": ${corpus} ${d.problem}`, "path");
        }
        label = corpus;
        golden = await goldenFor(d.corpusId);
      } else {
        const all = await catalogs();
        const found = all.find((c) => c.name === request.corpus);
        if (found === undefined) {
          throw new WorkbenchError(
            400,
            `field "corpus": no catalog ${JSON.stringify(request.corpus ?? "")} (listed: ${
              all.map((c) => c.name).join(", ")
            }); or name a file in "path"`,
            "corpus",
          );
        }
        if (found.problem !== undefined) {
          throw new WorkbenchError(400, `field "corpus": ${found.path} ${found.problem}`, "corpus");
        }
        [corpus, label, golden] = [found.path, found.name, [...found.golden]];
      }
      if (typeof request.golden === "string" && request.golden.trim() !== "") {
        const g = named(request.golden.trim());
        if (!(await isFile(g))) {
          throw new WorkbenchError(400, `field "golden": no file ${JSON.stringify(g)}`, "golden");
        }
        if (!golden.includes(g)) golden.push(g);
      }
      if (jobs.some((j) => j.state === "running")) {
        throw new WorkbenchError(409, "a bench run is in progress; wait for it to finish");
      }
      const stem = label.includes("/") ? stemOf(label) : label;
      let jobId = `bench-${stem.replace(/[^A-Za-z0-9._-]/g, "_")}-${
        options.isoNow().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
      }`;
      while (jobs.some((j) => j.jobId === jobId)) jobId += "x";
      const outDir = join(options.resultsDir, "catalog", jobId);
      const job = {
        jobId,
        corpus: label,
        golden,
        state: "running" as BenchJob["state"],
        outDir,
        log: "",
        retrievalRows: null as number | null,
      };
      jobs.unshift(job);
      options.runBench({ corpus, golden }, outDir).then(
        async ({ code, log }) => {
          job.log = log;
          if (code === 0) {
            const report = await Deno.readTextFile(join(outDir, "report.json")).then(
              (t) => JSON.parse(t),
              () => null,
            );
            job.retrievalRows = Array.isArray(report?.retrieval) ? report.retrieval.length : null;
          }
          job.state = code === 0 ? "completed" : "failed";
        },
        (e) => {
          job.state = "failed";
          job.log = String((e as Error).message);
        },
      );
      return { jobId, outDir, golden };
    },
    jobs: () => jobs.map((j) => ({ ...j, golden: [...j.golden] })),
  };
}
