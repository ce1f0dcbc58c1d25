// Every `deno task` runs with the permissions deno.json declares for it, and those are the
// narrowest that work: reads and writes name their folders, and a task that needs net, run,
// env or sys beyond a list says why below. Each task's --help and a small real invocation run
// through `deno task` itself, so a missing permission fails here, not in a user's hands.
// A task added to deno.json without an entry below fails the test.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installPackages } from "../lib/mcp/install.ts";
import { startScriptedModelServer } from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TASKS: Record<string, string> = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
).tasks;

/** Tasks that are not one `deno run` of a task file, or that need everything, and why. */
export const EXEMPT: Readonly<Record<string, string>> = {
  test: "runs every test and notebook: tests start servers, browsers and Jupyter kernels (-A)",
  notebooks: "Jupyter kernels run the notebook cells, which import lib/ freely (-A)",
  check: "fmt, lint, type check, doc lint and the layer test; no task file of its own",
};

type Kind = "read" | "write" | "net" | "run" | "env" | "sys" | "ffi" | "import";

/**
 * Permissions a task takes without a list, and why. Anything not named here must be a list
 * (`--allow-read=.,/tmp`); a reason that no longer applies fails the test too.
 */
export const UNSCOPED: Readonly<Record<string, Partial<Record<Kind, string>>>> = {
  bench: {
    net: "--proxy-servers and --endpoint reach a gateway at any URL",
    run: "--live and --proxy-servers start the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  live: {
    net: "--endpoint and remote servers are at any URL",
    run: "starts the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  proxy: {
    net: "listens on --host and reaches remote upstreams at any URL",
    run: "starts the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  "lint-catalog": {
    net: "--servers may name remote servers at any URL",
    run: "--servers starts the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  capture: {
    net: "remote servers of a config are at any URL",
    run: "runs npm and the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  "capture-results": {
    run: "runs npm and the stdio servers of a config (any command)",
    env: "${VAR} in a servers config names any variable",
  },
  agents: {
    net: "model endpoints (any base URL) and remote MCP servers",
    run: "starts the stdio servers of a config (any command) and run_code's Deno",
    env: "${VAR} in model registries and servers configs names any variable",
  },
  chat: {
    net: "model endpoints (any base URL) and remote MCP servers",
    run: "starts the stdio servers of a config (any command) and run_code's Deno",
    env: "${VAR} in model registries and servers configs names any variable",
  },
  sweep: {
    run: "runs deno task agents (Deno) for each configuration",
  },
  serve: {
    net: "model endpoints (any base URL) and remote MCP servers",
    run: "starts the stdio servers of a config (any command) and run_code's Deno",
    env: "${VAR} in model registries and servers configs names any variable",
  },
  scale: {
    run: "runs deno task synth and deno task bench (Deno) as measured child processes",
  },
  "demo-agents": {
    run: "starts the fixture servers (node) and run_code's Deno",
    env:
      "the agent flow expands ${VAR} in model registries and servers configs from the environment",
  },
  calibrate: {
    net: "the judge model's endpoint (any base URL)",
    env: "${VAR} in a model registry names any variable",
  },
  report: {
    run: "headless Chromium for --pdf and --png",
    env: "puppeteer-core reads its configuration from the environment",
  },
};

/** One parsed `deno run` task: its permission flags and its file. */
export interface ParsedTask {
  /** `read` → the listed paths (`undefined` when unscoped). */
  readonly allow: ReadonlyMap<Kind, readonly string[] | undefined>;
  /** The task file, e.g. `tasks/bench.ts`. */
  readonly file: string;
}

