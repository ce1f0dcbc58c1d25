/**
 * The encoding-arm registry: every arm in report order, each entry declaring whether it alters
 * the retrieval index and whether its savings are a lower bound.
 * `--arms` parsing and help, the bench, the golden test and the extension-points table read it.
 *
 * Adding an arm: one module exporting the arm and its {@linkcode ArmEntry} (with its test and
 * `testdata/<name>.txt` golden), and its entry appended to {@linkcode ARMS}.
 *
 * @module
 */
import { baselineJsonEntry } from "./baseline_json.ts";
import { compactSigEntry } from "./compact_sig.ts";
import { markdownEntry } from "./markdown.ts";
import { minifiedJsonEntry } from "./minified_json.ts";
import { toonListingEntry } from "./toon_listing.ts";
import { tronDedupEntry } from "./tron_dedup.ts";
import type { ArmEntry, EncodingArm } from "./types.ts";

/** Every registered arm, in report order (`baseline_json` first). */
export const ARMS: readonly ArmEntry[] = [
  baselineJsonEntry,
  compactSigEntry,
  toonListingEntry,
  tronDedupEntry,
  minifiedJsonEntry,
  markdownEntry,
];

/** Every arm name, in report order (`baseline_json` first). */
export const ARM_NAMES: readonly string[] = ARMS.map((a) => a.name);

/**
 * Parses an `--arms` value: `all`, or arm names separated by commas.
 *
 * @param spec `"all"` or e.g. `"baseline_json,compact_sig"` (spaces ignored).
 * @returns Unique arm names in report order.
 * @throws {RangeError} When a name is not a known arm, or the list is empty.
 *
 * @example Usage
 * ```ts
 * import { parseArmList } from "./registry.ts";
 * if (parseArmList("toon_listing, compact_sig").join() !== "compact_sig,toon_listing") {
 *   throw new Error();
 * }
 * ```
 */
export function parseArmList(spec: string): string[] {
  const wanted = spec.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (wanted.length === 0) {
    throw new RangeError(`Cannot select arms as the list is empty: current value is "${spec}"`);
  }
  if (wanted.includes("all")) return [...ARM_NAMES];
  for (const name of wanted) {
    if (!ARM_NAMES.includes(name)) {
      throw new RangeError(
        `Cannot select arm "${name}" as it is not known (expected "all" or some of ${
          ARM_NAMES.join(", ")
        })`,
      );
    }
  }
  return ARM_NAMES.filter((n) => wanted.includes(n));
}

/**
 * The arms of these names.
 *
 * @param names Arm names (see {@linkcode parseArmList}); default all.
 * @returns The arms in the order of `names`.
 * @throws {RangeError} When a name is not a known arm.
 *
 * @example Usage
 * ```ts
 * import { armsNamed } from "./registry.ts";
 * const arms = armsNamed(["baseline_json", "markdown"]);
 * if (arms.length !== 2 || arms[0].name !== "baseline_json") throw new Error();
 * ```
 */
export function armsNamed(names: readonly string[] = ARM_NAMES): EncodingArm[] {
  return names.map((name) => {
    const entry = ARMS.find((a) => a.name === name);
    if (entry === undefined) throw new RangeError(`Cannot load arm "${name}" as it is not known`);
    return entry.arm;
  });
}
