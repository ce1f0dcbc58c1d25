import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kData from "js-tiktoken/ranks/cl100k_base";
import o200kData from "js-tiktoken/ranks/o200k_base";
import { type RankTable, rankTableFromTiktoken } from "./_bpe.ts";
import { corpusTexts, REFERENCE_PATH } from "./_corpus_texts.ts";
import { createDefaultTokenizer, isTokenizerName, TOKENIZER_NAMES } from "./default_tokenizer.ts";
import { piecewiseEncoding } from "./joins.ts";
import { buildRankTable, hasRankTable, keepRankTable } from "./piecewise.ts";
import { createTokenizer } from "./tokenizers.ts";

const DATA = { cl100k_base: cl100kData, o200k_base: o200kData } as const;

/** Whether two rank tables hold the same values (byte by byte: typed arrays of megabytes). */
function sameTable(a: RankTable, b: RankTable): boolean {
  const arrays = (t: RankTable) => [t.slots, t.bytes, t.starts, t.pairs, t.pairBits, t.filter];
  const bytes = (x: ArrayBufferView) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const as = arrays(a).map(bytes);
  const bs = arrays(b).map(bytes);
  if (a.mask !== b.mask || a.maxTokenBytes !== b.maxTokenBytes) return false;
  for (const [i, x] of as.entries()) {
    const y = bs[i];
    if (x.length !== y.length) return false;
    for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  }
  return true;
}

Deno.test("createDefaultTokenizer() is createTokenizer()'s default: piecewise, marked, same names and errors", () => {
  assert.deepEqual(TOKENIZER_NAMES, ["cl100k_base", "o200k_base"]);
  assert.equal(isTokenizerName("o200k_base"), true);
  assert.equal(isTokenizerName("p50k_base"), false);
  for (const name of TOKENIZER_NAMES) {
    const tok = createDefaultTokenizer(name);
    assert.equal(tok.name, name);
    assert.equal(piecewiseEncoding(tok), name);
    // The OpenAI cookbook's example: 6 tokens in both encodings.
    assert.equal(tok.count("tiktoken is great!"), 6);
  }
  const message = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      assert.ok(error instanceof RangeError);
      return error.message;
    }
    assert.fail("expected a RangeError");
  };
  assert.equal(
    message(() => createDefaultTokenizer("p50k_base" as "cl100k_base")),
    message(() => createTokenizer("p50k_base" as "cl100k_base")),
  );
});

Deno.test("a rank table built on another thread and kept here counts as js-tiktoken does", async () => {
  // A fresh worker holds no table; it is sent one (transferred, as workerDashboardRenderer's
  // worker sends them), keeps it before making any counter, and counts the reference corpus.
  const texts = corpusTexts(REFERENCE_PATH).slice(0, 80);
  const source = `
    import { hasRankTable, keepRankTable, createPiecewiseTokenizer } from ${
    JSON.stringify(new URL("./piecewise.ts", import.meta.url).href)
  };
    self.onmessage = ({ data }) => {
      const before = hasRankTable(data.name);
      keepRankTable(data.name, data.table);
      const kept = data.table.slots.byteLength > 0 && hasRankTable(data.name);
      const tok = createPiecewiseTokenizer(data.name);
      // The table the counter uses is the one sent: its buffers are this thread's now.
      self.postMessage({ before, kept, counts: data.texts.map((t) => tok.count(t)) });
    };`;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  for (const name of TOKENIZER_NAMES) {
    const table = buildRankTable(name);
    assert.ok(sameTable(table, rankTableFromTiktoken(DATA[name].bpe_ranks)));
    const worker = new Worker(url, { type: "module" });
    try {
      const reply = await new Promise<{ before: boolean; kept: boolean; counts: number[] }>(
        (resolve, reject) => {
          worker.onmessage = (e) => resolve(e.data);
          worker.onerror = (e) => {
            e.preventDefault();
            reject(new Error(e.message));
          };
          const { slots, bytes, starts, pairs, pairBits, filter } = table;
          worker.postMessage(
            { name, table, texts },
            [slots, bytes, starts, pairs, pairBits, filter].map((a) => a.buffer),
          );
        },
      );
      assert.equal(table.slots.byteLength, 0, "transferred, not copied");
      assert.equal(reply.before, false);
      assert.equal(reply.kept, true);
      const reference = new Tiktoken(DATA[name]);
      assert.deepEqual(reply.counts, texts.map((t) => reference.encode(t, [], []).length));
    } finally {
      worker.terminate();
    }
  }
  URL.revokeObjectURL(url);
});

Deno.test("keepRankTable() refuses what is not a rank table and keeps the first table it holds", () => {
  const table = buildRankTable("cl100k_base");
  assert.throws(() => keepRankTable("p50k_base" as "cl100k_base", table), /name is not known/);
  assert.throws(
    () => keepRankTable("cl100k_base", { ...table, slots: table.slots.subarray(4) }),
    /not a rank table/,
  );
  assert.throws(
    () => keepRankTable("cl100k_base", { ...table, pairs: new Int32Array(4) }),
    /not a rank table/,
  );
  keepRankTable("cl100k_base", table);
  assert.equal(hasRankTable("cl100k_base"), true);
  // A second table (here: another encoding's) is ignored: counts stay cl100k_base's.
  keepRankTable("cl100k_base", buildRankTable("o200k_base"));
  const reference = new Tiktoken(cl100kData);
  const text = "Reads a file from the workspace; returns its text as UTF-8 (max 10 MB).";
  assert.equal(createDefaultTokenizer("cl100k_base").count(text), reference.encode(text).length);
});
