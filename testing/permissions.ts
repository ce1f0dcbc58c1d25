// The runner behind tasks/permissions_test.ts: reads deno.json's task lines, runs a task through
// `deno task` itself (exactly its declared permissions) and fails on a permission error.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (absolute, with a trailing slash). */
export const ROOT = fileURLToPath(new URL("../", import.meta.url));

const CONFIG = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));

/** deno.json's tasks: name → command line (a task object's `command`). */
export const TASKS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CONFIG.tasks as Record<string, string | { command: string }>).map((
    [name, task],
  ) => [name, typeof task === "string" ? task : task.command]),
);

/** deno.json's task descriptions (`undefined` for a task written as a bare string). */
export const DESCRIPTIONS: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  Object.entries(CONFIG.tasks as Record<string, string | { description?: string }>).map((
    [name, task],
  ) => [name, typeof task === "string" ? undefined : task.description]),
);

/** deno.json's permission sets, by name (`deno run -P=NAME`). */
export const PERMISSION_SETS: Readonly<Record<string, Record<string, unknown>>> =
  CONFIG.permissions ?? {};

/** A permission kind of a permission set (`--allow-KIND`). */
export type Kind = "read" | "write" | "net" | "run" | "env" | "sys" | "ffi" | "import";

const KINDS: readonly Kind[] = ["read", "write", "net", "run", "env", "sys", "ffi", "import"];

/** One parsed `deno run -P=NAME` task: what its permission set grants, and its file. */
export interface ParsedTask {
  /** `read` → the listed paths (`undefined` when granted without a list). */
  readonly allow: ReadonlyMap<Kind, readonly string[] | undefined>;
  /** `write` → paths refused even though `allow` grants them (Deno's deny lists). */
  readonly deny: ReadonlyMap<Kind, readonly string[]>;
  /** The task file, e.g. `tasks/bench.ts`. */
  readonly file: string;
}

/**
 * Parses `deno run -q -P=NAME tasks/FILE.ts`, where NAME is the task's own permission set in
 * deno.json's `permissions` (a `--v8-flags=--heap-growing-percent=P` may sit before the file:
 * it sets the heap, not a permission), and reads that set.
 *
 * @param name The task's name.
 * @param command Its command line.
 * @param sets deno.json's permission sets.
 * @throws {Error} On any other shape (`--allow-*` on the line, `-A`, another set's name,
 *   several commands, an unknown permission kind or value).
 */
export function parseTaskCommand(
  name: string,
  command: string,
  sets: Readonly<Record<string, Record<string, unknown>>> = PERMISSION_SETS,
): ParsedTask {
  const words = command.trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "run") {
    throw new Error(`task ${name}: not a single "deno run" (${command})`);
  }
  const file = words.at(-1)!;
  if (!/^tasks\/[a-z_]+\.ts$/.test(file)) throw new Error(`task ${name}: ends with ${file}`);
  // V8's heap setting (the bench's --heap-growing-percent) grants nothing.
  const flags = words.slice(2, -1).filter((f) =>
    !/^--v8-flags=--heap-growing-percent=\d+$/.test(f)
  );
  // -q: Deno's own notices (the experimental-feature line of -P) stay off the user's screen.
  if (flags.join(" ") !== `-q -P=${name}`) {
    throw new Error(
      `task ${name}: its flags must be "-q -P=${name}" (its permission set in deno.json's ` +
        `"permissions"), got "${flags.join(" ")}"`,
    );
  }
  const set = sets[name];
  if (set === undefined) throw new Error(`task ${name}: deno.json has no permission set "${name}"`);
  const allow = new Map<Kind, readonly string[] | undefined>();
  const deny = new Map<Kind, readonly string[]>();
  for (const [kind, value] of Object.entries(set)) {
    if (!KINDS.includes(kind as Kind)) throw new Error(`task ${name}: unknown permission ${kind}`);
    const k = kind as Kind;
    const grant = isObject(value) ? value.allow : value;
    if (isObject(value)) {
      const extra = Object.keys(value).filter((key) => key !== "allow" && key !== "deny");
      if (extra.length > 0) throw new Error(`task ${name}: ${kind} has ${extra.join(", ")}`);
      if (value.deny !== undefined) deny.set(k, strings(name, kind, value.deny));
    }
    if (grant === true) allow.set(k, undefined);
    else if (grant !== false && grant !== undefined) allow.set(k, strings(name, kind, grant));
  }
  return { allow, deny, file };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strings(name: string, kind: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new Error(`task ${name}: ${kind} must be true or a list of strings`);
  }
  return value;
}

/** Where the invocations write (inside results/, which every writing task may write). */
export const OUT = "results/.permissions-test";
/** A servers config holding server-memory alone (written before the invocations run). */
export const MEMORY_CONFIG = `${OUT}/memory.servers.json`;
/** The API key the model registry's `${K}` expands to. */
export const KEY = "sk-permissions-test-0123456789";

/** What a task printed and how it exited. */
export type Ran = { readonly code: number; readonly stdout: string; readonly stderr: string };

/**
 * What every invocation may use: the model registry on the scripted model server, and a folder
 * outside the repository and outside the system temporary folder (under the home folder, where
 * users keep their catalogs and configs), for inputs and outputs read and written "anywhere".
 */
export type CaseContext = { readonly models: string; readonly elsewhere: string };

/** Why a task reads without a list: the inputs a user names live anywhere. */
export const READ_ANYWHERE =
  "reads the catalogs, configs, golden sets, suites and run folders the user names, wherever they are";

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
