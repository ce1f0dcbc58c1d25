// Speed of the arm runner: every arm × cl100k_base and o200k_base over the
// whole reference corpus (or the LiveMCPBench snapshot while the reference
// corpus is not frozen yet). Run: deno bench -A lib/encodings/encodings_bench.ts
import { loadCatalog } from "../catalog/load.ts";
import { measureCatalogCost } from "../modes/catalog_cost.ts";
import { createTokenizer, type Tokenizer } from "../tokens/mod.ts";
import { type ArmRow, armsNamed, measureArms } from "./mod.ts";
import { exists, LIVEMCPTOOL, REFERENCE } from "../../testing/encodings.ts";

const path = [REFERENCE, LIVEMCPTOOL].find(exists);
if (path === undefined) {
  console.error(
    "encodings_bench: no corpus found (reference_v1 or ../shared livemcptool); skipped",
  );
} else {
  const corpus = await loadCatalog(path.pathname);
  const tokenizers = [createTokenizer("cl100k_base"), createTokenizer("o200k_base")];
  const arms = armsNamed();
  const group = `${corpus.id} (${corpus.tools.length} tools)`;

  // Print the figures once, so the bench run also reports what it measured.
  const rows: ArmRow[] = measureArms({ corpus, arms, tokenizers });
  for (const r of rows) {
    console.error(
      r.skipped
        ? `${r.arm}: skipped (${r.reason})`
        : `${r.arm} ${r.tokenizer}: total ${r.totalTokens}, mean ${r.meanTokens?.toFixed(1)}, ` +
          `p95 ${r.p95Tokens}, savings ${
            r.savings === null ? "n/a" : (100 * r.savings).toFixed(1)
          }%, skipped ${r.skippedTools.count}`,
    );
  }

  // A bench's catalog cost then arms, with fresh tokenizers each time (their memos, and the
  // shared counts of descriptions and schemas, start cold): as the bench counts, against the
  // same tokenizers unmarked, so every mode's and arm's text is counted whole.
  const lane = (fresh: () => Tokenizer[]) => () => {
    const toks = fresh();
    measureCatalogCost({
      corpora: [corpus],
      proxyTools: [],
      codeTools: [],
      tokenizers: toks,
      seed: 1,
    });
    measureArms({ corpus, arms, tokenizers: toks });
  };
  const names = ["cl100k_base", "o200k_base"] as const;
  Deno.bench({
    name: "modes + arms, texts counted whole (unmarked tokenizers)",
    group: "shared counts",
    baseline: true,
    n: 3,
    fn: lane(() =>
      names.map((n) => {
        const tok = createTokenizer(n);
        return { name: n, count: (t: string) => tok.count(t) };
      })
    ),
  });
  Deno.bench({
    name: "modes + arms, as the bench counts (shared counts, runs, re-indented items)",
    group: "shared counts",
    n: 3,
    fn: lane(() => names.map((n) => createTokenizer(n))),
  });

  Deno.bench({
    name: `all arms × 2 tokenizers, ${group}`,
    group: "all",
    baseline: true,
    n: 3,
    fn: () => {
      measureArms({ corpus, arms, tokenizers });
    },
  });
  for (const arm of arms) {
    Deno.bench({
      name: `${arm.name} × 2 tokenizers`,
      group: "per arm",
      baseline: arm.name === "baseline_json",
      n: 3,
      fn: () => {
        measureArms({ corpus, arms: [arm], tokenizers });
      },
    });
    Deno.bench({
      name: `${arm.name} encode only`,
      group: "encode only",
      baseline: arm.name === "baseline_json",
      n: 5,
      fn: (b) => {
        // New tool objects each time: compact_sig memoizes its signature per tool object
        // (`perTool`), and this times the rendering itself.
        const tools = corpus.tools.map((t) => ({ ...t }));
        b.start();
        arm.encodeListing(tools);
        for (const t of tools) arm.encodeTool(t);
        b.end();
      },
    });
  }

  // What a bench asks of the index arms: the arm's own texts, then the index fields
  // for changedIndexFields and for the bm25 and tfidf_classic indexes. Fresh tool objects render
  // each of the four times; the corpus's own objects render compact_sig's signature once (the
  // per-tool memo; markdown's table is rendered each time).
  const indexArms = arms.filter((a) => a.altersIndex);
  const fourTimes = (fresh: boolean) => (b: Deno.BenchContext) => {
    const copies = Array.from({ length: fresh ? 4 : 1 }, () => corpus.tools.map((t) => ({ ...t })));
    const pass = (i: number) => copies[fresh ? i : 0];
    b.start();
    for (const arm of indexArms) {
      for (const t of pass(0)) arm.encodeTool(t);
      for (let i = 1; i < 4; i++) for (const t of pass(i)) arm.indexFields(t);
    }
    b.end();
  };
  Deno.bench({
    name: "index arms: own texts + 3 index-field passes, each rendered anew",
    group: "render memo",
    baseline: true,
    n: 5,
    fn: fourTimes(true),
  });
  Deno.bench({
    name: "index arms: own texts + 3 index-field passes, rendered once per tool (memo)",
    group: "render memo",
    n: 5,
    fn: fourTimes(false),
  });
}
