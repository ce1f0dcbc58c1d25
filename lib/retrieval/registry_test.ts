import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { plainIndexFields } from "../encodings/_private.ts";
import { parseMcpproxyGolden } from "./golden.ts";
import {
  changedIndexFields,
  indexArmsFor,
  RETRIEVER_NAMES,
  retrieverEntry,
  RETRIEVERS,
} from "./registry.ts";
import { evaluateRetrieval, evaluateRetrievalAsync } from "./evaluate.ts";
import { INDEX_FIELD_NAMES, type RetrievalDoc, type RetrieverEntry } from "./types.ts";

const GOLDEN = parseMcpproxyGolden(
  JSON.stringify({
    queries: [{ id: "q1", query: "zebra", labels: [{ tool_id: "s:b", relevance: 2 }] }],
  }),
  { id: "t" },
);

const plain = (id: string): RetrievalDoc => ({
  id,
  name: `tool${id.slice(-1)}`,
  server: "s",
  description: "does things",
  params: "",
});

Deno.test("every registered retriever keeps the entry contract", () => {
  assert.deepEqual(RETRIEVER_NAMES, RETRIEVERS.map((r) => r.name));
  assert.equal(new Set(RETRIEVER_NAMES).size, RETRIEVER_NAMES.length, "names are unique");
  for (const entry of RETRIEVERS) {
    assert.match(entry.name, /^[a-z][a-z0-9_]*$/, entry.name);
    assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), entry.name);
    assert.deepEqual(
      [...entry.reads],
      INDEX_FIELD_NAMES.filter((f) => entry.reads.includes(f)),
      `${entry.name}: reads are index fields in INDEX_FIELD_NAMES order`,
    );
    if (entry.asyncBuild) continue;
    const docs = ["s:a", "s:b", "s:c"].map(plain);
    const built = entry.create(docs, { seed: 1, golden: GOLDEN });
    assert.ok(!(built instanceof Promise), `${entry.name} declares a synchronous build`);
    assert.equal(built.name, entry.name);
    assert.equal(built.cost !== undefined, entry.reportsCost, `${entry.name}: cost matches`);
  }
});

Deno.test("a local retriever's declared reads are the fields that move its ranking", () => {
  for (const entry of RETRIEVERS.filter((r) => !r.asyncBuild)) {
    for (const field of INDEX_FIELD_NAMES) {
      // Only doc s:b carries the query word, and only in `field`.
      const docs = ["s:a", "s:b", "s:c"].map(plain).map((d) =>
        d.id === "s:b" ? { ...d, [field]: "zebra" } : d
      );
      const retriever = entry.create(docs, { seed: 1, golden: GOLDEN });
      const top = (retriever as { search(q: string, k: number): readonly { id: string }[] })
        .search("zebra", 3)[0]?.id;
      const base = (entry.create(["s:a", "s:b", "s:c"].map(plain), { seed: 1, golden: GOLDEN }) as {
        search(q: string, k: number): readonly { id: string }[];
      }).search("zebra", 3)[0]?.id;
      if (entry.reads.includes(field)) {
        assert.equal(
          top,
          "s:b",
          `${entry.name} reads ${field}: the one doc with the word ranks first`,
        );
      } else {
        assert.equal(top, base, `${entry.name} does not read ${field}: the ranking does not move`);
      }
    }
  }
});

Deno.test("retrieverEntry() names the known retrievers on an unknown name", () => {
  assert.equal(retrieverEntry("bm25").name, "bm25");
  assert.throws(
    () => retrieverEntry("nope"),
    new RangeError(`Unknown retriever "nope": expected one of ${RETRIEVER_NAMES.join(", ")}`),
  );
});

/** One tool, and the index fields a no-op arm gives it (its own). */
const ONE_TOOL: Tool[] = [{ id: "s:a", server: "s", name: "a", description: "read" }];
const own = (t: Tool) => ({
  name: t.name,
  server: t.server,
  description: t.description,
  params: "",
});

Deno.test("indexArmsFor() follows the reads of any entry, and a no-op arm is skipped", () => {
  const serverOnly = { name: "srv", indexFields: (t: Tool) => ({ ...own(t), server: "S" }) };
  const noop = { name: "noop", indexFields: own };
  assert.deepEqual(changedIndexFields(ONE_TOOL, serverOnly.indexFields), ["server"]);
  assert.deepEqual(changedIndexFields(ONE_TOOL, noop.indexFields), []);
  const descOnly: RetrieverEntry = {
    ...retrieverEntry("bm25"),
    name: "d",
    label: "D",
    reads: ["description"],
  };
  const chosen = indexArmsFor(descOnly, ONE_TOOL, [serverOnly, noop]);
  assert.deepEqual(chosen.score, []);
  assert.deepEqual(chosen.skipped, [
    {
      arm: "srv",
      reason:
        "the arm only changes fields D weighs 0 (name, server, params), so it would repeat the plain d row",
    },
    {
      arm: "noop",
      reason: "the arm changes no index field of this corpus, so it would repeat the plain d row",
    },
  ]);
});

