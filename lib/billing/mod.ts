/**
 * What a tool catalog costs in three layers, per server and per field: what the MCP client
 * receives (`wire`), what it sends each provider (`sent`, rendered by `sentTools`, the same
 * renderer the agent runner sends), and what the provider bills (`billed`: its own count, or an
 * estimate with an interval from a cited calibration).
 *
 * - {@linkcode measureCostLayers} computes the rows of `report.json`'s `costLayers`;
 * - {@linkcode attributeToolsText} splits one tools text's tokens by tool and field;
 * - {@linkcode countPlan} and {@linkcode countRequest} describe the providers' count requests
 *   (`createCountClient` in `io.ts` sends them, cached);
 * - {@linkcode DEFAULT_CALIBRATION}, {@linkcode estimateTokens}, {@linkcode fitEntry} and
 *   {@linkcode parseCalibration} are the estimate without a key;
 * - {@linkcode agentRequestEstimate} estimates an agent's first request (overhead, tools, system
 *   prompt), which agent runs record and check against the provider's figure.
 *
 * @example Usage
 * ```ts
 * import { attributeToolsText } from "./mod.ts";
 * const a = attributeToolsText('[{"name":"add","description":"Add"}]', "o200k_base");
 * if (a.items.length !== 1 || a.tokens < 3) throw new Error();
 * ```
 *
 * @module
 */
// The vocabulary the public functions take, re-exported so the surface is complete.
export type {
  CatalogFormat,
  Corpus,
  CorpusProvenance,
  JsonObject,
  JsonValue,
  Tool,
} from "../catalog/types.ts";
export type { SentFormat, SentTool, SentToolsOptions } from "../catalog/sent.ts";
export type { TokenizerName } from "../tokens/types.ts";
export {
  addFields,
  attributeToolsText,
  attributeToolsValue,
  FIELD_NAMES,
  FIELD_OF_KEY,
  type FieldName,
  type FieldTokens,
  type TextAttribution,
} from "./fields.ts";
export { type WireOrder, type WireServer, wireServers } from "./wire.ts";
export { sentText, type Shapes, shapesOf, shapeTools } from "./sent_layer.ts";
export {
  addFeatures,
  anthropicFeatures,
  BILLING_FORMAT,
  BILLING_PROVIDERS,
  type BillingProvider,
  type Calibration,
  type CalibrationEntry,
  calibrationEntry,
  type CalibrationSource,
  DEFAULT_CALIBRATION,
  DEFAULT_ESTIMATE_MODEL,
  estimateTokens,
  type Features,
  geminiFeatures,
  type Interval,
  openAiFeatures,
  providerFeatures,
} from "./estimate.ts";
export { type CalibrationSample, FIT_FEATURES, fitEntry, parseCalibration } from "./calibration.ts";
export {
  type AgentRequestEstimate,
  agentRequestEstimate,
  estimateAgentRequest,
  estimateText,
  type RecordedEstimate,
  textFeatures,
  type TokenInterval,
} from "./request_estimate.ts";
export {
  COUNT_ENV,
  COUNT_PROMPT,
  type CountRequest,
  countRequest,
  readCount,
  toolsShare,
} from "./count_api.ts";
export {
  billedHeadline,
  type CostLayer,
  type CostLayerRow,
  type CostLayers,
  type CostLayersInput,
  type CostLayerToolRow,
  type CountOutcome,
  countPlan,
  type CountPlanItem,
  type CountTarget,
  measureCostLayers,
  planKey,
} from "./layers.ts";
