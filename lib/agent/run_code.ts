/**
 * `run_code` of the `code` exposure: runs a model-written TypeScript program in a Deno
 * subprocess with no permissions, and lets it call MCP tools through a bridge.
 *
 * Sandbox: `deno run --no-prompt --no-config --no-lock --no-remote --no-npm` and no `--allow-*`
 * flag, so the program cannot read or write files, open sockets, read the environment, run
 * commands or load FFI; it can compute, print and call `tools.call`. An import map sends every
 * `file:` module but the program itself to {@linkcode LOCAL_IMPORT_REFUSED}, because Deno loads a
 * module named by a literal specifier without a read check. Its environment is emptied
 * (a private `DENO_DIR` and `HOME` under a throwaway folder). The process is killed with SIGKILL
 * at the timeout; without `--allow-run` it cannot start children. Resource limits (wall time,
 * CPU time, V8 heap, resident memory, tool calls, bridge bytes; see {@linkcode RunCodeLimit})
 * each stop the program with an error result naming the limit and its value.
 *
 * Bridge: newline-delimited JSON over the child's stdio. The program's stdout lines that start
 * with {@linkcode BRIDGE_MARK} are messages (`out` for printed text, `call` for a tool call,
 * `done`, `error`); other stdout lines are kept as printed text. Answers to `call` go to its
 * stdin as `{"id", "text", "isError"}`. Inside the program, `await tools.call("server:tool",
 * args)` resolves to the result text, and rejects with an `Error` carrying that text when the
 * tool reports `isError`.
 *
 * @module
 */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue } from "../catalog/types.ts";
import type { SandboxLimit } from "./types.ts";

/** Prefix of bridge messages on the program's stdout. */
export const BRIDGE_MARK = "\u0001mcpmeter-bridge:";

/** Where the sandbox's import map sends every local module but the program (never loaded). */
export const LOCAL_IMPORT_REFUSED = "https://local-files-cannot-be-imported.invalid/";

/** Default cap of the returned output, characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;

/** Default V8 heap limit of a program (`--max-old-space-size`), MB. */
export const DEFAULT_MAX_HEAP_MB = 256;

/** Default cap of a program's resident memory (heap, array buffers, code), MB. */
export const DEFAULT_MAX_RSS_MB = 768;

/** Default CPU-time limit of a program (user + system, all threads), ms. */
export const DEFAULT_MAX_CPU_MS = 10_000;

/** Default cap of tool calls per program. */
export const DEFAULT_MAX_TOOL_CALLS = 500;

/** Default cap of bytes through the bridge (stdout, stderr and tool answers), bytes. */
export const DEFAULT_MAX_BRIDGE_BYTES = 16 * 1024 * 1024;

/** How often the CPU time and resident memory of a program are read, ms. */
export const WATCH_INTERVAL_MS = 50;

/**
 * Which limit ended a program, and its value:
 * - `wall_ms`: wall-clock time, ms (`timeoutMs`);
 * - `cpu_ms`: CPU time (user + system, every thread), ms, read from `/proc/PID/stat`;
 * - `heap_mb`: the V8 heap limit, MB (V8 stops the process when a collection cannot free enough);
 * - `rss_mb`: resident memory, MB, read from `/proc/PID/status` (covers array buffers, which
 *   live outside the V8 heap);
 * - `tool_calls`: `tools.call` invocations per program; the one past the cap ends it;
 * - `bridge_bytes`: bytes the program wrote to stdout and stderr plus the tool answers sent to it.
 */
export type RunCodeLimit = SandboxLimit;

