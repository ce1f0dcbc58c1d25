import assert from "node:assert/strict";
import { uniqueCorpusIds } from "./_corpus_ids.ts";

const ids = (corpora: { id: string; path: string }[]) => uniqueCorpusIds(corpora).map((c) => c.id);

Deno.test("uniqueCorpusIds() keeps unshared ids and names shared ones by their paths", () => {
  // Two folders named alike, each holding tools.json: both files give the id "x".
  assert.deepEqual(
    ids([{ id: "x", path: "a/x/tools.json" }, { id: "x", path: "b/x/tools.json" }]),
    ["a/x", "b/x"],
  );
  // Two files named alike in different folders (stem "mine"), and one other corpus.
  assert.deepEqual(
    ids([
      { id: "mine", path: "runs/1/mine.tools.json" },
      { id: "ref", path: "ref.json" },
      { id: "mine", path: "./runs/2/mine.tools.json" },
    ]),
    ["1/mine", "ref", "2/mine"],
  );
  // The same id written in two files named otherwise: the stems tell them apart.
  assert.deepEqual(
    ids([{ id: "mine", path: "p/one.json" }, { id: "mine", path: "p/two.json" }]),
    ["one/mine", "two/mine"],
  );
  // Deeper folders when the nearest ones agree too.
  assert.deepEqual(
    ids([{ id: "x", path: "u/a/x/tools.json" }, { id: "x", path: "v/a/x/tools.json" }]),
    ["u/a/x", "v/a/x"],
  );
  // No run of segments differs (x.json and x.tools.json): the paths as given.
  assert.deepEqual(
    ids([{ id: "x", path: "a/x.json" }, { id: "x", path: "a/x.tools.json" }]),
    ["a/x.json", "a/x.tools.json"],
  );
  // A qualified name never takes another corpus's own id.
  assert.deepEqual(
    ids([
      { id: "x", path: "a/x/tools.json" },
      { id: "x", path: "b/x/tools.json" },
      { id: "a/x", path: "c.json" },
    ]),
    ["a/x/tools.json", "b/x/tools.json", "a/x"],
  );
  const [first, second] = uniqueCorpusIds([
    { id: "x", path: "a/x/tools.json" },
    { id: "y", path: "y.json" },
  ]);
  assert.deepEqual([first, second], [{ id: "x" }, { id: "y" }]);
  assert.equal(
    uniqueCorpusIds([{ id: "x", path: "a/x/tools.json" }, { id: "x", path: "b/x/tools.json" }])[0]
      .warning,
    'two corpora give the id "x": a/x/tools.json is named "a/x" after its path',
  );
});