/**
 * Parses `deno run --allow-x[=a,b] ... tasks/NAME.ts`.
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
    const m = /^--allow-(read|write|net|run|env|sys|ffi|import)(?:=(.+))?$/.exec(flag);
    if (m === null) throw new Error(`task ${name}: flag ${flag} is not a scoped --allow-*`);
    allow.set(m[1] as Kind, m[2]?.split(","));
  }
  return { allow, file };
}

Deno.test("every deno task declares narrow permissions, and every unscoped one has a reason", () => {
  const problems: string[] = [];
  for (const [name, command] of Object.entries(TASKS)) {
    if (name in EXEMPT) continue;
    let parsed: ParsedTask;
    try {
      parsed = parseTaskCommand(name, command);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const reasons = UNSCOPED[name] ?? {};
    for (const [kind, list] of parsed.allow) {
      if (list === undefined && reasons[kind] === undefined) {
        problems.push(`task ${name}: --allow-${kind} has no list and no reason in UNSCOPED`);
      }
      if (list !== undefined && list.some((p) => p === "/" || p === "~" || p === "..")) {
        problems.push(`task ${name}: --allow-${kind}=${list.join(",")} is the whole disk`);
      }
    }
    for (const kind of Object.keys(reasons) as Kind[]) {
      if (!parsed.allow.has(kind) || parsed.allow.get(kind) !== undefined) {
        problems.push(`task ${name}: UNSCOPED gives a reason for ${kind}, which it does not take`);
      }
    }
    for (const kind of ["read", "write"] as const) {
      if (parsed.allow.has(kind) && parsed.allow.get(kind) === undefined) {
        problems.push(`task ${name}: --allow-${kind} must name its folders`);
      }
    }
  }
  for (const name of Object.keys(UNSCOPED)) {
    if (!(name in TASKS)) problems.push(`UNSCOPED names task ${name}, which deno.json lacks`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("parseTaskCommand reads permission lists and refuses -A", () => {
  const p = parseTaskCommand("x", "deno run --allow-read=.,/tmp --allow-net tasks/x.ts");
  assert.deepEqual([...p.allow], [["read", [".", "/tmp"]], ["net", undefined]]);
  assert.throws(() => parseTaskCommand("x", "deno run -A tasks/x.ts"), /-A is not a scoped/);
  assert.throws(() => parseTaskCommand("x", "deno test -A"), /not a single "deno run"/);
});

// ---------------------------------------------------------------------------------------------
// Each task under its declared permissions.

/** Where the invocations below write (inside results/, which every writing task may write). */
const OUT = "results/.permissions-test";

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const decoder = new TextDecoder();

