import assert from "node:assert/strict";
import { CODE_TOOL_DEFINITIONS } from "./code_tools.ts";

Deno.test("the embedded code-exposure definitions are the fixture's tools, byte for byte", async () => {
  const file = JSON.parse(
    await Deno.readTextFile(
      new URL("../../fixtures/proxies/reference_code.tools.json", import.meta.url),
    ),
  );
  // Same keys in the same order: the code exposure serves these and the bench counts the file.
  assert.equal(JSON.stringify(CODE_TOOL_DEFINITIONS), JSON.stringify(file.tools));
  assert.deepEqual(CODE_TOOL_DEFINITIONS.map((t) => t.name), ["retrieve_tools", "run_code"]);
});
