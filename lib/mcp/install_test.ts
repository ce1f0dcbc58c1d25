import assert from "node:assert/strict";
import { join } from "node:path";
import { installedVersions, packageDirName, pickNpmVersion } from "./install.ts";

Deno.test("installedVersions() lists a package's installed versions in an install folder, highest first", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpmeter-installed-" });
  try {
    const put = async (pkg: string, folderVersion: string, manifestVersion = folderVersion) => {
      const at = join(dir, packageDirName(pkg, folderVersion), "node_modules", pkg);
      await Deno.mkdir(at, { recursive: true });
      await Deno.writeTextFile(
        join(at, "package.json"),
        JSON.stringify({ name: pkg, version: manifestVersion }),
      );
    };
    const pkg = "@scope/kv-mcp";
    await put(pkg, "1.9.0");
    await put(pkg, "1.10.0"); // above 1.9.0 by number, below it as text
    await put(pkg, "1.10.0-beta.2"); // a prerelease ranks below its release
    await put(pkg, "2.0.0", "1.0.0"); // its folder says 2.0.0, its manifest not: not installed
    await put("@scope/kv-mcp-extra", "3.0.0"); // another package sharing the name's start
    await Deno.mkdir(join(dir, packageDirName(pkg, "4.0.0"))); // an install that left nothing
    assert.deepEqual(await installedVersions(dir, pkg), ["1.10.0", "1.10.0-beta.2", "1.9.0"]);
    assert.deepEqual(await installedVersions(dir, "other-mcp"), []);
    assert.deepEqual(await installedVersions(join(dir, "absent"), pkg), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The shape of @bytebase/dbhub on the registry (December 2026): the latest release needs Node 22.5,
// 0.21.2 runs on Node 20, 0.15.0 declares no engines; plus a deprecated 0.22.0 for Node 20.
// On Node 20, `npm install @bytebase/dbhub` installed 0.21.2 (checked with npm 11.19.1).
const tags = { latest: "1.4.0", next: "1.5.0-beta.1" };
const dbhub = [
  { version: "0.15.0", "dist-tags": tags },
  { version: "0.21.2", engines: { node: ">=20" }, "dist-tags": tags },
  { version: "0.22.0", engines: { node: ">=20" }, deprecated: "broken build", "dist-tags": tags },
  { version: "1.3.1", engines: { node: ">=22.5.0" }, "dist-tags": tags },
  { version: "1.4.0", engines: { node: ">=22.5.0" }, "dist-tags": tags },
];

Deno.test("pickNpmVersion: no version asked takes latest when this Node runs it, else the newest it runs", () => {
  assert.equal(pickNpmVersion("@bytebase/dbhub", undefined, dbhub, "v22.12.0"), "1.4.0");
  // 1.4.0 and 1.3.1 need Node 22.5; 0.22.0 is deprecated; 0.21.2 beats 0.15.0 by version.
  assert.equal(pickNpmVersion("@bytebase/dbhub", undefined, dbhub, "v20.20.2"), "0.21.2");
  // On Node 18 only 0.15.0 (no engines) runs.
  assert.equal(pickNpmVersion("@bytebase/dbhub", undefined, dbhub, "v18.20.0"), "0.15.0");
});

Deno.test("pickNpmVersion: a dist-tag is exactly its version; a range prefers what this Node runs", () => {
  assert.equal(pickNpmVersion("@bytebase/dbhub", "latest", dbhub, "v20.20.2"), "1.4.0");
  // Nothing in ^1 runs on Node 20: the highest in range, as npm does (it warns EBADENGINE).
  assert.equal(pickNpmVersion("@bytebase/dbhub", "^1", dbhub, "v20.20.2"), "1.4.0");
  assert.equal(pickNpmVersion("@bytebase/dbhub", "<1.4.0", dbhub, "v22.12.0"), "1.3.1");
  // In range 0.22.x only the deprecated version exists: it is still the answer.
  assert.equal(pickNpmVersion("@bytebase/dbhub", "~0.22.0", dbhub, "v20.20.2"), "0.22.0");
  assert.equal(pickNpmVersion("@bytebase/dbhub", "^2", dbhub, "v20.20.2"), undefined);
  assert.equal(pickNpmVersion("@bytebase/dbhub", "next", dbhub, "v20.20.2"), undefined);
});
