import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CatalogError } from "./errors.ts";
import { loadCatalog } from "./load.ts";

/** One entry of fixtures/catalogs/invalid/manifest.json. */
interface InvalidFixture {
  readonly file: string;
  readonly description: string;
  readonly expect: {
    readonly field: string | null;
    readonly toolId: string | null;
    readonly messageIncludes: readonly string[];
  };
}

const DIR = fileURLToPath(new URL("../../fixtures/catalogs/invalid/", import.meta.url));
const manifest: { files: InvalidFixture[] } = JSON.parse(
  await Deno.readTextFile(`${DIR}manifest.json`),
);

Deno.test("invalid fixtures: the manifest lists every file in the folder", async () => {
  const onDisk: string[] = [];
  for await (const e of Deno.readDir(DIR)) {
    if (e.isFile && e.name !== "manifest.json") onDisk.push(e.name);
  }
  assert.deepEqual(manifest.files.map((f) => f.file).sort(), onDisk.sort());
  assert.ok(manifest.files.length >= 5);
});

for (const fixture of manifest.files) {
  Deno.test(`invalid fixture ${fixture.file}: ${fixture.description}`, async () => {
    const path = `${DIR}${fixture.file}`;
    let caught: unknown;
    try {
      await loadCatalog(path);
    } catch (e) {
      caught = e;
    }
    assert.ok(
      caught instanceof CatalogError,
      `${fixture.file} loaded without a CatalogError (${caught})`,
    );
    assert.equal(caught.path, path);
    assert.equal(caught.field ?? null, fixture.expect.field, caught.message);
    assert.equal(caught.toolId ?? null, fixture.expect.toolId, caught.message);
    assert.ok(
      caught.message.startsWith(`Cannot load catalog ${JSON.stringify(path)}: `),
      caught.message,
    );
    for (const s of fixture.expect.messageIncludes) {
      assert.ok(caught.message.includes(s), `"${s}" not in: ${caught.message}`);
    }
    assert.ok(!caught.message.includes("\n"), "one-line message");
  });
}
