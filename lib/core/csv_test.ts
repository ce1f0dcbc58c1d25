import assert from "node:assert/strict";
import * as aq from "arquero";
import { columnsCsv, columnsCsvChunks, csvText } from "./csv.ts";

Deno.test("columnsCsv(): quoting, empty cells and numbers written by hand", () => {
  const csv = columnsCsv<{ a: unknown; b: unknown }>([["a", (r) => r.a], ["b,c", (r) => r.b]], [
    { a: 'say "hi", then go', b: null },
    { a: "two\nlines", b: 1.5 },
    { a: undefined, b: "\r" },
  ]);
  assert.equal(
    csv,
    '"a","b,c"\n"say ""hi"", then go",\n"two\nlines",1.5\n,"\r"\n'.replace('"a"', "a"),
  );
  assert.equal(columnsCsv<number>([["n", (n) => n]], []), "n\n");
});

Deno.test("columnsCsv(): the text arquero's toCSV writes for the same rows, odd values and names included", () => {
  const values: unknown[] = [
    "plain",
    "a,b",
    'q"uote',
    "x\ny",
    "x\ry",
    "",
    null,
    undefined,
    0,
    -1.5,
    1e21,
    true,
    new Date(Date.UTC(2026, 11, 6, 18, 0, 0)),
    new Date(Date.UTC(2026, 11, 6)),
    [1, 2],
    { valueOf: () => 7, toString: () => "eight" },
  ];
  const rows = values.map((v, i) => ({ v, w: values[(i + 3) % values.length] }));
  const arquero = (names: readonly string[], reads: ((r: typeof rows[0]) => unknown)[]) =>
    aq.from(rows.map((r) => Object.fromEntries(names.map((n, k) => [n, reads[k](r)])))).toCSV();
  for (
    const names of [["v", "w"], ["1", "w"], ["v", "v"], ["w x", "v"]]
  ) {
    const reads = [(r: typeof rows[0]) => r.v, (r: typeof rows[0]) => r.w];
    const csv = columnsCsv(names.map((n, k) => [n, reads[k]] as const), rows);
    assert.equal(csv, arquero(names, reads), names.join());
  }
  // The cell function applies to every value read.
  const half = columnsCsv<number>([["n", (n) => n]], [1, 3], (v) => (v as number) / 2);
  assert.equal(half, "n\n0.5\n1.5\n");
  assert.equal(csvText(["n"], [{ n: 0.5 }, { n: 1.5 }]), half);
});

Deno.test("columnsCsvChunks(): whole lines in chunks whose text is columnsCsv's", () => {
  // 20,000 rows of "i,é<i>" (one to five digits): more than one chunk of 65,536 code units.
  const rows = Array.from({ length: 20_000 }, (_, i) => i);
  const columns: [string, (n: number) => unknown][] = [["n", (n) => n], ["s", (n) => `é${n}`]];
  const chunks = [...columnsCsvChunks(columns, rows)];
  let byHand = "n,s\n";
  for (const n of rows) byHand += `${n},é${n}\n`;
  assert.equal(chunks.join(""), byHand);
  assert.ok(chunks.length > 1);
  for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.length >= 1 << 16);
  // Each chunk but the first starts a line, and the last ends the text with its newline.
  for (const chunk of chunks.slice(1)) assert.equal(chunk[0], "\n");
  assert.ok(chunks.at(-1)!.endsWith("\n"));
  assert.deepEqual([...columnsCsvChunks(columns, [])], ["n,s\n"]);
});
