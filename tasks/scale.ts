// deno task scale: the scale benchmark. Wall time and peak RSS of the whole default bench
// (modes, scaling, heaviest, all arms, both tokenizers, every retriever and index, retrieval on
// the reference golden set) on synthetic catalogs of 1k, 10k, 40k and 100k tools, plus the
// default bench on the reference corpus. Each bench runs as its own process; its peak RSS is
// the kernel's high-water mark (VmHWM in /proc/PID/status), sampled every 50 ms.
import { join } from "node:path";
import {
  displayPath,
  fromRoot,
  intFlag,
  parseFlags,
  progress,
  runMain,
  taskRunArgs,
  UsageError,
} from "./_cli.ts";

const HELP = `mcpmeter scale — time and peak memory of deno task bench against catalog size

Usage: deno task scale [--sizes LIST] [--seed S] [--out DIR] [--no-default]

Generates (once, with deno task synth) a catalog of each size, runs the whole default
bench on it (retrieval scored on fixtures/golden/reference_v1.test.json, whose tools every
synthetic catalog of 1,389 tools or more contains; smaller ones are not scored), and prints
wall seconds and peak RSS. Runs the default bench on the reference corpus first.
Results: DIR/scale.json.

Options:
  --sizes LIST   Comma-separated tool counts (default 1000,10000,40000,100000)
  --seed S       Seed of the synthetic catalogs (default 1)
  --out DIR      Catalogs, bench outputs and scale.json (default results/scale)
  --no-default   Skip the default bench on the reference corpus
  --help         This text

Long: 100,000 tools take minutes on a loaded 2-core machine. Do not run it in a loop.`;

/** Tools of fixtures/corpora/reference_v1.tools.json (the golden set's corpus). */
const REFERENCE_TOOLS = 1389;

interface Row {
  readonly label: string;
  readonly tools: number | null;
  readonly wallSeconds: number;
  readonly peakRssMb: number | null;
  readonly exitCode: number;
}

/**
 * Peak RSS (MB) of a running process, from /proc; null when unreadable (not Linux, exited).
 * Read through `cat`: Deno lets a program read /proc/PID/* only under --allow-all, and this
 * task runs with the permissions deno.json declares.
 */
async function peakRssMb(pid: number): Promise<number | null> {
  try {
    const out = await new Deno.Command("cat", {
      args: [`/proc/${pid}/status`],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    const status = new TextDecoder().decode(out.stdout);
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function runMeasured(label: string, tools: number | null, args: string[]): Promise<Row> {
  progress("scale", `${label}: deno ${args.join(" ")}`);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: fromRoot("."),
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let peak: number | null = null;
  let done = false;
  const status = child.status.then((s) => {
    done = true;
    return s;
  });
  const errText = new Response(child.stderr).text();
  while (!done) {
    const now = await peakRssMb(child.pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
    await Promise.race([status, new Promise((r) => setTimeout(r, 50))]);
  }
  const { code } = await status;
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0) {
    const lines = (await errText).trim().split("\n");
    progress("scale", `${label}: exit ${code}: ${lines[lines.length - 1] ?? ""}`);
  }
  return { label, tools, wallSeconds, peakRssMb: peak, exitCode: code };
}

async function main(): Promise<number> {
  const { values } = parseFlags(Deno.args, {
    sizes: { type: "string", default: "1000,10000,40000,100000" },
    seed: { type: "string" },
    out: { type: "string" },
    "no-default": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const sizes = values.sizes.split(",").map((s) => s.trim());
  if (sizes.some((s) => s === "")) {
    throw new UsageError(`--sizes has an empty entry: "${values.sizes}"`);
  }
  const counts = sizes.map((s) => intFlag("sizes", s, 0));
  if (counts.some((n) => n < 1)) {
    throw new UsageError(`--sizes must be positive: "${values.sizes}"`);
  }
  const seed = intFlag("seed", values.seed, 1);
  const out = values.out ?? fromRoot("results/scale");
  await Deno.mkdir(out, { recursive: true });
  const golden = fromRoot("fixtures/golden/reference_v1.test.json");
  const rows: Row[] = [];
  // Each child runs with the permissions deno.json declares for its task (not -A).
  const bench = await taskRunArgs("bench");
  if (!values["no-default"]) {
    rows.push(
      await runMeasured("default bench (reference_v1)", 1389, [
        ...bench,
        "--out",
        join(out, "bench_default"),
      ]),
    );
  }
  for (const tools of counts) {
    const catalog = join(out, `synth_${tools}_s${seed}.tools.json`);
    const exists = await Deno.stat(catalog).then(() => true, () => false);
    if (!exists) {
      const made = await new Deno.Command(Deno.execPath(), {
        args: [
          ...await taskRunArgs("synth"),
          "--tools",
          `${tools}`,
          "--seed",
          `${seed}`,
          "--out",
          catalog,
        ],
        cwd: fromRoot("."),
        stdout: "null",
        stderr: "inherit",
      }).output();
      if (!made.success) throw new Error(`deno task synth --tools ${tools} failed`);
    }
    // Below the reference's size a catalog cannot hold every tool the golden set names.
    const scored = tools >= REFERENCE_TOOLS ? ["--golden", golden] : ["--golden", "none"];
    rows.push(
      await runMeasured(`${tools} tools`, tools, [
        ...bench,
        "--corpus",
        catalog,
        ...scored,
        "--out",
        join(out, `bench_${tools}`),
      ]),
    );
  }
  console.log("\nscale: the whole default bench per catalog size");
  for (const r of rows) {
    const rss = r.peakRssMb === null ? "n/a" : `${r.peakRssMb.toFixed(0)} MB`;
    console.log(
      `${r.label.padEnd(30)} ${r.wallSeconds.toFixed(1).padStart(7)} s  peak RSS ${
        rss.padStart(8)
      }${r.exitCode === 0 ? "" : `  (exit ${r.exitCode})`}`,
    );
  }
  const file = join(out, "scale.json");
  await Deno.writeTextFile(file, JSON.stringify({ seed, rows }, null, 2) + "\n");
  console.log(`wrote ${displayPath(file)}`);
  return rows.every((r) => r.exitCode === 0) ? 0 : 1;
}

if (import.meta.main) await runMain("scale", main);
