/**
 * mcpmeter: measure what MCP tools cost an agent and how well the agent does
 * with them.
 *
 * The public surface, grouped by concept. Each folder's own `mod.ts` is also
 * importable directly (`@lib/catalog/mod.ts`, ...).
 *
 * - catalog: the `Tool`/`Corpus` contract, canonical JSON, catalog loaders,
 *   degenerate descriptions, catalog lint, provider normalization;
 * - tokens: `cl100k_base`/`o200k_base` tokenizers;
 * - modes: exposure-mode cost (`direct`, `proxy`, `code`) and scaling;
 * - encodings: encoding arms and their runner;
 * - retrieval: golden sets, retrievers, IR metrics;
 * - stats: seeded PRNG, bootstrap, paired tests, Wilson, pass@k;
 * - mcp: servers configs and live capture over MCP;
 * - report: report shapes, deterministic JSON, figures, dashboards;
 * - agent: agent configurations, providers, the agent loop, runs and summaries;
 * - sweep: parameter sweeps over agent configurations;
 * - live: live discovery cost over MCP (attribution, latency, break-even, sessions);
 * - proxy: the reference discovery proxy (retrieve_tools, describe_tool, call_tool).
 *
 * @example Usage
 * ```ts
 * import { createTokenizer, savings } from "./mod.ts";
 * const tokens = createTokenizer("cl100k_base").count("retrieve_tools");
 * if (tokens < 1 || savings(1, 4) !== 0.75) throw new Error("unexpected");
 * ```
 *
 * @module
 */
export * from "./catalog/mod.ts";
export * from "./tokens/mod.ts";
export * from "./modes/mod.ts";
export * from "./encodings/mod.ts";
export * from "./retrieval/mod.ts";
export * from "./stats/mod.ts";
export * from "./mcp/mod.ts";
export * from "./report/mod.ts";
export * from "./agent/mod.ts";
export * from "./sweep/mod.ts";
export * from "./live/mod.ts";
export * from "./proxy/mod.ts";
export * from "./flows/mod.ts";
