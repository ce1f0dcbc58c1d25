// test:quick skips this file: its tests start processes (deno task test runs them).
// Every `deno task` runs with the permission set deno.json declares for it (`deno run -q
// -P=NAME`), and those are the narrowest that work: a task writes anywhere but fixtures/ (its
// outputs go where --out points), and one that needs read, net, run, env or sys beyond a list,
// or may write fixtures/, says why in its case. Each task's --help and a small real invocation
// run through `deno task` itself, so a missing permission fails here, not in a user's hands.
// A task added to deno.json without a case fails the test. The cases are data, per task family
// (testing/permissions_{catalog,agents,runs}.ts), run by testing/permissions.ts.
// MCPMETER_PERMISSIONS_ONLY=a,b runs only those tasks' invocations.
import assert from "node:assert/strict";
import * as P from "../testing/permissions.ts";
import { HELP_LAYOUT } from "../lib/core/help.ts";
import { readmeTable } from "../testing/readme_table.ts";
import { CATALOG_CASES } from "../testing/permissions_catalog.ts";
import { AGENT_CASES, RUN_CODE_TASKS, runCodeProbe } from "../testing/permissions_agents.ts";
import { RUN_CASES } from "../testing/permissions_runs.ts";
import { openWorld } from "../testing/permissions_world.ts";

/**
 * Tasks that are not one `deno run` of a task file, or that need everything (their permission
 * set is `{"all": true}`), and why.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  test: "runs every test and notebook: tests start servers, browsers and Jupyter kernels (all)",
  notebooks: "Jupyter kernels run the notebook cells, which import lib/ freely (all)",
  check: "fmt, lint, type check, doc lint and the layer test; no task file of its own",
  "test:quick": "runs deno test on the test files that start no process (testing/quick.ts)",
};

/** Every task's case, in run order (later ones read what earlier ones wrote). */
const CASES: Readonly<Record<string, P.PermissionCase>> = {
  ...CATALOG_CASES,
  ...AGENT_CASES,
  ...RUN_CASES,
};

