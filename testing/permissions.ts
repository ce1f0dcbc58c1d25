// The runner behind tasks/permissions_test.ts: reads deno.json's task lines, runs a task through
// `deno task` itself (exactly its declared permissions) and fails on a permission error.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (absolute, with a trailing slash). */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** deno.json's tasks: name → command line. */
export const TASKS: Readonly<Record<string, string>> = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
).tasks;

/** A permission kind of `--allow-KIND`. */
export type Kind = "read" | "write" | "net" | "run" | "env" | "sys" | "ffi" | "import";

/** One parsed `deno run` task: its permission flags and its file. */
export interface ParsedTask {
  /** `read` → the listed paths (`undefined` when unscoped). */
  readonly allow: ReadonlyMap<Kind, readonly string[] | undefined>;
  /** The task file, e.g. `tasks/bench.ts`. */
  readonly file: string;
}

/**
 * Parses `deno run --allow-x[=a,b] ... tasks/NAME.ts` (a `--v8-flags=--heap-growing-percent=P`
 * among the flags is allowed and ignored: it sets the heap, not a permission).
 *
 * @throws {Error} On any other shape (another flag, `-A`, several commands).
 */
export function parseTaskCommand(name: string, command: string): ParsedTask {
  const words = command.trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new Error(`task ${name}: not a single "deno run" (${command})`);
  }
  const file = words.at(-1)!;
  if (!/^tasks\/[a-z_]+\.ts$/.test(file)) throw new Error(`task ${name}: ends with ${file}`);
  const allow = new Map<Kind, readonly string[] | undefined>();
  for (const flag of words.slice(2, -1)) {
    // V8's heap setting (the bench's --heap-growing-percent) grants nothing.
    if (/^--v8-flags=--heap-growing-percent=\d+$/.test(flag)) continue;
    const m = /^--allow-(read|write|net|run|env|sys|ffi|import)(?:=(.+))?$/.exec(flag);
    if (m === null) throw new Error(`task ${name}: flag ${flag} is not a scoped --allow-*`);
    allow.set(m[1] as Kind, m[2]?.split(","));
  }
  return { allow, file };
}

/** Where the invocations write (inside results/, which every writing task may write). */
export const OUT = "results/.permissions-test";
/** A servers config holding server-memory alone (written before the invocations run). */
export const MEMORY_CONFIG = `${OUT}/memory.servers.json`;
/** The API key the model registry's `${K}` expands to. */
export const KEY = "sk-permissions-test-0123456789";

/** What a task printed and how it exited. */
export type Ran = { readonly code: number; readonly stdout: string; readonly stderr: string };

/** What every invocation may use: the model registry on the scripted model server. */
export type CaseContext = { readonly models: string };

/**
 * One task's case: why it takes a permission without a list (anything not named must be a list;
 * a reason for a permission it does not take fails the test too), and a small real invocation
 * (each may read what earlier ones wrote, in table order).
 */
export interface PermissionCase {
  readonly unscoped?: Partial<Record<Kind, string>>;
  readonly run: (ctx: CaseContext) => Promise<void>;
}

/** `"a b ${OUT}/c"` → `["a", "b", "results/.permissions-test/c"]` (no argument holds a space). */
export const argv = (line: string): string[] => line.trim().split(/\s+/);

const decoder = new TextDecoder();

function spawn(name: string, args: readonly string[], env: Record<string, string>, stdin: boolean) {
  return new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Runs `deno task NAME ARGS` from the repository root, as a user would. */
export async function task(
  name: string,
  args: readonly string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  const child = spawn(name, args, options.env ?? {}, options.stdin !== undefined);
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Starts a long-running task, waits for a stderr/stdout line matching `ready`, then stops it. */
export async function serving(
  name: string,
  args: readonly string[],
  ready: RegExp,
  use: (match: RegExpExecArray) => Promise<void>,
): Promise<Ran> {
  const child = spawn(name, args, {}, false);
  let text = "";
  const found = Promise.withResolvers<RegExpExecArray>();
  const pump = async (stream: ReadableStream<Uint8Array<ArrayBuffer>>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const m = ready.exec(text);
      if (m) found.resolve(m);
    }
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const status = child.status.then((s) => {
    found.reject(new Error(`${name} exited (${s.code}) before ${ready}:\n${text}`));
    return s;
  });
  try {
    await use(await found.promise);
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
  }
  const s = await status;
  await pumps;
  return { code: s.code, stdout: text, stderr: text };
}

const PERMISSION_ERROR = /NotCapable|Requires \w+ access|run again with the --allow-\w+ flag/;

/** Fails when the task hit an undeclared permission or exited with a code not in `codes`. */
export function assertRan(name: string, r: Ran, codes: readonly number[] = [0]): void {
  const all = `${r.stdout}\n${r.stderr}`;
  const denied = PERMISSION_ERROR.exec(all);
  const tail = all.slice(-3_000);
  assert.equal(denied, null, `deno task ${name} hit a permission it does not declare:\n${tail}`);
  assert.ok(codes.includes(r.code), `deno task ${name} exited ${r.code}:\n${tail}`);
}
