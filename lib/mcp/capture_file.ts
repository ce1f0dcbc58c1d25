/**
 * The mcpmeter capture format (v1): `{format: "mcpmeter-capture", formatVersion: 1, id,
 * version, source, serverCount, toolCount, servers: [{server, package?, version?, toolCount,
 * tools, toolsWire, prompts?, resources?}]}`; servers sorted by name, only servers captured
 * successfully, tools in server order. Since each server's `instructions` are kept (27242f7),
 * `source.instructionsRecorded` is `true`: a server without `instructions` sent none (an older
 * file cannot tell that from not recorded). Written with lib/core's `stableJson` (keys sorted at every
 * depth, 2-space indent, trailing newline), so a capture is byte-deterministic.
 *
 * @module
 */

import type { JsonObject } from "../catalog/types.ts";
import type { ServerCaptureRecord } from "./types.ts";

/** `format` value of a capture file. */
export const CAPTURE_FORMAT = "mcpmeter-capture";
/** `formatVersion` value written by this module. */
export const CAPTURE_FORMAT_VERSION = 1;

/** One server in a capture file. */
export interface CaptureFileServer {
  /** Config key; tool ids are `server:name`. */
  readonly server: string;
  /** npm package, when known. */
  readonly package?: string;
  /** Package version, when known. */
  readonly version?: string;
  /** Equals `tools.length`. */
  readonly toolCount: number;
  /** Raw `tools/list` items in server order. */
  readonly tools: readonly JsonObject[];
  /**
   * The same items as the client received them: the `tools` array as compact JSON with every
   * object's keys in the order the server sent them (the file sorts the keys of `tools`, and the
   * order changes token counts). Integer-like keys (`"0"`, `"10"`) come first in ascending order,
   * as JavaScript's `JSON.parse` gives them. The wire layer (lib/billing) counts this text.
   */
  readonly toolsWire: string;
  /** The server's `instructions` from `initialize`, when it sent any (the wire layer counts them). */
  readonly instructions?: string;
  /** Raw `prompts/list` items, where advertised. */
  readonly prompts?: readonly JsonObject[];
  /** Raw `resources/list` items, where advertised. */
  readonly resources?: readonly JsonObject[];
}

/** A capture file (before serialization). */
export interface CaptureFile {
  /** Always `"mcpmeter-capture"`. */
  readonly format: typeof CAPTURE_FORMAT;
  /** Always `1`. */
  readonly formatVersion: typeof CAPTURE_FORMAT_VERSION;
  /** Corpus id, e.g. `reference_v1`. */
  readonly id: string;
  /** Corpus version string. */
  readonly version: string;
  /**
   * Free-form provenance; must itself be deterministic. `instructionsRecorded: true`: every
   * server's `instructions` are in the file (absent: it sent none).
   */
  readonly source: JsonObject;
  /** Equals `servers.length`. */
  readonly serverCount: number;
  /** Sum of `servers[].toolCount`. */
  readonly toolCount: number;
  /** Successfully captured servers, sorted by name. */
  readonly servers: readonly CaptureFileServer[];
}

/** Identity and provenance of a corpus being written. */
export interface CaptureFileMeta {
  /** Corpus id, e.g. `reference_v1`. */
  readonly id: string;
  /** Corpus version string, e.g. `"1"`. */
  readonly version: string;
  /** Free-form provenance (no wall-clock values, to keep the bytes stable). */
  readonly source: JsonObject;
}

/**
 * Builds a capture file from records: keeps the `ok` ones, sorts them by
 * server name, and fills in the counts.
 *
 * @param records Capture records (any order; failures are skipped).
 * @param meta Corpus id, version and provenance.
 * @returns The capture file object; serialize it with lib/core `stableJson`.
 * @throws {RangeError} When two records share a server name or `id` is empty.
 *
 * @example
 * ```ts
 * import { toCaptureFile } from "./capture_file.ts";
 * const base = { transport: "stdio", warnings: [], pages: {}, captureMs: 1, runPaths: [] } as const;
 * const file = toCaptureFile([
 *   { ...base, server: "b", outcome: "ok", tools: [{ name: "x" }, { name: "y" }] },
 *   { ...base, server: "a", outcome: "timeout", tools: [] },
 * ], { id: "t", version: "1", source: {} });
 * if (file.serverCount !== 1 || file.toolCount !== 2 || file.servers[0].server !== "b") throw new Error();
 * ```
 */
export function toCaptureFile(
  records: readonly ServerCaptureRecord[],
  meta: CaptureFileMeta,
): CaptureFile {
  if (meta.id.trim() === "") throw new RangeError(`corpus id must not be empty`);
  const seen = new Set<string>();
  for (const record of records) {
    if (seen.has(record.server)) {
      throw new RangeError(`server ${JSON.stringify(record.server)} appears twice`);
    }
    seen.add(record.server);
  }
  const servers = records
    .filter((r) => r.outcome === "ok")
    .sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0))
    .map((r): CaptureFileServer => ({
      server: r.server,
      ...(r.package === undefined ? {} : { package: r.package }),
      ...(r.version === undefined ? {} : { version: r.version }),
      toolCount: r.tools.length,
      tools: r.tools,
      toolsWire: JSON.stringify(r.tools),
      ...(r.instructions === undefined ? {} : { instructions: r.instructions }),
      ...(r.prompts === undefined ? {} : { prompts: r.prompts }),
      ...(r.resources === undefined ? {} : { resources: r.resources }),
    }));
  return {
    format: CAPTURE_FORMAT,
    formatVersion: CAPTURE_FORMAT_VERSION,
    id: meta.id,
    version: meta.version,
    source: { ...meta.source, instructionsRecorded: true },
    serverCount: servers.length,
    toolCount: servers.reduce((sum, s) => sum + s.toolCount, 0),
    servers,
  };
}
