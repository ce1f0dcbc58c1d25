// test:quick skips this file: its tests start processes (deno task test runs them).
/**
 * Captures one real npm MCP server, @modelcontextprotocol/server-memory, the
 * way `deno task capture` does. Uses the package from the capture task's
 * install folder (.scratch/servers) when present; otherwise installs it into a
 * temp folder with the same routine (needs the npm registry). Marked
 * `ignore`, saying why on stderr, when neither works.
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

/**
 * Where the package is installed: the capture task's folder when it is there, else a temp
 * folder installed now. Resolved before the test is registered, so a failed install marks the
 * test `ignore` (with the reason on stderr) instead of letting it pass without checking anything.
 */
async function resolveInstall(): Promise<
  { installDir: string; temp?: string } | { skip: string }
> {
  if (await readInstalledPackage(repoInstallDir, PACKAGE, VERSION) !== undefined) {
    return { installDir: repoInstallDir };
  }
  const temp = await Deno.makeTempDir({ prefix: "mcpmeter-npm-test-" });
  const [result] = await installPackages([{ package: PACKAGE, version: VERSION }], {
    installDir: temp,
    timeoutMs: 60_000,
  });
  if (result.status === "failed") {
    await Deno.remove(temp, { recursive: true });
    return { skip: `${PACKAGE}@${VERSION} is not in ${repoInstallDir} and ${result.message}` };
  }
  return { installDir: temp, temp };
}

const setup = await resolveInstall();
if ("skip" in setup) console.warn(`ignored npm server capture test: ${setup.skip}`);

Deno.test({
  name: `captures the real ${PACKAGE}@${VERSION} over stdio`,
  ignore: "skip" in setup,
  fn: async () => {
    assert.ok(!("skip" in setup), "ignored when the package could not be installed");
    const { installDir, temp } = setup;
    try {
      const installed = await readInstalledPackage(installDir, PACKAGE, VERSION);
      assert.ok(installed);
      // The package's own words, as its package.json has them.
      const own = JSON.parse(await Deno.readTextFile(join(installed.packageDir, "package.json")));
      assert.equal(installed.description, own.description.trim());
      assert.deepEqual(installed.keywords ?? [], own.keywords ?? []);
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
  },
});
