/**
 * The registry entry of an arm: its declarations read off the arm, and a summary.
 *
 * @module
 */
import type { ArmEntry, EncodingArm } from "./types.ts";

/**
 * The {@linkcode ArmEntry} of an arm.
 *
 * @param arm The arm.
 * @param summary One line for `--help` and the extension-points table.
 * @returns The entry.
 */
export function armEntry(arm: EncodingArm, summary: string): ArmEntry {
  return { name: arm.name, summary, altersIndex: arm.altersIndex, lowerBound: arm.lowerBound, arm };
}
