/**
 * The flow behind `deno task calibrate`: one judge model over a labelled set of a suite's
 * answers (`lib/agent/schemas/labels.schema.json`), scored against the labels (accuracy with its
 * 95% Wilson interval, confusion counts, Cohen's kappa), written as JSON and CSV.
 *
 * @module
 */
import { basename, join } from "node:path";
import { loadModels, loadSuite } from "../agent/load_config.ts";
import { AgentConfigError } from "../agent/config.ts";
import {
  calibrateJudge,
  type CalibrationItem,
  calibrationLines,
  type CalibrationReport,
  parseLabels,
  resolveLabels,
} from "../agent/calibration.ts";
import { clientJudgeCaller } from "../agent/judge_caller.ts";
import { createModelClient } from "../agent/providers/client.ts";
import { realSleep } from "../agent/providers/retry.ts";
import { stableJson } from "../core/json.ts";
import { InputFileError } from "../core/errors.ts";
import { UsageError } from "../core/errors.ts";
import { columnsCsv, type CsvColumn } from "../core/csv.ts";
import { ensureWritable } from "./_write.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import type { FlowOutcome } from "./outcome.ts";

/** Version of the calibration JSON shape. */
export const CALIBRATION_SCHEMA_VERSION = 1;

/** Options of {@linkcode runCalibration}: the flags of `deno task calibrate`, parsed. */
export interface RunCalibrationOptions {
  /** Suite JSON (the cases' questions and `llm_judge` rubrics). */
  readonly suite: string;
  /** Labels JSON. */
  readonly labels: string;
  /** Judge model registry id. */
  readonly judge: string;
  /** Model registry. */
  readonly models: string;
  /** Votes per label (≥ 1). @default {1} */
  readonly votes?: number;
  /** Judge sampling temperature. @default {0} */
  readonly temperature?: number;
  /** Output folder: `<suite>--<judge>.json` and `.csv` go there. */
  readonly out: string;
  /** Exit 1 when accuracy is below this (fraction). */
  readonly minAccuracy?: number;
  /** Exit 1 when kappa is below this (or undefined). */
  readonly minKappa?: number;
  /** Variables for `${VAR}` in the model registry (environment + `.env`). */
  readonly env: Readonly<Record<string, string>>;
}

/** What {@linkcode runCalibration} did. */
export interface CalibrationOutcome extends FlowOutcome {
  /** 0: measured, thresholds held; 1: nothing scored, or a threshold failed. */
  readonly exitCode: 0 | 1;
  /** Console lines (report, threshold verdicts, files written); `stderr` stays empty. */
  readonly stdout: readonly string[];
  /** The report. */
  readonly report: CalibrationReport;
  /** The JSON file written. */
  readonly jsonPath: string;
  /** The CSV file written. */
  readonly csvPath: string;
}

const word = (p: boolean | null) => p === null ? "" : p ? "pass" : "fail";

/** The columns of {@linkcode calibrationCsv}, in order. */
const CALIBRATION_COLUMNS: readonly CsvColumn<CalibrationItem>[] = [
  ["label_id", (i) => i.id],
  ["case_id", (i) => i.caseId],
  ["expected", (i) => word(i.expected)],
  ["predicted", (i) => word(i.predicted)],
  ["agrees", (i) => i.predicted === null ? "" : i.predicted === i.expected],
  ["passing_votes", (i) => i.verdicts.filter((v) => v.pass).length],
  ["votes", (i) => i.verdicts.length],
  ["input_tokens", (i) => i.inputTokens],
  ["output_tokens", (i) => i.outputTokens],
  ["cost_usd", (i) => i.costUsd === null ? null : Math.round(i.costUsd * 1e9) / 1e9],
  ["reasoning", (i) => i.verdicts[0]?.reasoning ?? ""],
  ["error", (i) => i.error],
];

/**
 * One CSV row per label: id, case, label and judge verdicts, whether they agree, passing votes,
 * tokens, USD, the first reasoning and any judge error.
 *
 * @param r The report.
 * @returns CSV text ending in a newline (the header alone when there are no labels).
 */
export function calibrationCsv(r: CalibrationReport): string {
  return columnsCsv(CALIBRATION_COLUMNS, r.items);
}

