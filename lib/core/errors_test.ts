import assert from "node:assert/strict";
import { InputFileError, readFailure } from "./errors.ts";
import { CatalogError } from "../catalog/errors.ts";
import { ConfigError } from "../mcp/errors.ts";
import { GoldenSetError } from "../retrieval/errors.ts";
import { AgentConfigError } from "../agent/config.ts";
import { RunInputError } from "../report/load_runs.ts";
import { GateInputError } from "../report/gate.ts";

Deno.test("the six bad-input-file errors share InputFileError and name their file in path", () => {
  const cases: [Error, string, string][] = [
    [new CatalogError("is empty", { path: "c.json" }), "c.json", "CatalogError"],
    [new ConfigError("s.json", "bad"), "s.json", "ConfigError"],
    [new GoldenSetError("g.json", ["empty query"]), "g.json", "GoldenSetError"],
    [new AgentConfigError("suite", "x.json", "", "bad"), "x.json", "AgentConfigError"],
    [new RunInputError("runs/a", "file not found"), "runs/a", "RunInputError"],
    [new GateInputError("share none"), "", "GateInputError"],
  ];
  for (const [error, path, name] of cases) {
    assert.ok(error instanceof InputFileError, name);
    assert.equal((error as InputFileError).path, path, name);
    assert.equal(error.name, name);
  }
  // Subclass fields and messages stay as they were.
  const config = new ConfigError("s.json", "bad", { server: "x" });
  assert.equal(config.source, "s.json");
  assert.equal(config.message, 'Cannot use servers config "s.json": server "x": bad');
  const agent = new AgentConfigError("suite", "x.json", "cases", "must be array");
  assert.equal(agent.file, "x.json");
  assert.equal(agent.message, 'Cannot load suite "x.json": field "cases" must be array');
});

Deno.test("readFailure() names why a real read failed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const reason = (path: string) => Deno.readFile(path).then(() => "read", readFailure);
    assert.equal(await reason(`${dir}/missing.json`), "file not found");
    assert.equal(await reason(dir), "is a directory, not a file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
