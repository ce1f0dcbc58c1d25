/**
 * `run_code` of the `code` exposure: runs a model-written TypeScript program in a Deno
 * subprocess with no permissions, and lets it call MCP tools through a bridge.
 *
 * Sandbox: `deno run --no-prompt --no-config --no-lock --no-remote --no-npm` and no `--allow-*`
 * flag, so the program cannot read or write files, open sockets, read the environment, run
 * commands or load FFI; it can compute, print and call `tools.call`. Its environment is emptied
 * (a private `DENO_DIR` and `HOME` under a throwaway folder). The process is killed with SIGKILL
 * at the timeout; without `--allow-run` it cannot start children.
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
import type { JsonValue } from "../catalog/types.ts";

/** Prefix of bridge messages on the program's stdout. */
export const BRIDGE_MARK = "\u0001mcpmeter-bridge:";

/** Default cap of the returned output, characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;

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
  /** Kills the program when aborted. */
  readonly signal?: AbortSignal;
}

/** What a program did. */
export interface RunCodeResult {
  /** Printed text (and, on failure, the error), capped. */
  readonly output: string;
  /** `true` when the program threw, failed to compile, was killed or timed out. */
  readonly isError: boolean;
  /** `true` when the time limit (or the abort signal) ended it. */
  readonly timedOut: boolean;
  /** Process exit code; `null` when killed by a signal. */
  readonly exitCode: number | null;
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

/**
 * Runs a program in the sandbox and answers its tool calls.
 *
 * @param options Code, time limit (ms), tool bridge.
 * @returns Output and outcome; never rejects for program faults.
 * @throws {RangeError} When `timeoutMs` is not a positive number.
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
  const { timeoutMs } = options;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  const maxChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-run-code-" });
  try {
    const file = join(dir, "program.ts");
    await Deno.writeTextFile(file, programText(options.code));
    const child = new Deno.Command(options.denoPath ?? Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--no-config",
        "--no-lock",
        "--no-remote",
        "--no-npm",
        "--quiet",
        file,
      ],
      cwd: dir,
      clearEnv: true,
      env: { NO_COLOR: "1", DENO_DIR: join(dir, "deno_dir"), HOME: dir },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // already exited
      }
    };
    const timer = setTimeout(kill, timeoutMs);
    options.signal?.addEventListener("abort", kill, { once: true });
    const out: string[] = [];
    let failure: string | undefined;
    const stdin = child.stdin.getWriter();
    const enc = new TextEncoder();
    const answers: Promise<void>[] = [];
    const handle = (line: string) => {
      if (!line.startsWith(BRIDGE_MARK)) {
        out.push(line);
        return;
      }
      let m: { t: string; id?: number; name?: string; args?: JsonValue; text?: string };
      try {
        m = JSON.parse(line.slice(BRIDGE_MARK.length));
      } catch {
        out.push(line);
        return;
      }
      if (m.t === "out") out.push(String(m.text));
      else if (m.t === "error") failure = String(m.text);
      else if (m.t === "call") {
        answers.push(
          options.call(String(m.name), m.args ?? {}).then((r) =>
            stdin.write(enc.encode(`${JSON.stringify({ id: m.id, ...r })}\n`)).catch(() => {})
          ),
        );
      }
    };
    const readStdout = (async () => {
      let buf = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        buf += chunk;
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          handle(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      }
      if (buf !== "") handle(buf);
    })();
    const stderrText = new Response(child.stderr).text();
    const status = await child.status;
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
    await readStdout;
    await Promise.allSettled(answers);
    await stdin.close().catch(() => {});
    const stderr = (await stderrText).replaceAll(dir, "<sandbox>").trim();
    const parts = [...out];
    if (timedOut) parts.push(`run_code: killed after ${timeoutMs} ms`);
    else if (failure !== undefined) parts.push(`Uncaught ${failure.replaceAll(dir, "<sandbox>")}`);
    else if (!status.success && stderr !== "") parts.push(stderr);
    let output = parts.join("\n");
    if (output.length > maxChars) {
      output = `${output.slice(0, maxChars)}\n[output cut at ${maxChars} characters]`;
    }
    return {
      output,
      isError: timedOut || !status.success,
      timedOut,
      exitCode: status.signal === null ? status.code : null,
    };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
