// The Catalog page's catalogs over real HTTP: the reference corpus, captured catalogs and a
// file the user names are listed or accepted, and each bench is given the golden sets whose
// corpus_version is the catalog's id (none: retrieval is said not to be scored).
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startWorkbench } from "./server.ts";
import { createBenchService } from "./bench_jobs.ts";
import { writeMiniCatalog, writeMiniGolden } from "../../testing/catalogs.ts";

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

Deno.test("workbench: the Catalog page lists the reference, captured and shared catalogs with the golden sets that score them; a bench gets those sets, or a file and a set the user names", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "mcpmeter-wb-catalogs-" });
  const results = join(tmp, "results");
  const captures = join(results, "captures");
  const mine = await writeMiniCatalog(captures, "mine");
  const other = await writeMiniCatalog(captures, "unlabelled");
  const elsewhere = await writeMiniCatalog(join(tmp, "home", "cats"), "far");
  await Deno.writeTextFile(join(captures, "broken.tools.json"), "{ not json");
  const golden = join(tmp, "mine.golden.json");
  await writeMiniGolden(golden, "mine");
  const farGolden = join(tmp, "home", "far.golden.json");
  await writeMiniGolden(farGolden, "far");
  const started: { corpus: string; golden: readonly string[] }[] = [];
  const bench = createBenchService({
    catalogs: [
      { dir: root("fixtures/corpora"), source: "reference" },
      { dir: captures, source: "captured", prefix: "captures/" },
      { file: join(tmp, "absent.json"), name: "livemcptool", source: "LiveMCPBench" },
    ],
    goldenSets: [root("fixtures/golden/reference_v1.test.json"), golden],
    defaultCorpus: "reference_v1",
    resultsDir: results,
    home: join(tmp, "home"),
    isoNow: () => "2026-01-01T00:00:00.000Z",
    runBench: (input) => {
      started.push(input);
      return Promise.resolve({ code: 1, log: "stub" });
    },
  });
  const wb = await startWorkbench({
    hostname: "127.0.0.1",
    port: 0,
    configDir: join(tmp, "config"),
    resultsDir: results,
    agentsExamples: root("fixtures/agents"),
    suitesExamples: root("fixtures/suites"),
    schemasDir: root("lib/agent/schemas"),
    env: {},
    bench,
    prepareServers: () => Promise.reject(new Error("no MCP servers in this test")),
  });
  const post = async (body: unknown) => {
    const res = await fetch(`${wb.url}/api/catalog/bench`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, data: await res.json() };
  };
  try {
    const listed = (await (await fetch(`${wb.url}/api/catalog/bench`)).json()).catalogs as {
      name: string;
      source: string;
      corpusId: string | null;
      tools: number | null;
      golden: string[];
      problem?: string;
    }[];
    assert.deepEqual(
      listed.map((k) => [k.name, k.source, k.corpusId, k.tools, k.golden.length]),
      [
        ["reference_v1", "reference", "reference_v1", 1389, 1],
        ["captures/broken", "captured", null, null, 0],
        ["captures/mine", "captured", "mine", 24, 1],
        ["captures/unlabelled", "captured", "unlabelled", 24, 0],
      ],
    );
    assert.match(listed[1].problem!, /JSON/);

    const page = await (await fetch(`${wb.url}/catalog`)).text();
    const selected = [...page.matchAll(/<option value="([^"]*)"\s*(selected)?\s*>/g)]
      .map((m) => `${m[1]}${m[2] ? "*" : ""}`);
    assert.deepEqual(selected, [
      "reference_v1*",
      "captures/broken",
      "captures/mine",
      "captures/unlabelled",
    ]);
    assert.match(page, /no golden set names corpus unlabelled: not scored/);

    // A listed catalog gets its matching sets; one with none gets none.
    assert.equal((await post({ corpus: "captures/mine" })).status, 202);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal((await post({ corpus: "captures/unlabelled" })).status, 202);
    await new Promise((r) => setTimeout(r, 20));
    // A file named anywhere (~ is the home folder), matched by its own id, plus a named set.
    const named = await post({ path: "~/cats/far.tools.json", golden: golden });
    assert.equal(named.status, 202, JSON.stringify(named.data));
    assert.deepEqual(started, [
      { corpus: mine, golden: [golden] },
      { corpus: other, golden: [] },
      { corpus: elsewhere, golden: [golden] },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const far = await post({ path: elsewhere, golden: farGolden });
    assert.deepEqual(far.data.golden, [farGolden]);
    // Refusals name the field.
    const refusals = [
      [{ corpus: "nope" }, "corpus"],
      [{ corpus: "captures/broken" }, "corpus"],
      [{ path: join(tmp, "missing.json") }, "path"],
      [{ corpus: "captures/mine", golden: join(tmp, "missing.json") }, "golden"],
    ] as const;
    for (const [body, field] of refusals) {
      const r = await post(body);
      assert.deepEqual([r.status, r.data.field], [400, field], JSON.stringify(body));
    }
  } finally {
    await wb.close();
    await Deno.remove(tmp, { recursive: true });
  }
});
