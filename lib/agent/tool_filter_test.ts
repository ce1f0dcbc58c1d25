import assert from "node:assert/strict";
import { toolFilter } from "./tool_filter.ts";

Deno.test("toolFilter() keeps what allow matches and deny does not", () => {
  const all = toolFilter(undefined);
  assert.equal(all("any", "thing"), true);
  const keep = toolFilter({ allow: ["fs:read_*", "mem?ry:*"], deny: ["memory:delete_*"] });
  const cases: [string, string, boolean][] = [
    ["fs", "read_file", true],
    ["fs", "read_multiple_files", true],
    ["fs", "write_file", false], // not allowed
    ["memory", "create_entities", true],
    ["memory", "delete_entities", false], // allowed, then denied
    ["memxry", "x", true], // ? is one character
    ["fsx", "read_file", false], // the glob covers the whole id
  ];
  for (const [server, tool, want] of cases) {
    assert.equal(keep(server, tool), want, `${server}:${tool}`);
  }
  // Deny alone keeps everything else; glob metacharacters of regexps are literal.
  const deny = toolFilter({ deny: ["*:delete_*", "a.b:c"] });
  assert.equal(deny("fs", "delete_file"), false);
  assert.equal(deny("fs", "read_file"), true);
  assert.equal(deny("axb", "c"), true);
  assert.equal(deny("a.b", "c"), false);
});
