import assert from "node:assert/strict";
import type { Tool } from "../catalog/types.ts";
import { observeAltersIndex } from "./alters_index.ts";
import { baselineJson } from "./baseline_json.ts";
import { armsNamed } from "./registry.ts";

const ARMS = armsNamed();
import type { EncodingArm } from "./types.ts";
import {
  exists,
  hardCases,
  LIVEMCPTOOL,
  readTools,
  REFERENCE,
  sampleTools,
} from "../../testing/encodings.ts";

function corpus(): Tool[] {
  const tools = [...sampleTools(), ...[...hardCases().values()].flat()];
  for (const path of [REFERENCE, LIVEMCPTOOL]) if (exists(path)) tools.push(...readTools(path));
  return tools;
}

Deno.test("every arm's altersIndex flag matches what its indexFields do", () => {
  const tools = corpus();
  for (const arm of ARMS) {
    const seen = observeAltersIndex(arm, tools);
    assert.ok(
      seen.consistent,
      `${arm.name} declares altersIndex=${seen.declared} but observed ${seen.observed} ` +
        `(first difference: ${JSON.stringify(seen.firstDifference)})`,
    );
  }
});

Deno.test("observeAltersIndex() rejects a false claim and a missing claim", () => {
  const tools = sampleTools();
  // Same index as the baseline, but claims to alter it: a false claim.
  const falseClaim: EncodingArm = { ...baselineJson, name: "false_claim", altersIndex: true };
  const a = observeAltersIndex(falseClaim, tools);
  assert.deepEqual([a.declared, a.observed, a.consistent], [true, false, false]);
  // Drops descriptions but claims not to alter the index: a missing claim.
  const missingClaim: EncodingArm = {
    ...baselineJson,
    name: "missing_claim",
    altersIndex: false,
    indexFields: (t) => ({ ...baselineJson.indexFields(t), description: "" }),
  };
  const b = observeAltersIndex(missingClaim, tools);
  assert.deepEqual([b.declared, b.observed, b.consistent], [false, true, false]);
  assert.deepEqual(b.firstDifference, { toolId: tools[0].id, field: "description" });
});