/** Options of {@linkcode runCode}. */
export interface RunCodeOptions {
  /** TypeScript source: the body of an async function (top-level `await` works; no imports). */
  readonly code: string;
  /** Wall-clock limit, ms (process start included). */
  readonly timeoutMs: number;
  /**
   * Runs one tool call for the program; must not reject.
   *
   * @param name Tool name as the program wrote it (e.g. `fs:read_text_file`).
   * @param args Arguments as the program passed them.
   * @returns Result text and whether it is an error.
   */
  readonly call: (name: string, args: JsonValue) => Promise<{ text: string; isError: boolean }>;
  /** Deno executable; default `Deno.execPath()`. */
  readonly denoPath?: string;
  /** Cap of the returned output, characters; default {@linkcode DEFAULT_MAX_OUTPUT_CHARS}. */
  readonly maxOutputChars?: number;
  /** V8 heap limit, MB; default {@linkcode DEFAULT_MAX_HEAP_MB}. */
  readonly maxHeapMb?: number;
  /** Resident-memory cap, MB; default {@linkcode DEFAULT_MAX_RSS_MB}. Linux only (`/proc`). */
  readonly maxRssMb?: number;
  /** CPU-time limit, ms; default {@linkcode DEFAULT_MAX_CPU_MS}. Linux only (`/proc`). */
  readonly maxCpuMs?: number;
  /** Tool calls allowed per program; default {@linkcode DEFAULT_MAX_TOOL_CALLS}. */
  readonly maxToolCalls?: number;
  /** Bytes allowed through the bridge; default {@linkcode DEFAULT_MAX_BRIDGE_BYTES}. */
  readonly maxBridgeBytes?: number;
  /** Kills the program when aborted. */
  readonly signal?: AbortSignal;
}

/** What a program did. */
export interface RunCodeResult {
  /** Printed text (and, on failure, the error), capped. */
  readonly output: string;
  /** `true` when the program threw, failed to compile, was killed or hit a limit. */
  readonly isError: boolean;
  /** `true` when the wall-time limit or the abort signal ended it (an abort sets no `limit`). */
  readonly timedOut: boolean;
  /** Process exit code; `null` when killed by a signal. */
  readonly exitCode: number | null;
  /** The limit that ended the program; absent when none did. */
  readonly limit?: RunCodeLimit;
  /** Tool calls the program made (answered or not; a call past the cap is not counted). */
  readonly toolCalls: number;
}

const PRELUDE = `
const __mark = ${JSON.stringify(BRIDGE_MARK)};
const __enc = new TextEncoder();
const __send = (m) => Deno.stdout.writeSync(__enc.encode(__mark + JSON.stringify(m) + "\\n"));
const __fmt = (a) => a.map((x) => typeof x === "string" ? x : Deno.inspect(x, { depth: 8 })).join(" ");
for (const k of ["log", "info", "debug", "warn", "error"]) console[k] = (...a) => __send({ t: "out", text: __fmt(a) });
const __pending = new Map();
let __seq = 0;
(async () => {
  const dec = new TextDecoder();
  let buf = "";
  for await (const chunk of Deno.stdin.readable) {
    buf += dec.decode(chunk, { stream: true });
    let i;
    while ((i = buf.indexOf("\\n")) >= 0) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      const p = __pending.get(m.id);
      __pending.delete(m.id);
      if (p) m.isError ? p.reject(new Error(m.text)) : p.resolve(m.text);
    }
  }
})();
Object.defineProperty(globalThis, "tools", {
  value: Object.freeze({
    call(name, args = {}) {
      const id = ++__seq;
      __send({ t: "call", id, name: String(name), args });
      return new Promise((resolve, reject) => __pending.set(id, { resolve, reject }));
    },
  }),
});
__main().then(
  () => { __send({ t: "done" }); Deno.exit(0); },
  (e) => { __send({ t: "error", text: e instanceof Error ? (e.stack ?? e.message) : String(e) }); Deno.exit(1); },
);
`;

/**
 * The program file: the model's code inside an async function (its line `n` is line `n + 2` of
 * the file), then the prelude that installs `console` and `tools` and runs it.
 *
 * @param code The model's code.
 * @returns Module text.
 */
export function programText(code: string): string {
  return `// deno-lint-ignore-file\nasync function __main() {\n${code}\n}\n${PRELUDE}`;
}

/** Clock ticks per second of `/proc/PID/stat` times (`USER_HZ`, 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Bytes of stderr kept for the error message. */
const STDERR_KEEP_BYTES = 64 * 1024;

/** The message that ends the output when a limit stopped the program. */
function limitMessage(limit: RunCodeLimit): string {
  switch (limit.name) {
    case "wall_ms":
      return `run_code: stopped at the wall-time limit (${limit.value} ms)`;
    case "cpu_ms":
      return `run_code: stopped at the CPU-time limit (${limit.value} ms of CPU)`;
    case "heap_mb":
      return `run_code: stopped at the memory limit (V8 heap of ${limit.value} MB)`;
    case "rss_mb":
      return `run_code: stopped at the memory limit (${limit.value} MB resident)`;
    case "tool_calls":
      return `run_code: stopped at the tool-call limit (${limit.value} calls per program)`;
    case "bridge_bytes":
      return `run_code: stopped at the output limit (${limit.value} bytes through the bridge)`;
  }
}

