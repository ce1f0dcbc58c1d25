import assert from "node:assert/strict";
import { capResult } from "./limits.ts";

const size = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

Deno.test("capResult returns a result that fits as the same object", () => {
  const r = { content: [{ type: "text", text: "x".repeat(900) }], isError: true };
  assert.equal(capResult(r, 1_024), r);
});

Deno.test("capResult cuts at the cap, keeps isError, drops other fields, adds the marker", () => {
  const r = {
    content: [{ type: "text", text: "a".repeat(3_000) }],
    isError: true,
    structuredContent: { n: 1 },
  };
  const cut = capResult(r, 1_024);
  assert.ok(size(cut) <= 1_024, String(size(cut)));
  assert.equal(cut.isError, true);
  assert.equal(cut.structuredContent, undefined);
  const blocks = cut.content!;
  assert.equal(blocks.length, 2);
  // 3,000 a's plus 82 bytes of JSON around them (counted by hand, checked with Python's json.dumps).
  assert.equal(size(r), 3_082);
  assert.equal(
    blocks[1].text,
    "[mcpmeter proxy: result cut to 1024 bytes; the upstream sent 3082 bytes]",
  );
  const kept = (blocks[0].text as string).length;
  assert.ok(kept > 700 && /^a+$/.test(blocks[0].text as string), String(kept));
  // Nearly all of the budget is used: one more character would not fit.
  assert.ok(size(cut) > 1_024 - 4, String(size(cut)));
});

Deno.test("capResult leaves out a non-text block that does not fit, and never splits a surrogate pair", () => {
  const image = { type: "image", mimeType: "image/png", data: "A".repeat(5_000) };
  const cut = capResult({ content: [{ type: "text", text: "ok" }, image] }, 1_024);
  assert.deepEqual(cut.content!.map((b) => b.type), ["text", "text"]);
  assert.equal(cut.content![0].text, "ok");
  const emoji = capResult({ content: [{ type: "text", text: "😀".repeat(2_000) }] }, 1_024);
  const t = emoji.content![0].text as string;
  assert.ok(t.length % 2 === 0 && /^(😀)+$/u.test(t), `${t.length}`);
});

Deno.test("capResult rejects a cap under 1024 bytes", () => {
  assert.throws(() => capResult({}, 100), RangeError);
  assert.throws(() => capResult({}, 2_000.5), RangeError);
});
