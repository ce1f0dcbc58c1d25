/**
 * How mcpmeter introduces itself to MCP servers (shared by the stdio and remote captures, the
 * session, the agent host and live measurement).
 *
 * @module
 */

/** The `clientInfo` mcpmeter sends in `initialize`. */
export const CLIENT_INFO = { name: "mcpmeter", version: "0.1.0" } as const;
