import assert from "node:assert/strict";
import { ARM_NAMES, ARMS, armsNamed, parseArmList } from "./registry.ts";

Deno.test("every registered arm keeps the entry contract", () => {
  assert.deepEqual(ARM_NAMES, ARMS.map((a) => a.name));
  assert.equal(new Set(ARM_NAMES).size, ARM_NAMES.length, "names are unique");
  assert.equal(ARM_NAMES[0], "baseline_json", "the reference arm comes first");
  for (const entry of ARMS) {
    assert.match(entry.name, /^[a-z][a-z0-9_]*$/);
    assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), entry.name);
    assert.equal(entry.arm.name, entry.name);
    assert.equal(
      entry.arm.altersIndex,
      entry.altersIndex,
      `${entry.name}: altersIndex as declared`,
    );
    assert.equal(entry.arm.lowerBound, entry.lowerBound, `${entry.name}: lowerBound as declared`);
  }
});

Deno.test("every arm has a golden file and every golden file an arm", async () => {
  const goldens: string[] = [];
  for await (const e of Deno.readDir(new URL("./testdata/", import.meta.url))) {
    if (e.name.endsWith(".txt")) goldens.push(e.name.slice(0, -4));
  }
  assert.deepEqual(goldens.sort(), [...ARM_NAMES].sort());
});

Deno.test("--arms parsing and lookup follow the registry", () => {
  assert.deepEqual(parseArmList("all"), [...ARM_NAMES]);
  assert.deepEqual(armsNamed(["markdown", "baseline_json"]).map((a) => a.name), [
    "markdown",
    "baseline_json",
  ]);
  assert.throws(
    () => armsNamed(["nope"]),
    new RangeError('Cannot load arm "nope" as it is not known'),
  );
});
