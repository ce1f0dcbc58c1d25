/**
 * Exposure modes and their token cost: `direct` (every upstream tool), `proxy`
 * (a discovery proxy's catalog) and `code` (code execution plus discovery),
 * with savings against `direct` and how they scale with catalog size.
 *
 * @example Usage
 * ```ts
 * import { savings } from "./mod.ts";
 * if (savings(250, 1000) !== 0.75) throw new Error("1 - 250/1000 should be 0.75");
 * ```
 *
 * @module
 */
export {
  type CatalogCostSections,
  type CrossoverRow,
  type Heaviest,
  heaviest,
  type HeavyItem,
  measureCatalogCost,
  type MeasureCatalogCostOptions,
} from "./catalog_cost.ts";
export { type CatalogCost, catalogCost, sumCosts, type ToolCost, toolCost } from "./cost.ts";
export {
  EXPOSURE_MODES,
  type ExposureMode,
  measureModes,
  type MeasureModesOptions,
  type ModeRow,
  savings,
} from "./modes.ts";
export {
  type Crossover,
  DEFAULT_SUBSET_DRAWS,
  DEFAULT_SUBSET_SIZES,
  drawServers,
  savingsBySize,
  type SavingsBySizeOptions,
  type ScalingRow,
} from "./scaling.ts";
