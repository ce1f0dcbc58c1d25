import assert from "node:assert/strict";
import { expandVariables } from "./_vars.ts";

const fail = (name: string): never => {
  throw new Error(`missing ${name}`);
};

Deno.test("expandVariables() follows the shell: :- covers unset and empty, a bare reference only unset", () => {
  const env = { SET: "v", EMPTY: "" };
  assert.equal(expandVariables("${SET}/${SET:-d}", env, fail), "v/v");
  assert.equal(expandVariables("${EMPTY:-d}|${UNSET:-d}|${EMPTY}|", env, fail), "d|d||");
  assert.throws(() => expandVariables("x${UNSET}", env, fail), /missing UNSET/);
  // Inherited properties are not variables.
  assert.throws(() => expandVariables("${toString}", env, fail), /missing toString/);
});
