/**
 * The registry entry of an arm built on this repository alone (no optional package).
 *
 * @module
 */
import type { ArmEntry, EncodingArm } from "./types.ts";

/**
 * The {@linkcode ArmEntry} of an arm that needs no optional package: its declarations read off
 * the arm, loaded synchronously.
 *
 * @param arm The arm.
 * @param summary One line for `--help` and the extension-points table.
 * @returns The entry.
 */
export function builtInArmEntry(arm: EncodingArm, summary: string): ArmEntry {
  return {
    name: arm.name,
    summary,
    altersIndex: arm.altersIndex,
    lowerBound: arm.lowerBound,
    requires: null,
    arm,
    load: () => Promise.resolve(arm),
  };
}