Deno.test("indexArmsFor() holds a plainIndexOnly entry to its plain index, with its reason", () => {
  const descArm = { name: "desc", indexFields: (t: Tool) => ({ ...own(t), description: "D" }) };
  const serverArm = { name: "srv", indexFields: (t: Tool) => ({ ...own(t), server: "S" }) };
  const held: RetrieverEntry = {
    ...retrieverEntry("bm25"),
    name: "h",
    label: "H",
    reads: ["name", "description"],
    plainIndexOnly: "it stands for a search of the ONE_TOOL as sent",
  };
  const chosen = indexArmsFor(held, ONE_TOOL, [descArm, serverArm]);
  assert.deepEqual(chosen.score, []);
  // The arm it reads is skipped for the entry's reason; the one it does not, for the usual one.
  assert.deepEqual(chosen.skipped, [
    { arm: "desc", reason: "it stands for a search of the ONE_TOOL as sent" },
    {
      arm: "srv",
      reason:
        "the arm only changes fields H weighs 0 (server, params), so it would repeat the plain h row",
    },
  ]);
  // The hosted-search emulations are held so: a provider never searches an arm's rendering.
  for (const name of ["anthropic_bm25", "anthropic_regex", "openai_search"]) {
    assert.deepEqual(indexArmsFor(name, ONE_TOOL, [descArm]).score, [], name);
  }
});

Deno.test("changedIndexFields reads a field no more once it has seen it change", () => {
  const tools: Tool[] = ["a", "b", "c"].map((n) => ({
    id: `s:${n}`,
    server: "s",
    name: n,
    description: "d",
    inputSchema: { type: "object" },
  }));
  const reads: string[] = [];
  const arm = (tool: Tool) => ({
    name: tool.name,
    server: tool.server,
    description: tool.description,
    get params() {
      reads.push(tool.name);
      return `params of ${tool.name}`;
    },
  });
  // params changes on the first tool (the plain index has "" there): never read again after.
  assert.deepEqual(changedIndexFields(tools, arm), ["params"]);
  assert.deepEqual(reads, ["a"]);
  // compact_sig and markdown render params on read only: their other fields cost nothing.
  const rendered: string[] = [];
  const sig = plainIndexFields(tools[0], (t) => {
    rendered.push(t.id);
    return "x:int";
  });
  assert.deepEqual([sig.name, sig.server, sig.description, rendered], ["a", "s", "d", []]);
  assert.deepEqual([sig.params, sig.params, rendered], ["x:int", "x:int", ["s:a"]]);
  assert.deepEqual(
    plainIndexFields({ ...tools[0], inputSchema: undefined }, () => "never").params,
    "",
  );
});

Deno.test("an asynchronous entry goes through evaluateRetrievalAsync and its cost lands in the row", async () => {
  const bm25 = retrieverEntry("bm25");
  let calls = 0;
  const slow: RetrieverEntry = {
    ...bm25,
    name: "slow_bm25",
    asyncBuild: true,
    reportsCost: true,
    create: async (docs, ctx) => {
      await Promise.resolve();
      const inner = await bm25.create(docs, ctx);
      return {
        ...inner,
        search: (q: string, k: number) => {
          calls++;
          return inner.search(q, k);
        },
        cost: () => ({ requests: calls, inputTokens: 3 * calls, usd: null }),
      };
    },
  };
  const corpus = {
    id: "c",
    docs: ["s:a", "s:b", "s:c"].map((id) =>
      id === "s:b" ? { ...plain(id), description: "zebra" } : plain(id)
    ),
  };
  const factory = (docs: readonly RetrievalDoc[], ctx: Parameters<RetrieverEntry["create"]>[1]) =>
    slow.create(docs, ctx);
  assert.throws(
    () => evaluateRetrieval({ corpus, golden: GOLDEN, retriever: factory, seed: 1, resamples: 10 }),
    /builds asynchronously; call evaluateRetrievalAsync/,
  );
  const row = await evaluateRetrievalAsync({
    corpus,
    golden: GOLDEN,
    retriever: factory,
    seed: 1,
    resamples: 10,
  });
  assert.equal(row.metrics["mrr@10"], 1);
  // One query searched once: one request, three tokens, as the double counts them.
  assert.deepEqual(row.cost, { requests: 1, inputTokens: 3, usd: null });
  const sync = evaluateRetrieval({
    corpus,
    golden: GOLDEN,
    retriever: "bm25",
    seed: 1,
    resamples: 10,
  });
  assert.equal("cost" in sync, false, "local retrievers add no cost key to the row");
});
