import assert from "node:assert/strict";
import { PROXY_DEFINITIONS_PATH, PROXY_TOOL_DEFINITIONS } from "./definitions.ts";

Deno.test("the embedded proxy definitions are the fixture's tools, byte for byte", async () => {
  const file = JSON.parse(
    await Deno.readTextFile(new URL(`../../${PROXY_DEFINITIONS_PATH}`, import.meta.url)),
  );
  // Same keys in the same order: the proxy serves these objects and the bench counts the file.
  assert.equal(JSON.stringify(PROXY_TOOL_DEFINITIONS), JSON.stringify(file.tools));
  assert.ok(Object.isFrozen(PROXY_TOOL_DEFINITIONS[0]));
});
