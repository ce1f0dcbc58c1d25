/**
 * The flow behind `deno task import-maverik`: read a MAVERIK config folder, map it
 * (lib/agent `importMaverik`), write the output and `import-report.json`, and say what happened.
 *
 * @module
 */
import { join } from "node:path";
import { importMaverik, type MaverikImport } from "../agent/maverik.ts";
import { readMaverikFolder, writeMaverikImport } from "../agent/maverik_io.ts";
import type { FlowOutcome } from "./outcome.ts";

/** What `deno task import-maverik` was asked for. */
export interface ImportMaverikOptions {
  /** The MAVERIK config folder (or a checkout holding `config/`). */
  readonly from: string;
  /** Output folder: new or empty, unless `force`. */
  readonly out: string;
  /** Write into a non-empty `out`. @default {false} */
  readonly force?: boolean;
}

/**
 * What the flow did: the import, and for the console one line per issue (`stderr`), the summary
 * and the `deno task agents` line that runs the output (`stdout`), and exit code 0 when
 * something was imported, 1 when nothing could be.
 */
export interface ImportMaverikOutcome extends FlowOutcome {
  /** The import (files, issues, counts). */
  readonly result: MaverikImport;
  /** The folder actually read. */
  readonly dir: string;
  /** 0 when something was imported, 1 when nothing could be. */
  readonly exitCode: 0 | 1;
}

/**
 * Imports a MAVERIK config folder into `out`.
 *
 * @param options `from`, `out`, `force`.
 * @returns The import, the lines to print and the exit code.
 * @throws {InputFileError} when `from` is not a folder, or `out` is not empty without `force`.
 */
export async function runImportMaverik(
  options: ImportMaverikOptions,
): Promise<ImportMaverikOutcome> {
  const { folder, dir } = await readMaverikFolder(options.from);
  const result = await importMaverik(folder);
  await writeMaverikImport(options.out, result, { from: dir, force: options.force ?? false });
  const issueLines = result.issues.map((i) =>
    `${i.level.padEnd(8)} ${i.file}${i.field === "" ? "" : ` ${i.field}`}: ${i.message}`
  );
  const c = result.counts;
  const summaryLines = [
    `imported ${c.agents} agents (${c.versions} versions), ${c.models} models, ${c.servers} servers, ` +
    `${c.toolPrices} tool prices, ${c.overrides} description overrides, ${c.suites} suites ` +
    `(${c.cases} cases) from ${dir}; ${
      result.issues.filter((i) => i.level !== "info").length
    } fields not mapped as written (${join(options.out, "import-report.json")})`,
  ];
  const suites = Object.keys(result.files).filter((f) => f.startsWith("suites/")).sort();
  // Only a complete set runs: agents, a suite, and the models and servers they name.
  if (c.agents > 0 && suites.length > 0 && c.models > 0 && c.servers > 0) {
    const a = join(options.out, "agents");
    summaryLines.push(
      `run: deno task agents --agents-dir ${a} --models ${join(a, "models.json")} --servers ${
        join(a, "servers.json")
      }${c.toolPrices > 0 ? ` --tool-prices ${join(a, "tool_prices.json")}` : ""} --suite ${
        join(options.out, suites[0])
      }`,
    );
  }
  return {
    result,
    dir,
    stdout: summaryLines,
    stderr: issueLines,
    exitCode: Object.keys(result.files).length === 0 ? 1 : 0,
  };
}