/**
 * Runs a calibration and writes `out/<suite id>--<judge>.json` and `.csv`.
 *
 * @param options See {@linkcode RunCalibrationOptions}.
 * @param io Clock, git state, progress. @default {denoFlowIo()}
 * @returns Exit code, console lines, report and paths.
 * @throws {InputFileError} On an unreadable or invalid suite, labels file or model registry, an
 *   unknown judge id, or a judge model whose key or endpoint is not configured.
 * @throws {UsageError} On a bad number of votes or an output folder that cannot be written.
 */
export async function runCalibration(
  options: RunCalibrationOptions,
  io: Pick<FlowIo, "now" | "createdAt" | "gitState" | "progress" | "displayPath"> = denoFlowIo(),
): Promise<CalibrationOutcome> {
  const votes = options.votes ?? 1;
  if (!Number.isInteger(votes) || votes < 1) {
    throw new UsageError(`--votes must be a positive integer, got ${votes}`);
  }
  const suite = await loadSuite(options.suite);
  let labelsText: string;
  try {
    labelsText = await Deno.readTextFile(options.labels);
  } catch (e) {
    throw new InputFileError(
      options.labels,
      `Cannot read labels "${options.labels}": ${(e as Error).message}`,
    );
  }
  const set = parseLabels(labelsText, options.labels);
  const targets = resolveLabels(suite, set, options.labels);
  const models = await loadModels(options.models);
  const config = models.find((m) => m.id === options.judge);
  if (config === undefined) {
    throw new AgentConfigError(
      "model registry",
      options.models,
      "",
      `has no model "${options.judge}" (--judge); it has ${models.map((m) => m.id).join(", ")}`,
    );
  }
  // A missing key or endpoint variable is an AgentConfigError naming the file and field.
  const client = createModelClient(config, {
    env: options.env,
    now: io.now,
    sleep: realSleep,
    source: options.models,
  });
  const stem = `${suite.id}--${options.judge}`;
  const jsonPath = join(options.out, `${stem}.json`);
  const csvPath = join(options.out, `${stem}.csv`);
  await ensureWritable(jsonPath, "--out");
  io.progress("calibrate", `${targets.length} labels of ${suite.id}, judge ${options.judge}`);
  const report = await calibrateJudge({
    targets,
    suiteId: suite.id,
    judge: options.judge,
    call: clientJudgeCaller(new Map([[config.id, client]]), () => config.pricing),
    votes,
    temperature: options.temperature ?? 0,
    onItem: (item, done, total) => {
      const verdict = item.predicted === null ? "error" : item.predicted ? "pass" : "fail";
      io.progress(
        "calibrate",
        `${done}/${total} ${item.id}: judge ${verdict}, label ${item.expected ? "pass" : "fail"}`,
      );
    },
  });
  const doc = {
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    task: "tasks/calibrate.ts",
    createdAt: io.createdAt(),
    git: await io.gitState(),
    inputs: {
      suite: io.displayPath(options.suite),
      labels: io.displayPath(options.labels),
      models: io.displayPath(options.models),
    },
    provenance: "measured",
    labelsDescription: set.description,
    ...report,
  };
  await Deno.writeTextFile(jsonPath, stableJson(doc));
  await Deno.writeTextFile(csvPath, calibrationCsv(report));
  const lines = [...calibrationLines(report)];
  let exitCode: 0 | 1 = 0;
  if (report.scored === 0) {
    lines.push("FAIL: the judge gave no verdict on any label (see the judge errors above)");
    exitCode = 1;
  }
  if (options.minAccuracy !== undefined && report.scored > 0) {
    const ok = report.accuracy! >= options.minAccuracy;
    lines.push(
      `${ok ? "PASS" : "FAIL"}: accuracy ${report.accuracy!.toFixed(3)} ${
        ok ? ">=" : "<"
      } --min-accuracy ${options.minAccuracy}`,
    );
    if (!ok) exitCode = 1;
  }
  if (options.minKappa !== undefined && report.scored > 0) {
    const ok = report.kappa !== null && report.kappa >= options.minKappa;
    lines.push(
      `${ok ? "PASS" : "FAIL"}: kappa ${
        report.kappa === null ? "undefined" : report.kappa.toFixed(3)
      } ${ok ? ">=" : "<"} --min-kappa ${options.minKappa}`,
    );
    if (!ok) exitCode = 1;
  }
  lines.push(`wrote ${io.displayPath(jsonPath)} and ${basename(csvPath)}`);
  return { exitCode, stdout: lines, stderr: [], report, jsonPath, csvPath };
}
