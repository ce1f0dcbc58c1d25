/**
 * mcpmeter's curated I/O surface: loaders, processes, network and run folders, beside the pure
 * `lib/mod.ts`. Each folder's `io.ts` has the full list.
 *
 * @example Load the reference catalog
 * ```ts ignore
 * import { loadCatalog } from "./io.ts";
 * const corpus = await loadCatalog("fixtures/corpora/reference_v1.tools.json");
 * console.log(corpus.tools.length);
 * ```
 *
 * @module
 */
export { loadCatalog, loadToolOverrides } from "./catalog/io.ts";
export { loadGolden } from "./retrieval/io.ts";
export { loadToolResults } from "./encodings/io.ts";
export { loadRuns } from "./report/io.ts";
export {
  createModelClient,
  loadAgents,
  loadEnv,
  loadModels,
  loadSuite,
  openMcpHost,
  runSuite,
} from "./agent/io.ts";
export { captureServers, installPackages, openSession } from "./mcp/io.ts";
export { connectUpstreams, serveProxyHttp } from "./proxy/io.ts";
export { openDiscoverySession } from "./live/io.ts";
export { denoFlowIo } from "./flows/io.ts";