/**
 * Reads `/proc/PID/stat` and the `VmRSS` of `/proc/PID/status` every `intervalMs`, one line per
 * reading (`<rss kB> <stat line>`), until the process is gone. Deno lets a program read
 * `/proc/PID/*` only under `--allow-all`, so a shell (shell built-ins only, plus `sleep`) reads
 * it; the task needs `--allow-run`, which it has to start servers anyway.
 */
const WATCH_SCRIPT = `pid=$1
while [ -e /proc/$pid/stat ]; do
  read -r stat < /proc/$pid/stat || exit 0
  rss=0
  while read -r k v rest; do [ "$k" = "VmRSS:" ] && rss=$v; done < /proc/$pid/status
  echo "$rss $stat"
  sleep $2
done`;

/** CPU time (ms) and resident memory (MB) from one watch line, or `undefined` when malformed. */
function parseUsage(line: string): { cpuMs: number; rssMb: number } | undefined {
  const space = line.indexOf(" ");
  const rssKb = Number(line.slice(0, space));
  const stat = line.slice(space + 1);
  // Fields after the command name (in parentheses, may hold spaces): state is field 3,
  // utime field 14, stime field 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(rssKb) || !Number.isFinite(ticks)) return undefined;
  return { cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND, rssMb: rssKb / 1024 };
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}

/**
 * Runs a program in the sandbox and answers its tool calls.
 *
 * Limits, each ending the program with an error result whose output ends with a line naming
 * the limit and its value (`run_code: stopped at the CPU-time limit (10000 ms of CPU)`), and
 * whose `limit` says the same as data: wall time (`timeoutMs`), CPU time, V8 heap, resident
 * memory, tool calls and bridge bytes (see {@linkcode RunCodeLimit}). The CPU and resident-memory
 * limits read `/proc` every {@linkcode WATCH_INTERVAL_MS} ms through a shell (Deno itself may
 * read `/proc/PID` only under `--allow-all`); off Linux they are not enforced, and when the shell
 * cannot be started the program is stopped at once (the limits fail closed).
 *
 * @param options Code, limits, tool bridge.
 * @returns Output and outcome; never rejects for program faults.
 * @throws {RangeError} When a limit is not a positive number.
 *
 * @example Usage
 * ```ts
 * import { runCode } from "./run_code.ts";
 * const r = await runCode({
 *   code: 'const t = await tools.call("m:add", { a: 2, b: 3 }); console.log("sum", t);',
 *   timeoutMs: 20_000,
 *   call: (_name, args) => {
 *     const { a, b } = args as { a: number; b: number };
 *     return Promise.resolve({ text: String(a + b), isError: false });
 *   },
 * });
 * if (r.output !== "sum 5" || r.isError) throw new Error(r.output);
 * ```
 */
