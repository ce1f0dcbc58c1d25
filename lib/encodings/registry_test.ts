import assert from "node:assert/strict";
import { ARM_NAMES, ARMS, BUILTIN_ARMS, loadArms, parseArmList } from "./registry.ts";

Deno.test("every registered arm keeps the entry contract", async () => {
  assert.deepEqual(ARM_NAMES, ARMS.map((a) => a.name));
  assert.equal(new Set(ARM_NAMES).size, ARM_NAMES.length, "names are unique");
  assert.equal(ARM_NAMES[0], "baseline_json", "the reference arm comes first");
  for (const entry of ARMS) {
    assert.match(entry.name, /^[a-z][a-z0-9_]*$/);
    assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), entry.name);
    assert.equal(
      entry.arm === undefined,
      entry.requires !== null,
      `${entry.name}: built in xor requires`,
    );
    const loaded = await entry.load();
    assert.equal(loaded.name, entry.name);
    if (!("unavailable" in loaded)) {
      assert.equal(loaded.altersIndex, entry.altersIndex, `${entry.name}: altersIndex as declared`);
      assert.equal(loaded.lowerBound, entry.lowerBound, `${entry.name}: lowerBound as declared`);
    }
  }
  assert.deepEqual(
    BUILTIN_ARMS.map((a) => a.name),
    ARMS.filter((a) => a.requires === null).map((a) => a.name),
  );
});

Deno.test("every built-in arm has a golden file and every golden file an arm", async () => {
  const goldens: string[] = [];
  for await (const e of Deno.readDir(new URL("./testdata/", import.meta.url))) {
    if (e.name.endsWith(".txt")) goldens.push(e.name.slice(0, -4));
  }
  assert.deepEqual(goldens.sort(), BUILTIN_ARMS.map((a) => a.name).sort());
});

Deno.test("--arms parsing and loading follow the registry", async () => {
  assert.deepEqual(parseArmList("all"), [...ARM_NAMES]);
  assert.deepEqual((await loadArms(["markdown", "baseline_json"])).map((a) => a.name), [
    "markdown",
    "baseline_json",
  ]);
  await assert.rejects(
    () => loadArms(["nope"]),
    new RangeError('Cannot load arm "nope" as it is not known'),
  );
});
