import assert from "node:assert/strict";
import { userPath } from "./paths.ts";

Deno.test("userPath() resolves a typed path from the user's folder, as the task opens it", () => {
  // The user ran deno task from a folder outside the repository: absolute, in that folder.
  assert.equal(userPath("my.json", "/home/u/work", "/repo"), "/home/u/work/my.json");
  assert.equal(userPath("./in/../my.json", "/home/u/work", "/repo"), "/home/u/work/my.json");
  assert.equal(userPath("../x.json", "/home/u/work", "/repo"), "/home/u/x.json");
  // From a subfolder of the repository: the same file, written from the repository.
  assert.equal(userPath("my.json", "/repo/sub", "/repo"), "sub/my.json");
  assert.equal(userPath("..", "/repo/sub", "/repo"), ".");
  assert.equal(userPath("../..", "/repo/sub", "/repo"), "/");
  assert.equal(userPath("../../other/x", "/repo/sub", "/repo"), "/other/x");
  // A folder named "..x" inside the repository is inside it.
  assert.equal(userPath("../..x/y", "/repo/sub", "/repo"), "..x/y");
  // "out/" keeps its slash (report --out: a folder).
  assert.equal(userPath("out/", "/home/u", "/repo"), "/home/u/out/");
  assert.equal(userPath("out/", "/repo/sub", "/repo"), "sub/out/");
  // Unchanged: absolute, or typed in the repository itself, or empty.
  assert.equal(userPath("/abs/x.json", "/home/u", "/repo"), "/abs/x.json");
  assert.equal(userPath("./x.json", "/repo", "/repo"), "./x.json");
  assert.equal(userPath("results/runs/fs_*", "/repo/", "/repo"), "results/runs/fs_*");
  assert.equal(userPath("", "/home/u", "/repo"), "");
  // A glob is a path like any other: its folder is the user's.
  assert.equal(userPath("runs/fs_*", "/home/u", "/repo"), "/home/u/runs/fs_*");
});