/** Runs `deno task NAME ARGS` from the repository root, as a user would. */
async function task(
  name: string,
  args: readonly string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Ran> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Starts a long-running task, waits for a stderr/stdout line matching `ready`, then stops it. */
async function serving(
  name: string,
  args: readonly string[],
  ready: RegExp,
  use: (match: RegExpExecArray) => Promise<void>,
  env: Record<string, string> = {},
): Promise<Ran> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", name, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
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

function assertRan(name: string, r: Ran, codes: readonly number[] = [0]) {
  const all = `${r.stdout}\n${r.stderr}`;
  const denied = PERMISSION_ERROR.exec(all);
  assert.equal(
    denied,
    null,
    `deno task ${name} hit a permission it does not declare:\n${all.slice(-3_000)}`,
  );
  assert.ok(codes.includes(r.code), `deno task ${name} exited ${r.code}:\n${all.slice(-3_000)}`);
}

const KEY = "sk-permissions-test-0123456789";

async function writeModels(url: string, openaiUrl: string): Promise<string> {
  const path = `${OUT}/models.json`;
  const pricing = { inputUsdPerMTok: 3, outputUsdPerMTok: 15 };
  await Deno.writeTextFile(
    join(ROOT, path),
    JSON.stringify({
      models: [
        { id: "claude", provider: "anthropic", model: "s", baseUrl: url, apiKey: "${K}", pricing },
        { id: "gpt", provider: "openai", model: "s", baseUrl: openaiUrl, apiKey: "${K}", pricing },
        { id: "judge", provider: "anthropic", model: "j", baseUrl: url, apiKey: "${K}", pricing },
      ],
    }),
  );
  return path;
}

/** A servers config holding server-memory alone (written before the invocations run). */
const MEMORY_CONFIG = `${OUT}/memory.servers.json`;

/** A small real invocation per task; each may use what earlier ones wrote. */
type Invocation = (ctx: { models: string }) => Promise<Ran | void>;

const INVOCATIONS: Readonly<Record<string, Invocation>> = {
  fixtures: async () => assertRan("fixtures", await task("fixtures", [])),
  synth: async () =>
    assertRan(
      "synth",
      await task("synth", ["--tools", "40", "--out", `${OUT}/synth/synth_40.tools.json`]),
    ),
  scale: async () => {
    // 40 tools lack the golden set's tools, so the measured bench exits 1 (scale then exits 1);
    // what counts here is that scale ran synth and bench and read their peak memory.
    assertRan(
      "scale",
      await task("scale", [
        "--sizes",
        "40",
        "--no-default",
        "--workers",
        "1,2",
        "--out",
        `${OUT}/scale`,
      ]),
      [0, 1],
    );
    const report = JSON.parse(await Deno.readTextFile(join(ROOT, OUT, "scale", "scale.json")));
    const rows = report.rows as { peakRssMb: number | null; workers: number }[];
    // One bench per --workers count; the second runs a worker thread under bench's permissions.
    assert.deepEqual(rows.map((r) => r.workers), [1, 2]);
    for (const row of rows) assert.ok((row.peakRssMb ?? 0) > 10, JSON.stringify(row));
  },
  "lint-catalog": async () =>
    assertRan("lint-catalog", await task("lint-catalog", ["--json"]), [0, 1]),
  bench: async () =>
    assertRan(
      "bench",
      await task("bench", [
        "--arms",
        "none",
        "--golden",
        "none",
        "--tool-results",
        "none",
        "--tokenizers",
        "cl100k_base",
        "--out",
        `${OUT}/bench`,
      ]),
    ),
  capture: async () =>
    assertRan(
      "capture",
      await task("capture", [
        "--config",
        MEMORY_CONFIG,
        "--only",
        "memory",
        "--install-dir",
        ".scratch/servers",
        "--no-install",
        "--out",
        `${OUT}/capture`,
      ]),
    ),
  "capture-results": async () => {
    const plan = `${OUT}/calls.json`;
    await Deno.writeTextFile(
      join(ROOT, plan),
      JSON.stringify({
        calls: [{
          id: "fs-allowed",
          server: "filesystem",
          tool: "list_allowed_directories",
          arguments: {},
        }],
      }),
    );
    assertRan(
      "capture-results",
      await task("capture-results", [
        "--calls",
        plan,
        "--install-dir",
        ".scratch/servers",
        "--no-install",
        "--out",
        `${OUT}/capture-results`,
        "--id",
        "t",
      ]),
    );
  },
  live: async () =>
    assertRan(
      "live",
      await task("live", [
        "--only",
        "memory",
        "--install-dir",
        ".scratch/servers",
        "--out",
        `${OUT}/live`,
      ]),
    ),
  proxy: async () => {
    const r = await serving(
      "proxy",
      ["--servers", MEMORY_CONFIG, "--http", "0", "--install-dir", ".scratch/servers"],
      /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
      async ([, url]) => {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
          }),
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      },
    );
    assertRan("proxy", r);
  },
  serve: async () => {
    const r = await serving(
      "serve",
      ["--port", "0", "--config", `${OUT}/serve-config`, "--results", `${OUT}/serve`],
      /(http:\/\/127\.0\.0\.1:\d+)/,
      async ([, url]) => {
        const res = await fetch(`${url}/`);
        assert.equal(res.status, 200);
        await res.body?.cancel();
      },
    );
    assertRan("serve", r, [0, 130, 143]);
  },
  calibrate: async ({ models }) => {
    assertRan(
      "calibrate",
      await task("calibrate", [
        "--suite",
        "fixtures/suites/memory_graph.json",
        "--labels",
        "fixtures/labels/memory_graph.labels.json",
        "--judge",
        "judge",
        "--models",
        models,
        "--env-file",
        `${OUT}/none.env`,
        "--out",
        `${OUT}/calibration`,
      ], { env: { K: KEY } }),
    );
    const written = JSON.parse(
      await Deno.readTextFile(join(ROOT, OUT, "calibration", "memory-graph--judge.json")),
    );
    assert.equal(written.scored, 8);
  },
  "demo-agents": async () =>
    assertRan(
      "demo-agents",
      await task("demo-agents", ["--out", `${OUT}/demo`, "--repetitions", "1"]),
    ),
  agents: async ({ models }) => {
    for (const shard of ["1/2", "2/2"]) {
      assertRan(
        "agents",
        await task("agents", [
          "--suite",
          "fixtures/suites/fs_basics.json",
          "--agents",
          "fs-terse-sequential",
          "--models",
          models,
          "--install-dir",
          ".scratch/servers",
          "--env-file",
          `${OUT}/none.env`,
          "--shard",
          shard,
          "--out",
          `${OUT}/runs`,
          "--run-id",
          `shard-${shard[0]}`,
        ], { env: { K: KEY } }),
      );
    }
  },
  merge: async () =>
    assertRan(
      "merge",
      await task("merge", [
        "--out",
        `${OUT}/merged`,
        `${OUT}/runs/shard-1`,
        `${OUT}/runs/shard-2`,
      ]),
    ),
  sweep: async ({ models }) =>
    assertRan(
      "sweep",
      await task("sweep", [
        "--base",
        "fs-terse-sequential",
        "--vary",
        "loop=sequential,parallel",
        "--suite",
        "fixtures/suites/fs_basics.json",
        "--models",
        models,
        "--install-dir",
        ".scratch/servers",
        "--env-file",
        `${OUT}/none.env`,
        "--out",
        `${OUT}/runs`,
        "--run-id",
        "sweep",
      ], { env: { K: KEY } }),
    ),
  chat: async ({ models }) =>
    assertRan(
      "chat",
      await task("chat", [
        "--agent",
        "fs-terse-sequential",
        "--models",
        models,
        "--install-dir",
        ".scratch/servers",
        "--env-file",
        `${OUT}/none.env`,
      ], { stdin: "How many lines does todo.txt have?\n/exit\n", env: { K: KEY } }),
    ),
  report: async () => {
    assertRan(
      "report",
      await task("report", ["--runs", `${OUT}/runs`, "--out", `${OUT}/compare/dashboard.html`]),
    );
    // The PDF path: finding and driving headless Chromium under the task's permissions.
    if (!await Deno.stat("/usr/bin/chromium").then(() => true, () => false)) {
      if (Deno.env.get("CI")) throw new Error("CI needs /usr/bin/chromium for report --pdf");
      console.warn("skipped report --pdf: /usr/bin/chromium is not installed");
      return;
    }
    assertRan(
      "report",
      await task("report", [
        "--runs",
        `${OUT}/runs`,
        "--dashboard",
        "agent-comparison",
        "--out",
        `${OUT}/report`,
        "--pdf",
        `${OUT}/report.pdf`,
      ]),
    );
    const pdf = await Deno.readFile(join(ROOT, OUT, "report.pdf"));
    assert.equal(new TextDecoder().decode(pdf.subarray(0, 5)), "%PDF-");
  },
  gate: async () =>
    assertRan(
      "gate",
      await task("gate", [
        "--baseline",
        `${OUT}/runs/shard-1`,
        "--candidate",
        `${OUT}/merged`,
        "--junit",
        `${OUT}/gate.junit.xml`,
      ]),
      [0, 1],
    ),
  forecast: async () => {
    const r = await task("forecast", ["--run", `${OUT}/merged`, "--questions", "1000"]);
    assertRan("forecast", r);
    assert.match(r.stdout, /1,000 questions like the suite's/);
  },
  "import-maverik": async () => {
    const r = await task("import-maverik", [
      "--from",
      "fixtures/maverik/basic",
      "--out",
      `${OUT}/maverik`,
    ]);
    assertRan("import-maverik", r);
    assert.match(r.stdout, /imported 2 agents/);
  },
};

