import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { ConfigSyntaxError, parseConfigText } from "./config_text.ts";

Deno.test("parseConfigText() refuses arrays and objects nested past 128, where the 129th opens, and reads 128", () => {
  // 1 brace + 127 brackets = 128 levels: read, the innermost array at level 128.
  const ok = parseConfigText('{"a":\n' + "[".repeat(127) + "]".repeat(127) + "}", "x.json", true);
  let v = (ok as { a: unknown }).a;
  let depth = 2; // the level of v: the object is level 1
  while (Array.isArray(v) && v.length === 1) [v, depth] = [v[0], depth + 1];
  assertEquals([v, depth], [[], 128]);
  // 1 brace + 128 brackets: the 128th bracket (line 2, column 128) is level 129. A file nested
  // 20,000 deep overflowed jsonc-parser's recursion (RangeError) and stopped the whole audit.
  for (const n of [128, 20_000]) {
    assertThrows(
      () => parseConfigText('{"a":\n' + "[".repeat(n) + "]".repeat(n) + "}", "x.json", true),
      (e: unknown) =>
        e instanceof ConfigSyntaxError && e.line === 2 && e.column === 128 &&
        e.message ===
          "x.json:2:128: not valid JSON: arrays and objects nested more than 128 deep " +
            "(the limit of serde_json, Amazon Q CLI's reader)",
    );
  }
  // Brackets inside strings and comments do not nest.
  const text = '{"a": "' + "[".repeat(200) + '" /* ' + "{".repeat(200) + " */}";
  assertEquals(parseConfigText(text, "x.json", true), { a: "[".repeat(200) });
});
