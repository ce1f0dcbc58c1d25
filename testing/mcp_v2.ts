// Test helper (not part of the public surface): MCP servers built on the v2 TypeScript SDK
// (@modelcontextprotocol/server 2.4.0, installed from npm like the other test servers), speaking
// both protocol eras or the 2026-07-28 revision alone, over stdio and streamable HTTP. The server
// is fixtures/mcp/v2_sdk_server.mjs, copied beside the installed package so Node resolves it.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installedPackage } from "./npm.ts";

/** The v2 SDK's server package, pinned. */
export const SERVER_V2 = { package: "@modelcontextprotocol/server", version: "2.4.0" } as const;

/** The instructions the v2 test server sends (from `server/discover` or `initialize`). */
export const V2_INSTRUCTIONS =
  "A v2 SDK server: echo repeats a message, add sums two numbers." as const;

/** The modern protocol revision the v2 SDK speaks. */
export const MODERN = "2026-07-28" as const;

/** How a v2 test server serves: both eras, or the modern one alone (2025 traffic refused). */
export type V2Mode = "both" | "modern-only";

const FIXTURE = fileURLToPath(new URL("../fixtures/mcp/v2_sdk_server.mjs", import.meta.url));

/**
 * The v2 test server's script, installed on first use; skips or throws like
 * {@linkcode installedPackage} when npm cannot install the package.
 *
 * @returns The script's path (beside the package's `node_modules`).
 */
export async function v2ServerScript(): Promise<{ readonly script: string } | { skip: string }> {
  const got = await installedPackage(SERVER_V2);
  if ("skip" in got) return got;
  // <prefix>/node_modules/@modelcontextprotocol/server → <prefix>/v2_sdk_server.mjs
  const prefix = dirname(dirname(dirname(got.installed.packageDir)));
  const script = join(prefix, "v2_sdk_server.mjs");
  await Deno.writeTextFile(script, await Deno.readTextFile(FIXTURE));
  return { script };
}

/**
 * A servers-config entry that starts the v2 test server on stdio.
 *
 * @param script From {@linkcode v2ServerScript}.
 * @param mode Both eras, or the modern one alone.
 * @param grow `grow`: also serve the tool `grow`, which adds the tool `late` and says the list
 *   changed; `later`: add `late` by itself 1.5 s after the connection opened.
 * @returns `{command, args}`.
 */
export function v2StdioEntry(
  script: string,
  mode: V2Mode,
  grow?: "grow" | "later",
): { command: string; args: string[] } {
  const extra = grow === undefined ? [] : [grow === "grow" ? "grow" : "grow-later"];
  return {
    command: "node",
    args: [script, "stdio", mode === "both" ? "serve" : "reject", ...extra],
  };
}

/** A running v2 test server over streamable HTTP. */
export interface V2HttpServer {
  /** Its MCP endpoint (any path: the handler serves every one). */
  readonly url: string;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts the v2 test server over streamable HTTP on a free loopback port.
 *
 * @param script From {@linkcode v2ServerScript}.
 * @param mode Both eras, or the modern one alone.
 * @param grow Also serve `grow`, which adds the tool `late` and says the list changed.
 * @returns The server.
 */
export async function startV2HttpServer(
  script: string,
  mode: V2Mode,
  grow = false,
): Promise<V2HttpServer> {
  const child = new Deno.Command("node", {
    args: [script, "http", mode === "both" ? "stateless" : "reject", ...(grow ? ["grow"] : [])],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the v2 HTTP test server exited before listening");
    out += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  return {
    url: `http://127.0.0.1:${Number(out.trim())}/mcp`,
    async close() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}
