/**
 * Speed of the retrievers: index build over the reference corpus (target < 200 ms), one query
 * (target p50 < 1 ms, p99 < 5 ms), and index build over a 40,000-tool corpus (target < 10 s).
 *
 * Corpus: fixtures/corpora/reference_v1.tools.json, or ../shared/corpora/livemcptool/tools.json
 * when the reference corpus is absent (skipped with a message when neither exists).
 * Run: deno bench -A lib/retrieval/retrieval_bench.ts
 *
 * @module
 */

import { loadCatalog } from "../catalog/load.ts";
import type { Tool } from "../catalog/types.ts";
import { createBm25Retriever } from "./bm25.ts";
import { docsFromTools } from "./docs.ts";
import { createTfidfClassicRetriever } from "./tfidf_classic.ts";
import type { RetrievalDoc } from "./types.ts";

const CANDIDATES = [
  new URL("../../fixtures/corpora/reference_v1.tools.json", import.meta.url),
  new URL("../../../shared/corpora/livemcptool/tools.json", import.meta.url),
];

async function firstCorpus(): Promise<{ name: string; tools: readonly Tool[] } | undefined> {
  for (const url of CANDIDATES) {
    try {
      await Deno.stat(url);
    } catch {
      continue;
    }
    const corpus = await loadCatalog(url.pathname);
    return { name: corpus.id, tools: corpus.tools };
  }
  return undefined;
}

/** Replicate tools with distinct ids (`server#k:name`) until `n` tools exist. */
function replicate(tools: readonly Tool[], n: number): Tool[] {
  const out: Tool[] = [];
  for (let k = 0; out.length < n; k++) {
    for (const t of tools) {
      if (out.length === n) break;
      const server = k === 0 ? t.server : `${t.server}#${k}`;
      out.push({ ...t, server, id: `${server}:${t.name}` });
    }
  }
  return out;
}

const QUERIES = [
  "create a pull request",
  "open a PR on GitLab",
  "read a file from disk",
  "search the web",
  "send a message to a Slack channel",
  "list my calendar events for tomorrow",
  "take a screenshot of a web page",
  "query a postgres database",
  "what is the weather in Paris",
  "create_branch",
  "upload a file to s3 bucket",
  "find restaurants near me",
  "get directions between two places",
  "commit changes",
  "translate text",
  "delete an issue comment",
];

const corpus = await firstCorpus();
if (corpus === undefined) {
  console.warn("retrieval_bench: no corpus found (reference_v1 or livemcptool); skipping");
} else {
  const docs: RetrievalDoc[] = docsFromTools(corpus.tools);
  const bigDocs: RetrievalDoc[] = docsFromTools(replicate(corpus.tools, 40_000));
  const bm25 = createBm25Retriever(docs);
  const tfidf = createTfidfClassicRetriever(docs);
  let i = 0;
  const tag = `${corpus.name}, ${docs.length} tools`;

  Deno.bench(`bm25 build (${tag})`, { group: "build", baseline: true }, () => {
    createBm25Retriever(docs);
  });
  Deno.bench(`tfidf_classic build (${tag})`, { group: "build" }, () => {
    createTfidfClassicRetriever(docs);
  });
  Deno.bench(`bm25 query, limit 10 (${tag})`, { group: "query", baseline: true }, () => {
    bm25.search(QUERIES[i++ % QUERIES.length], 10);
  });
  Deno.bench(`tfidf_classic query, limit 10 (${tag})`, { group: "query" }, () => {
    tfidf.search(QUERIES[i++ % QUERIES.length], 10);
  });
  Deno.bench(
    `bm25 build (40,000 tools)`,
    { group: "build40k", baseline: true, n: 3, warmup: 1 },
    () => {
      createBm25Retriever(bigDocs);
    },
  );
  Deno.bench(`tfidf_classic build (40,000 tools)`, { group: "build40k", n: 3, warmup: 1 }, () => {
    createTfidfClassicRetriever(bigDocs);
  });
}
