// deno task bench: what a tool catalog costs in context tokens under each exposure mode
// (lib/flows/bench.ts), written to results/report.json and results/dashboard.html.
import * as bench from "../lib/flows/bench/mod.ts";
import { displayPath, fromRoot, intFlag, IO, listFlag, parseFlags, runMain } from "./_cli.ts";
import { RETRIEVER_MODEL_FLAGS, retrieverModelOptions } from "./_retriever_flags.ts";
import { basename, join } from "node:path";
import { printable } from "../lib/catalog/mod.ts";

/**
 * `--corpus` paths the bench can read more than once (its tools, then its bytes for the wire
 * layer): a pipe (`--corpus <(jq ...)`, a named pipe) holds its bytes for one read, so it is
 * read whole now into a file of the same name in a temporary folder; other paths as given.
 */
async function rereadable(paths: readonly string[]): Promise<{ paths: string[]; dir?: string }> {
  let dir: string | undefined;
  const out: string[] = [];
  for (const [i, path] of paths.entries()) {
    const info = await Deno.stat(path).catch(() => undefined); // the loader says what is wrong
    if (info === undefined || info.isFile || info.isDirectory) {
      out.push(path);
      continue;
    }
    dir ??= await Deno.makeTempDir({ prefix: "mcpmeter-corpus-" });
    const copy = join(dir, String(i), basename(path));
    await Deno.mkdir(join(dir, String(i)));
    await Deno.writeFile(copy, await Deno.readFile(path));
    out.push(copy);
  }
  return dir === undefined ? { paths: out } : { paths: out, dir };
}

function flags(args: string[]) {
  return parseFlags(args, {
    corpus: { type: "string", multiple: true, path: true },
    format: { type: "string" },
    tokenizers: { type: "string" },
    "proxy-catalog": { type: "string", path: true },
    "code-catalog": { type: "string", path: true },
    "proxy-servers": { type: "string", path: true },
    arms: { type: "string" },
    golden: { type: "string", multiple: true, path: { except: ["none"] } },
    retrievers: { type: "string" },
    ...RETRIEVER_MODEL_FLAGS,
    "hosted-search": { type: "string" },
    "hosted-search-variant": { type: "string" },
    "package-info": { type: "string", path: true },
    resamples: { type: "string" },
    "tool-results": { type: "string", path: { except: ["none"] } },
    live: { type: "boolean" },
    endpoint: { type: "string" },
    header: { type: "string", multiple: true },
    "discovery-tool": { type: "string" },
    "query-arg": { type: "string" },
    overrides: { type: "string", path: true },
    "count-with": { type: "string", multiple: true },
    "count-per-tool": { type: "boolean" },
    calibration: { type: "string", path: true },
    "cost-layers": { type: "string" },
    out: { type: "string", path: true },
    seed: { type: "string" },
    help: { type: "boolean", short: "h" },
  }).values;
}

async function main(args: string[]): Promise<number> {
  const f = flags(args);
  if (f.help) {
    console.log(bench.benchHelp());
    return 0;
  }
  const started = IO.now();
  const piped = f.corpus ? await rereadable(f.corpus) : undefined;
  try {
    return await run(f, piped?.paths, started);
  } finally {
    if (piped?.dir !== undefined) await Deno.remove(piped.dir, { recursive: true });
  }
}

async function run(
  f: ReturnType<typeof flags>,
  corpora: string[] | undefined,
  started: number,
): Promise<number> {
  const { BENCH_DEFAULTS } = bench;
  const headers = bench.parseHeaderFlags(f.header);
  const options: bench.RunBenchOptions = {
    seed: intFlag("seed", f.seed, BENCH_DEFAULTS.seed),
    resamples: intFlag("resamples", f.resamples, BENCH_DEFAULTS.resamples, 1),
    ...(corpora ? { corpora } : {}),
    ...(f.format ? { format: f.format } : {}),
    ...(f.tokenizers !== undefined ? { tokenizers: listFlag("tokenizers", f.tokenizers) } : {}),
    ...(f["proxy-catalog"] ? { proxyCatalog: f["proxy-catalog"] } : {}),
    ...(f["proxy-servers"] ? { proxyServers: f["proxy-servers"] } : {}),
    ...(f["code-catalog"] ? { codeCatalog: f["code-catalog"] } : {}),
    ...(f.arms !== undefined ? { arms: f.arms } : {}),
    ...(f.golden ? { golden: f.golden } : {}),
    ...(f.retrievers !== undefined ? { retrievers: listFlag("retrievers", f.retrievers) } : {}),
    ...retrieverModelOptions(f, bench.DEFAULT_RERANK_K),
    ...(f["hosted-search"] ? { hostedSearch: f["hosted-search"] } : {}),
    ...(f["hosted-search-variant"] ? { hostedSearchVariant: f["hosted-search-variant"] } : {}),
    ...(f["package-info"] ? { packageInfo: f["package-info"] } : {}),
    ...(f["tool-results"] ? { toolResults: f["tool-results"] } : {}),
    ...(f.live ? { live: true } : {}),
    ...(f.endpoint ? { endpoint: f.endpoint, headers } : f.header ? { headers } : {}),
    ...(f["discovery-tool"] ? { discoveryTool: f["discovery-tool"] } : {}),
    ...(f["query-arg"] ? { queryArg: f["query-arg"] } : {}),
    ...(f.overrides ? { overrides: f.overrides } : {}),
    ...(f["count-with"] ? { countWith: f["count-with"] } : {}),
    ...(f["count-per-tool"] ? { countPerTool: true } : {}),
    ...(f.calibration ? { calibration: f.calibration } : {}),
    ...(f["cost-layers"] === "none" ? { costLayers: false } : {}),
  };
  bench.checkBenchOptions(options, IO);
  // Fail on an unwritable --out now, not after the work.
  const outDir = f.out ?? fromRoot(BENCH_DEFAULTS.out);
  await bench.checkOutFolder(outDir);
  const report = await bench.runBench(options, IO);
  const paths = await bench.writeBenchResults(report, outDir, IO);
  // The summary names catalogs, servers and tools: their control characters shown escaped.
  for (const line of bench.benchSummaryLines(report)) console.log(printable(line));
  const seconds = ((IO.now() - started) / 1000).toFixed(1);
  console.log(
    `wrote ${displayPath(paths.reportPath)} and ${
      displayPath(paths.dashboardPath)
    } in ${seconds} s`,
  );
  const failure = bench.benchFailure(report);
  if (failure !== null) throw new Error(failure);
  return 0;
}

if (import.meta.main) await runMain("bench", () => main(Deno.args));
