/**
 * The I/O edge of lib/live: calling a discovery tool over MCP streamable HTTP (network and clock).
 *
 * @module
 */
export {
  type DiscoverySession,
  type DiscoveryTarget,
  openDiscoverySession,
} from "./discovery_calls.ts";