/**
 * run_code's CPU-time and memory limits under the permissions of every task that runs agents:
 * they read /proc, which Deno allows a program only under --allow-all, so they must work
 * without it (a limit that fails closed would stop every program).
 */
const RUN_CODE_TASKS = ["agents", "chat", "serve", "demo-agents"];

/** Order of the invocations (later ones read what earlier ones wrote). */
const ORDER = [
  "fixtures",
  "synth",
  "scale",
  "lint-catalog",
  "bench",
  "capture",
  "capture-results",
  "live",
  "proxy",
  "serve",
  "demo-agents",
  "agents",
  "merge",
  "sweep",
  "chat",
  "report",
  "gate",
  "forecast",
  "import-maverik",
  "calibrate",
];

Deno.test({
  name: "every deno task runs its --help and a small real invocation under its own permissions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    // MCPMETER_PERMISSIONS_ONLY=a,b runs only those tasks (while changing their permissions).
    const only = Deno.env.get("MCPMETER_PERMISSIONS_ONLY")?.split(",");
    const names = Object.keys(TASKS).filter((n) => !(n in EXEMPT) && (!only || only.includes(n)));
    const missing = names.filter((n) => !(n in INVOCATIONS));
    assert.deepEqual(missing, [], "each task needs a small real invocation in INVOCATIONS");
    const servers = await installPackages(
      ["server-filesystem", "server-memory"].map((p) => ({
        package: `@modelcontextprotocol/${p}`,
        version: "2026.8.31",
      })),
      { installDir: join(ROOT, ".scratch/servers") },
    );
    for (const s of servers) assert.notEqual(s.status, "failed", `${s.package}: ${s.message}`);
    await Deno.remove(join(ROOT, OUT), { recursive: true }).catch(() => {});
    await Deno.mkdir(join(ROOT, OUT), { recursive: true });
    const model = startScriptedModelServer(fixturePolicy);
    try {
      const models = await writeModels(model.url, model.openaiBaseUrl);
      await Deno.writeTextFile(
        join(ROOT, MEMORY_CONFIG),
        JSON.stringify({
          mcpServers: {
            memory: {
              command: "node",
              args: ["${BIN}"],
              env: { MEMORY_FILE_PATH: "${SCRATCH}/m.jsonl" },
              package: "@modelcontextprotocol/server-memory",
              version: "2026.8.31",
            },
          },
        }),
      );
      for (const name of names) {
        await t.step(`${name} --help`, async () => {
          const r = await task(name, ["--help"]);
          assertRan(name, r);
          assert.ok(r.stdout.trim().length > 0, `${name} --help printed nothing`);
        });
      }
      const ordered = [
        ...ORDER.filter((n) => names.includes(n)),
        ...names.filter((n) => !ORDER.includes(n)),
      ];
      const probe = `${OUT}/run_code_probe.ts`;
      await Deno.writeTextFile(
        join(ROOT, probe),
        [
          `import { runCode } from "../../lib/agent/run_code.ts";`,
          `const call = () => Promise.resolve({ text: "ok", isError: false });`,
          `const spin = await runCode({ code: "while (true) {}", timeoutMs: 30_000, maxCpuMs: 500, call });`,
          `const hello = await runCode({ code: "console.log(await tools.call('m:x', {}))", timeoutMs: 30_000, call });`,
          `console.log(JSON.stringify([spin.limit, hello.output]));`,
        ].join("\n"),
      );
      for (const name of RUN_CODE_TASKS.filter((n) => names.includes(n))) {
        await t.step(`run_code limits under ${name}'s permissions`, async () => {
          const flags = parseTaskCommand(name, TASKS[name]);
          const args = TASKS[name].trim().split(/\s+/).slice(1, -1);
          assert.equal(flags.file.startsWith("tasks/"), true);
          const out = await new Deno.Command(Deno.execPath(), {
            args: [...args, probe],
            cwd: ROOT,
            stdin: "null",
            stdout: "piped",
            stderr: "piped",
          }).output();
          const text = decoder.decode(out.stdout).trim();
          assert.equal(out.code, 0, decoder.decode(out.stderr));
          assert.deepEqual(JSON.parse(text), [{ name: "cpu_ms", value: 500 }, "ok"]);
        });
      }
      for (const name of ordered) {
        await t.step(name, async () => {
          await INVOCATIONS[name]({ models });
        });
      }
    } finally {
      await model.close();
      await Deno.remove(join(ROOT, OUT), { recursive: true }).catch(() => {});
    }
  },
});
