// test:quick skips this file: its tests start processes (deno task test runs them).
// deno task agents as a command: a run killed with SIGKILL and resumed through the CLI (its
// servers and scratch folders cleaned up), a run that measured nothing exiting 1 with the help
// on stderr, the version commands' stdout, flag errors. What a run computes and records is
// tested in process in lib/flows/agents_test.ts.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import {
  E2E_KEY,
  ensureAgentServers,
  readRecords,
  recordKey,
  withScriptedModel,
} from "../testing/agents.ts";
import { liveProcessesWith } from "../testing/mcp.ts";

function agentsCommand(args: string[], tmp?: string): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tasks/agents.ts", "--env-file", "/nonexistent.env", ...args],
    env: { E2E_KEY, NO_COLOR: "1", ...(tmp ? { TMPDIR: tmp } : {}) },
    stdout: "piped",
    stderr: "piped",
  });
}

/** The fixture agents, models and servers, named so no test reads the working config. */
const FIXTURE_AGENTS = [
  "--agents-dir",
  "fixtures/agents",
  "--models",
  "fixtures/agents/models.json",
  "--servers",
  "fixtures/agents/servers.json",
];

async function runAgents(args: string[], tmp?: string) {
  const out = await agentsCommand(args, tmp).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test({
  name: "agents: killing the process mid-run and resuming loses and duplicates nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    await withScriptedModel(
      (req) => ({ ...fixturePolicy(req), delayMs: 120 }),
      async (_s, dir, models) => {
        const agents = "fs-terse-sequential,fs-careful-sequential";
        const args = `--suite fixtures/suites/fs_basics.json --models ${models} --out ${dir} ` +
          `--agents-dir fixtures/agents --servers fixtures/agents/servers.json ` +
          `--agents ${agents} --repetitions 3 --run-id killed`;
        // A temporary folder of the test's own: no other agents run on the machine sweeps it.
        const tmp = join(dir, "tmp");
        await Deno.mkdir(tmp);
        const child = agentsCommand(args.split(" "), tmp).spawn();
        const casesPath = join(dir, "killed", "cases.jsonl");
        // Wait for at least 3 finished cases, then kill hard.
        for (let i = 0; i < 600; i++) {
          const text = await Deno.readTextFile(casesPath).catch(() => "");
          if (text.split("\n").filter(Boolean).length >= 3) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        child.kill("SIGKILL");
        await child.status;
        await child.stdout.cancel().catch(() => {});
        await child.stderr.cancel().catch(() => {});
        const before = await Deno.readTextFile(casesPath);
        const beforeLines = before.split("\n").filter((l) => l.endsWith("}"));
        assert.ok(
          beforeLines.length >= 3 && beforeLines.length < 18,
          `killed after ${beforeLines.length} cases`,
        );
        // Simulate a torn write as well: a half line at the end must be dropped, not kept.
        await Deno.writeTextFile(casesPath, '{"agentId":"fs-ter', { append: true });

        const killedPrefix = `mcpmeter-session-${child.pid}-`;
        const leftBy = () =>
          Array.from(Deno.readDirSync(tmp)).filter((e) => e.name.startsWith(killedPrefix));
        // SIGKILL left the data copy and the servers' HOME folders behind...
        assert.ok(leftBy().length > 0);
        // ...and they count as stale once older than the grace period (a live process in another
        // pid namespace may own a young one): age them by seven hours.
        const aged = new Date(Date.now() - 7 * 60 * 60 * 1000);
        for (const e of leftBy()) Deno.utimeSync(join(tmp, e.name), aged, aged);
        const r = await runAgents(["--resume", "killed", "--out", dir], tmp);
        assert.equal(r.code, 0, r.stderr);
        // ...and the next run removed them.
        assert.deepEqual(leftBy(), []);
        assert.match(r.stderr, /removed \d+ folder\(s\) left by killed runs/);
        // The killed run's servers did not outlive it (they exit when their stdin closes).
        assert.deepEqual(liveProcessesWith(killedPrefix), []);
        const records = await readRecords(join(dir, "killed"));
        // 2 agents × 3 cases × 3 repetitions.
        assert.equal(records.length, 18);
        assert.equal(new Set(records.map(recordKey)).size, 18);
        // Records finished before the kill are kept verbatim, as the first lines.
        const after = (await Deno.readTextFile(casesPath)).split("\n");
        const complete = before.endsWith("\n") ? beforeLines : beforeLines.slice(0, -1);
        assert.deepEqual(after.slice(0, complete.length), complete);
        assert.ok(records.every((x) => x.passed === true));
        const run = JSON.parse(await Deno.readTextFile(join(dir, "killed", "run.json")));
        assert.equal(run.status, "complete");
        assert.equal(run.sessions.length, 2);
        assert.equal(run.sessions[1].planned, 18 - complete.length);
      },
    );
  },
});

