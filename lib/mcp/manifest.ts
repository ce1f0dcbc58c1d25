/**
 * The manifest written beside a capture file (`<id>.manifest.json`): per
 * server the package, version, license, package description and keywords, outcome and its
 * cause, counts and
 * capture time; totals; the corpus sha256; the normalizations applied. The
 * catalog loader ignores it; people and the report read it.
 *
 * @module
 */

import type { JsonObject, JsonValue } from "../catalog/types.ts";
import { type Normalization, NORMALIZATION_RULES } from "./volatile_text.ts";
import type { CaptureOutcome, ServerCaptureRecord } from "./types.ts";

/** `format` value of a manifest. */
export const MANIFEST_FORMAT = "mcpmeter-capture-manifest";

/** What {@linkcode toCaptureManifest} needs besides the records. */
export interface ManifestInfo {
  /** Corpus id and version (as in the capture file). */
  readonly id: string;
  /** Corpus version string. */
  readonly version: string;
  /** Corpus file name and the lower-case hex SHA-256 of its exact bytes. */
  readonly corpusFile: string;
  /** Lower-case hex SHA-256 of the corpus file bytes. */
  readonly corpusSha256: string;
  /** Config path as given and the SHA-256 of its bytes. */
  readonly configFile: string;
  /** Lower-case hex SHA-256 of the config file bytes. */
  readonly configSha256: string;
  /** Capture start, ISO-8601 UTC (provenance only; not in the corpus). */
  readonly capturedAt: string;
  /** Wall time of the whole capture step, in ms (measured). */
  readonly wallMs: number;
  /** Tool versions and machine facts (deno, node, sdk, os, isolation, ...). */
  readonly environment: JsonObject;
  /** Settings used (concurrency, default timeout in ms, install folder). */
  readonly settings: JsonObject;
  /** License per `package@version`, read from the installed package.json. */
  readonly licenses: Readonly<Record<string, string>>;
  /**
   * The package's own words per `package@version`, read from the installed package.json at
   * capture time: `description` and `keywords` (each absent when the package has none).
   */
  readonly packageInfo?: Readonly<
    Record<string, { readonly description?: string; readonly keywords?: readonly string[] }>
  >;
  /** Install outcome per `package@version` (`present`, `installed`, `failed: ...`). */
  readonly installs?: Readonly<Record<string, string>>;
  /** Replacements made by the normalizer. */
  readonly normalizations: readonly Normalization[];
}

/**
 * Builds the manifest object (serialize with lib/core `stableJson`).
 *
 * @param records Normalized capture records, one per configured server.
 * @param info Corpus/config identity, environment, licenses, normalizations.
 * @returns A JSON object: `{format, formatVersion, id, version, corpus, config,
 *   capturedAt, environment, settings, totals, normalizations, servers[]}`;
 *   `servers` is sorted by name and includes failures with their cause.
 *
 * @example
 * ```ts
 * import { toCaptureManifest } from "./manifest.ts";
 * const m = toCaptureManifest([
 *   { server: "a", transport: "stdio", outcome: "ok", warnings: [], pages: {}, captureMs: 5,
 *     runPaths: [], tools: [{ name: "x" }], package: "p", version: "1" },
 *   { server: "b", transport: "stdio", outcome: "timeout", message: "slow", warnings: [],
 *     pages: {}, captureMs: 9, runPaths: [], tools: [] },
 * ], { id: "c", version: "1", corpusFile: "c.tools.json", corpusSha256: "00", configFile: "s.json",
 *   configSha256: "11", capturedAt: "2026-01-01T00:00:00Z", wallMs: 10, environment: {}, settings: {},
 *   licenses: { "p@1": "MIT" }, normalizations: [] });
 * const totals = m.totals as Record<string, number>;
 * if (totals.serversOk !== 1 || totals.tools !== 1 || totals.captureMsSum !== 14) throw new Error();
 * ```
 */
export function toCaptureManifest(
  records: readonly ServerCaptureRecord[],
  info: ManifestInfo,
): JsonObject {
  const sorted = [...records].sort((a, b) => (a.server < b.server ? -1 : 1));
  const byOutcome: Record<CaptureOutcome, number> = {
    ok: 0,
    timeout: 0,
    exited: 0,
    spawn_failed: 0,
    protocol_error: 0,
  };
  for (const r of sorted) byOutcome[r.outcome] += 1;
  const ok = sorted.filter((r) => r.outcome === "ok");
  const count = (pick: (r: ServerCaptureRecord) => number) => ok.reduce((s, r) => s + pick(r), 0);
  const servers = sorted.map((r): JsonObject => {
    const key = r.package === undefined ? undefined : `${r.package}@${r.version ?? ""}`;
    const out: Record<string, JsonValue> = {
      server: r.server,
      transport: r.transport,
      status: r.outcome,
      toolCount: r.tools.length,
      captureMs: r.captureMs,
      pages: { ...r.pages },
      warnings: [...r.warnings],
    };
    if (r.notes !== undefined) out.notes = [...r.notes];
    if (r.package !== undefined) out.package = r.package;
    if (r.version !== undefined) out.version = r.version;
    if (key !== undefined && info.licenses[key] !== undefined) out.license = info.licenses[key];
    if (key !== undefined && info.installs?.[key] !== undefined) out.install = info.installs[key];
    const own = key === undefined ? undefined : info.packageInfo?.[key];
    if (own?.description !== undefined) out.packageDescription = own.description;
    if (own?.keywords !== undefined) out.packageKeywords = [...own.keywords];
    if (r.prompts !== undefined) out.promptCount = r.prompts.length;
    if (r.resources !== undefined) out.resourceCount = r.resources.length;
    if (r.message !== undefined) out.cause = r.message;
    if (r.phase !== undefined) out.phase = r.phase;
    if (r.exit !== undefined) out.exit = { code: r.exit.code, signal: r.exit.signal };
    if (r.outcome !== "ok" && r.stderrTail !== undefined) out.stderrTail = r.stderrTail;
    if (r.serverInfo !== undefined) out.serverInfo = r.serverInfo;
    if (r.protocolVersion !== undefined) out.protocolVersion = r.protocolVersion;
    return out;
  });
  const usedRules = [...new Set(info.normalizations.map((n) => n.rule))].sort();
  return {
    format: MANIFEST_FORMAT,
    formatVersion: 1,
    id: info.id,
    version: info.version,
    corpus: {
      file: info.corpusFile,
      sha256: info.corpusSha256,
      serverCount: ok.length,
      toolCount: count((r) => r.tools.length),
      promptCount: count((r) => r.prompts?.length ?? 0),
      resourceCount: count((r) => r.resources?.length ?? 0),
    },
    config: { file: info.configFile, sha256: info.configSha256, serverCount: sorted.length },
    capturedAt: info.capturedAt,
    environment: info.environment,
    settings: info.settings,
    totals: {
      servers: sorted.length,
      serversOk: ok.length,
      serversFailed: sorted.length - ok.length,
      byOutcome,
      tools: count((r) => r.tools.length),
      captureMsSum: sorted.reduce((s, r) => s + r.captureMs, 0),
      wallMs: info.wallMs,
    },
    normalizations: {
      rules: Object.fromEntries(usedRules.map((id) => [id, NORMALIZATION_RULES[id]])),
      changes: info.normalizations.map((n) => ({ ...n })),
    },
    servers,
  };
}
