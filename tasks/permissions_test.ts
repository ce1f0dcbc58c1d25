// test:quick skips this file: its tests start processes (deno task test runs them).
// Every `deno task` runs with the permissions deno.json declares for it, and those are the
// narrowest that work: reads and writes name their folders, and a task that needs net, run,
// env or sys beyond a list says why in its case. Each task's --help and a small real invocation
// run through `deno task` itself, so a missing permission fails here, not in a user's hands.
// A task added to deno.json without a case fails the test. The cases are data, per task family
// (testing/permissions_{catalog,agents,runs}.ts), run by testing/permissions.ts.
// MCPMETER_PERMISSIONS_ONLY=a,b runs only those tasks' invocations.
import assert from "node:assert/strict";
import * as P from "../testing/permissions.ts";
import { CATALOG_CASES } from "../testing/permissions_catalog.ts";
import { AGENT_CASES, RUN_CODE_TASKS, runCodeProbe } from "../testing/permissions_agents.ts";
import { RUN_CASES } from "../testing/permissions_runs.ts";
import { openWorld } from "../testing/permissions_world.ts";

/** Tasks that are not one `deno run` of a task file, or that need everything, and why. */
const EXEMPT: Readonly<Record<string, string>> = {
  test: "runs every test and notebook: tests start servers, browsers and Jupyter kernels (-A)",
  notebooks: "Jupyter kernels run the notebook cells, which import lib/ freely (-A)",
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
    for (const [kind, list] of parsed.allow) {
      if (list === undefined && reasons[kind] === undefined) {
        problems.push(`task ${name}: --allow-${kind} has no list and no reason in its case`);
      }
      if (list !== undefined && list.some((p) => p === "/" || p === "~" || p === "..")) {
        problems.push(`task ${name}: --allow-${kind}=${list.join(",")} is the whole disk`);
      }
    }
    for (const kind of Object.keys(reasons) as P.Kind[]) {
      if (!parsed.allow.has(kind) || parsed.allow.get(kind) !== undefined) {
        problems.push(`task ${name}: its case gives a reason for ${kind}, which it does not take`);
      }
    }
    for (const kind of ["read", "write"] as const) {
      if (parsed.allow.has(kind) && parsed.allow.get(kind) === undefined) {
        problems.push(`task ${name}: --allow-${kind} must name its folders`);
      }
    }
  }
  for (const name of Object.keys(CASES)) {
    if (!(name in P.TASKS)) problems.push(`a case names task ${name}, which deno.json lacks`);
  }
  assert.deepEqual(problems, []);
});

Deno.test("parseTaskCommand reads permission lists and refuses -A", () => {
  const p = P.parseTaskCommand("x", "deno run --allow-read=.,/tmp --allow-net tasks/x.ts");
  assert.deepEqual([...p.allow], [["read", [".", "/tmp"]], ["net", undefined]]);
  assert.throws(() => P.parseTaskCommand("x", "deno run -A tasks/x.ts"), /-A is not a scoped/);
  assert.throws(() => P.parseTaskCommand("x", "deno test -A"), /not a single "deno run"/);
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
          assert.ok(r.stdout.trim().length > 0, `${name} --help printed nothing`);
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
