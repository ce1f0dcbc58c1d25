/**
 * The flow behind `deno task scale`: wall time and peak RSS of the whole default bench on
 * synthetic catalogs of the given sizes (made once with `deno task synth`), plus the default bench
 * on the reference corpus, and the generated section of docs/performance.md that shows them.
 * Each bench runs as its own process; its peak RSS is the kernel's high-water mark (VmHWM in
 * /proc/PID/status), read every 50 ms.
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
}

/**
 * A /proc file's text, "" when it cannot be read (not Linux, the process exited). Read through
 * `cat`: Deno lets a program read /proc/PID/* only under --allow-all, and the task runs with
 * the permissions deno.json declares.
 */
async function readProc(file: string): Promise<string> {
  try {
    const out = await new Deno.Command("cat", { args: [file], stdout: "piped", stderr: "null" })
      .output();
    return out.success ? new TextDecoder().decode(out.stdout) : "";
  } catch {
    return "";
  }
}

/** Peak RSS (MB) of a running process (VmHWM), null when unreadable. */
async function peakRssMb(pid: number): Promise<number | null> {
  const m = /VmHWM:\s+(\d+) kB/.exec(await readProc(`/proc/${pid}/status`));
  return m ? Number(m[1]) / 1024 : null;
}

/** The 1-minute load average, null off Linux. */
async function loadAverage(): Promise<number | null> {
  const text = await readProc("/proc/loadavg");
  const n = Number(text.split(" ")[0]);
  return text !== "" && Number.isFinite(n) ? n : null;
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
    // Paths in its arguments start in the repository, not where scale was run (lib/core/paths.ts).
    env: { INIT_CWD: io.fromRoot(".") },
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
  const measure = async (label: string, tools: number, args: string[], dir: string) => {
    rows.push(
      await runMeasured(label, tools, [...options.benchArgs, ...args, "--out", join(out, dir)], io),
    );
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
        env: { INIT_CWD: io.fromRoot(".") },
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

/** The machine and code a scale run measured, as docs/performance.md records them. */
export interface ScaleMachine {
  /** CPU model (/proc/cpuinfo), or "unknown". */
  readonly cpu: string;
  /** Logical cores. */
  readonly cores: number;
  /** Memory, GiB (/proc/meminfo), null off Linux. */
  readonly memoryGib: number | null;
  /** Deno and V8 versions. */
  readonly deno: string;
  /** Commit of the checkout (and whether it was dirty), null outside git. */
  readonly commit: string | null;
  /** Day of the run, YYYY-MM-DD (UTC). */
  readonly date: string;
}

/** First line of the generated section of docs/performance.md. */
export const SCALE_BEGIN = "<!-- scale:begin: written by `deno task scale`, not by hand -->";
/** Last line of the generated section. */
export const SCALE_END = "<!-- scale:end -->";

/**
 * The generated section of docs/performance.md: the machine, the command, and one table row per
 * bench process.
 *
 * @param rows Rows of {@linkcode runScale}.
 * @param machine The machine and code measured.
 * @param seed Seed of the synthetic catalogs.
 * @returns Markdown, from {@linkcode SCALE_BEGIN} to {@linkcode SCALE_END}, ending with a newline.
 */
export function scaleSection(
  rows: readonly ScaleRow[],
  machine: ScaleMachine,
  seed: number,
): string {
  const loads = rows.flatMap((r) => r.loadAverage == null ? [] : [r.loadAverage]);
  return [
    SCALE_BEGIN,
    "",
    `Measured ${machine.date} at commit ${machine.commit ?? "(not a git checkout)"} on ${
      counted(machine.cores, "core")
    } (${machine.cpu}${
      machine.memoryGib === null ? "" : `, ${machine.memoryGib.toFixed(0)} GiB`
    }), ${machine.deno}, by \`deno task scale\` (synthetic catalogs of seed ${seed}; the 1-minute ` +
    `load average was ${
      loads.length === 0
        ? "not read"
        : `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`
    } as the rows started). Wall time is the bench process's; peak RSS its high-water mark.`,
    "",
    "| catalog | tools | wall (s) | peak RSS (MB) | exit |",
    "| ------- | ----: | -------: | ------------: | ---: |",
    ...rows.map((r) =>
      `| ${r.label} | ${r.tools ?? ""} | ${r.wallSeconds.toFixed(1)} | ${
        r.peakRssMb === null ? "n/a" : r.peakRssMb.toFixed(0)
      } | ${r.exitCode} |`
    ),
    "",
    SCALE_END,
    "",
  ].join("\n");
}

/**
 * A document with its generated section replaced by `section` (appended when it has none).
 *
 * @param doc The document's text.
 * @param section The new section ({@linkcode scaleSection}).
 * @returns The new text.
 * @throws {Error} When the document has a begin marker without an end marker after it.
 */
export function withScaleSection(doc: string, section: string): string {
  const begin = doc.indexOf(SCALE_BEGIN);
  if (begin < 0) return `${doc.trimEnd()}\n\n${section}`;
  const end = doc.indexOf(SCALE_END, begin);
  if (end < 0) throw new Error(`${SCALE_BEGIN} has no ${SCALE_END} after it`);
  return doc.slice(0, begin) + section + doc.slice(end + SCALE_END.length).replace(/^\n/, "");
}

/**
 * The machine this process runs on (/proc) and the checkout's commit.
 *
 * @param io Git state and the clock.
 * @returns The facts.
 */
export async function scaleMachine(
  io: Pick<FlowIo, "gitState" | "epochNow">,
): Promise<ScaleMachine> {
  const cpu = /^model name\s*:\s*(.+)$/m.exec(await readProc("/proc/cpuinfo"))?.[1].trim();
  const kb = /^MemTotal:\s+(\d+) kB/m.exec(await readProc("/proc/meminfo"))?.[1];
  const git = await io.gitState().catch(() => ({ commit: null, dirty: null }));
  return {
    cpu: cpu ?? "unknown",
    cores: navigator.hardwareConcurrency,
    memoryGib: kb === undefined ? null : Number(kb) / 1024 / 1024,
    deno: `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`,
    commit: git.commit === null ? null : `${git.commit.slice(0, 7)}${git.dirty ? " (dirty)" : ""}`,
    date: new Date(io.epochNow()).toISOString().slice(0, 10),
  };
}