Deno.test("every deno task declares narrow permissions, and every unscoped one has a reason", () => {
  const problems: string[] = [];
  for (const [name, command] of Object.entries(P.TASKS)) {
    if (name in EXEMPT) continue;
    let parsed: P.ParsedTask;
    try {
      parsed = P.parseTaskCommand(name, command);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const reasons = CASES[name]?.unscoped ?? {};
    // Writing anywhere but fixtures/ is every output's rule (--out points anywhere).
    const outputs = (kind: P.Kind) =>
      kind === "write" && (parsed.deny.get("write") ?? []).includes("fixtures");
    for (const [kind, list] of parsed.allow) {
      if (kind === "ffi" || kind === "import") problems.push(`task ${name}: takes ${kind}`);
      if (list === undefined && !outputs(kind) && reasons[kind] === undefined) {
        problems.push(`task ${name}: ${kind} has no list and no reason in its case`);
      }
      if (list !== undefined && list.some((p) => p === "/" || p === "~" || p === "..")) {
        problems.push(`task ${name}: ${kind} ${list.join(",")} is the whole disk`);
      }
    }
    for (const kind of Object.keys(reasons) as P.Kind[]) {
      if (!parsed.allow.has(kind) || parsed.allow.get(kind) !== undefined || outputs(kind)) {
        problems.push(`task ${name}: its case gives a reason for ${kind}, which it does not take`);
      }
    }
  }
  for (const name of Object.keys(CASES)) {
    if (!(name in P.TASKS)) problems.push(`a case names task ${name}, which deno.json lacks`);
  }
  for (const [name, set] of Object.entries(P.PERMISSION_SETS)) {
    if (!(name in P.TASKS)) problems.push(`permission set ${name} belongs to no task`);
    if ("all" in set && !(name in EXEMPT)) problems.push(`permission set ${name} grants all`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("parseTaskCommand reads the task's permission set and refuses flags on the line", () => {
  const sets = {
    x: { read: true, write: { allow: true, deny: ["fixtures"] }, net: ["127.0.0.1"] },
  };
  const p = P.parseTaskCommand("x", "deno run -q -P=x tasks/x.ts", sets);
  assert.deepEqual([...p.allow], [["read", undefined], ["write", undefined], [
    "net",
    ["127.0.0.1"],
  ]]);
  assert.deepEqual([...p.deny], [["write", ["fixtures"]]]);
  const refuse = (line: string, re: RegExp) =>
    assert.throws(() => P.parseTaskCommand("x", line, sets), re);
  refuse("deno run -A tasks/x.ts", /must be "-q -P=x"/);
  refuse("deno run -q -P=x --allow-net tasks/x.ts", /must be "-q -P=x"/);
  refuse("deno run -q -P=y tasks/x.ts", /must be "-q -P=x"/);
  refuse("deno test -A", /not a single "deno run"/);
  assert.throws(
    () => P.parseTaskCommand("x", "deno run -q -P=x tasks/x.ts", {}),
    /no permission set/,
  );
  assert.throws(
    () => P.parseTaskCommand("x", "deno run -q -P=x tasks/x.ts", { x: { read: "all" } }),
    /read must be true or a list/,
  );
});

Deno.test("docs/security.md's table says what each task's permission set grants", async () => {
  const doc = await Deno.readTextFile(`${P.ROOT}docs/security.md`);
  const code = (list: readonly string[]) => list.map((p) => `\`${p}\``).join(", ");
  const cell = (parsed: P.ParsedTask, kind: P.Kind) => {
    if (!parsed.allow.has(kind)) return "—";
    const list = parsed.allow.get(kind);
    if (kind === "read") {
      return list === undefined ? "anywhere" : list.join() === "." ? "the repository" : code(list);
    }
    if (kind === "write") {
      if (list !== undefined) return code(list);
      const deny = parsed.deny.get("write") ?? [];
      return deny.length === 0 ? "anywhere¹" : `anywhere but ${code(deny)}`;
    }
    return list === undefined ? "any" : code(list);
  };
  const expected = Object.keys(P.TASKS).filter((n) => !(n in EXEMPT)).map((name) => {
    const parsed = P.parseTaskCommand(name, P.TASKS[name]);
    const kinds: P.Kind[] = ["read", "write", "net", "run", "env"];
    return [`\`${name}\``, ...kinds.map((k) => cell(parsed, k))];
  });
  assert.deepEqual(readmeTable(doc, "task-permissions"), expected);
});

Deno.test("deno task lists every task with a description and no permission flag", async () => {
  const missing = Object.keys(P.TASKS).filter((n) => !P.DESCRIPTIONS[n]?.trim());
  assert.deepEqual(missing, [], "give these tasks a description in deno.json");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task"],
    cwd: P.ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const listing = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.doesNotMatch(listing, /--allow-|--deny-|(^|\s)-A(\s|$)/m);
  for (const [name, description] of Object.entries(P.DESCRIPTIONS)) {
    assert.ok(listing.includes(`- ${name}\n    // ${description}\n`), `${name} in:\n${listing}`);
  }
});

Deno.test({
  name: "every deno task runs its --help and a small real invocation under its own permissions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const only = Deno.env.get("MCPMETER_PERMISSIONS_ONLY")?.split(",");
    const names = Object.keys(P.TASKS).filter((n) => !(n in EXEMPT) && (!only || only.includes(n)));
    const missing = names.filter((n) => !(n in CASES));
    assert.deepEqual(missing, [], "each task needs a case with a small real invocation");
    const world = await openWorld();
    try {
      for (const name of names) {
        await t.step(`${name} --help`, async () => {
          const r = await P.task(name, ["--help"]);
          P.assertRan(name, r);
          // One layout for every task (lib/core/help.ts): usage, purpose, options, exit codes.
          assert.ok(
            r.stdout.startsWith(`Usage: deno task ${name}`),
            `${name} --help:\n${r.stdout}`,
          );
          assert.match(r.stdout, HELP_LAYOUT, `${name} --help`);
        });
      }
      for (const name of RUN_CODE_TASKS.filter((n) => names.includes(n))) {
        await t.step(`run_code limits under ${name}'s permissions`, () => runCodeProbe(name));
      }
      for (const name of Object.keys(CASES).filter((n) => names.includes(n))) {
        await t.step(name, () => CASES[name].run(world));
      }
    } finally {
      await world.close();
    }
  },
});
