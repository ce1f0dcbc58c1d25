// What the permission cases run against (tasks/permissions_test.ts): the pinned filesystem and
// memory servers installed in .scratch/servers, the scripted model server behind a model
// registry, a servers config of server-memory alone, an empty OUT folder, and a folder under the
// home folder (outside the repository and the system temporary folder) for inputs and outputs.
import assert from "node:assert/strict";
import { join } from "node:path";
import { installPackages } from "../lib/mcp/install.ts";
import { startScriptedModelServer } from "../lib/agent/_scripted_model_server.ts";
import { fixturePolicy } from "../lib/agent/_scripted_policy.ts";
import { type CaseContext, MEMORY_CONFIG, OUT, ROOT } from "./permissions.ts";

/** The servers config of MEMORY_CONFIG: server-memory alone, installed in .scratch/servers. */
const MEMORY = {
  command: "node",
  args: ["${BIN}"],
  env: { MEMORY_FILE_PATH: "${SCRATCH}/m.jsonl" },
  package: "@modelcontextprotocol/server-memory",
  version: "2026.8.31",
};

/** The model registry the agent tasks use: three models on the scripted model server. */
async function writeModels(url: string, openaiUrl: string): Promise<string> {
  const pricing = { inputUsdPerMTok: 3, outputUsdPerMTok: 15 };
  const rows = [
    ["claude", "anthropic", "s", url],
    ["gpt", "openai", "s", openaiUrl],
    ["judge", "anthropic", "j", url],
  ];
  const models = rows.map(([id, provider, model, baseUrl]) => ({
    ...{ id, provider, model, baseUrl, apiKey: "${K}", pricing },
  }));
  await Deno.writeTextFile(join(ROOT, OUT, "models.json"), JSON.stringify({ models }));
  return `${OUT}/models.json`;
}

/**
 * Installs the servers, empties OUT, starts the scripted model and writes the registry and the
 * memory config. `close` stops the model and removes OUT.
 */
export async function openWorld(): Promise<CaseContext & { close(): Promise<void> }> {
  const servers = await installPackages(
    ["server-filesystem", "server-memory"].map((p) => ({
      package: `@modelcontextprotocol/${p}`,
      version: "2026.8.31",
    })),
    { installDir: join(ROOT, ".scratch/servers") },
  );
  for (const s of servers) assert.notEqual(s.status, "failed", `${s.package}: ${s.message}`);
  const close = () => Deno.remove(join(ROOT, OUT), { recursive: true }).catch(() => {});
  await close();
  await Deno.mkdir(join(ROOT, OUT), { recursive: true });
  const home = Deno.env.get("HOME");
  assert.ok(home, "HOME must be set: the cases read and write a folder under it");
  const elsewhere = await Deno.makeTempDir({ dir: home, prefix: ".mcpmeter-permissions-" });
  assert.ok(!elsewhere.startsWith(ROOT), `${elsewhere} is inside the repository`);
  const model = startScriptedModelServer(fixturePolicy);
  const closeAll = () =>
    model.close().finally(() =>
      Promise.all([close(), Deno.remove(elsewhere, { recursive: true }).catch(() => {})])
    ).then(() => {});
  try {
    const config = JSON.stringify({ mcpServers: { memory: MEMORY } });
    await Deno.writeTextFile(join(ROOT, MEMORY_CONFIG), config);
    // A desktop client's config as it sits in the user's home folder.
    await Deno.writeTextFile(join(elsewhere, "claude_desktop_config.json"), config);
    const models = await writeModels(model.url, model.openaiBaseUrl);
    return { models, elsewhere, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
