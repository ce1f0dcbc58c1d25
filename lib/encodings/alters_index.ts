/**
 * Checks an arm's `altersIndex` claim against what its `indexFields` really do.
 *
 * @module
 */
import type { Tool } from "../catalog/types.ts";
import { baselineJson } from "./baseline_json.ts";
import type { EncodingArm, IndexFields } from "./types.ts";

/** Result of {@linkcode observeAltersIndex}. */
export interface AltersIndexObservation {
  /** Arm name. */
  readonly arm: string;
  /** The arm's declared `altersIndex`. */
  readonly declared: boolean;
  /** Whether `indexFields` differs from the baseline's for at least one tool. */
  readonly observed: boolean;
  /** `declared === observed`. */
  readonly consistent: boolean;
  /** The first differing tool and field, when `observed`. */
  readonly firstDifference?: { readonly toolId: string; readonly field: keyof IndexFields };
}

const FIELDS: readonly (keyof IndexFields)[] = ["name", "server", "description", "params"];

/**
 * Compares an arm's `indexFields` with `baseline_json`'s over `tools` and
 * checks the arm's `altersIndex` claim: a false claim (declared true, never
 * differs) and a missing claim (declared false, differs) are both inconsistent.
 *
 * @param arm The arm to check.
 * @param tools Tools to compare over (the claim holds for this set only).
 * @param baseline The reference arm; default `baseline_json`.
 * @returns Declared and observed flags, and the first difference found.
 *
 * @example Usage
 * ```ts
 * import { observeAltersIndex } from "./alters_index.ts";
 * import { compactSig } from "./compact_sig.ts";
 * const tool = { id: "s:t", server: "s", name: "t", description: "",
 *   inputSchema: { properties: { q: { type: "string", description: "Query" } } } };
 * const seen = observeAltersIndex(compactSig, [tool]);
 * if (!seen.observed || !seen.consistent || seen.firstDifference?.field !== "params") {
 *   throw new Error();
 * }
 * ```
 */
export function observeAltersIndex(
  arm: EncodingArm,
  tools: readonly Tool[],
  baseline: EncodingArm = baselineJson,
): AltersIndexObservation {
  for (const tool of tools) {
    const a = arm.indexFields(tool);
    const b = baseline.indexFields(tool);
    const field = FIELDS.find((f) => a[f] !== b[f]);
    if (field !== undefined) {
      return {
        arm: arm.name,
        declared: arm.altersIndex,
        observed: true,
        consistent: arm.altersIndex,
        firstDifference: { toolId: tool.id, field },
      };
    }
  }
  return {
    arm: arm.name,
    declared: arm.altersIndex,
    observed: false,
    consistent: !arm.altersIndex,
  };
}
