// A lane's retrieval and frontier jobs: the frontier answered from the retrieval job's searches
// (nestedHits) equals the frontier measured on a freshly built index, also once the index was
// let go (a large catalog).
import assert from "node:assert/strict";
import { type BenchJob, type BenchJobContext, benchJobRunner, benchLane } from "./bench_jobs.ts";
import type { Corpus, Tool } from "../catalog/types.ts";
import { docsFromTools } from "../retrieval/docs.ts";
import { alignGolden } from "../retrieval/align.ts";
import { parseMcpproxyGolden } from "../retrieval/golden.ts";
import { retrieverEntry } from "../retrieval/registry.ts";
import type { Retriever } from "../retrieval/types.ts";
import { measureFrontier } from "../live/frontier.ts";
import { createTokenizer } from "../tokens/tokenizers.ts";

const VERBS = ["create", "list", "read", "delete", "update", "search", "merge", "close"];
const NOUNS = ["issue", "file", "branch", "comment", "label", "release", "page", "record"];

/** `n` tools over 40 servers, names and descriptions from a small vocabulary (many ties). */
function corpusOf(n: number): Corpus {
  const tools: Tool[] = Array.from({ length: n }, (_, i) => {
    const server = `srv${i % 40}`;
    const name = `${VERBS[i % 8]}_${NOUNS[(i >> 3) % 8]}_${i}`;
    return {
      id: `${server}:${name}`,
      server,
      name,
      description: `${VERBS[(i * 3) % 8]} a ${NOUNS[(i * 5) % 8]} of the ${NOUNS[i % 8]}`,
      inputSchema: { type: "object", properties: { [NOUNS[i % 8]]: { type: "string" } } },
    };
  });
  return {
    id: `synthetic_${n}`,
    version: "1",
    provenance: { format: "mcpproxy-corpus" },
    tools,
    warnings: [],
  };
}

function goldenFor(corpus: Corpus) {
  const queries = ["create an issue", "list files", "merge the branch", "close release page"];
  return parseMcpproxyGolden(
    JSON.stringify({
      queries: queries.map((query, q) => ({
        id: `q${q}`,
        query,
        labels: [0, 1, 2].map((j) => ({
          tool_id: corpus.tools[(q * 97 + j * 13) % corpus.tools.length].id,
          relevance: 2 - (j % 2),
        })),
      })),
    }),
    { id: "g" },
  );
}

async function frontierRows(n: number, retrievers: readonly string[]) {
  const corpus = corpusOf(n);
  const golden = goldenFor(corpus);
  const context: BenchJobContext = {
    corpora: [corpus],
    goldenSets: [golden],
    tokenizerNames: ["cl100k_base"],
    armNames: [],
    proxyTools: [],
    codeTools: [],
    seed: 1,
    resamples: 20,
  };
  const run = benchJobRunner(await benchLane(context));
  const job = (kind: "retrieval" | "frontier", retriever: string): BenchJob =>
    kind === "retrieval"
      ? { kind, golden: 0, corpus: 0, retriever, arm: null, local: false, label: "" }
      : { kind, golden: 0, corpus: 0, retriever, local: false, label: "" };
  // As the pool orders them: every retrieval job, then every frontier job.
  for (const r of retrievers) await run(job("retrieval", r), () => {});
  const got = [];
  for (const r of retrievers) got.push(await run(job("frontier", r), () => {}));
  const aligned = alignGolden(golden, new Set(corpus.tools.map((t) => t.id)));
  const fresh = retrievers.map((r) =>
    measureFrontier({
      retriever: retrieverEntry(r).create(docsFromTools(corpus.tools), {
        seed: 1,
        golden: aligned,
      }) as Retriever,
      golden: aligned,
      corpus,
      tokenizer: createTokenizer("cl100k_base"),
    })
  );
  return { got, fresh };
}

Deno.test("a frontier job answered from the retrieval job's searches equals a fresh index's frontier", async () => {
  const { got, fresh } = await frontierRows(300, ["bm25", "tfidf_classic", "oracle"]);
  assert.deepEqual(got, fresh);
});

Deno.test("so does one whose index the lane let go (10,001 tools: two indexes exceed what it keeps)", async () => {
  const { got, fresh } = await frontierRows(10_001, ["bm25", "tfidf_classic"]);
  assert.deepEqual(got, fresh);
});
