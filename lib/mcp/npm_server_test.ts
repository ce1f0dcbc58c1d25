/**
 * Captures one real npm MCP server, @modelcontextprotocol/server-memory, the
 * way `deno task capture` does. Uses the package from the capture task's
 * install folder (.scratch/servers) when present; otherwise installs it into a
 * temp folder with the same routine (needs the npm registry). Skips, saying
 * why, when neither works.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureServers } from "./capture.ts";
import { parseServersConfig } from "./config.ts";
import { installPackages, readInstalledPackage } from "./install.ts";

const PACKAGE = "@modelcontextprotocol/server-memory";
const VERSION = "2026.8.31";
const repoInstallDir = fileURLToPath(new URL("../../.scratch/servers", import.meta.url));

/** Tool names listed under "### Tools" in the package's README (an independent source). */
function readmeToolNames(readme: string): string[] {
  const section = readme.split("### Tools")[1]?.split("\n### ")[0] ?? "";
  return [...section.matchAll(/^- \*\*([a-z_]+)\*\*/gm)].map((m) => m[1]);
}

Deno.test(`captures the real ${PACKAGE}@${VERSION} over stdio`, async () => {
  let installDir = repoInstallDir;
  let temp: string | undefined;
  if (await readInstalledPackage(installDir, PACKAGE, VERSION) === undefined) {
    temp = await Deno.makeTempDir({ prefix: "mcpmeter-npm-test-" });
    installDir = temp;
    const [result] = await installPackages([{ package: PACKAGE, version: VERSION }], {
      installDir,
      timeoutMs: 60_000,
    });
    if (result.status === "failed") {
      console.log(
        `SKIPPED: ${PACKAGE}@${VERSION} is not in ${repoInstallDir} and ${result.message}`,
      );
      await Deno.remove(temp, { recursive: true });
      return;
    }
  }
  try {
    const installed = await readInstalledPackage(installDir, PACKAGE, VERSION);
    assert.ok(installed);
    const readme = await Deno.readTextFile(join(installed.packageDir, "README.md"));
    const expected = readmeToolNames(readme);
    assert.equal(expected.length, 9, "README lists 9 tools");

    const config = parseServersConfig({
      mcpServers: {
        memory: {
          command: "node",
          args: ["${BIN}"],
          env: { MEMORY_FILE_PATH: "${SCRATCH}/memory.jsonl" },
          package: PACKAGE,
          version: VERSION,
        },
      },
    });
    const [record] = await captureServers(config, { installDir, timeoutMs: 20_000 });
    assert.equal(record.outcome, "ok", `${record.message}\n${record.stderrTail ?? ""}`);
    assert.deepEqual(record.tools.map((t) => t.name).sort(), [...expected].sort());
    for (const tool of record.tools) {
      assert.equal((tool.inputSchema as { type?: string }).type, "object", String(tool.name));
    }
    // The README's resource is listed too (the server advertises resources).
    assert.ok(record.resources?.some((r) => r.uri === "memory://knowledge-graph"));
    assert.equal(record.package, PACKAGE);
    assert.equal(record.version, VERSION);
    assert.equal(installed.license, "SEE LICENSE IN LICENSE");
  } finally {
    if (temp !== undefined) await Deno.remove(temp, { recursive: true });
  }
});