Deno.test({
  name:
    "agents: Ctrl-C stops cleanly (exit 130, resume hint, status stopped, nothing aborted recorded, no folder or server left) and --resume finishes it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await ensureAgentServers();
    await withScriptedModel(
      (req) => ({ ...fixturePolicy(req), delayMs: 120 }),
      async (_s, dir, models) => {
        const args = `--suite fixtures/suites/fs_basics.json --models ${models} --out ${dir} ` +
          `--agents-dir fixtures/agents --servers fixtures/agents/servers.json ` +
          `--agents fs-terse-sequential,fs-careful-sequential --repetitions 3 --run-id ctrlc`;
        const tmp = join(dir, "tmp");
        await Deno.mkdir(tmp);
        const child = agentsCommand(args.split(" "), tmp).spawn();
        const casesPath = join(dir, "ctrlc", "cases.jsonl");
        for (let i = 0; i < 600; i++) {
          const text = await Deno.readTextFile(casesPath).catch(() => "");
          if (text.split("\n").filter(Boolean).length >= 2) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        child.kill("SIGINT");
        const [status, err] = await Promise.all([
          child.status,
          new Response(child.stderr).text(),
          child.stdout.cancel(),
        ]);
        assert.equal(status.code, 130, err);
        const lines = (await Deno.readTextFile(casesPath)).split("\n");
        assert.equal(lines.pop(), "", "no torn last line");
        // Every record on disk is a finished case: the one aborted in flight was not recorded.
        const records = lines.map((l) => JSON.parse(l));
        assert.ok(records.length >= 2 && records.length < 18, `${records.length} cases`);
        assert.ok(records.every((r) => r.passed === true), lines.join("\n"));
        assert.match(
          err,
          new RegExp(
            `interrupted: the ${records.length} case\\(s\\) finished this session are in .*ctrlc/cases\\.jsonl, ${
              18 - records.length
            } case\\(s\\) not finished; finish the run with deno task agents --resume ctrlc`,
          ),
        );
        const run = JSON.parse(await Deno.readTextFile(join(dir, "ctrlc", "run.json")));
        assert.equal(run.status, "stopped");
        // Its servers and session folders went with it (no SIGKILL: closed, not left stale).
        const prefix = `mcpmeter-session-${child.pid}-`;
        assert.deepEqual(
          Array.from(Deno.readDirSync(tmp)).filter((e) => e.name.startsWith(prefix)),
          [],
        );
        assert.deepEqual(liveProcessesWith(prefix), []);

        const r = await runAgents(["--resume", "ctrlc", "--out", dir], tmp);
        assert.equal(r.code, 0, r.stderr);
        const all = await readRecords(join(dir, "ctrlc"));
        assert.equal(all.length, 18);
        assert.equal(new Set(all.map(recordKey)).size, 18);
        const done = JSON.parse(await Deno.readTextFile(join(dir, "ctrlc", "run.json")));
        assert.equal(done.status, "complete");
      },
    );
  },
});

