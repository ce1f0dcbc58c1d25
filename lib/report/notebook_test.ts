// test:quick skips this file: its tests start processes (deno task test runs them).
import assert from "node:assert/strict";
import { display, showPlot, showTable } from "./notebook.ts";
import { barChart } from "./figures.ts";
import { headlessDocument } from "./dashboard.ts";

Deno.test("display() sends the MIME bundle of tables, bare SVG charts and text", async () => {
  const sent: Record<string, string>[] = [];
  const jupyter = {
    display: (bundle: Record<string, string>) => Promise.resolve(void sent.push(bundle)),
  };
  await display(showTable([{ a: 1, b: "x<y" }]), jupyter);
  await display(
    showPlot(
      barChart([{ label: "a", value: 1 }], { document: headlessDocument(), valueLabel: "v" }),
    ),
    jupyter,
  );
  await display("3 runs", jupyter);
  assert.deepEqual(sent.map((b) => Object.keys(b)), [["text/html"], ["image/svg+xml"], [
    "text/plain",
  ]]);
  assert.match(sent[0]["text/html"], /<td[^>]*>x&lt;y<\/td>/);
  assert.match(sent[1]["image/svg+xml"], /^<svg/);
  assert.equal(sent[2]["text/plain"], "3 runs");
});

Deno.test("display() outside Jupyter sends nothing and does not throw", async () => {
  assert.equal(await display("x"), undefined);
});
