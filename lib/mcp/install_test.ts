import assert from "node:assert/strict";
import { join } from "node:path";
import { installedVersions, packageDirName } from "./install.ts";

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
