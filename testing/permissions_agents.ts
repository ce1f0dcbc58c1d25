// Permission cases of the tasks that run agents (tasks/permissions_test.ts runs them in this
// order, after the catalog tasks): agents writes the runs the run tasks read
// (testing/permissions_runs.ts). Each names its unscoped permissions with their reason.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as P from "./permissions.ts";

const { argv, assertRan, KEY, OUT, READ_ANYWHERE, serving, task } = P;

const AGENT_NEEDS = {
  read: READ_ANYWHERE,
  net: "model endpoints (any base URL) and remote MCP servers",
  run: "starts the stdio servers of a config (any command) and run_code's Deno",
  env: "${VAR} in model registries and servers configs names any variable",
};
const SCRIPTED = { env: { K: KEY } };
const AGENT_FLAGS = `--agents-dir fixtures/agents --servers fixtures/agents/servers.json
  --install-dir .scratch/servers --env-file ${OUT}/none.env`;

/** The cases of the tasks that run agents. */
export const AGENT_CASES: Readonly<Record<string, P.PermissionCase>> = {
  serve: {
    unscoped: AGENT_NEEDS,
    run: async () => {
      const r = await serving(
        "serve",
        argv(`--port 0 --config ${OUT}/serve-config --results ${OUT}/serve`),
        /(http:\/\/127\.0\.0\.1:\d+)/,
        async ([, url]) => {
          const res = await fetch(`${url}/`);
          assert.equal(res.status, 200);
          await res.body?.cancel();
        },
      );
      assertRan("serve", r, [0, 130, 143]);
    },
  },
  "demo-agents": {
    unscoped: {
      read: READ_ANYWHERE,
      run: "starts the fixture servers (node) and run_code's Deno",
      env:
        "the agent flow expands ${VAR} in model registries and servers configs from the environment",
    },
    run: async () =>
      assertRan(
        "demo-agents",
        await task("demo-agents", argv(`--out ${OUT}/demo --repetitions 1`)),
      ),
  },
  agents: {
    unscoped: AGENT_NEEDS,
    run: async ({ models, elsewhere }) => {
      // The suite read from the home folder, as a user's own suite would be.
      const suite = `${elsewhere}/fs_basics.json`;
      await Deno.copyFile(`${P.ROOT}fixtures/suites/fs_basics.json`, suite);
      for (const shard of ["1/2", "2/2"]) {
        const args = `--suite ${suite} --agents fs-terse-sequential
          --models ${models} ${AGENT_FLAGS} --shard ${shard} --out ${OUT}/runs
          --run-id shard-${shard[0]}`;
        assertRan("agents", await task("agents", argv(args), SCRIPTED));
      }
    },
  },
  sweep: {
    unscoped: { read: READ_ANYWHERE, run: "runs deno task agents (Deno) for each configuration" },
    run: async ({ models }) => {
      const args = `--base fs-terse-sequential --vary loop=sequential,parallel
        --suite fixtures/suites/fs_basics.json --models ${models} ${AGENT_FLAGS}
        --out ${OUT}/runs --run-id sweep`;
      assertRan("sweep", await task("sweep", argv(args), SCRIPTED));
    },
  },
  chat: {
    unscoped: AGENT_NEEDS,
    run: async ({ models }) => {
      const args = `--agent fs-terse-sequential --models ${models} ${AGENT_FLAGS}`
        .replace("--agents-dir", "--agents");
      const stdin = "How many lines does todo.txt have?\n/exit\n";
      assertRan("chat", await task("chat", argv(args), { stdin, ...SCRIPTED }));
    },
  },
};

/**
 * The tasks whose permissions run_code's CPU-time and memory limits must work under: the limits
 * read /proc, which Deno allows a program only under --allow-all, so they must work without it
 * (a limit that fails closed would stop every program).
 */
export const RUN_CODE_TASKS: readonly string[] = ["agents", "chat", "serve", "demo-agents"];

const RUN_CODE_PROBE = [
  `import { runCode } from "../../lib/agent/run_code.ts";`,
  `const call = () => Promise.resolve({ text: "ok", isError: false });`,
  `const spin = await runCode({ code: "while (true) {}", timeoutMs: 30_000, maxCpuMs: 500, call });`,
  `const hello = await runCode({ code: "console.log(await tools.call('m:x', {}))", timeoutMs: 30_000, call });`,
  `console.log(JSON.stringify([spin.limit, hello.output]));`,
].join("\n");

/** Runs a probe of run_code's limits with exactly the task's `deno run` flags (in OUT). */
export async function runCodeProbe(name: string): Promise<void> {
  const probe = `${OUT}/run_code_probe.ts`;
  await Deno.writeTextFile(join(P.ROOT, probe), RUN_CODE_PROBE);
  const flags = P.parseTaskCommand(name, P.TASKS[name]);
  const args = P.TASKS[name].trim().split(/\s+/).slice(1, -1);
  assert.equal(flags.file.startsWith("tasks/"), true);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...args, probe],
    cwd: P.ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(text), [{ name: "cpu_ms", value: 500 }, "ok"]);
}
