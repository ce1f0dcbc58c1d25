/**
 * A live catalog from a servers config: the tools/list of every server in an `mcpServers`
 * config, as a corpus (lint-catalog --servers, bench --proxy-servers).
 *
 * @module
 */
import { stableJson } from "../core/json.ts";
import { parseCatalog } from "../catalog/parse.ts";
import { sha256Hex } from "../catalog/load.ts";
import type { Corpus } from "../catalog/types.ts";
import { parseServersConfig, type ServerCaptureRecord, toCaptureFile } from "../mcp/mod.ts";
import {
  captureServers,
  installPackages,
  mergePrepared,
  prepareCapture,
  resolveNpmVersion,
} from "../mcp/io.ts";
import { denoFlowIo, type FlowIo } from "./io.ts";
import { InputFileError } from "../core/errors.ts";

/** One server of a live capture that produced no tools. */
export interface FailedServer {
  /** Server name (config key). */
  readonly server: string;
  /** Capture outcome, e.g. `timeout`. */
  readonly outcome: string;
  /** Its cause. */
  readonly message: string;
}

/**
 * Captures the servers of an `mcpServers` config live (lib/mcp: throwaway
 * HOME, whole process tree killed) and turns the listed tools into a corpus
 * with the same parser catalog files go through (the mcpmeter capture format).
 *
 * @param configPath The servers config.
 * @param options Install folder, per-server timeout (ms), and the task name for progress lines.
 * @param io Environment handed to the servers and the progress sink. @default {denoFlowIo()}
 * @returns The corpus of every server that answered, the servers that failed with their cause,
 *   and the SHA-256 of the config's bytes.
 * @throws {RangeError} When the config cannot be read or lists no server.
 */
export async function captureCatalog(
  configPath: string,
  options: { readonly installDir: string; readonly timeoutMs?: number; readonly task: string },
  io: Pick<FlowIo, "env" | "progress"> = denoFlowIo(),
): Promise<{ corpus: Corpus; failed: FailedServer[]; configSha256: string }> {
  let text: string;
  let configSha256: string;
  try {
    const bytes = await Deno.readFile(configPath);
    text = new TextDecoder().decode(bytes);
    configSha256 = await sha256Hex(bytes);
  } catch (error) {
    throw new InputFileError(
      configPath,
      `Cannot read servers config "${configPath}": ${(error as Error).message}`,
    );
  }
  const config = parseServersConfig(text, { source: configPath });
  if (config.servers.length === 0) {
    throw new RangeError(`Cannot capture servers as "${configPath}" lists no server`);
  }
  // Pasted launches (npx -y pkg, pnpm dlx, bunx, ...) are pinned and installed before the
  // offline start, as `deno task capture` does; uvx and failed installs fail at once.
  const prepared = await prepareCapture(config, {
    resolveVersion: (name, range) => resolveNpmVersion(name, range),
    install: (specs) => installPackages(specs, { installDir: options.installDir }),
  });
  const captured: ServerCaptureRecord[] = await captureServers(prepared.config, {
    env: io.env(),
    installDir: options.installDir,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    onProgress: (e) => {
      if (e.kind === "done") {
        io.progress(
          options.task,
          `${e.done}/${e.total} ${e.server}: ${
            e.record.outcome === "ok"
              ? `${e.record.tools.length} tools`
              : `${e.record.outcome}: ${e.record.message ?? ""}`
          }`,
        );
      }
    },
  });
  const records = mergePrepared(captured, prepared);
  const failed = records.filter((r) => r.outcome !== "ok").map((r) => ({
    server: r.server,
    outcome: r.outcome,
    message: r.message ?? "",
  }));
  const file = toCaptureFile(records, {
    id: "live",
    version: "1",
    source: { task: `tasks/${options.task}`, config: configPath },
  });
  const corpus = parseCatalog(stableJson(file), { path: `${configPath} (live)` });
  return { corpus, failed, configSha256 };
}
