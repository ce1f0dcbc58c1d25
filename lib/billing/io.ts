/**
 * The I/O of the cost layers: the count client (HTTP, retries, on-disk cache) and reading a
 * calibration file.
 *
 * @module
 */
import { parseCalibration } from "./calibration.ts";
import type { Calibration } from "./estimate.ts";

export type { RetryPolicy } from "../core/retry.ts";
export type { JsonObject, JsonValue } from "../catalog/types.ts";
export type {
  BillingProvider,
  Calibration,
  CalibrationEntry,
  CalibrationSource,
  Interval,
} from "./estimate.ts";
export {
  type CountClient,
  type CountClientOptions,
  CountError,
  createCountClient,
} from "./count_client.ts";

/**
 * Reads a calibration file (`deno task calibrate-tokens` writes one).
 *
 * @param path The file.
 * @returns The calibration.
 * @throws {Error} When it cannot be read, is not JSON, or is not a calibration (the message
 *   names the file).
 */
export async function loadCalibration(path: string): Promise<Calibration> {
  const text = await Deno.readTextFile(path);
  try {
    return parseCalibration(text, path);
  } catch (error) {
    if (error instanceof SyntaxError) throw new SyntaxError(`${path}: not JSON (${error.message})`);
    throw error;
  }
}