export async function runCode(options: RunCodeOptions): Promise<RunCodeResult> {
  const limits = limitsOf(options);
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-code-" });
  try {
    const child = await spawnProgram(dir, options.code, options.denoPath, limits.maxHeapMb);
    const guard = new Guard(child, limits.maxBridgeBytes);
    const timer = setTimeout(
      () => guard.stop({ name: "wall_ms", value: limits.timeoutMs }),
      limits.timeoutMs,
    );
    const onAbort = () => {
      guard.cancelled = true;
      guard.stop(undefined);
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const watch = watchUsage(guard, child.pid, limits);
    const bridge = new Bridge(child, guard, limits, options.call);
    const readStdout = bridge.read(child.stdout);
    const readStderr = stderrHead(child.stderr, guard);
    const status = await child.status;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    await Promise.all([readStdout, watch]);
    await Promise.allSettled(bridge.answers);
    await bridge.close();
    const stderr = (await readStderr).replaceAll(dir, "<sandbox>").trim();
    // V8 ends a process whose heap cannot be collected below the limit with this message.
    if (guard.limit === undefined && /Reached heap limit|heap out of memory/.test(stderr)) {
      guard.limit = { name: "heap_mb", value: limits.maxHeapMb };
    }
    return resultOf(guard, bridge, status, stderr, dir, limits.maxChars);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The limits of one run, checked (see {@linkcode RunCodeOptions}). */
interface Limits {
  readonly timeoutMs: number;
  readonly maxChars: number;
  readonly maxHeapMb: number;
  readonly maxRssMb: number;
  readonly maxCpuMs: number;
  readonly maxToolCalls: number;
  readonly maxBridgeBytes: number;
}

function limitsOf(options: RunCodeOptions): Limits {
  return {
    timeoutMs: positive("timeoutMs", options.timeoutMs),
    maxChars: positive("maxOutputChars", options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS),
    maxHeapMb: Math.ceil(positive("maxHeapMb", options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB)),
    maxRssMb: positive("maxRssMb", options.maxRssMb ?? DEFAULT_MAX_RSS_MB),
    maxCpuMs: positive("maxCpuMs", options.maxCpuMs ?? DEFAULT_MAX_CPU_MS),
    maxToolCalls: positive("maxToolCalls", options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS),
    maxBridgeBytes: positive("maxBridgeBytes", options.maxBridgeBytes ?? DEFAULT_MAX_BRIDGE_BYTES),
  };
}

/** Writes the program and its import map into `dir` and starts it in the sandbox. */
async function spawnProgram(
  dir: string,
  code: string,
  denoPath: string | undefined,
  maxHeapMb: number,
): Promise<Deno.ChildProcess> {
  const file = join(dir, "program.ts");
  await Deno.writeTextFile(file, programText(code));
  // Deno loads the modules a program names with a literal specifier (`import("file:///x",
  // { with: { type: "json" } })`, and static imports) before it runs, without a read
  // permission check: a file could be read that way. This map sends every file: URL but the
  // program's own to a host that --no-remote and the missing --allow-import refuse.
  const importMap = join(dir, "import_map.json");
  const self = pathToFileURL(file).href;
  await Deno.writeTextFile(
    importMap,
    JSON.stringify({ imports: { [self]: self, "file:///": LOCAL_IMPORT_REFUSED } }),
  );
  return new Deno.Command(denoPath ?? Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--no-config",
      "--no-lock",
      "--no-remote",
      "--no-npm",
      "--quiet",
      `--import-map=${importMap}`,
      `--v8-flags=--max-old-space-size=${maxHeapMb}`,
      file,
    ],
    cwd: dir,
    clearEnv: true,
    env: { NO_COLOR: "1", DENO_DIR: join(dir, "deno_dir"), HOME: dir },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** What stops a program early: the first limit it hits, a cancel, a watcher that cannot start. */
class Guard {
  limit: RunCodeLimit | undefined;
  cancelled = false;
  watchFailure: string | undefined;
  #bridgeBytes = 0;

  constructor(readonly child: Deno.ChildProcess, readonly maxBridgeBytes: number) {}

  /** Kills the program, recording `hit` unless a limit was hit before. */
  stop(hit: RunCodeLimit | undefined): void {
    if (hit !== undefined) this.limit ??= hit;
    try {
      this.child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }

  /** Counts bytes through the bridge (stdout, stderr, answers) against their limit. */
  count(bytes: number): void {
    this.#bridgeBytes += bytes;
    if (this.#bridgeBytes > this.maxBridgeBytes) {
      this.stop({ name: "bridge_bytes", value: this.maxBridgeBytes });
    }
  }
}

/** CPU time and resident memory, read from /proc (Linux) until the process exits. */
async function watchUsage(guard: Guard, pid: number, limits: Limits): Promise<void> {
  if (Deno.build.os !== "linux") return;
  let watcher: Deno.ChildProcess;
  try {
    watcher = new Deno.Command("sh", {
      args: ["-c", WATCH_SCRIPT, "sh", String(pid), String(WATCH_INTERVAL_MS / 1000)],
      clearEnv: true,
      env: { PATH: "/usr/bin:/bin" },
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
  } catch (error) {
    guard.watchFailure = `run_code: cannot watch the program's CPU time and memory (${
      (error as Error).message
    })`;
    guard.stop(undefined);
    return;
  }
  let buf = "";
  for await (const chunk of watcher.stdout.pipeThrough(new TextDecoderStream())) {
    buf += chunk;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const usage = parseUsage(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (usage === undefined || guard.limit !== undefined) continue;
      if (usage.cpuMs > limits.maxCpuMs) guard.stop({ name: "cpu_ms", value: limits.maxCpuMs });
      else if (usage.rssMb > limits.maxRssMb) {
        guard.stop({ name: "rss_mb", value: limits.maxRssMb });
      }
    }
  }
  await watcher.status;
}

/**
 * The program's stdout: printed text kept up to the output cap, bridge messages (`out`, `error`,
 * `call`) acted on, each tool call answered on its stdin.
 */
class Bridge {
  readonly out: string[] = [];
  #outChars = 0;
  failure: string | undefined;
  toolCalls = 0;
  readonly answers: Promise<void>[] = [];
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #enc = new TextEncoder();

  constructor(
    child: Deno.ChildProcess,
    readonly guard: Guard,
    readonly limits: Limits,
    readonly call: RunCodeOptions["call"],
  ) {
    this.#stdin = child.stdin.getWriter();
  }

  async read(stdout: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of stdout) {
      this.guard.count(chunk.length);
      if (this.guard.limit !== undefined) continue; // drain without keeping
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        this.#handle(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    }
    if (buf !== "" && this.guard.limit === undefined) this.#handle(buf);
  }

  close(): Promise<void> {
    return this.#stdin.close().catch(() => {});
  }

  #keep(text: string): void {
    // Past the output cap nothing more is kept (the bridge cap bounds what is read).
    if (this.#outChars > this.limits.maxChars) return;
    this.out.push(text);
    this.#outChars += text.length + 1;
  }

  #handle(line: string): void {
    if (!line.startsWith(BRIDGE_MARK)) {
      this.#keep(line);
      return;
    }
    let m: { t: string; id?: number; name?: string; args?: JsonValue; text?: string };
    try {
      m = JSON.parse(line.slice(BRIDGE_MARK.length));
    } catch {
      this.#keep(line);
      return;
    }
    if (m.t === "out") this.#keep(String(m.text));
    else if (m.t === "error") this.failure = String(m.text);
    else if (m.t === "call" && this.guard.limit === undefined) {
      if (this.toolCalls >= this.limits.maxToolCalls) {
        this.guard.stop({ name: "tool_calls", value: this.limits.maxToolCalls });
        return;
      }
      this.toolCalls += 1;
      this.answers.push(
        this.call(String(m.name), m.args ?? {}).then((r) => {
          if (this.guard.limit !== undefined) return;
          const bytes = this.#enc.encode(`${JSON.stringify({ id: m.id, ...r })}\n`);
          this.guard.count(bytes.length);
          if (this.guard.limit !== undefined) return;
          return this.#stdin.write(bytes).catch(() => {});
        }),
      );
    }
  }
}

/** The first {@linkcode STDERR_KEEP_BYTES} of stderr as text; every byte counted. */
async function stderrHead(stderr: ReadableStream<Uint8Array>, guard: Guard): Promise<string> {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  for await (const chunk of stderr) {
    guard.count(chunk.length);
    if (keptBytes < STDERR_KEEP_BYTES) {
      kept.push(chunk);
      keptBytes += chunk.length;
    }
  }
  const all = new Uint8Array(keptBytes);
  let at = 0;
  for (const c of kept) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all.subarray(0, STDERR_KEEP_BYTES));
}

/** The result: the kept output, then the line that says why the program ended, cut to the cap. */
function resultOf(
  guard: Guard,
  bridge: Bridge,
  status: Deno.CommandStatus,
  stderr: string,
  dir: string,
  maxChars: number,
): RunCodeResult {
  const { limit } = guard;
  const parts = [...bridge.out];
  const closing = limit !== undefined
    ? limitMessage(limit)
    : guard.cancelled
    ? "run_code: stopped: the call was cancelled"
    : guard.watchFailure;
  if (closing !== undefined) parts.push(closing);
  else if (bridge.failure !== undefined) {
    parts.push(`Uncaught ${bridge.failure.replaceAll(dir, "<sandbox>")}`);
  } else if (!status.success && stderr !== "") parts.push(stderr);
  let output = parts.join("\n");
  if (output.length > maxChars) {
    // The line naming the limit survives the cut.
    const tail = closing === undefined ? "" : `\n${closing}`;
    output = `${output.slice(0, maxChars)}\n[output cut at ${maxChars} characters]${tail}`;
  }
  return {
    output,
    isError: closing !== undefined || !status.success,
    timedOut: limit?.name === "wall_ms" || guard.cancelled,
    exitCode: status.signal === null ? status.code : null,
    ...(limit === undefined ? {} : { limit }),
    toolCalls: bridge.toolCalls,
  };
}
