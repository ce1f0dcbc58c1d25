import assert from "node:assert/strict";
import { DEFAULT_FEATURES, pageTitles } from "./mod.ts";
import type { WorkbenchFeature } from "../app.ts";

Deno.test("pageTitles() lists every page of the default workbench in navigation order", () => {
  assert.deepEqual(pageTitles(), [
    "Test plans",
    "Runs",
    "Agents",
    "Chat",
    "Config",
    "Catalog",
    "Audit",
    "Reports",
    "Compare versions",
  ]);
  // Order comes from NavEntry.order, not from the feature list's order.
  const reversed = [...DEFAULT_FEATURES].reverse();
  assert.deepEqual(pageTitles(reversed), pageTitles());
  const extra: WorkbenchFeature = {
    id: "x",
    nav: [{ href: "/x", title: "X", order: 15 }],
    register() {},
  };
  assert.equal(pageTitles([...DEFAULT_FEATURES, extra])[1], "X");
});
