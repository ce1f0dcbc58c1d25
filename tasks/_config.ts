// The working agent config the agent tasks read by default: the workbench's folder
// (results/config), created from fixtures/agents and fixtures/suites on first use exactly as
// deno task serve creates it, so a CLI run and a workbench run of an agent use the same files.
import { openWorkingConfig, WORKING_CONFIG_DIR } from "../lib/workbench/io.ts";
import { fromRoot, IO } from "./_cli.ts";

/** Files of a working config, as paths the agent flows take. */
export interface WorkingConfig {
  readonly dir: string;
  readonly agentsDir: string;
  readonly models: string;
  readonly servers: string;
  /** `tool_prices.json` when the folder has one. */
  readonly toolPrices?: string;
  /** The line that says which folder the task reads (and whether it was just created). */
  readonly note: string;
}

/** Help lines of `--config DIR`, shared by the agent tasks. */
export const CONFIG_HELP =
  `  --config DIR          working config: agents/, models.json, servers.json,
                        tool_prices.json (default: ${WORKING_CONFIG_DIR}, the workbench's,
                        created from fixtures/agents and fixtures/suites on first use)`;

/**
 * Opens (or creates) the working config.
 *
 * @param dir `--config DIR`, or undefined for the workbench's folder.
 * @returns Its files, and the line saying which folder the task reads (for stderr).
 */
export async function workingConfig(dir: string | undefined): Promise<WorkingConfig> {
  const files = await openWorkingConfig({
    dir: dir ?? WORKING_CONFIG_DIR,
    agentsExamples: fromRoot("fixtures/agents"),
    suitesExamples: fromRoot("fixtures/suites"),
    schemasDir: fromRoot("lib/agent/schemas"),
  });
  const shown = IO.displayPath(files.dir);
  const note = files.created
    ? `created the working config ${shown} from fixtures/agents and fixtures/suites (the workbench edits the same files)`
    : `agents, models and servers from ${shown}, the workbench's working config (--config DIR for another)`;
  const prices = await Deno.stat(files.toolPrices).then(() => true, () => false);
  return {
    dir: files.dir,
    agentsDir: files.agentsDir,
    models: files.models,
    servers: files.servers,
    ...(prices ? { toolPrices: files.toolPrices } : {}),
    note,
  };
}
