/**
 * The workbench's working configuration for the other entry points: `deno task agents`, `chat`
 * and `sweep` read the same folder `deno task serve` edits (`results/config/` unless told
 * otherwise), created from `fixtures/agents` and `fixtures/suites` on first use, so a CLI run
 * and a workbench run of the same agent use the same files. Only the config store is loaded,
 * not the web app.
 *
 * @example Usage
 * ```ts
 * import { WORKING_CONFIG_DIR } from "./io.ts";
 * if (WORKING_CONFIG_DIR !== "results/config") throw new Error();
 * ```
 *
 * @module
 */
import { openConfigStore } from "./config_store.ts";

/** The working config folder of `deno task serve` and the agent tasks (repository-relative). */
export const WORKING_CONFIG_DIR = "results/config";

/** Where a working config is and where its examples come from. */
export interface OpenWorkingConfigOptions {
  /** The working config folder; created from the examples when missing. */
  readonly dir: string;
  /** Folder of the example agents, models, servers and tool prices (`fixtures/agents`). */
  readonly agentsExamples: string;
  /** Folder of the example suites (`fixtures/suites`). */
  readonly suitesExamples: string;
  /** Folder of the committed JSON Schemas, for the `$schema` of copied files. */
  readonly schemasDir: string;
}

/** The files of a working config (absolute paths). */
export interface WorkingConfigFiles {
  /** The folder. */
  readonly dir: string;
  /** Whether this call created it from the examples. */
  readonly created: boolean;
  /** `agents/`: one agent per file, versions in `agents/versions/`. */
  readonly agentsDir: string;
  /** `models.json`. */
  readonly models: string;
  /** `servers.json`. */
  readonly servers: string;
  /** `tool_prices.json` (it may not exist). */
  readonly toolPrices: string;
  /** `suites/`. */
  readonly suitesDir: string;
}

/**
 * Opens a working config, creating it from the examples exactly as the workbench does when the
 * folder does not exist (the examples are only read).
 *
 * @param options Folders.
 * @returns Its files.
 * @throws {Deno.errors.NotFound} when creating it and `agentsExamples` or its `models.json` is
 *   missing (a missing `suitesExamples` gives no suites); no half folder is left behind.
 * @throws {SyntaxError} when creating it and the example `models.json` is not JSON.
 */
export async function openWorkingConfig(
  options: OpenWorkingConfigOptions,
): Promise<WorkingConfigFiles> {
  const store = await openConfigStore(options);
  return { dir: store.dir, created: store.bootstrapped, ...store.paths() };
}
