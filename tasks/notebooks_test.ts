import assert from "node:assert/strict";
import { silentCells } from "../lib/flows/mod.ts";

Deno.test("silentCells() flags expression cells without output, not statements", async () => {
  const cell = (source: string, outputs: unknown[] = []) => ({
    cell_type: "code",
    source: [source],
    outputs,
  });
  const nb = {
    cells: [
      { cell_type: "markdown", source: ["# title"] },
      cell('import { x } from "./x.ts";'), // 1: import, fine without output
      cell("const a = 1;\nshowTable(rows)"), // 2: expression, no output → flagged
      cell("showPlot(chart)", [{ output_type: "execute_result" }]), // 3: has output
      cell("const b = 2;"), // 4: statement
      cell("const c = f(\n  1,\n);"), // 5: a multi-line statement
      cell("showTable(\n  rows.map((r) => r),\n);"), // 6: a multi-line expression, no output → flagged
    ],
  };
  const path = await Deno.makeTempFile({ suffix: ".ipynb" });
  await Deno.writeTextFile(path, JSON.stringify(nb));
  assert.deepEqual(await silentCells(path), [2, 6]);
  await Deno.remove(path);
});
