// Set-up shared by the sweep tests: the real filesystem MCP server installed, a scripted
// wire-format model serving a one-model registry, and a scratch folder.
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../lib/mcp/install.ts";
import { startScriptedModelServer } from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";

/** A sweep test's world: its scratch folder, its model registry, and how to tear it down. */
export interface SweepFixture {
  /** Scratch folder (removed by `close`). */
  readonly dir: string;
  /** Model registry file in `dir`: model `claude` on the scripted server, key `${keyVar}`. */
  readonly models: string;
  /** Stops the scripted model and removes `dir`. */
  close(): Promise<void>;
}

/**
 * Installs the filesystem server, starts the scripted model and writes the registry.
 *
 * @param prefix Prefix of the scratch folder's name.
 * @param keyVar Variable the registry's `apiKey` names (the test sets it for the child).
 * @returns The fixture.
 */
export async function sweepFixture(prefix: string, keyVar: string): Promise<SweepFixture> {
  const installed = await installPackages(
    [{ package: "@modelcontextprotocol/server-filesystem", version: "2026.8.31" }],
    { installDir: ".scratch/servers" },
  );
  assert.ok(installed.every((r) => r.status !== "failed"), JSON.stringify(installed));
  const server = startScriptedModelServer(fixturePolicy);
  const dir = await Deno.makeTempDir({ prefix });
  const models = join(dir, "models.json");
  await Deno.writeTextFile(
    models,
    JSON.stringify({
      models: [{
        id: "claude",
        provider: "anthropic",
        model: "scripted",
        baseUrl: server.url,
        apiKey: `\${${keyVar}}`,
        pricing: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
      }],
    }),
  );
  return {
    dir,
    models,
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
