/**
 * `bm25_params`: BM25F with the weights chosen on the task-first dev set
 * (`fixtures/golden/reference_v2.dev.json`), which reads parameter text and no longer rewards
 * queries that echo tool names.
 *
 * @module
 */

import { type Bm25FieldWeights, createBm25Retriever, weightedFields } from "./bm25.ts";
import type { RetrieverEntry } from "./types.ts";

/**
 * Weights chosen by a grid search on `reference_v2.dev`, never tuned on the test sets (the grid
 * and the figures: docs/retrieval.md, "bm25_params"). The name weight drops from 5 to 1: on v2 an
 * echo of the tool name is rare, and parameter names and descriptions (`params`, the schema JSON)
 * carry words users say.
 */
export const TASK_TUNED_BM25_WEIGHTS: Bm25FieldWeights = {
  name: 1,
  description: 1,
  params: 0.25,
  server: 2,
};

/** Registry entry of `bm25_params`. */
export const bm25ParamsEntry: RetrieverEntry = {
  name: "bm25_params",
  label: "BM25 (params)",
  summary: "BM25F over name, server, description and parameters, weights tuned on reference_v2.dev",
  reads: weightedFields(TASK_TUNED_BM25_WEIGHTS),
  needsGolden: false,
  asyncBuild: false,
  reportsCost: false,
  create: (docs) => {
    const r = createBm25Retriever(docs, { weights: TASK_TUNED_BM25_WEIGHTS });
    return { ...r, name: "bm25_params" };
  },
};
