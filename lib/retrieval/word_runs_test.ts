import assert from "node:assert/strict";
import { WordRuns } from "./_word_runs.ts";

Deno.test("WordRuns: the texts holding a word inside one of their runs, ascending, once", () => {
  const runs = new WordRuns([
    "read_file: read a file", // runs read, file, read, a, file
    "write files\nto disk", // write, files, to, disk
    "profile", // profile
    "", // none
    "file-file", // file, file
  ]);
  assert.deepEqual([...runs.textsContaining("file")], [0, 1, 2, 4]);
  assert.deepEqual([...runs.textsContaining("files")], [1]);
  assert.deepEqual([...runs.textsContaining("rite")], [1]);
  assert.deepEqual([...runs.textsContaining("ead")], [0]);
  assert.deepEqual([...runs.textsContaining("filefile")], []); // "-" ends a run
  assert.deepEqual([...runs.textsContaining("readfile")], []);
  assert.deepEqual([...runs.textsContaining("fileto")], []); // nor does a new line
  assert.equal(runs.textCount, 5);
});

Deno.test("WordRuns: Unicode letters and digits, astral ones too; other code points end a run", () => {
  // "é" and "ß" are letters, "²" (No) and "٣" (Nd) digits, "𝒜" an astral letter; "·" and the
  // emoji are neither, and a lone surrogate is no letter.
  const runs = new WordRuns(["café·straße", "x²٣𝒜y", "a😀b", "c\ud800d"]);
  assert.deepEqual([...runs.textsContaining("fé")], [0]);
  assert.deepEqual([...runs.textsContaining("éstr")], []);
  assert.deepEqual([...runs.textsContaining("²٣𝒜")], [1]);
  assert.deepEqual([...runs.textsContaining("ab")], []);
  assert.deepEqual([...runs.textsContaining("b")], [2]);
  assert.deepEqual([...runs.textsContaining("cd")], []);
  assert.deepEqual([...runs.textsContaining("d")], [3]);
});

Deno.test("WordRuns: the same texts as a substring search of each, on generated texts", () => {
  // An independent check: String.prototype.includes over every text, for every word of letters
  // and digits cut from the texts themselves (seeded, so the same texts each run).
  const alphabet = ["a", "b", "c", "ab", " ", "_", "-", "\n", "é", "𝒜", "2", "·", "😀", "\ud800"];
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const texts = Array.from(
    { length: 300 },
    () => Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join(""),
  );
  const runs = new WordRuns(texts);
  const words = new Set<string>();
  for (const t of texts) {
    for (const run of t.match(/[\p{L}\p{N}]+/gu) ?? []) {
      for (let i = 0; i < run.length; i++) {
        for (let j = i + 1; j <= Math.min(run.length, i + 4); j++) words.add(run.slice(i, j));
      }
    }
  }
  let checked = 0;
  for (const w of words) {
    if (!/^[\p{L}\p{N}]+$/u.test(w)) continue; // half a surrogate pair
    const expected = texts.flatMap((t, i) => t.includes(w) ? [i] : []);
    assert.deepEqual([...runs.textsContaining(w)], expected, w);
    checked++;
  }
  assert.ok(checked > 50, `${checked}`);
});
