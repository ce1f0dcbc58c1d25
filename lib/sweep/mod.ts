/**
 * Parameter sweeps: the cross product of agent configurations, named after what varies.
 *
 * @example Usage
 * ```ts
 * import { parseVary } from "./mod.ts";
 * if (parseVary("model=a,b").values.length !== 2) throw new Error();
 * ```
 *
 * @module
 */
export {
  expandSweep,
  parseSweepDescription,
  parseVary,
  SWEEP_FIELDS,
  type SweepAgent,
  type SweepField,
  type SweepParameter,
} from "./expand.ts";
