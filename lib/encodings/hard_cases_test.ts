import assert from "node:assert/strict";
import { hugeSchemaCatalog } from "../../fixtures/catalogs/hard/huge_schema.ts";
import { schemaText } from "../catalog/canonical.ts";
import { armsNamed } from "./registry.ts";

const ARMS = armsNamed();
import { compactSig } from "./compact_sig.ts";
import { baselineJson } from "./baseline_json.ts";
import { hardCases, toolsOf } from "../../testing/encodings.ts";

const cases = hardCases();

Deno.test("every arm encodes every hard-case tool, deterministically, without skips", async (t) => {
  for (const [file, tools] of cases) {
    await t.step(file, () => {
      for (const arm of ARMS) {
        const first = arm.encodeListing(tools);
        assert.equal(
          first.skipped.count,
          0,
          `${arm.name} skipped ${JSON.stringify(first.skipped)}`,
        );
        assert.deepEqual(first.encodedIds, tools.map((x) => x.id));
        assert.equal(arm.encodeListing(tools).text, first.text);
        for (const tool of tools) assert.ok(arm.encodeTool(tool).ok);
      }
    });
  }
});

Deno.test("compact_sig renders the hard cases by the rules", () => {
  const sig = (file: string, name: string) => {
    const tool = cases.get(file)!.find((x) => x.name === name)!;
    const out = compactSig.encodeTool(tool);
    assert.ok(out.ok);
    return out.text.slice(0, out.text.indexOf(")|") + 1);
  };
  assert.equal(sig("deep_nesting.json", "deep_tool"), "deep_tool(l2?:obj)");
  assert.equal(sig("schema_only.json", "list_projects"), "list_projects()");
  assert.equal(sig("top_level_anyof.json", "find_user"), "find_user()");
  assert.equal(sig("top_level_anyof.json", "merged"), "merged()");
  assert.equal(sig("type_arrays.json", "typed"), "typed(maybe_count?:int, mixed?:arr, tags?:arr)");
  // 出 (U+51FA) < 駅 (U+99C5) in code point order; 日期 is required so it comes first.
  assert.equal(
    sig("cjk_names.json", "查询余票"),
    "查询余票(日期:string, 出发站?:string, 駅名?:string)",
  );
  assert.equal(sig("ref_cycles.json", "tree_insert"), "tree_insert(root:any)");
});

Deno.test("baseline_json keeps all 21 levels of the deep schema", () => {
  const tool = cases.get("deep_nesting.json")![0];
  const out = baselineJson.encodeTool(tool);
  assert.ok(out.ok);
  assert.equal(out.text.split('"properties"').length - 1, 20);
  assert.ok(out.text.includes('"l21":{"description":"leaf at level 21","type":"string"}'));
});

Deno.test("every arm encodes a ~900 KB schema whole", () => {
  const catalog = hugeSchemaCatalog();
  const [tool] = toolsOf(catalog);
  const canonical = schemaText(tool)!;
  assert.ok(canonical.length >= 900_000, `schema is ${canonical.length} characters`);
  const names = Object.keys(catalog.tools[0].inputSchema.properties as object);
  const last = names[names.length - 1];
  for (const arm of ARMS) {
    const out = arm.encodeTool(tool);
    assert.ok(out.ok, arm.name);
    // No truncation: the last parameter is present in every rendering.
    assert.ok(out.text.includes(last), `${arm.name} lost ${last}`);
  }
  const base = baselineJson.encodeTool(tool);
  assert.ok(base.ok && base.text.endsWith(canonical));
});
