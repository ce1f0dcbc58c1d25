// Test helper (not part of the public surface): a pinned npm package installed once into the
// git-ignored cache .scratch/live/servers (the folder lib/proxy/connect_test.ts uses), for tests
// that drive real programs: MCP servers, and the official MCP Inspector CLI as a real client.
import { fileURLToPath } from "node:url";
import {
  type InstalledPackage,
  installPackages,
  readInstalledPackage,
  resolveBin,
} from "../lib/mcp/install.ts";

/** Install cache shared by the tests. */
export const TEST_INSTALL_DIR = fileURLToPath(new URL("../.scratch/live/servers", import.meta.url));

/** The MCP Inspector, pinned. */
export const INSPECTOR = { package: "@modelcontextprotocol/inspector", version: "2.12.0" } as const;

/** The reference memory server, pinned. */
export const SERVER_MEMORY = {
  package: "@modelcontextprotocol/server-memory",
  version: "2026.8.31",
} as const;

/**
 * A pinned package installed into {@linkcode TEST_INSTALL_DIR}, installing it on first use.
 * When npm cannot install it, the result is `{ skip: reason }` outside CI; with `CI` set it
 * throws, so CI never passes by skipping.
 */
export async function installedPackage(
  spec: { readonly package: string; readonly version: string },
): Promise<{ readonly installed: InstalledPackage } | { readonly skip: string }> {
  let installed = await readInstalledPackage(TEST_INSTALL_DIR, spec.package, spec.version);
  if (installed === undefined) {
    const [result] = await installPackages([spec], { installDir: TEST_INSTALL_DIR });
    installed = await readInstalledPackage(TEST_INSTALL_DIR, spec.package, spec.version);
    if (installed === undefined) {
      const reason = `${spec.package}@${spec.version} could not be installed from npm (${
        result.status === "failed" ? result.message : result.status
      })`;
      if (Deno.env.get("CI")) throw new Error(reason);
      return { skip: reason };
    }
  }
  return { installed };
}

/**
 * The path of a pinned package's bin script, installing the package on first use; skips or
 * throws like {@linkcode installedPackage}.
 */
export async function installedBin(
  spec: { readonly package: string; readonly version: string },
  bin?: string,
): Promise<{ readonly installDir: string; readonly bin: string } | { readonly skip: string }> {
  const got = await installedPackage(spec);
  if ("skip" in got) return got;
  return { installDir: TEST_INSTALL_DIR, bin: resolveBin(got.installed, bin) };
}
