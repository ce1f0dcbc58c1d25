/**
 * The flow behind `deno task scale`: wall time and peak RSS of the whole default bench on
 * synthetic catalogs of the given sizes (made once with `deno task synth`), plus the default bench
 * on the reference corpus. Each bench runs as its own process; its peak RSS is the kernel's
 * high-water mark (VmHWM in /proc/PID/status), sampled every 50 ms.
 *
 * @module
 */
import { join } from "node:path";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { counted } from "../core/text.ts";

/** Tools of fixtures/corpora/reference_v1.tools.json (the reference golden set's corpus). */
export const REFERENCE_TOOLS = 1389;

/** One measured bench process. */
export interface ScaleRow {
  /** What ran, e.g. `10000 tools`. */
  readonly label: string;
  /** Tools of its catalog. */
  readonly tools: number | null;
  /** Wall time, seconds (measured). */
  readonly wallSeconds: number;
  /** Peak RSS, MB (measured), null where /proc is unreadable. */
  readonly peakRssMb: number | null;
  /** The process's exit code. */
  readonly exitCode: number;
  /** `--workers` of the bench, null when left to its default (the cores). */
  readonly workers?: number | null;
  /** The machine's 1-minute load average when the row started (measured), null off Linux. */
  readonly loadAverage?: number | null;
}

/** What `deno task scale` was asked for. */
export interface RunScaleOptions {
  /** Tool counts, each positive. */
  readonly sizes: readonly number[];
  /** Seed of the synthetic catalogs. */
  readonly seed: number;
  /** Folder of the catalogs, bench outputs and scale.json. */
  readonly out: string;
  /** Also run the default bench on the reference corpus first. */
  readonly includeDefault: boolean;
  /** `deno` arguments that run `deno task bench` with its declared permissions. */
  readonly benchArgs: readonly string[];
  /** `deno` arguments that run `deno task synth` with its declared permissions. */
  readonly synthArgs: readonly string[];
  /**
   * Run each bench once per `--workers` count, in this order, one row each (same catalog, same
   * run window: a ratio between counts is fair on a shared machine). Default: once, with the
   * bench's default.
   */
  readonly workers?: readonly number[];
}

/**
 * Peak RSS (MB) of a running process, from /proc; null when unreadable (not Linux, exited).
 * Read through `cat`: Deno lets a program read /proc/PID/* only under --allow-all, and the task
 * runs with the permissions deno.json declares.
 */
async function peakRssMb(pid: number): Promise<number | null> {
  try {
    const out = await new Deno.Command("cat", {
      args: [`/proc/${pid}/status`],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    const m = /VmHWM:\s+(\d+) kB/.exec(new TextDecoder().decode(out.stdout));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The 1-minute load average, from /proc/loadavg (through `cat`, as above); null off Linux. */
async function loadAverage(): Promise<number | null> {
  try {
    const out = await new Deno.Command("cat", {
      args: ["/proc/loadavg"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const n = Number(new TextDecoder().decode(out.stdout).split(" ")[0]);
    return out.success && Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

async function runMeasured(
  label: string,
  tools: number | null,
  args: readonly string[],
  io: Pick<FlowIo, "now" | "fromRoot" | "progress">,
): Promise<ScaleRow> {
  const load = await loadAverage();
  io.progress("scale", `${label}: deno ${args.join(" ")}`);
  const started = io.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [...args],
    cwd: io.fromRoot("."),
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
  const wallSeconds = (io.now() - started) / 1000;
  if (code !== 0) {
    const lines = (await errText).trim().split("\n");
    io.progress("scale", `${label}: exit ${code}: ${lines[lines.length - 1] ?? ""}`);
  }
  return { label, tools, wallSeconds, peakRssMb: peak, exitCode: code, loadAverage: load };
}

/**
 * Runs the scale benchmark and writes `out/scale.json` (`{seed, rows}`). Catalogs already in
 * `out` are reused. Retrieval is scored on fixtures/golden/reference_v1.test.json for catalogs
 * of {@linkcode REFERENCE_TOOLS} tools or more (smaller ones cannot hold every tool it names).
 *
 * @param options Sizes, seed, output folder and the child commands.
 * @param io Clock, repository paths, progress. @default {denoFlowIo()}
 * @returns The rows, in run order, and the path of scale.json.
 * @throws {Error} When `deno task synth` fails for a size.
 */
export async function runScale(
  options: RunScaleOptions,
  io: Pick<FlowIo, "now" | "fromRoot" | "progress"> = denoFlowIo(),
): Promise<{ rows: ScaleRow[]; file: string }> {
  const { out, seed } = options;
  await Deno.mkdir(out, { recursive: true });
  const golden = io.fromRoot("fixtures/golden/reference_v1.test.json");
  const rows: ScaleRow[] = [];
  const counts = options.workers ?? [null];
  const measure = async (label: string, tools: number, args: string[], dir: string) => {
    for (const w of counts) {
      const flag = w === null ? [] : ["--workers", `${w}`];
      const row = await runMeasured(
        w === null ? label : `${label}, ${counted(w, "worker")}`,
        tools,
        [
          ...options.benchArgs,
          ...args,
          ...flag,
          "--out",
          join(out, w === null ? dir : `${dir}_w${w}`),
        ],
        io,
      );
      rows.push(options.workers === undefined ? row : { ...row, workers: w });
    }
  };
  if (options.includeDefault) {
    await measure("default bench (reference_v1)", REFERENCE_TOOLS, [], "bench_default");
  }
  for (const tools of options.sizes) {
    const catalog = join(out, `synth_${tools}_s${seed}.tools.json`);
    const exists = await Deno.stat(catalog).then(() => true, () => false);
    if (!exists) {
      const made = await new Deno.Command(Deno.execPath(), {
        args: [...options.synthArgs, "--tools", `${tools}`, "--seed", `${seed}`, "--out", catalog],
        cwd: io.fromRoot("."),
        stdout: "null",
        stderr: "inherit",
      }).output();
      if (!made.success) throw new Error(`deno task synth --tools ${tools} failed`);
    }
    const scored = tools >= REFERENCE_TOOLS ? ["--golden", golden] : ["--golden", "none"];
    await measure(`${tools} tools`, tools, ["--corpus", catalog, ...scored], `bench_${tools}`);
  }
  const file = join(out, "scale.json");
  await Deno.writeTextFile(file, JSON.stringify({ seed, rows }, null, 2) + "\n");
  return { rows, file };
}

/**
 * The scale table: one line per row (label, wall seconds, peak RSS, a non-zero exit).
 *
 * @param rows Rows of {@linkcode runScale}.
 * @returns Lines for stdout, the heading first.
 */
export function scaleTable(rows: readonly ScaleRow[]): string[] {
  return [
    "scale: the whole default bench per catalog size",
    ...rows.map((r) => {
      const rss = r.peakRssMb === null ? "n/a" : `${r.peakRssMb.toFixed(0)} MB`;
      const load = r.loadAverage == null ? "" : `  load ${r.loadAverage.toFixed(2)}`;
      return `${r.label.padEnd(40)} ${r.wallSeconds.toFixed(1).padStart(7)} s  peak RSS ${
        rss.padStart(8)
      }${load}${r.exitCode === 0 ? "" : `  (exit ${r.exitCode})`}`;
    }),
  ];
}
