// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { join } from "node:path";
import { headlessDocument } from "../dashboard.ts";
import { loadUserVisualizations, VizModuleError } from "./load_user.ts";
import { createRegistry } from "./registry.ts";
import { vizContext } from "./theme.ts";
import { isVizNote } from "./types.ts";
import type { AgentRunRecord } from "./types.ts";

const EXAMPLES = new URL("../../../docs/examples/visualizations/", import.meta.url).pathname;

Deno.test("the worked example of docs/visualizations.md type-checks, loads and draws", async () => {
  const list = await loadUserVisualizations(EXAMPLES);
  assert.deepEqual(list.map((v) => v.id), ["turns-per-case"]);
  const reg = createRegistry(list);
  const viz = reg.get("turns-per-case")!;
  assert.equal(reg.all[reg.all.length - 1].id, "turns-per-case");
  const ctx = vizContext(headlessDocument(), viz.layout);
  assert.ok(isVizNote(viz.render([], ctx)));
  const cases = [1, 3, 2].map((iterations, i) => ({ caseId: `c${i}`, passed: true, iterations }));
  const svg = (viz.render([{ agentId: "a", cases } as unknown as AgentRunRecord], ctx) as Element)
    .outerHTML;
  assert.match(svg, /<svg/);
  assert.match(svg, />a</);
});

Deno.test("a user module with a type error is refused with the checker's message; a missing folder holds none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-viz-" });
  try {
    assert.deepEqual(await loadUserVisualizations(join(dir, "none")), []);
    await Deno.writeTextFile(
      join(dir, "broken.ts"),
      `const n: number = "not a number";\nexport default { id: "broken", title: "B", layout: "half", render: () => ({ type: "note", text: String(n) }) };\n`,
    );
    await assert.rejects(() => loadUserVisualizations(dir), (e: unknown) => {
      assert.ok(e instanceof VizModuleError);
      assert.match(e.message, /type check failed: .*TS2322|type check failed: .*not assignable/);
      return true;
    });
    // Without the check the same file loads (it is valid JavaScript).
    assert.equal((await loadUserVisualizations(dir, { check: false })).length, 1);
    // (Each case in its own folder: an imported module stays cached for the process.)
    const named = join(dir, "named");
    await Deno.mkdir(named);
    await Deno.writeTextFile(
      join(named, "renamed.ts"),
      `export default { id: "other-name", title: "B", layout: "half", render: () => ({ type: "note", text: "x" }) };\n`,
    );
    await assert.rejects(
      () => loadUserVisualizations(named, { check: false }),
      /differs from the file name "renamed"/,
    );
    const shape = join(dir, "shape");
    await Deno.mkdir(shape);
    await Deno.writeTextFile(
      join(shape, "wide.ts"),
      `export default { id: "wide", title: "B", layout: "wide", render: 1 };\n`,
    );
    await assert.rejects(
      () => loadUserVisualizations(shape, { check: false }),
      /"layout" must be "half" or "full"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
