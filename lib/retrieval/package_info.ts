/**
 * A server's package description and keywords (package.json, read at capture time) as extra
 * index text: the `package_info` index arm appends them to the `server` field of each of the
 * server's tools, so a query can meet the words a package uses for itself ("spreadsheet",
 * "kubernetes", "weather") even where its tools' own text does not.
 *
 * Pure: the caller reads the file (a capture manifest, whose `servers[]` carry
 * `packageDescription` and `packageKeywords`, or a package-info file).
 *
 * @module
 */

import type { Tool } from "../catalog/types.ts";
import { defaultIndexFields } from "./docs.ts";
import type { IndexArm } from "./registry.ts";

/** `format` of a package-info file. */
export const PACKAGE_INFO_FORMAT = "mcpmeter-package-info";

/** One server's package words. */
export interface PackageInfo {
  /** Server name as in the corpus (the config key). */
  readonly server: string;
  /** npm name, when known. */
  readonly package?: string;
  /** Pinned version, when known. */
  readonly version?: string;
  /** package.json `description`, when it has one. */
  readonly description?: string;
  /** package.json `keywords`, in file order (empty when none). */
  readonly keywords: readonly string[];
}

/**
 * Reads package words from a capture manifest (`format: "mcpmeter-capture-manifest"`, servers
 * with `packageDescription` / `packageKeywords`) or a package-info file
 * (`format: "mcpmeter-package-info"`, `servers: [{server, package, version, description,
 * keywords}]`).
 *
 * @param text The file's JSON text.
 * @param source File name for messages.
 * @returns Server name → package words (servers without any are left out).
 * @throws {SyntaxError} on text that is not JSON.
 * @throws {TypeError} on another format or a malformed entry (naming the source and server).
 *
 * @example Usage
 * ```ts
 * import { parsePackageInfo } from "./package_info.ts";
 * const info = parsePackageInfo(JSON.stringify({ format: "mcpmeter-package-info", servers: [
 *   { server: "gh", description: "GitHub API", keywords: ["git"] },
 * ] }), "p.json");
 * if (info.get("gh")?.keywords[0] !== "git") throw new Error();
 * ```
 */
export function parsePackageInfo(text: string, source: string): Map<string, PackageInfo> {
  const raw = JSON.parse(text) as { format?: unknown; servers?: unknown };
  const manifest = raw?.format === "mcpmeter-capture-manifest";
  if (!manifest && raw?.format !== PACKAGE_INFO_FORMAT) {
    throw new TypeError(
      `${source}: expected a capture manifest or a ${PACKAGE_INFO_FORMAT} file, got format ${
        JSON.stringify(raw?.format)
      }`,
    );
  }
  if (!Array.isArray(raw.servers)) throw new TypeError(`${source}: servers must be an array`);
  const out = new Map<string, PackageInfo>();
  for (const [i, e] of (raw.servers as Record<string, unknown>[]).entries()) {
    const where = `${source}: servers[${i}]`;
    if (typeof e?.server !== "string") throw new TypeError(`${where}.server must be a string`);
    const description = manifest ? e.packageDescription : e.description;
    const keywords = (manifest ? e.packageKeywords : e.keywords) ?? [];
    if (description !== undefined && typeof description !== "string") {
      throw new TypeError(`${where} (${e.server}): description must be a string`);
    }
    if (!Array.isArray(keywords) || !keywords.every((k) => typeof k === "string")) {
      throw new TypeError(`${where} (${e.server}): keywords must be an array of strings`);
    }
    if (description === undefined && keywords.length === 0) continue;
    out.set(e.server, {
      server: e.server,
      ...(typeof e.package === "string" ? { package: e.package } : {}),
      ...(typeof e.version === "string" ? { version: e.version } : {}),
      ...(description === undefined ? {} : { description }),
      keywords,
    });
  }
  return out;
}

/**
 * The `package_info` index arm: each tool's own fields, its `server` field followed by its
 * server's package description and keywords (tools of servers without package words keep
 * their fields).
 *
 * @param info Server name → package words ({@linkcode parsePackageInfo}).
 * @returns An arm for `evaluateRetrieval({arm})` and the bench's index arms.
 *
 * @example Usage
 * ```ts
 * import { packageInfoArm } from "./package_info.ts";
 * const arm = packageInfoArm(new Map([["gh", { server: "gh", description: "GitHub API", keywords: ["git"] }]]));
 * const f = arm.indexFields({ id: "gh:x", server: "gh", name: "x", description: "d" });
 * if (f.server !== "gh GitHub API git") throw new Error(f.server);
 * ```
 */
export function packageInfoArm(info: ReadonlyMap<string, PackageInfo>): IndexArm {
  return {
    name: "package_info",
    indexFields: (tool: Tool) => {
      const own = defaultIndexFields(tool);
      const p = info.get(tool.server);
      if (p === undefined) return own;
      const words = [tool.server, p.description ?? "", ...p.keywords].filter((w) => w !== "");
      return { ...own, server: words.join(" ") };
    },
  };
}
