// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import {
  type AllowedEdge,
  checkLayers,
  edgesFromDenoInfo,
  type ImportEdge,
  LAYERS,
  notebookEdges,
} from "../testing/layers.ts";

const ROOT = new URL("../", import.meta.url);

function allow(why: string, edges: readonly (readonly [string, string])[]): AllowedEdge[] {
  return edges.map(([from, to]) => ({ from, to, why }));
}

/** Edges tolerated for now; each group is a TODO with its owner, removed when the work lands. */
const ALLOW: readonly AllowedEdge[] = [
  ...allow(
    "TODO(A1): the demo runs and capture-results rules move into lib/ (then these tasks import only mod.ts/io.ts)",
    [],
  ),
];

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await tsFiles(path));
    else if (e.isFile && e.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** The repository's import graph: `deno info --json` over every .ts in lib/ and tasks/, plus notebooks. */
async function repositoryGraph(): Promise<ImportEdge[]> {
  const files = [...await tsFiles("lib"), ...await tsFiles("tasks"), ...await tsFiles("testing")];
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-layers-" });
  try {
    const root = `${dir}/root.ts`;
    await Deno.writeTextFile(
      root,
      files.map((f) => `import ${JSON.stringify(new URL(f, ROOT).href)};`).join("\n") + "\n",
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", new URL("deno.json", ROOT).pathname, root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    const edges = edgesFromDenoInfo(JSON.parse(new TextDecoder().decode(stdout)), ROOT.href);
    for await (const e of Deno.readDir(new URL("notebooks", ROOT))) {
      if (!e.name.endsWith(".ipynb")) continue;
      const path = `notebooks/${e.name}`;
      edges.push(...notebookEdges(path, await Deno.readTextFile(new URL(path, ROOT))));
    }
    return edges;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the repository keeps its layer rules (every violation names its edge)", async () => {
  const edges = await repositoryGraph();
  assert.ok(edges.length > 500, `the graph has ${edges.length} edges: deno info read it`);
  assert.ok(
    edges.some((e) => e.from === "lib/retrieval/evaluate.ts" && e.to === "lib/stats/bootstrap.ts"),
    "a known edge is in the graph",
  );
  const violations = checkLayers(edges, { allow: ALLOW });
  assert.deepEqual(violations, [], `\n${violations.join("\n")}\n`);
  for (const a of ALLOW) {
    assert.ok(
      edges.some((e) => e.from === a.from && e.to === a.to),
      `allowed edge ${a.from} -> ${a.to} no longer exists: remove it from ALLOW`,
    );
  }
});

Deno.test("a planted file cycle is reported with both edges", () => {
  const edges: ImportEdge[] = [
    { from: "lib/mcp/stdio.ts", to: "lib/mcp/_capture.ts", line: 30 },
    { from: "lib/mcp/_capture.ts", to: "lib/mcp/stdio.ts", line: 12 },
    { from: "lib/mcp/list.ts", to: "lib/mcp/stdio.ts", line: 4 },
  ];
  assert.deepEqual(checkLayers(edges), [
    "file cycle: lib/mcp/_capture.ts:12 imports lib/mcp/stdio.ts; lib/mcp/stdio.ts:30 imports lib/mcp/_capture.ts",
  ]);
});

Deno.test("a planted folder cycle is reported with the edge of each step", () => {
  const edges: ImportEdge[] = [
    { from: "lib/encodings/measure.ts", to: "lib/report/provenance.ts", line: 8 },
    { from: "lib/report/bench_report.ts", to: "lib/encodings/measure.ts", line: 5 },
  ];
  assert.deepEqual(checkLayers(edges), [
    "folder cycle: lib/encodings -> lib/report -> lib/encodings (lib/encodings/measure.ts:8 imports lib/report/provenance.ts; lib/report/bench_report.ts:5 imports lib/encodings/measure.ts)",
    "layer: lib/encodings/measure.ts:8 imports lib/report/provenance.ts (lib/encodings is layer 3, lib/report is layer 8: imports go to a lower layer)",
  ]);
});

Deno.test("planted edges into fixtures/, past the surface, up a layer and to an unknown folder", () => {
  const edges: ImportEdge[] = [
    { from: "lib/proxy/definitions.ts", to: "fixtures/proxies/p.tools.json", line: 13 },
    { from: "lib/proxy/definitions_test.ts", to: "fixtures/proxies/p.tools.json", line: 2 },
    { from: "lib/agent/run.ts", to: "tasks/_cli.ts", line: 1 },
    { from: "tasks/bench.ts", to: "lib/catalog/load.ts", line: 3 },
    { from: "tasks/bench.ts", to: "lib/catalog/io.ts", line: 4 },
    { from: "tasks/bench_test.ts", to: "lib/catalog/load.ts", line: 5 },
    { from: "notebooks/01_x.ipynb", to: "lib/report/mod.ts", line: 2 },
    { from: "notebooks/01_x.ipynb", to: "tasks/live.ts", line: 3 },
    { from: "notebooks/01_x.ipynb", to: "lib/live/live_block.ts", line: 4 },
    { from: "lib/catalog/lint.ts", to: "lib/tokens/types.ts", line: 5 },
    { from: "lib/retrieval/types.ts", to: "lib/mcp/types.ts", line: 6 },
    { from: "lib/widgets/a.ts", to: "lib/catalog/types.ts", line: 7 },
    { from: "lib/catalog/b.ts", to: "testing/mcp.ts", line: 8 },
    { from: "lib/catalog/b_test.ts", to: "testing/mcp.ts", line: 9 },
    { from: "tasks/bench.ts", to: "testing/npm.ts", line: 10 },
  ];
  assert.deepEqual(checkLayers(edges), [
    "layer: lib/retrieval/types.ts:6 imports lib/mcp/types.ts (lib/retrieval is layer 4, lib/mcp is layer 4: imports go to a lower layer)",
    "layer: lib/widgets/a.ts:7 imports lib/catalog/types.ts (lib/widgets is in no layer of LAYERS)",
    "lib imports fixtures/: lib/proxy/definitions.ts:13 imports fixtures/proxies/p.tools.json (embed the data in lib/ or load it at the edge, in tasks/)",
    "lib imports tasks/: lib/agent/run.ts:1 imports tasks/_cli.ts (embed the data in lib/ or load it at the edge, in tasks/)",
    "notebooks import only @lib/: notebooks/01_x.ipynb:3 imports tasks/live.ts (move what they need into lib/)",
    "notebooks reach past the surface: notebooks/01_x.ipynb:4 imports lib/live/live_block.ts (import lib/<folder>/mod.ts or io.ts)",
    "shipped code imports testing/: lib/catalog/b.ts:8 imports testing/mcp.ts (test helpers are for tests only)",
    "shipped code imports testing/: tasks/bench.ts:10 imports testing/npm.ts (test helpers are for tests only)",
    "tasks reach past the surface: tasks/bench.ts:3 imports lib/catalog/load.ts (import lib/<folder>/mod.ts or io.ts)",
  ]);
});

Deno.test("an allowed edge is not reported", () => {
  const edge = { from: "tasks/bench.ts", to: "lib/catalog/load.ts", line: 3 };
  assert.equal(checkLayers([edge]).length, 1);
  assert.deepEqual(checkLayers([edge], { allow: [{ ...edge, why: "TODO" }] }), []);
});

Deno.test("notebookEdges() resolves @lib/ and relative specifiers of code cells only", () => {
  const nb = JSON.stringify({
    cells: [
      { cell_type: "markdown", source: ['import { x } from "@lib/nope/mod.ts";\n'] },
      {
        cell_type: "code",
        source: [
          'import { a } from "@lib/catalog/mod.ts";\n',
          'import * as Plot from "npm:@observablehq/plot";\n',
        ],
      },
      { cell_type: "code", source: 'const { runLive } = await import("../tasks/live.ts");' },
    ],
  });
  assert.deepEqual(notebookEdges("notebooks/04_live.ipynb", nb), [
    { from: "notebooks/04_live.ipynb", to: "lib/catalog/mod.ts", line: 1 },
    { from: "notebooks/04_live.ipynb", to: "tasks/live.ts", line: 4 },
  ]);
});

Deno.test("ARCHITECTURE.md shows the layers the test enforces", async () => {
  const { readmeTable } = await import("../testing/readme_table.ts");
  const rows = readmeTable(await Deno.readTextFile(new URL("ARCHITECTURE.md", ROOT)), "layers");
  assert.deepEqual(
    rows.map((r) => [r[0], r[1]]),
    LAYERS.map((units, i) => [String(i), units.map((u) => `\`${u}\``).join(", ")]).reverse(),
  );
});

Deno.test("deno task check runs deno doc --lint on every folder's mod.ts and io.ts", async () => {
  const task = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).tasks.check;
  const check: string = typeof task === "string" ? task : task.command;
  const surfaces: string[] = [];
  for await (const e of Deno.readDir(new URL("lib", ROOT))) {
    if (!e.isDirectory) continue;
    for (const name of ["mod.ts", "io.ts"]) {
      const path = `lib/${e.name}/${name}`;
      try {
        await Deno.stat(new URL(path, ROOT));
      } catch {
        continue;
      }
      surfaces.push(path);
    }
  }
  const missing = surfaces.sort().filter((p) => !check.split(/\s+/).includes(p));
  assert.deepEqual(missing, [], `add to the deno doc --lint step of deno task check: ${missing}`);
});
