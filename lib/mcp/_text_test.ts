import assert from "node:assert/strict";
import { stderrGist, TailBuffer, WarningSink } from "./_text.ts";

// The stderr ends below are shortened from real npm servers that exit during initialize.

Deno.test("stderrGist: a Node crash gives its error line, not the stack or the version banner", () => {
  const tail = [
    "node:internal/modules/cjs/loader:1207",
    "  const err = new Error(message);",
    "              ^",
    "",
    "Error: Cannot find module '../build/Release/keytar.node'",
    "Require stack:",
    "- <install>/@azure-devops+mcp@2.10.0/node_modules/keytar/lib/keytar.js",
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
    "    at Module._load (node:internal/modules/cjs/loader:1038:27) {",
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: [",
    "    '<install>/@azure-devops+mcp@2.10.0/node_modules/keytar/lib/keytar.js'",
    "  ]",
    "}",
    "",
    "Node.js v20.20.2",
    "",
  ].join("\n");
  assert.equal(stderrGist(tail), "Error: Cannot find module '../build/Release/keytar.node'");
});

Deno.test("stderrGist: the last error line wins over the error object's fields after it", () => {
  const tail = [
    "...ctorManager.connectWithSources (file://<install>/dist/chunk.js:1873:7)",
    "  errno: -111,",
    "  code: 'ECONNREFUSED',",
    "}",
    "Fatal error: Error: connect ECONNREFUSED 127.0.0.1:5432",
    "    at <install>/node_modules/pg-pool/index.js:45:11 {",
    "  errno: -111,",
    "  code: 'ECONNREFUSED',",
    "  port: 5432",
    "}",
  ].join("\n");
  assert.equal(stderrGist(tail), "Fatal error: Error: connect ECONNREFUSED 127.0.0.1:5432");
});

Deno.test("stderrGist: without the word error, the line saying what is missing", () => {
  assert.equal(
    stderrGist(
      "Starting panda MCP\nCannot find config file `panda.config.{ts,js,mjs,mts}`. Did you forget " +
        "to run `panda init`?\nbye\n",
    ),
    "Cannot find config file `panda.config.{ts,js,mjs,mts}`. Did you forget to run `panda init`?",
  );
  assert.equal(stderrGist("listening\nEXAMPLE_API_KEY is not set\n"), "EXAMPLE_API_KEY is not set");
});

Deno.test("stderrGist: else the last line with content; nothing for a blank tail; clipped", () => {
  assert.equal(stderrGist("starting\nshutting down\n\n"), "shutting down");
  assert.equal(stderrGist(""), "");
  assert.equal(stderrGist("  \n}\n    at main (x.js:1:1)\n"), "");
  // 12 characters at most: 9 kept, then "...".
  assert.equal(stderrGist("Error: abcdefghijklmnop", undefined, 12), "Error: ab...");
});

Deno.test("TailBuffer keeps the last error line after it scrolled out of the tail", () => {
  // @bytebase/dbhub 0.21.2 without its native module: the error, then eleven long paths.
  const tail = new TailBuffer(120);
  tail.push("Configuration source: demo mode\nFailed to connect to SQLite database: Err");
  tail.push("or: Could not locate the bindings file. Tried:\n");
  for (let i = 0; i < 11; i++) {
    tail.push(` → <install>/node_modules/better-sqlite3/build/${i}/better_sqlite3.node\n`);
  }
  tail.push("]\n}\n");
  assert.doesNotMatch(tail.toString(), /Failed/);
  assert.equal(
    tail.errorLine,
    "Failed to connect to SQLite database: Error: Could not locate the bindings file. Tried:",
  );
  assert.equal(
    stderrGist(tail.toString(), tail.errorLine),
    "Failed to connect to SQLite database: Error: Could not locate the bindings file. Tried:",
  );
  // An error line in the tail is the later one, and wins.
  tail.push("TypeError: x is not a function\n");
  assert.equal(stderrGist(tail.toString(), tail.errorLine), "TypeError: x is not a function");
});

Deno.test("WarningSink keeps notes apart from warnings, each once", () => {
  const sink = new WarningSink(1);
  assert.deepEqual(sink.notesField(), {});
  sink.add("w1");
  sink.add("w2");
  sink.note("n");
  sink.note("n");
  assert.deepEqual(sink.list(), ["w1", "1 more warning(s) not shown"]);
  assert.deepEqual(sink.notesField(), { notes: ["n"] });
});