Deno.test("agents: --cut-version and --list-versions print on stdout; a bad flag exits 2 with one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-cli-" });
  try {
    await Deno.writeTextFile(
      join(dir, "a.json"),
      JSON.stringify({
        id: "a",
        description: "versioned agent",
        model: "m",
        systemPrompt: "Answer yes or no.",
        mcpServers: [],
        maxIterations: 4,
      }),
    );
    const cut = await runAgents(["--agents-dir", dir, "--cut-version", "a"]);
    assert.equal(cut.code, 0, cut.stderr);
    assert.equal(cut.stdout.trim(), "1");
    assert.match(cut.stderr, /\[agents\] a: version 1 cut → /);
    const list = await runAgents(["--agents-dir", dir, "--list-versions", "a"]);
    assert.match(list.stdout, /^a@1\t[0-9a-f]{12}\t\S+\t= live$/m);
    const bad = await runAgents([
      "--suite",
      "fixtures/suites/fs_basics.json",
      "--repetitions",
      "0",
    ]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /^mcpmeter agents: error: --repetitions /);
    assert.equal(bad.stderr.trim().split("\n").length, 1, bad.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("agents: a run id with a path in it, an existing run, a bad shard and an edited cases.jsonl exit 2 and write nothing outside --out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-agents-refuse-" });
  try {
    const out = join(dir, "runs");
    // The fixture agents named, so the working config (results/config) is not opened.
    const suite = ["--suite", "fixtures/suites/fs_basics.json", "--out", out, ...FIXTURE_AGENTS];
    const oneLine = (r: { code: number; stderr: string }, pattern: RegExp) => {
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    };
    // A run id names a folder inside --out: "../escape" would have written beside it.
    oneLine(
      await runAgents([...suite, "--run-id", "../escape"]),
      /^mcpmeter agents: error: --run-id "\.\.\/escape" is not a run id: it contains "\/"/,
    );
    oneLine(
      await runAgents(["--resume", "..", "--out", out]),
      /^mcpmeter agents: error: --resume "\.\." is not a run id: it contains "\.\."/,
    );
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name),
      [],
      "nothing written next to --out",
    );
    for (const shard of ["3/2", "0/2"]) {
      oneLine(
        await runAgents([...suite, "--shard", shard]),
        new RegExp(`^mcpmeter agents: error: --shard: Cannot use shard "${shard}"`),
      );
    }
    // A run that already has cases is not started again into the same file.
    const runDir = join(out, "r1");
    await Deno.mkdir(runDir, { recursive: true });
    const line = JSON.stringify({ agentId: "a", caseId: "c", repetition: 1 });
    await Deno.writeTextFile(join(runDir, "cases.jsonl"), `${line}\n${line}\n`);
    oneLine(
      await runAgents([...suite, "--run-id", "r1"]),
      /^mcpmeter agents: error: run "r1" already exists \(.*cases\.jsonl holds 2 cases\): finish it with --resume r1/,
    );
    assert.equal(await Deno.readTextFile(join(runDir, "cases.jsonl")), `${line}\n${line}\n`);
    // --resume keeps the run's own settings: another --suite or --repetitions is refused, not
    // silently ignored; the saved value (spelled another way) and --concurrency pass the check.
    await Deno.writeTextFile(
      join(runDir, "run.json"),
      JSON.stringify({
        meta: { args: { suite: "fixtures/suites/fs_basics.json", repetitions: "1", seed: "0" } },
      }),
    );
    oneLine(
      await runAgents(["--resume", "r1", "--out", out, "--suite", "fixtures/suites/other.json"]),
      /^mcpmeter agents: error: --resume r1 keeps the run's own --suite \(fixtures\/suites\/fs_basics\.json\); --suite fixtures\/suites\/other\.json would be ignored: drop it/,
    );
    oneLine(
      await runAgents(["--resume", "r1", "--out", out, "--repetitions=3"]),
      /keeps the run's own --repetitions \(1\); --repetitions 3 would be ignored/,
    );
    oneLine(
      await runAgents(["--resume", "r1", "--out", out, "--agents", "a"]),
      /keeps the run's own --agents \(unset\); --agents a would be ignored/,
    );
    const same = await runAgents([
      "--resume",
      "r1",
      "--out",
      out,
      "--suite",
      "./fixtures/suites/fs_basics.json",
      "--concurrency",
      "2",
    ]);
    assert.doesNotMatch(same.stderr, /keeps the run's own/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
