// Integer-like property names ("10", "2") and the file's member order (a tester's finding).
//
// A parsed schema is a JS object, which lists integer-like keys first, in ascending numeric
// order, whatever the file's order: `{"b", "10", "2"}` comes out as 2, 10, b on both parse
// paths. No measurement may depend on that: the JSON arms read the canonical text (keys in
// UTF-8 byte order: 10, 2, b), compact_sig and markdown order parameters by their own rule
// (required ones in `required` order, then the others in UTF-8 byte order), and toon_listing
// renders the canonical form parsed back, whose order TOON's encoder takes from the JS object
// (2, 10, b: the one order a JS object can hold). So a catalog measures the same whichever order
// its file lists such members in. The expected texts below are written by hand from those rules.
import assert from "node:assert/strict";
import { parseCatalog } from "../catalog/parse.ts";
import type { Tool } from "../catalog/types.ts";
import { armsNamed } from "./registry.ts";

const ARMS = armsNamed();

const PROPS: Record<string, string> = {
  b: '{"type":"string","description":"B"}',
  "10": '{"type":"integer","description":"ten"}',
  "2": '{"type":"boolean","description":"two","maximum":MAX}',
};

/** One tool whose properties the file lists in `order`; `max` is a literal of the "2" schema. */
function toolIn(order: readonly string[], required: readonly string[], max: string): Tool {
  const props = order.map((k) => `"${k}":${PROPS[k].replace("MAX", max)}`).join(",");
  const schema = `{"type":"object","properties":{${props}},"required":${JSON.stringify(required)}}`;
  const text = `{"tools":[{"name":"t","description":"T.","inputSchema":${schema}}]}`;
  return parseCatalog(text, { server: "s" }).tools[0];
}

const ORDERS = [["b", "10", "2"], ["2", "10", "b"], ["10", "b", "2"]];
// "1" is as JSON.stringify writes it (the plain JSON.parse path); "1.0" is not (the lossless path).
const LITERALS = ["1", "1.0"];

/** Every built-in arm's text of the tool, by arm name. */
function texts(tool: Tool): Map<string, string> {
  const out = new Map<string, string>();
  for (const arm of ARMS) {
    const encoded = arm.encodeTool(tool);
    assert.ok(encoded.ok, `${arm.name}: ${JSON.stringify(encoded)}`);
    out.set(arm.name, encoded.text);
  }
  return out;
}

Deno.test("a catalog with integer-like property names measures the same in any member order", () => {
  for (const max of LITERALS) {
    const first = texts(toolIn(ORDERS[0], ["b"], max));
    for (const order of ORDERS.slice(1)) {
      const tool = toolIn(order, ["b"], max);
      assert.equal(
        tool.inputSchemaCanonical,
        `{"properties":{"10":{"description":"ten","type":"integer"},` +
          `"2":{"description":"two","maximum":${max},"type":"boolean"},` +
          `"b":{"description":"B","type":"string"}},"required":["b"],"type":"object"}`,
      );
      assert.deepEqual(texts(tool), first, `file order ${order.join(",")}, maximum ${max}`);
    }
  }
});

Deno.test("compact_sig, markdown and toon_listing list integer-like parameters by their own rules", () => {
  for (const order of ORDERS) {
    for (const max of LITERALS) {
      const t = texts(toolIn(order, ["b"], max));
      // Required first (b), then optional in UTF-8 byte order: "10" < "2".
      assert.equal(t.get("compact_sig"), "t(b:string, 10?:int, 2?:bool)|T.");
      assert.equal(
        t.get("markdown"),
        "## t\n\nT.\n\n| Parameter | Type | Required | Description |\n| --- | --- | --- | --- |\n" +
          "| b | string | yes | B |\n| 10 | integer | no | ten |\n| 2 | boolean | no | two |",
      );
      // TOON's table rows in the JS object's order of the canonical form: 2, 10, then b.
      assert.equal(
        t.get("toon_listing"),
        "name: t\ndescription: T.\ninputSchema:\n  properties:\n" +
          `    "2":\n      description: two\n      maximum: 1\n      type: boolean\n` +
          `    "10":\n      description: ten\n      type: integer\n` +
          "    b:\n      description: B\n      type: string\n" +
          "  required[1]: b\n  type: object",
      );
      // required in its own order: "2", "b", "10".
      const r = texts(toolIn(order, ["2", "b", "10"], max));
      assert.equal(r.get("compact_sig"), "t(2:bool, b:string, 10:int)|T.");
    }
  }
});
